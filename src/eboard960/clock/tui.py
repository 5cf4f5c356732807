"""The terminal clock: a screen readable across a table, and keys as the clock's buttons.

`render` is pure (machine and time in, lines out) so tests can read the screen
without a terminal; `run` owns the terminal: cbreak mode, restored on exit,
and a `select` loop that redraws ten times a second without busy polling.
"""

from __future__ import annotations

import os
import re
import select
import sys
import termios
import time
import tty
from collections.abc import Callable
from typing import TextIO

import chess

from eboard960.clock.announce import Speaker, spoken, symbols
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
from eboard960.clock.machine import ClockMachine, Mode
from eboard960.clock.timecontrol import controls_text
from eboard960.errors import ClockError
from eboard960.position import StartPosition

# A 5-row block font: digits are 3 cells wide, ':' and '.' one.
_FONT = {
    "0": ["███", "█ █", "█ █", "█ █", "███"],
    "1": ["  █", "  █", "  █", "  █", "  █"],
    "2": ["███", "  █", "███", "█  ", "███"],
    "3": ["███", "  █", "███", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"],
    "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"],
    "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"],
    "9": ["███", "█ █", "███", "  █", "███"],
    ":": [" ", "█", " ", "█", " "],
    ".": [" ", " ", " ", " ", "█"],
}
FONT_ROWS = 5

KEYS: dict[str, str] = {
    "z": "white", "m": "black", " ": "pause", "d": "draw", "c": "confirm", "+": "plus",
    "=": "plus", "-": "minus", "b": "back", "\x1b": "back", "f": "forward",
}
HELP = ("z white  m black  space pause/start  d draw  c confirm  +/- step  b back  "
        "x dice  q quit")
DICE_HELP = "type the roll, Enter keys it in  Backspace erases  Esc abandons the entry"
"""During dice entry every letter and digit is part of a roll (a card may be q or bN, a file b),
so only Esc and Backspace act, and q quits once the entry is over."""
ERASE = ("\x7f", "\b")
_KEY = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1bO.|.", re.DOTALL)
"""One key in what the terminal sent: an arrow's escape sequence is one key (and means nothing
here), so it cannot pass for Esc followed by letters."""


def big(text: str) -> list[str]:
    """`text` (digits, ':' and '.') in the block font, one string per row."""
    return [" ".join(_FONT[c][row] for c in text) for row in range(FONT_ROWS)]


