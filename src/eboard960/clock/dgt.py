"""A DGT 3000 or DGT XL, plugged into a DGT board, as the clock's face and buttons.

`DgtClockLink` is sans-IO: the board codec's events go in (`receive`), clock
events come out, and `outgoing(t)` hands out at most one clock command at a
time, because a DGT clock must acknowledge each command before the next (an
unanswered command is sent again after two seconds, three times at most).
While a position is on show the clock alternates its screens (number, back
rank). `run_dgt_clock` is the thin asyncio shell around it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from eboard960.clock.announce import (
    DGT_BUTTONS,
    Speaker,
    dgt_screen_commands,
    dgt_times_command,
    spoken,
)
from eboard960.clock.events import (
    ClockEvent,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    FlagFell,
    MoveCompleted,
    PositionConfirmed,
    PositionDiscarded,
    PositionShown,
)
from eboard960.clock.machine import ClockMachine
from eboard960.errors import ClockError
from eboard960.events import ButtonPressed
from eboard960.protocols.dgt_clock import (
    ClockAck,
    ClockBeep,
    ClockButtonRequest,
    ClockCommand,
    ClockEnd,
    ClockIcons,
    ClockSegments,
    ClockSetAndRun,
    ClockText,
    ClockVersionRequest,
)

if TYPE_CHECKING:
    from eboard960.board import Board

RESEND_AFTER = 2.0
RESENDS = 3
_TIME_CHANGES = (PositionConfirmed, ClockStarted, MoveCompleted, ClockPaused, ClockResumed,
                 FlagFell)


def command_text(command: ClockCommand) -> str:
    """A clock command in words, for a message a user reads (a dataclass repr is for developers)."""
    match command:
        case ClockText(text=text):
            return f"the text {text.strip()!r}"
        case ClockSegments():
            return f"the text {command.text().strip()!r}"
        case ClockSetAndRun():
            return "the times"
        case ClockEnd():
            return "the return to the times"
        case ClockIcons():
            return "the icons"
        case ClockBeep():
            return "a beep"
        case ClockButtonRequest():
            return "a button request"
        case ClockVersionRequest():
            return "a version request"
    return "a command"


class ClockOutbox:
    """Commands for a DGT clock, handed out one at a time: each waits for the clock's acknowledgement.

    An unanswered command goes again after `RESEND_AFTER` seconds, `RESENDS` times at most;
    a command never acknowledged is named in `problems` and the next one goes.
    """

    def __init__(self, problems: list[str] | None = None) -> None:
        self.problems = problems if problems is not None else []
        self._queue: deque[ClockCommand] = deque()
        self._waiting: ClockCommand | None = None
        self._sent_at = 0.0
        self._resends = 0

    def put(self, commands: Iterable[ClockCommand]) -> None:
        self._queue.extend(commands)

    def acknowledged(self) -> None:
        """The clock answered the command sent last."""
        self._waiting = None

    def outgoing(self, t: float) -> list[ClockCommand]:
        """The command to send now, if the clock is ready for one (else nothing)."""
        if self._waiting is not None:
            if t - self._sent_at < RESEND_AFTER:
                return []
            if self._resends >= RESENDS:
                self.problems.append(f"the DGT clock never acknowledged {command_text(self._waiting)}")
                self._waiting = None
            else:
                self._resends += 1
                self._sent_at = t
                return [self._waiting]
        if not self._queue:
            return []
        self._waiting, self._sent_at, self._resends = self._queue.popleft(), t, 0
        return [self._waiting]


class DgtClockLink:
    """Joins a `ClockMachine` to a DGT clock; `problems` collects refused presses."""

    def __init__(
        self,
        machine: ClockMachine,
        *,
        kind: str = "3000",
        white_side: str = "left",
        screen_seconds: float = 1.5,
    ) -> None:
        self.machine = machine
        self.kind = kind
        self.white_side = white_side
        self.screen_seconds = screen_seconds
        self.problems: list[str] = []
        self._outbox = ClockOutbox(self.problems)
        self._screens: list[ClockCommand] = []
        self._next_screen_at: float | None = None
        self._screen_index = 0

    def receive(self, events: Iterable[object], t: float) -> list[ClockEvent]:
        """Board events in (acks, lever and button presses); the clock's events out."""
        out: list[ClockEvent] = []
        for event in events:
            if isinstance(event, ClockAck) and event.command is not None:
                self._outbox.acknowledged()
            elif isinstance(event, ButtonPressed) and event.button in DGT_BUTTONS:
                out += self.press(DGT_BUTTONS[event.button], event.t)
        return out + self.tick(t)

    def press(self, button: str, t: float) -> list[ClockEvent]:
        """A clock button pressed here or on the clock; a refusal lands in `problems`."""
        try:
            out = self.machine.press(button, t)
        except ClockError as error:
            self.problems.append(str(error))
            return []
        self._follow(out, t)
        return out

    def tick(self, t: float) -> list[ClockEvent]:
        """Time passes: flags, and the next screen of a position on show."""
        out = self.machine.tick(t)
        self._follow(out, t)
        if self._next_screen_at is not None and t >= self._next_screen_at and self._screens:
            self._screen_index = (self._screen_index + 1) % len(self._screens)
            self._outbox.put([self._screens[self._screen_index]])
            self._next_screen_at = t + self.screen_seconds
        return out

    def outgoing(self, t: float) -> list[ClockCommand]:
        """The command to send now, if the clock is ready for one (else nothing)."""
        return self._outbox.outgoing(t)

    def _follow(self, events: list[ClockEvent], t: float) -> None:
        """Queue what the clock face must show after `events`."""
        for event in events:
            if isinstance(event, PositionShown):
                self._screens = dgt_screen_commands(event.position, event.number, self.kind)
                self._screen_index = 0
                self._outbox.put([self._screens[0]])
                self._next_screen_at = t + self.screen_seconds
            elif isinstance(event, PositionConfirmed | PositionDiscarded):
                self._screens, self._next_screen_at = [], None
                self._outbox.put([ClockEnd()])
            if isinstance(event, _TIME_CHANGES):
                self._outbox.put(dgt_times_command(self.machine.reading(t), white_side=self.white_side))


