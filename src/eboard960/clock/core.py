"""Clock arithmetic: two sides' time in integer milliseconds, nothing else.

No I/O and no wall clock: every call takes `at` (milliseconds on a monotonic
scale) or asks the injected `time_source`. A flag's fall is computed exactly
from the stored state, so it does not depend on how often anyone looks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import chess

from eboard960.clock.timecontrol import Bonus, Stage, TimeControl
from eboard960.errors import ClockError


def monotonic_ms() -> int:
    """The default time source."""
    return time.monotonic_ns() // 1_000_000


def ms_from_seconds(t: float) -> int:
    """An event's float seconds as the clock's integer milliseconds."""
    return round(t * 1000)


def side_name(side: chess.Color) -> str:
    return chess.COLOR_NAMES[side]


@dataclass(frozen=True, slots=True, kw_only=True)
class Flag:
    """`side`'s time ran out at `at` (milliseconds)."""

    side: chess.Color
    at: int


@dataclass(frozen=True, slots=True)
class _Press:
    """What a press changed, kept so that a takeback can undo it."""

    side: chess.Color
    base: int  # the side's time before the press
    spent: int  # what the move cost, bonuses apart
    stage_index: int
    stage_moves: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockReading:
    """Everything a display needs at one instant."""

    white_ms: int
    black_ms: int
    to_move: chess.Color
    started: bool
    running: bool
    white_moves: int
    black_moves: int
    delay_left_ms: int
    flags: tuple[Flag, ...]

    def remaining(self, side: chess.Color) -> int:
        return self.white_ms if side == chess.WHITE else self.black_ms

    @property
    def move_number(self) -> int:
        """The full-move number of the move being played."""
        return self.black_moves + 1


