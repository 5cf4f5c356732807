"""The asyncio shell of `eboard960 play`: board, session, journal, display, engine and drivers.

One task reads the board's events and feeds them to the session; one ticks
ten times a second (auto-press, flags, the clock display); a driver makes
moves (the scripted demo, the keyboard, or a test); the engine answers in a
task of its own. Every effect the session returns is carried out here and
only here: journal records, the PGN beside the journal, LEDs, messages.

Times on the journal's axis are rounded to milliseconds before the session
sees them, as the journal stores them, so a resumed session recomputes the
very same clock.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import dataclasses
import os
import termios
import tty
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Protocol, TextIO

import chess

from eboard960.board import Board
from eboard960.clock.announce import dgt_times_command
from eboard960.clock.core import ms_from_seconds
from eboard960.clock.dgt import ClockOutbox
from eboard960.commands import SetLeds
from eboard960.emulators.hand import hand_steps
from eboard960.errors import Eboard960Error
from eboard960.events import LinkChanged, PieceLifted, PiecePlaced
from eboard960.play.demo import demo_moves
from eboard960.play.engine import EngineOpponent
from eboard960.play.errors import PlayError
from eboard960.play.journal import Journal
from eboard960.play.session import (
    Effect,
    EngineTurn,
    GameChanged,
    JournalEvent,
    JournalNote,
    PlaySession,
    Said,
    View,
)
from eboard960.play.virtual import HELP, VirtualBoard, parse_command
from eboard960.protocols.dgt_clock import ClockAck, ClockTimes
from eboard960.recognizer import Mode
from eboard960.replay import SQUARE_EVENTS

TICK = 0.1
SHOWN_TIMEOUT = 5.0

Driver = Callable[["Runner"], Awaitable[None]]


class Display(Protocol):
    """What the runner needs of a display (`eboard960.play.view`)."""

    redraws: bool  # True: the display draws the line being typed itself

    def say(self, text: str) -> None: ...

    def show(self, view: View) -> None: ...

    def typing(self, text: str) -> None: ...

    def close(self) -> None: ...


class Runner:
    """Joins a session to a connected board; `run(driver)` plays until the driver returns."""

    def __init__(
        self,
        session: PlaySession,
        board: Board,
        display: Display,
        *,
        journal: Journal | None = None,
        virtual: VirtualBoard | None = None,
        engine: EngineOpponent | None = None,
        offset: float = 0.0,
        white_side: str = "left",
    ) -> None:
        self.session = session
        self.white_side = white_side
        """The side of a DGT clock on the board that White presses, and where White's time is shown."""
        self.board = board
        self.display = display
        self.journal = journal
        self.virtual = virtual
        self.engine = engine
        self.offset = offset
        self.received: Counter[str] = Counter()
        """How many events of each kind the board has sent (square events, clock times, ...)."""
        self._changed = asyncio.Event()
        self._engine_task: asyncio.Task[None] | None = None
        self._failure: BaseException | None = None
        self.clock_face: ClockOutbox | None = None
        """Commands for a DGT clock on the board, once it has reported its times; None without one."""
        self._face_shows: tuple[object, ...] | None = None

    def now(self) -> float:
        """Seconds on the journal's time axis, to the millisecond."""
        return round(self.offset + self.board.now(), 3)

    # ---------------------------------------------------------------- effects

    def handle(self, effects: list[Effect]) -> None:
        game_changed = False
        for effect in effects:
            match effect:
                case JournalEvent(event=event):
                    if self.journal is not None:
                        self.journal.session_event(event)
                case JournalNote(t=t, text=text):
                    if self.journal is not None:
                        self.journal.note(t, text)
                case GameChanged():
                    game_changed = True
                case EngineTurn(board=position):
                    self._ask_engine(position)
                case Said(text=text):
                    self.display.say(text)
                case SetLeds():
                    self._send_leds(effect)
        if game_changed and self.journal is not None:
            # once per batch: a move that ends the game changes it twice, and every
            # write is the same text (the session is already past both), fsync'd
            self.journal.write_pgn(self.session.pgn_text())
        self._show_clock()
        self.display.show(self.session.view(self.now()))
        self._changed.set()

    def _show_clock(self) -> None:
        """A DGT clock on the board shows the session's clock: set again whenever a side starts or
        stops running (it counts down by itself in between), one command at a time as it acks."""
        clock, face = self.session.clock, self.clock_face
        if clock is None or face is None:
            return
        now = self.now()
        reading = clock.reading(ms_from_seconds(now))
        shows = (id(clock), reading.started, reading.running, reading.to_move,
                 reading.white_moves + reading.black_moves, len(reading.flags))
        if shows != self._face_shows:
            self._face_shows = shows
            face.put(dgt_times_command(reading, white_side=self.white_side))
        for command in face.outgoing(now):
            with contextlib.suppress(Eboard960Error):  # the link is down: it is set afresh on reconnection
                self.board.send(command)
        while face.problems:
            self.display.say(face.problems.pop(0))

    def _send_leds(self, command: SetLeds) -> None:
        with contextlib.suppress(Eboard960Error):  # a board without LEDs: nothing to light
            self.board.send(command)

    def _ask_engine(self, position: chess.Board) -> None:
        engine = self.engine
        if engine is None:
            return

        async def think() -> None:
            move = await engine.choose(position)
            if self.session.board.fen() == position.fen():  # not taken back meanwhile
                self.handle(self.session.engine_moved(move, self.now()))

        if self._engine_task is not None:
            self._engine_task.cancel()
        self._engine_task = asyncio.create_task(think(), name="eboard960 engine")
        self._engine_task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None and self._failure is None:
            self._failure = task.exception()
            self._changed.set()

    # ---------------------------------------------------------------- loops

    async def _consume(self) -> None:
        async for event in self.board:
            self.received[type(event).__name__] += 1
            if isinstance(event, LinkChanged):
                self.clock_face = None  # a clock that answers again after the reconnection is set afresh
            if isinstance(event, SQUARE_EVENTS):
                event = dataclasses.replace(event, t=round(self.offset + event.t, 3))
                self.handle(self.session.feed(event))
            elif isinstance(event, ClockTimes) and self.clock_face is None:
                self.clock_face, self._face_shows = ClockOutbox(), None
                self._show_clock()
            elif isinstance(event, ClockAck) and event.command is not None and self.clock_face is not None:
                self.clock_face.acknowledged()
                self._show_clock()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            self.handle(self.session.tick(self.now()))

    async def run(self, driver: Driver) -> None:
        """Play until `driver` returns (or a background task fails)."""
        self.board.start()
        tasks = [asyncio.create_task(self._consume()), asyncio.create_task(self._tick())]
        for task in tasks:
            task.add_done_callback(self._task_done)
        try:
            self.handle([])
            await driver(self)
            if self._failure is not None:
                raise self._failure
        finally:
            for pending in [*tasks, self._engine_task]:
                if pending is not None:
                    pending.cancel()
            # a task's own failure (a closed stdout, say) is raised above: it must not skip the closing
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.board.close()
            if self.journal is not None:
                self.journal.write_pgn(self.session.pgn_text())

    async def until(self, predicate: Callable[[], bool], timeout: float = SHOWN_TIMEOUT,
                    what: str = "the board") -> None:
        """Wait (without polling) until `predicate()` holds after some event or effect."""
        async def watch() -> None:
            while not predicate():
                if self._failure is not None:
                    raise self._failure
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(watch(), timeout)
        except TimeoutError:
            raise PlayError(f"timed out waiting for {what}") from None

    # ---------------------------------------------------------------- hands on the emulated board

    async def make_move(self, move: chess.Move, pace: float = 0.0) -> None:
        """A hand makes `move` on the emulated board, then presses the mover's clock.

        The move is made from the position the board shows (a move standing
        there but not yet pressed counts), so typing both sides' moves works.
        """
        if self.virtual is None:
            raise PlayError("only the emulated board can be moved from here")
        rec = self.session.recognizer
        shown = rec.expected
        plies = len(rec.board.move_stack) + (rec.open_move is not None)
        san = shown.san(move)
        for step in hand_steps(shown, move):
            await self.act(step)
            await asyncio.sleep(pace)

        def made() -> bool:
            committed = len(rec.board.move_stack)
            return committed > plies or (committed == plies and rec.open_move == move)

        await self.until(made, what=f"the board to show {san}")
        if len(rec.board.move_stack) == plies:
            self.handle(self.session.press(shown.turn, self.now()))

    async def act(self, step: PieceLifted | PiecePlaced) -> None:
        """A hand lifts or places a piece on the emulated board; returns once the session saw it."""
        if self.virtual is None:
            raise PlayError("only the emulated board can be moved from here")
        seen = self._square_events()
        self.virtual.act(step)
        await self.until(lambda: self._square_events() > seen, what="the board to report the hand")

    def _square_events(self) -> int:
        return self.received["PieceLifted"] + self.received["PiecePlaced"]

    async def ready(self) -> None:
        """Wait until the board has shown the start position."""
        await self.until(lambda: self.session.set_up, what="the board to be set up")


