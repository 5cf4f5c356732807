"""The clock's modes and buttons: one `transitions` table, nothing else sets the mode.

Feed it `ButtonPressed` events (or call `press(button, t)`); it returns clock
events. Every (mode, trigger) pair has a row: either it does something, or
it refuses with a `ClockError` that says why; a refusal changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import cast

import chess
from transitions import EventData, Machine

from eboard960.clock.core import Clock, ClockReading, ms_from_seconds
from eboard960.clock.events import (
    ClockEvent,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    DiceRequested,
    FlagFell,
    MoveCompleted,
    PositionConfirmed,
    PositionDiscarded,
    PositionShown,
)
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import TimeControl
from eboard960.errors import ClockError
from eboard960.events import ButtonPressed
from eboard960.position import StartPosition


class Mode(enum.Enum):
    SETUP = "setup"  # nothing chosen; the clock is set but not armed
    SPECIAL = "special"  # a position is shown, not yet confirmed
    DICE = "dice"  # the arbiter is keying in dice rolls
    READY = "ready"  # confirmed and armed: waiting for the first press
    RUNNING = "running"
    PAUSED = "paused"


S = Mode
ALL = list(Mode)
BUTTON_TRIGGERS = ("white", "black", "pause", "draw", "confirm", "plus", "minus", "back",
                   "forward")
TRIGGERS = (*BUTTON_TRIGGERS, "dice_entry", "dice_roll", "dice_done")

# trigger, source, dest (None: stay), conditions, after
TRANSITIONS: list[list] = [
    # special timer: draw, redraw, manual setting, confirm
    ["draw", [S.SETUP, S.SPECIAL], S.SPECIAL, None, "show_draw"],
    ["plus", [S.SETUP, S.SPECIAL], S.SPECIAL, None, "step_up"],
    ["minus", [S.SETUP, S.SPECIAL], S.SPECIAL, None, "step_down"],
    ["confirm", S.SPECIAL, S.READY, None, "lock_position"],
    ["confirm", S.SETUP, S.READY, None, "arm_without_position"],
    ["back", [S.SPECIAL, S.DICE], S.SETUP, None, "discard_position"],
    # dice entry
    ["dice_entry", [S.SETUP, S.SPECIAL], S.DICE, "method_usable", "begin_dice"],
    ["dice_entry", [S.SETUP, S.SPECIAL], None, None, "refuse_method"],
    ["dice_roll", S.DICE, None, None, "feed_roll"],
    ["dice_done", S.DICE, S.SPECIAL, None, "show_dice_position"],
    # starting: black's press (or the run button) starts white's clock
    ["black", [S.SETUP, S.READY], S.RUNNING, None, "start_clock"],
    ["pause", [S.SETUP, S.READY], S.RUNNING, None, "start_clock"],
    # play
    ["white", S.RUNNING, None, "white_to_move", "end_move"],
    ["black", S.RUNNING, None, "black_to_move", "end_move"],
    ["white", S.RUNNING, None, None, "refuse_not_to_move"],
    ["black", S.RUNNING, None, None, "refuse_not_to_move"],
    ["pause", S.RUNNING, S.PAUSED, None, "pause_clock"],
    ["pause", S.PAUSED, S.RUNNING, None, "resume_clock"],
    # refusals
    ["white", [S.SETUP, S.READY], None, None, "refuse_white_first"],
    [["white", "black", "pause"], S.SPECIAL, None, None, "refuse_unconfirmed"],
    [["white", "black"], S.PAUSED, None, None, "refuse_paused"],
    [["white", "black", "pause", "draw", "plus", "minus", "confirm", "dice_entry"], S.DICE, None,
     None, "refuse_dice_pending"],
    [["draw", "plus", "minus", "dice_entry"], [S.READY, S.RUNNING, S.PAUSED], None, None,
     "refuse_locked"],
    ["confirm", [S.READY, S.RUNNING, S.PAUSED], None, None, "refuse_nothing_to_confirm"],
    ["back", [S.SETUP, S.READY, S.RUNNING, S.PAUSED], None, None, "refuse_back"],
    ["forward", ALL, None, None, "refuse_forward"],
    [["dice_roll", "dice_done"], [s for s in Mode if s is not S.DICE], None, None, "refuse_no_dice"],
]


class ClockMachine:
    """A chess clock with a Chess960 special timer; the mode is `state` (a `Mode`)."""

    state: Mode
    # bound by `transitions` (declared without a value, which would stop it binding them)
    trigger: Callable[..., bool]
    dice_done: Callable[..., bool]

    def __init__(
        self,
        white: TimeControl,
        black: TimeControl | None = None,
        *,
        special: SpecialTimer | None = None,
    ) -> None:
        self.clock = Clock(white, black)  # every call passes the event's time
        self.special = special or SpecialTimer()
        self.position: StartPosition | None = None  # the confirmed position
        self._out: list[ClockEvent] = []
        self._reported_flags = 0
        self._last_ms = -(2**62)
        self.machine = Machine(
            model=self,
            states=Mode,
            initial=Mode.SETUP,
            transitions=[rule for row in TRANSITIONS for rule in _rules(*row)],
            auto_transitions=False,
            send_event=True,
            ignore_invalid_triggers=False,
        )

    # ----- inputs ---------------------------------------------------------------------

    def feed(self, event: ButtonPressed) -> list[ClockEvent]:
        """Handle a button event from a board, a clock or a keyboard."""
        return self.press(event.button, event.t)

    def press(self, button: str, t: float) -> list[ClockEvent]:
        if button not in BUTTON_TRIGGERS:
            raise ClockError(f"{button!r} is not a clock button (clock buttons: "
                             f"{', '.join(BUTTON_TRIGGERS)})")
        return self._fire(button, t)

    def dice(self, method: str, t: float) -> list[ClockEvent]:
        """Start dice entry for the uniform manual method `method`."""
        return self._fire("dice_entry", t, method=method)

    def roll(self, value: int | str, t: float) -> list[ClockEvent]:
        """Key in one roll (or toss, or card) of the dice entry under way."""
        return self._fire("dice_roll", t, value=value)

    def tick(self, t: float) -> list[ClockEvent]:
        """Report flags that fell by `t` (each once); call it as often as the display redraws."""
        self._report_flags(ms_from_seconds(t), t)
        return self._take()

    # ----- queries --------------------------------------------------------------------

    def reading(self, t: float) -> ClockReading:
        return self.clock.reading(ms_from_seconds(t))

    @property
    def shown(self) -> StartPosition | None:
        """What the special timer shows (the confirmed position once locked)."""
        return self.position or self.special.current

    # ----- guards ---------------------------------------------------------------------

    def method_usable(self, event: EventData) -> bool:
        return self.special.method_problem(event.kwargs["method"]) is None

    def white_to_move(self, event: EventData) -> bool:
        return self.clock.to_move == chess.WHITE

    def black_to_move(self, event: EventData) -> bool:
        return self.clock.to_move == chess.BLACK

    # ----- actions --------------------------------------------------------------------

    def show_draw(self, event: EventData) -> None:
        self._show(self.special.draw(), "draw", event)

    def step_up(self, event: EventData) -> None:
        self._show(self.special.step(+1), "manual", event)

    def step_down(self, event: EventData) -> None:
        self._show(self.special.step(-1), "manual", event)

    def lock_position(self, event: EventData) -> None:
        self.position = self.special.current
        self._out.append(PositionConfirmed(position=self.position, t=_t(event)))

    def arm_without_position(self, event: EventData) -> None:
        self._out.append(PositionConfirmed(position=None, t=_t(event)))

    def discard_position(self, event: EventData) -> None:
        self.special.discard()
        self._out.append(PositionDiscarded(t=_t(event)))

    def begin_dice(self, event: EventData) -> None:
        method = event.kwargs["method"]
        request = self.special.begin_dice(method)  # which sets special.dice_method to it
        self._out.append(DiceRequested(method=method, request=request, t=_t(event)))

    def feed_roll(self, event: EventData) -> None:
        if self.special.roll(event.kwargs["value"]) is not None:
            self.dice_done(t=_t(event))
        else:
            # in dice mode the special timer has a run under way: both are set
            self._out.append(DiceRequested(method=cast(str, self.special.dice_method),
                                           request=cast(str, self.special.dice_request), t=_t(event)))

    def show_dice_position(self, event: EventData) -> None:
        assert self.special.current is not None  # the roll that finished the dice entry set it
        self._show(self.special.current, "dice", event)

    def start_clock(self, event: EventData) -> None:
        self.clock.start(_ms(event))
        self._out.append(ClockStarted(t=_t(event)))

    def end_move(self, event: EventData) -> None:
        side = self.clock.to_move
        used = self.clock.press(side, _ms(event))
        self._report_flags(_ms(event), _t(event))
        self._out.append(MoveCompleted(
            side=side, used_ms=used, remaining_ms=self.clock.remaining(side, _ms(event)),
            moves=self.clock.moves(side), t=_t(event),
        ))

    def pause_clock(self, event: EventData) -> None:
        self.clock.pause(_ms(event))
        self._report_flags(_ms(event), _t(event))
        self._out.append(ClockPaused(t=_t(event)))

    def resume_clock(self, event: EventData) -> None:
        self.clock.resume(_ms(event))
        self._out.append(ClockResumed(t=_t(event)))

    # ----- refusals (each raises; the mode and the times stay as they were) ----------

    def refuse_not_to_move(self, event: EventData) -> None:
        mover = chess.COLOR_NAMES[self.clock.to_move]
        raise ClockError(f"{event.event.name} is not to move: it is {mover}'s turn")

    def refuse_method(self, event: EventData) -> None:
        raise ClockError(f"dice: {self.special.method_problem(event.kwargs['method'])}")

    def refuse_white_first(self, event: EventData) -> None:
        raise ClockError("white moves first: press black (or pause) to start white's clock")

    def refuse_unconfirmed(self, event: EventData) -> None:
        raise ClockError(f"{event.event.name}: confirm the position (or press back) first")

    def refuse_paused(self, event: EventData) -> None:
        raise ClockError(f"{event.event.name}: the clock is paused; press pause to resume")

    def refuse_dice_pending(self, event: EventData) -> None:
        raise ClockError(f"{event.event.name}: dice entry is under way; key in the rolls "
                         "or press back")

    def refuse_locked(self, event: EventData) -> None:
        if self.position is None:
            raise ClockError(f"{event.event.name}: the clock is armed without a position; "
                             "no position can be chosen now")
        raise ClockError(f"{event.event.name}: the position is locked once confirmed")

    def refuse_nothing_to_confirm(self, event: EventData) -> None:
        raise ClockError("confirm: the clock is already armed")

    def refuse_back(self, event: EventData) -> None:
        raise ClockError("back: there is no position to discard")

    def refuse_forward(self, event: EventData) -> None:
        raise ClockError("forward: the clock has no use for this button")

    def refuse_no_dice(self, event: EventData) -> None:
        raise ClockError(f"{event.event.name}: no dice entry is under way")

    # ----- helpers --------------------------------------------------------------------

    def _fire(self, trigger: str, t: float, **kwargs: object) -> list[ClockEvent]:
        now = ms_from_seconds(t)
        if now < self._last_ms:
            raise ClockError(f"{trigger}: time went backwards ({t} s is before the last press)")
        self._last_ms = now
        try:
            self.trigger(trigger, t=t, **kwargs)
        except ClockError:
            self._out.clear()
            raise
        return self._take()

    def _show(self, position: StartPosition, how: str, event: EventData) -> None:
        self._out.append(PositionShown(position=position, number=self.special.shown_number(
            position), how=how, t=_t(event)))

    def _report_flags(self, now_ms: int, t: float) -> None:
        flags = self.clock.flags(now_ms)
        for flag in flags[self._reported_flags:]:
            self._out.append(FlagFell(side=flag.side, at_ms=flag.at, t=t))
        self._reported_flags = len(flags)

    def _take(self) -> list[ClockEvent]:
        out, self._out = self._out, []
        return out


def _rules(trigger: str | list[str], source: Mode | list[Mode], dest: Mode | None,
           conditions: str | None, after: str) -> list[dict]:
    """One table row as `transitions` rules (a row may name several triggers)."""
    return [
        {"trigger": name, "source": source, "dest": dest, "conditions": conditions or [],
         "after": after}
        for name in ([trigger] if isinstance(trigger, str) else trigger)
    ]


def _t(event: EventData) -> float:
    return event.kwargs["t"]


def _ms(event: EventData) -> int:
    return ms_from_seconds(event.kwargs["t"])
