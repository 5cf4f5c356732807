"""What the clock reports: facts for announcers, the board and the recognizer.

`ClockMachine.feed` returns these. `PositionConfirmed` is the hand-over to the
board: it carries the locked `StartPosition`, and whoever runs the recognizer
starts the game from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

if TYPE_CHECKING:
    from eboard960.position import StartPosition


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionShown:
    """The special timer shows `position`; `number` is in the clock's chosen numbering.

    `how` is "draw", "manual" (plus/minus) or "dice".
    """

    position: StartPosition
    number: int
    how: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionConfirmed:
    """The position is locked and the clock armed; None for a clock without a position."""

    position: StartPosition | None
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionDiscarded:
    """The shown position, or the dice entry under way, was dropped."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRequested:
    """Dice entry wants the next roll; `request` says which die and what for."""

    method: str
    request: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockStarted:
    """White's clock runs."""

    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCompleted:
    """`side` pressed its button after `used_ms`; `remaining_ms` includes any bonus."""

    side: chess.Color
    used_ms: int
    remaining_ms: int
    moves: int
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockPaused:
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockResumed:
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class FlagFell:
    """`side`'s time ran out at `at_ms` (clock milliseconds); reported once."""

    side: chess.Color
    at_ms: int
    t: float = 0.0


ClockEvent = (
    PositionShown | PositionConfirmed | PositionDiscarded | DiceRequested | ClockStarted
    | MoveCompleted | ClockPaused | ClockResumed | FlagFell
)