async def serve_dgt_clock(
    link: DgtClockLink,
    board: Board,
    report: Callable[[list[ClockEvent]], None],
    *,
    special: bool = False,
    interval: float = 0.05,
) -> None:
    """Run `link` over an opened `Board` until the board's event stream ends or we are cancelled."""
    import asyncio

    if special:
        report(link.press("draw", board.now()))

    async def pump() -> None:
        while True:
            report(link.tick(board.now()))
            for command in link.outgoing(board.now()):
                board.send(command)
            await asyncio.sleep(interval)

    pumping = asyncio.create_task(pump())
    try:
        async for event in board:
            report(link.receive([event], board.now()))
            for command in link.outgoing(board.now()):
                board.send(command)
    finally:
        pumping.cancel()


def run_dgt_clock(
    machine: ClockMachine,
    port: str,
    *,
    kind: str = "3000",
    white_side: str = "left",
    speaker: Speaker | None = None,
    special: bool = False,
) -> int:
    """Drive a DGT clock through the DGT board on `port` until interrupted (Ctrl-C)."""
    import asyncio

    from eboard960.board import Board
    from eboard960.clock.tui import describe
    from eboard960.protocols.dgt import DgtCodec
    from eboard960.transport import check_opens
    from eboard960.transport.serial import SerialTransport

    link = DgtClockLink(machine, kind=kind, white_side=white_side)

    def report(events: list[ClockEvent]) -> None:
        for event in events:
            print(describe(event, on_dgt=True), flush=True)
            if isinstance(event, PositionShown) and speaker is not None:
                speaker.say(spoken(event.position, event.number))
        while link.problems:
            print(f"refused: {link.problems.pop(0)}", flush=True)

    async def serve() -> None:
        await check_opens(SerialTransport(port, protocol="dgt"))
        board = Board(lambda: DgtCodec(white_side=white_side),
                      lambda: SerialTransport(port, protocol="dgt"))
        async with board:
            await serve_dgt_clock(link, board, report, special=special)

    asyncio.run(serve())
    return 0
