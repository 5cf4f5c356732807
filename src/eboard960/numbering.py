"""The three numberings of the 960 start positions, and the tables behind them.

Scharnagl's scheme (0..959, standard chess = 518) is the one python-chess and
FIDE use; the DGT960 clock shows 1..960 with 960 standing for 0; Fritz 9
numbers 1..960 in its own order (standard chess = 359). The seeds print small
tables for doing the arithmetic by hand; every one of them is generated here
so the tests can compare them row by row.

Ranks are plain strings such as "BBQNNRKR" written from a1 to h1; checking
that a rank is legal is `StartPosition`'s job, not this module's.
"""

from __future__ import annotations

from itertools import combinations

from eboard960.errors import PositionError

COUNT = 960
STANDARD = 518
DARK_FILES = (0, 2, 4, 6)  # a1, c1, e1, g1
LIGHT_FILES = (1, 3, 5, 7)  # b1, d1, f1, h1
GAP = "-"  # king-or-rook in a skeleton, empty square in a table row


def _bishop_row(code: int) -> str:
    row = [GAP] * 8
    row[LIGHT_FILES[code % 4]] = "B"
    row[DARK_FILES[code // 4]] = "B"
    return "".join(row)


BISHOP_TABLE: tuple[str, ...] = tuple(_bishop_row(code) for code in range(16))
"""Scharnagl's bishop table: code = light bishop's index + 4 * dark bishop's index."""

N5N_TABLE: tuple[str, ...] = tuple(
    "".join("N" if i in pair else GAP for i in range(5)) for pair in combinations(range(5), 2)
)
"""The ten ways to put two knights on five squares, in Scharnagl's order."""


def _fill_king_and_rooks(pattern: str) -> str:
    pieces = iter("RKR")
    return "".join(next(pieces) if c == GAP else c for c in pattern)


KRN_TABLE: tuple[str, ...] = tuple(_fill_king_and_rooks(row) for row in N5N_TABLE)
"""The same ten codes with the king between the rooks filled in (seed 004's KRN codes)."""

SCHARNAGL_SKELETONS: tuple[tuple[int, str], ...] = tuple(
    sorted(
        (16 * queen + 96 * code, row[:queen] + "Q" + row[queen:])
        for code, row in enumerate(N5N_TABLE)
        for queen in range(6)
    )
)
"""Scharnagl's NQ-skeleton table: (number of the position with bishop code 0, skeleton)."""

_FRITZ_ORDER = str.maketrans("NQ-", "012")  # alphabetic with "-" last


def _fritz_columns() -> tuple[tuple[str, ...], ...]:
    skeletons = [skeleton for _, skeleton in SCHARNAGL_SKELETONS]
    return tuple(
        tuple(sorted(
            (s for s in skeletons if s[: s.index("Q")].count(GAP) == gaps),
            key=lambda s: s.translate(_FRITZ_ORDER),
        ))
        for gaps in range(4)
    )


FRITZ_COLUMNS = _fritz_columns()
FRITZ_SKELETONS: tuple[tuple[int, str], ...] = tuple(
    (1 + 240 * gaps + 16 * row, skeleton)
    for gaps, column in enumerate(FRITZ_COLUMNS)
    for row, skeleton in enumerate(column)
)
"""Fritz 9's NQ-skeleton table: columns by gaps left of the queen, rows alphabetic."""


def is_decimal(text: str) -> bool:
    """Digits 0-9 only: Python's isdigit() also takes "²" and "١٢", which int() refuses or reads."""
    return text.isascii() and text.isdigit()


def _check_range(n: int, low: int, high: int, what: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise PositionError(f"{what} must be a whole number, not {n!r}")
    if not low <= n <= high:
        raise PositionError(f"{what} {n} is out of range {low}..{high}")


def bishop_code(rank: str) -> int:
    """Index in the bishop table: where the light and the dark bishop stand."""
    light, dark = (
        next(i for i in files if rank[i] == "B") for files in (LIGHT_FILES, DARK_FILES)
    )
    return LIGHT_FILES.index(light) + 4 * DARK_FILES.index(dark)


def skeleton(rank: str) -> str:
    """The NQ-skeleton: bishops dropped, king and rooks written as '-'."""
    return "".join(GAP if c in "KR" else c for c in rank if c != "B")


def _assemble(code: int, skel: str) -> str:
    row = list(BISHOP_TABLE[code])
    rest = iter(_fill_king_and_rooks(skel))
    return "".join(c if c == "B" else next(rest) for c in row)


def scharnagl_rank(n: int) -> str:
    """The back rank of Scharnagl number `n` (0..959)."""
    _check_range(n, 0, COUNT - 1, "position number")
    rest, code = divmod(n, 16)
    knights, queen = divmod(rest, 6)
    row = N5N_TABLE[knights]
    return _assemble(code, row[:queen] + "Q" + row[queen:])


def scharnagl_number(rank: str) -> int:
    """Scharnagl number of a legal back rank."""
    skel = skeleton(rank)
    queen = skel.index("Q")
    knights = N5N_TABLE.index(skel.replace("Q", ""))
    return bishop_code(rank) + 16 * queen + 96 * knights


_FRITZ_BY_SKELETON = {skel: base for base, skel in FRITZ_SKELETONS}


def fritz_rank(n: int) -> str:
    """The back rank of Fritz 9 number `n` (1..960)."""
    _check_range(n, 1, COUNT, "Fritz 9 number")
    row, code = divmod(n - 1, 16)
    return _assemble(code, FRITZ_SKELETONS[row][1])


def fritz_number(rank: str) -> int:
    """Fritz 9 number (1..960) of a legal back rank."""
    return bishop_code(rank) + _FRITZ_BY_SKELETON[skeleton(rank)]


def dgt960_to_scharnagl(n: int) -> int:
    """The DGT960 clock counts 1..960 and shows 960 where Scharnagl has 0."""
    _check_range(n, 1, COUNT, "DGT960 number")
    return n % COUNT


def scharnagl_to_dgt960(n: int) -> int:
    """Inverse of `dgt960_to_scharnagl`."""
    _check_range(n, 0, COUNT - 1, "position number")
    return n or COUNT