# -------------------------------------------------------------------- drivers

def demo_driver(pace: float) -> Driver:
    """The scripted demo game, continued from wherever the session stands (a resume)."""

    async def drive(runner: Runner) -> None:
        moves = demo_moves()
        done = runner.session.board.move_stack
        if done != moves[: len(done)]:
            raise PlayError("the journal's game is not the demo's game; resume it without --demo")
        await runner.ready()
        for move in moves[len(done):]:
            await runner.make_move(move, pace)
            await asyncio.sleep(pace)
        await runner.until(lambda: runner.session.recognizer.mode is Mode.GAME_OVER
                           or len(runner.session.board.move_stack) == len(moves), what="the last move")

    return drive


def keyboard_driver(stdin: TextIO) -> Driver:
    """Typed commands until 'quit' or the end of input."""

    async def drive(runner: Runner) -> None:
        display = runner.display
        lines = _LineReader(stdin, display.typing if display.redraws else None)
        try:
            runner.display.say(HELP)
            while (line := await lines.next()) is not None:
                if not line.strip():
                    continue
                try:
                    if not await _command(runner, line):
                        return
                except Eboard960Error as error:
                    runner.display.say(f"? {error}")
            if lines.failed is not None:  # e.g. under nohup, which leaves standard input write-only
                runner.display.say(f"? cannot read standard input ({lines.failed}): typed commands are off")
                if runner.virtual is None:  # a real board is played by hand, so the game goes on
                    await idle_driver(runner)
        finally:
            lines.close()

    return drive


