"""A fair draw of a start position, and the number sets a draw can exclude.

The randomness is injected: by default the operating system's CSPRNG
(`secrets.SystemRandom`), so nobody can predict or replay a tournament draw;
a seed gives a `random.Random` for runs that must repeat (tests, demos).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence

from eboard960.errors import PositionError
from eboard960.numbering import COUNT, is_decimal
from eboard960.position import StartPosition


def draw(
    *,
    exclude: Iterable[int] = (),
    seed: int | str | bytes | None = None,
    rng: random.Random | None = None,
) -> StartPosition:
    """Draw one of the 960 positions, uniformly among those not excluded."""
    if seed is not None and rng is not None:
        raise PositionError("give a seed or a random source, not both")
    if isinstance(seed, str):  # as random.Random encodes it, but a byte from a non-UTF-8 argv is no crash
        seed = seed.encode("utf-8", "surrogateescape")
    if rng is None:
        rng = secrets.SystemRandom() if seed is None else random.Random(seed)
    return StartPosition.from_number(rng.choice(allowed_numbers(exclude)))


def allowed_numbers(exclude: Iterable[int] = ()) -> Sequence[int]:
    """The numbers a draw may give, in order: all 960 but the excluded ones (each checked)."""
    excluded = frozenset(exclude)
    outside = sorted(n for n in excluded if not 0 <= n < COUNT)
    if outside:
        raise PositionError(f"excluded number {outside[0]} is out of range 0..{COUNT - 1}")
    allowed = tuple(n for n in range(COUNT) if n not in excluded) if excluded else range(COUNT)
    if not allowed:
        raise PositionError(f"the exclusion set excludes all {COUNT} positions")
    return allowed


def parse_number_set(text: str) -> frozenset[int]:
    """Read "518,12" or ranges like "0-99,518" into a set of position numbers."""
    numbers: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        low, sep, high = part.partition("-")
        if not is_decimal(low.strip()) or (sep and not is_decimal(high.strip())):
            raise PositionError(f"bad position number or range {part!r} (want e.g. 518 or 0-99)")
        first, last = int(low), int(high) if sep else int(low)
        if first > last:
            raise PositionError(f"range {part!r} runs backwards")
        if last >= COUNT:
            raise PositionError(f"position number {last} is out of range 0..{COUNT - 1}")
        numbers.update(range(first, last + 1))
    return frozenset(numbers)