def clock_text(ms: int) -> str:
    """H:MM:SS from an hour up, M:SS from 20 s up, then S.t (tenths) for the last seconds."""
    if ms >= 3_600_000:
        hours, rest = divmod(ms // 1000, 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    if ms >= 20_000:
        return f"{ms // 60_000}:{ms // 1000 % 60:02d}"
    return f"{ms // 1000}.{ms // 100 % 10}"


def render(machine: ClockMachine, t: float, *, status: str = "", width: int = 80) -> list[str]:
    """The whole screen as lines (no escape codes)."""
    reading = machine.reading(t)
    flagged = {flag.side for flag in reading.flags}
    columns = []
    for side in (chess.WHITE, chess.BLACK):
        name = chess.COLOR_NAMES[side].upper()
        marker = " <- to move" if reading.started and reading.to_move == side else ""
        flag = "  FLAG" if side in flagged else ""
        moves = reading.white_moves if side == chess.WHITE else reading.black_moves
        columns.append([f"{name}{marker}{flag}", *big(clock_text(reading.remaining(side))),
                        f"moves {moves}"])
    half = width // 2
    control = controls_text(machine.clock.control(chess.WHITE), machine.clock.control(chess.BLACK))
    lines = [f"eboard960 clock   {control}   mode: {machine.state.value}", ""]
    lines += [left.ljust(half) + right for left, right in zip(*columns, strict=True)]
    lines.append("")
    if reading.delay_left_ms:
        lines.append(f"delay {reading.delay_left_ms / 1000:.1f} s")
    lines += _position_lines(machine)
    lines += ["", DICE_HELP if machine.state is Mode.DICE else HELP, f"> {status}" if status else ""]
    return [line[:width] for line in lines]


def _position_lines(machine: ClockMachine) -> list[str]:
    if machine.state is Mode.DICE:
        return [f"dice entry ({machine.special.dice_method}): {machine.special.dice_request}"]
    position = machine.shown
    if position is None:
        return ["no position yet: d draws one, +/- set one by number"]
    number = machine.special.shown_number(position)
    state = "locked" if machine.position is not None else "press c to confirm, d to redraw"
    return [f"Position {number}   {symbols(position)}   {position.rank}   ({state})"]


class TerminalClock:
    """Keys in, screen out; the machine decides everything."""

    def __init__(
        self,
        machine: ClockMachine,
        *,
        speaker: Speaker | None = None,
        dice_method: str | None = None,
        on_event: Callable[[ClockEvent], None] | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.machine = machine
        self.speaker = speaker
        self.dice_method = dice_method
        self.on_event = on_event
        self._now = now
        self._t0 = now()
        self.status = (speaker.note or "") if speaker else ""
        self._typed = ""
        self._draws = 0  # draws since the last confirm or discard, shown so the hall sees redraws
        self.done = False

    def t(self) -> float:
        return self._now() - self._t0

    def key(self, char: str) -> None:
        """Handle one key press."""
        try:
            self._key(char)
        except ClockError as error:
            self.status = str(error)

    def _key(self, char: str) -> None:
        if self.machine.state is Mode.DICE and char.isascii() and char.isalnum():
            self._typed += char
            self.status = f"roll: {self._typed} (Enter to key it in)"
        elif self.machine.state is Mode.DICE and char in ERASE:
            self._typed = self._typed[:-1]
            self.status = f"roll: {self._typed} (Enter to key it in)"
        elif self.machine.state is Mode.DICE and char in ("\r", "\n") and self._typed:
            typed, self._typed = self._typed, ""
            self._handle(self.machine.roll(typed, self.t()))
        elif char == "q":
            self.done = True
        elif char == "x":
            if self.dice_method is None:
                raise ClockError("dice entry needs --dice METHOD")
            self._handle(self.machine.dice(self.dice_method, self.t()))
        elif char in KEYS:
            self._typed = ""
            self._handle(self.machine.press(KEYS[char], self.t()))

    def tick(self) -> None:
        self._handle(self.machine.tick(self.t()))

    def _handle(self, events: list[ClockEvent]) -> None:
        for event in events:
            self.status = describe(event)
            if isinstance(event, PositionShown) and event.how == "draw":
                self._draws += 1
                self.status = f"draw #{self._draws}: position {event.number} {event.position.rank}"
            elif isinstance(event, PositionConfirmed | PositionDiscarded):
                self._draws = 0
            if isinstance(event, PositionShown) and self.speaker is not None:
                self.speaker.say(spoken(event.position, event.number))
            if self.on_event is not None:
                self.on_event(event)

    def screen(self, width: int = 80) -> list[str]:
        return render(self.machine, self.t(), status=self.status, width=width)

    def run(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
        """Drive the clock from the terminal until q; the terminal is restored however it ends."""
        try:
            fd = stdin.fileno()
        except (OSError, ValueError):  # io.UnsupportedOperation is both
            fd = -1
        if fd < 0 or not os.isatty(fd):
            raise ClockError("the terminal clock needs a terminal (stdin is not a tty)")
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            stdout.write("\x1b[?25l\x1b[2J")
            while not self.done:
                self.tick()
                width = os.get_terminal_size(stdout.fileno()).columns if stdout.isatty() else 80
                stdout.write("\x1b[H" + "".join(line + "\x1b[K\n" for line in self.screen(
                    width)) + "\x1b[J")
                stdout.flush()
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    for key in _KEY.findall(os.read(fd, 64).decode(errors="replace")):
                        self.key(key)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            stdout.write("\x1b[?25h\n")
            stdout.flush()
            if self.speaker is not None:
                self.speaker.stop()
        return 0


_STARTS = {False: "black (m) or space", True: "black's side of the lever or play/pause"}
"""What starts white's clock: keys on the terminal, the DGT clock's own buttons with `--dgt`."""
_RESUMES = {False: "space", True: "play/pause"}


def describe(event: ClockEvent, *, on_dgt: bool = False) -> str:
    """One line for the status bar or a log; `on_dgt` names the DGT clock's buttons, not keys."""
    match event:
        case PositionShown(position=position, number=number, how=how):
            return f"{how}: position {number} {position.rank}"
        case PositionConfirmed(position=None):
            return f"clock armed: {_STARTS[on_dgt]} starts white's clock"
        case PositionConfirmed(position=StartPosition() as position):  # None is the case above
            return f"position {position.rank} locked: {_STARTS[on_dgt]} starts white's clock"
        case PositionDiscarded():
            return "position discarded"
        case DiceRequested(request=request):
            return f"dice: {request}"
        case ClockStarted():
            return "white's clock runs"
        case MoveCompleted(side=side, used_ms=used, moves=moves):
            return f"{chess.COLOR_NAMES[side]} move {moves} took {used / 1000:.1f} s"
        case ClockPaused():
            return f"paused: {_RESUMES[on_dgt]} resumes"
        case ClockResumed():
            return "running"
        case FlagFell(side=side):
            return f"{chess.COLOR_NAMES[side]}'s flag fell"
    return ""
