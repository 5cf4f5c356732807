"""Time controls: the stages of a game's time and the one-line syntax that names them.

Grammar (case-insensitive, spaces ignored)::

    controls := control ["," control]        white's control, then black's (time odds)
    control  := stage (":" stage)*
    stage    := ["G/"] minutes ["/" moves] [bonus]
    bonus    := ("+" | "d" | "s" | "u") seconds ["s"]

`minutes` and `seconds` are decimals that must come to whole milliseconds.
`+` is a Fischer increment, `d` a Bronstein delay, `s` or `u` a simple (US)
delay; a bonus of 0 seconds ("5+0", the usual way to write no increment) is
no bonus. A stage with `/moves` gives its time for that many moves; the next
stage's time is then added. A last stage with a move count repeats.
Time odds use "," because "/" already separates minutes from moves.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from decimal import Decimal

from eboard960.errors import ClockError

EXAMPLES = "5+3, 90/40+30:30+30s, 15d5, 15s5 or 5+3,3+2 for time odds"

_STAGE = re.compile(
    r"(?:G/)?(?P<minutes>\d+(?:\.\d+)?)(?:/(?P<moves>\d+))?"
    r"(?:(?P<kind>[+DSU])(?P<seconds>\d+(?:\.\d+)?)S?)?",
    re.IGNORECASE,
)


class Bonus(enum.Enum):
    """What a stage gives back per move."""

    NONE = ""
    FISCHER = "+"
    BRONSTEIN = "d"
    SIMPLE = "s"


_KINDS = {"+": Bonus.FISCHER, "d": Bonus.BRONSTEIN, "s": Bonus.SIMPLE, "u": Bonus.SIMPLE}


@dataclass(frozen=True, slots=True, kw_only=True)
class Stage:
    """`time_ms` for `moves` moves (None: the rest of the game), with a per-move bonus."""

    time_ms: int
    moves: int | None = None
    bonus: Bonus = Bonus.NONE
    bonus_ms: int = 0

    def __post_init__(self) -> None:
        if self.time_ms <= 0:
            raise ClockError("a stage needs a positive time")
        if self.moves is not None and self.moves <= 0:
            raise ClockError("a stage's move count must be positive")
        if self.bonus_ms < 0 or (self.bonus is Bonus.NONE) != (self.bonus_ms == 0):
            raise ClockError("a bonus needs a kind and a positive number of seconds")

    def text(self) -> str:
        out = _decimal_text(Decimal(self.time_ms) / 60_000)
        if self.moves is not None:
            out += f"/{self.moves}"
        if self.bonus is not Bonus.NONE:
            out += self.bonus.value + _decimal_text(Decimal(self.bonus_ms) / 1000)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeControl:
    """One side's stages, in order."""

    stages: tuple[Stage, ...]

    def __post_init__(self) -> None:
        if not self.stages:
            raise ClockError("a time control needs at least one stage")
        if any(stage.moves is None for stage in self.stages[:-1]):
            raise ClockError("only the last stage may run for the rest of the game")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse one side's control, e.g. "90/40+30:30+30s"."""
        compact = "".join(text.split())
        if not compact:
            raise ClockError(f"empty time control (examples: {EXAMPLES})")
        return cls(stages=tuple(_parse_stage(part, compact) for part in compact.split(":")))

    @property
    def initial_ms(self) -> int:
        return self.stages[0].time_ms

    def stage(self, index: int) -> Stage:
        """The stage in force after `index` completed stages (the last one repeats)."""
        return self.stages[min(index, len(self.stages) - 1)]

    def text(self) -> str:
        return ":".join(stage.text() for stage in self.stages)


def parse_time_controls(text: str) -> tuple[TimeControl, TimeControl]:
    """White's and black's controls; "5+3,3+2" gives black less time, "5+3" is even."""
    parts = text.split(",")
    if len(parts) > 2:
        raise ClockError(f"time odds take two controls, not {len(parts)}: {text!r}")
    white = TimeControl.parse(parts[0])
    return white, TimeControl.parse(parts[1]) if len(parts) == 2 else white


def controls_text(white: TimeControl, black: TimeControl) -> str:
    """A pair of controls as the screens name it: "5+3", or "5+3 vs 3+2" for time odds."""
    white_text, black_text = white.text(), black.text()
    return white_text if white_text == black_text else f"{white_text} vs {black_text}"


def _parse_stage(part: str, whole: str) -> Stage:
    match = _STAGE.fullmatch(part)
    if match is None:
        raise ClockError(f"{whole!r} is not a time control: cannot read {part!r} "
                         f"(examples: {EXAMPLES})")
    kind = match["kind"]
    bonus_ms = _milliseconds(match["seconds"], 1000, part) if kind else 0
    return Stage(
        time_ms=_milliseconds(match["minutes"], 60_000, part),
        moves=int(match["moves"]) if match["moves"] else None,
        bonus=_KINDS[kind.lower()] if bonus_ms else Bonus.NONE,
        bonus_ms=bonus_ms,
    )


def _milliseconds(number: str, scale: int, part: str) -> int:
    value = Decimal(number) * scale
    if value != value.to_integral_value():
        raise ClockError(f"{number!r} in {part!r} is not a whole number of milliseconds")
    return int(value)


def _decimal_text(value: Decimal) -> str:
    return format(value.normalize(), "f")