async def _command(runner: Runner, line: str) -> bool:
    session = runner.session
    command = parse_command(line, session.recognizer.expected)  # a move standing there counts
    if command.action == "quit":
        return False
    if command.action == "help":
        runner.display.say(HELP)
    elif command.action == "press":
        runner.handle(session.press(session.board.turn, runner.now()))
    elif command.action == "resign":
        runner.handle(session.resign(command.side, runner.now()))
    elif command.action == "draw":
        runner.handle(session.agree_draw(runner.now()))
    elif runner.virtual is None:
        raise PlayError("a real board is moved by hand; at the keyboard only 'press', 'resign', 'draw', "
                        "'help' and 'quit' work")
    elif command.action == "move":
        assert command.move is not None  # parse_command sets it
        await runner.make_move(command.move)
    elif command.action == "lift":
        assert command.square is not None  # parse_command sets it
        await runner.act(PieceLifted(square=command.square))
    elif command.action == "place":
        assert command.square is not None  # parse_command sets it
        await runner.act(PiecePlaced(square=command.square, piece=command.piece))
    return True


class _LineReader:
    """Lines from a terminal, a pipe or a file, read without blocking the event loop.

    With `typing` and a terminal the reader edits the line itself (cbreak
    mode: no echo, a key at a time) and hands the line being typed to
    `typing`, so a screen that redraws every second never wipes what the
    player is typing. The terminal's settings are restored by `close`. Bytes that
    are not UTF-8 become U+FFFD, so such a line is refused as a command like any
    other. Input that cannot be read ends as at its end, with the reason in `failed`.
    """

    def __init__(self, stream: TextIO, typing: Callable[[str], None] | None) -> None:
        self._fd = stream.fileno()
        self._typing = typing
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._buffer = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # keeps half a character
        self.failed: str | None = None
        self._loop = asyncio.get_running_loop()
        self._terminal = termios.tcgetattr(self._fd) if typing and stream.isatty() else None
        if self._terminal is not None:
            tty.setcbreak(self._fd)
        self._blocking = os.get_blocking(self._fd)
        os.set_blocking(self._fd, False)
        self._ended = False
        try:
            self._loop.add_reader(self._fd, self._readable)
        except PermissionError:  # a regular file or /dev/null: epoll refuses them, and they never block
            self._loop.call_soon(self._read_to_end)

    def _read_to_end(self) -> None:
        """Input that cannot be watched is read whole at once, then ends as a pipe does."""
        while not self._ended:
            self._readable()

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self.failed = error.strerror or str(error)
            self._end()
            return
        for char in self._decoder.decode(data, final=not data):
            self._key(char)
        if not data:
            self._end()

    def _key(self, char: str) -> None:
        if char in "\r\n":
            self._queue.put_nowait(self._buffer)
            self._buffer = ""
        elif char in "\x7f\x08":
            self._buffer = self._buffer[:-1]
        elif char == "\x04" and self._terminal is not None and not self._buffer:
            self._end()
            return
        elif char.isprintable():
            self._buffer += char
        if self._typing is not None and self._terminal is not None:
            self._typing(self._buffer)

    def _end(self) -> None:
        self._ended = True
        if self._buffer:
            self._queue.put_nowait(self._buffer)
            self._buffer = ""
        self._queue.put_nowait(None)
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self._fd)

    async def next(self) -> str | None:
        return await self._queue.get()

    def close(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self._fd)
        with contextlib.suppress(OSError):
            os.set_blocking(self._fd, self._blocking)
            if self._terminal is not None:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._terminal)


async def idle_driver(runner: Runner) -> None:
    """No driver: play until interrupted."""
    await asyncio.Event().wait()
