"""`StartPosition`: one of the 960 Chess960 start positions as a value.

Everything else in the package that needs a start position (the recognizer,
the clock, the draw, the manual methods) passes this around; it converts to
every numbering and FEN flavour and to a python-chess board.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import chess

from eboard960 import numbering
from eboard960.errors import PositionError

_PIECES = Counter("KQRRBBNN")


def _rank_problem(rank: str) -> str | None:
    """Why `rank` is not a legal Chess960 back rank, or None."""
    if not isinstance(rank, str) or len(rank) != 8 or set(rank) - set(_PIECES):
        return "must be 8 letters from K, Q, R, B, N"
    if Counter(rank) != _PIECES:
        return "needs exactly one K, one Q, two R, two B and two N"
    first, second = (i for i, c in enumerate(rank) if c == "B")
    if (first - second) % 2 == 0:
        return (
            f"bishops on {chess.FILE_NAMES[first]}1 and {chess.FILE_NAMES[second]}1 "
            "stand on squares of the same colour"
        )
    left, right = (i for i, c in enumerate(rank) if c == "R")
    if not left < rank.index("K") < right:
        return f"king on {chess.FILE_NAMES[rank.index('K')]}1 is not between the rooks"
    return None


def _grid(rows: list[str]) -> str:
    lines = [f"{8 - i} {row}" for i, row in enumerate(rows)]
    return "\n".join([*lines, "  " + " ".join(chess.FILE_NAMES)])


@dataclass(frozen=True, slots=True)
class StartPosition:
    """A legal Chess960 back rank, such as "RNBQKBNR", written from a1 to h1."""

    rank: str

    def __post_init__(self) -> None:
        problem = _rank_problem(self.rank)
        if problem:
            raise PositionError(f"bad back rank {self.rank!r}: {problem}")

    def __str__(self) -> str:
        return self.rank

    # -- reading --------------------------------------------------------

    @classmethod
    def from_rank(cls, rank: str) -> StartPosition:
        """Read a back rank in either case, e.g. "bbqnnrkr"."""
        return cls(rank.strip().upper())

    @classmethod
    def from_number(cls, n: int) -> StartPosition:
        """Scharnagl's number 0..959 (518 is standard chess)."""
        return cls(numbering.scharnagl_rank(n))

    @classmethod
    def from_dgt960(cls, n: int) -> StartPosition:
        """The DGT960 clock's number 1..960 (960 is Scharnagl's 0)."""
        return cls.from_number(numbering.dgt960_to_scharnagl(n))

    @classmethod
    def from_fritz(cls, n: int) -> StartPosition:
        """Fritz 9's number 1..960 (359 is standard chess)."""
        return cls(numbering.fritz_rank(n))

    @classmethod
    def from_fen(cls, fen: str) -> StartPosition:
        """Any FEN flavour (X-FEN, Shredder-FEN, FRC-FEN) of a start position.

        A FEN with only the board part is taken as the start position it shows.
        """
        fen = fen.strip()
        fields = fen.split()
        try:
            board = chess.Board(fen, chess960=True)
        except ValueError as error:
            raise PositionError(f"bad FEN {fen!r}: {error}") from None
        number = board.chess960_pos(ignore_turn=True, ignore_castling=True)
        if number is None:
            raise PositionError(f"FEN {fen!r} is not a Chess960 start position")
        if len(fields) > 1 and board.turn != chess.WHITE:
            raise PositionError(f"FEN {fen!r}: a start position has white to move")
        if len(fields) > 2 and board.chess960_pos() is None:
            raise PositionError(
                f"FEN {fen!r}: a start position has all four castling rights, not {fields[2]!r}"
            )
        return cls.from_number(number)

    @classmethod
    def parse(cls, text: str) -> StartPosition:
        """A Scharnagl number, a back rank or a FEN, whichever `text` is."""
        text = text.strip()
        if numbering.is_decimal(text):
            return cls.from_number(int(text))
        if "/" in text:
            return cls.from_fen(text)
        return cls.from_rank(text)

    # -- numbers --------------------------------------------------------

    @property
    def number(self) -> int:
        """Scharnagl's number 0..959."""
        return numbering.scharnagl_number(self.rank)

    @property
    def dgt960_number(self) -> int:
        return numbering.scharnagl_to_dgt960(self.number)

    @property
    def fritz_number(self) -> int:
        return numbering.fritz_number(self.rank)

    @property
    def is_standard(self) -> bool:
        return self.rank == "RNBQKBNR"

    # -- writing --------------------------------------------------------

    def board(self) -> chess.Board:
        """A fresh python-chess board in Chess960 mode, white to move."""
        return chess.Board.from_chess960_pos(self.number)

    def xfen(self) -> str:
        """X-FEN: castling as KQkq (each side has one rook, so no file letters)."""
        return self.board().fen()

    def shredder_fen(self) -> str:
        """Shredder-FEN: castling rights named by the rooks' files, e.g. HAha."""
        return self.board().fen(shredder=True)

    def frc_fen(self) -> str:
        """Scharnagl's FRC-FEN (seed 004).

        FRC-FEN appends a rook's file only when the castling rook is not the
        outermost one on its side; a start position has one rook on each side
        of the king, so its FRC-FEN is always the plain KQkq form.
        """
        return self.xfen()

    def ascii(self) -> str:
        """The start board as letters with coordinates (white uppercase)."""
        return _grid(str(self.board()).splitlines())

    def unicode(self) -> str:
        """The start board as chess symbols with coordinates."""
        return _grid(self.board().unicode(empty_square="·").splitlines())