class Clock:
    """A two-sided chess clock; white moves first once `start` is called."""

    def __init__(
        self,
        white: TimeControl,
        black: TimeControl | None = None,
        *,
        time_source: Callable[[], int] = monotonic_ms,
    ) -> None:
        self._controls = {chess.WHITE: white, chess.BLACK: black or white}
        self._time_source = time_source
        self._base = {side: control.initial_ms for side, control in self._controls.items()}
        self._moves = {chess.WHITE: 0, chess.BLACK: 0}
        self._stage_index = {chess.WHITE: 0, chess.BLACK: 0}
        self._stage_moves = {chess.WHITE: 0, chess.BLACK: 0}
        self._to_move = chess.WHITE
        self._started = False
        self._running = False
        self._used = 0  # time the mover spent on this move before the current run
        self._since = 0  # when the current run began
        self._last = -(2**62)  # the latest command time seen
        self._flags: list[Flag] = []
        self._presses: list[_Press] = []

    # ----- commands -----------------------------------------------------------------

    def start(self, at: int | None = None) -> None:
        """Start white's first move."""
        now = self._now(at)
        if self._started:
            raise ClockError("the clock has already started")
        self._started = self._running = True
        self._since = now

    def press(self, side: chess.Color, at: int | None = None) -> int:
        """`side` completes its move; returns the milliseconds it spent (pauses excluded)."""
        now = self._now(at)
        if not self._running:
            state = "paused" if self._started else "not started"
            raise ClockError(f"the clock is {state}: {side_name(side)}'s press does nothing")
        if side != self._to_move:
            turn = side_name(self._to_move)
            raise ClockError(f"{side_name(side)} is not to move: it is {turn}'s turn")
        self._settle(now)
        used = self._used + now - self._since
        self._presses.append(_Press(side, self._base[side], self._spent(side, used), self._stage_index[side],
                                    self._stage_moves[side]))
        if not self._is_flagged(side):
            self._base[side] = self._after_move(side, used)
        self._count_move(side)
        self._to_move = not side
        self._used, self._since = 0, now
        return used

    def take_back(self, at: int | None = None) -> None:
        """The last move is taken back: its player is to move again. The time both players spent stays
        spent; the move's increment, and the time of a stage it completed, are given back, and the move
        no longer counts towards a stage."""
        now = self._now(at)
        if not self._running:
            raise ClockError("the clock is not running")
        if not self._presses:
            raise ClockError("no move to take back")
        self._settle(now)
        mover = self._to_move
        if not self._is_flagged(mover):
            self._base[mover] -= self._spent(mover, self._used + now - self._since)
        last = self._presses.pop()
        if not self._is_flagged(last.side):
            self._base[last.side] = last.base - last.spent
        self._moves[last.side] -= 1
        self._stage_index[last.side], self._stage_moves[last.side] = last.stage_index, last.stage_moves
        self._to_move = last.side
        self._used, self._since = 0, now

    def pause(self, at: int | None = None) -> None:
        now = self._now(at)
        if not self._running:
            raise ClockError("the clock is not running")
        self._settle(now)
        self._used += now - self._since
        self._running = False

    def resume(self, at: int | None = None) -> None:
        now = self._now(at)
        if not self._started or self._running:
            raise ClockError("the clock is not paused")
        self._running = True
        self._since = now

    # ----- queries -------------------------------------------------------------------

    @property
    def to_move(self) -> chess.Color:
        return self._to_move

    @property
    def started(self) -> bool:
        return self._started

    @property
    def running(self) -> bool:
        return self._running

    def moves(self, side: chess.Color) -> int:
        """Moves `side` has completed."""
        return self._moves[side]

    def control(self, side: chess.Color) -> TimeControl:
        return self._controls[side]

    def stage(self, side: chess.Color) -> Stage:
        """The stage `side` is playing in."""
        return self._controls[side].stage(self._stage_index[side])

    def remaining(self, side: chess.Color, at: int | None = None) -> int:
        """What `side`'s display shows at `at`: never below zero."""
        if side != self._to_move or not self._started:
            return self._base[side]
        used = self._used_at(self._time(at))
        stage = self.stage(side)
        charged = max(0, used - stage.bonus_ms) if stage.bonus is Bonus.SIMPLE else used
        return max(0, self._base[side] - charged)

    def delay_left(self, at: int | None = None) -> int:
        """Milliseconds of delay the mover has yet to use on this move (0 without delay)."""
        stage = self.stage(self._to_move)
        if stage.bonus not in (Bonus.SIMPLE, Bonus.BRONSTEIN) or not self._started:
            return 0
        return max(0, stage.bonus_ms - self._used_at(self._time(at)))

    def flags(self, at: int | None = None) -> tuple[Flag, ...]:
        """Flags fallen by `at`, the first first."""
        pending = self._pending_flag()
        if pending is not None and pending.at <= self._time(at):
            return (*self._flags, pending)
        return tuple(self._flags)

    def reading(self, at: int | None = None) -> ClockReading:
        now = self._time(at)
        return ClockReading(
            white_ms=self.remaining(chess.WHITE, now),
            black_ms=self.remaining(chess.BLACK, now),
            to_move=self._to_move,
            started=self._started,
            running=self._running,
            white_moves=self._moves[chess.WHITE],
            black_moves=self._moves[chess.BLACK],
            delay_left_ms=self.delay_left(now),
            flags=self.flags(now),
        )

    # ----- arithmetic ----------------------------------------------------------------

    def _after_move(self, side: chess.Color, used: int) -> int:
        stage = self.stage(side)
        base = self._base[side]
        if stage.bonus is Bonus.FISCHER:
            return base - used + stage.bonus_ms
        if stage.bonus is Bonus.BRONSTEIN:
            return base - used + min(used, stage.bonus_ms)
        if stage.bonus is Bonus.SIMPLE:
            return base - max(0, used - stage.bonus_ms)
        return base - used

    def _spent(self, side: chess.Color, used: int) -> int:
        """What `used` milliseconds of thinking cost `side`, before any increment: a delay is free."""
        stage = self.stage(side)
        if stage.bonus in (Bonus.BRONSTEIN, Bonus.SIMPLE):
            return max(0, used - stage.bonus_ms)
        return used

    def _count_move(self, side: chess.Color) -> None:
        self._moves[side] += 1
        self._stage_moves[side] += 1
        stage = self.stage(side)
        if stage.moves is not None and self._stage_moves[side] == stage.moves:
            self._stage_index[side] += 1
            self._stage_moves[side] = 0
            if not self._is_flagged(side):
                self._base[side] += self.stage(side).time_ms

    def _pending_flag(self) -> Flag | None:
        """When the mover's flag will fall if nobody presses or pauses."""
        side = self._to_move
        if not self._running or self._is_flagged(side):
            return None
        stage = self.stage(side)
        budget = self._base[side] + (stage.bonus_ms if stage.bonus is Bonus.SIMPLE else 0)
        return Flag(side=side, at=self._since + budget - self._used)

    def _settle(self, now: int) -> None:
        """Record the mover's flag if it fell by `now`, and leave its display at zero."""
        pending = self._pending_flag()
        if pending is not None and pending.at <= now:
            self._flags.append(pending)
            self._base[pending.side] = 0

    def _is_flagged(self, side: chess.Color) -> bool:
        return any(flag.side == side for flag in self._flags)

    def _used_at(self, now: int) -> int:
        return self._used + (now - self._since if self._running else 0)

    def _time(self, at: int | None) -> int:
        return self._time_source() if at is None else at

    def _now(self, at: int | None) -> int:
        """The time of a command; commands must not go back in time."""
        now = self._time(at)
        if now < self._last:
            raise ClockError(f"time went backwards: {now} ms after {self._last} ms")
        self._last = now
        return now
