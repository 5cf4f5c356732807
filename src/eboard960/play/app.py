"""Build a game from the command's options: session, journal (new or resumed), board, engine, driver.

The emulated board is the default. It is the DGT firmware model on an
in-memory cable, so the journal of an emulated game holds real DGT bytes
(header `board: dgt`, `emulated: true`) and replays like a capture of a
real board. On resume the emulated board is set up in the restored game's
position (a real board is where the players left it, and its first dump
resynchronises the recognizer).
"""

from __future__ import annotations

import asyncio
import datetime
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import chess

from eboard960.ble.profiles import PROFILES, profile_for
from eboard960.board import Board
from eboard960.capture import QUOTED
from eboard960.clock.timecontrol import TimeControl, parse_time_controls
from eboard960.commands import EnableUpdates, RequestBoard
from eboard960.errors import CaptureError, ClockError
from eboard960.play.demo import DEMO_START
from eboard960.play.engine import EngineOpponent, find_engine
from eboard960.play.errors import PlayError
from eboard960.play.journal import (
    Journal,
    new_journal,
    open_existing,
    read_journal,
    replay_into,
    reserve_free_path,
)
from eboard960.play.runner import Display, Driver, Runner, demo_driver, idle_driver, keyboard_driver
from eboard960.play.session import PlaySession
from eboard960.play.view import PlainDisplay, ScreenDisplay
from eboard960.play.virtual import VirtualBoard
from eboard960.protocols import codec_for
from eboard960.transport import Transport, check_opens

SERIAL_BOARDS = ("dgt", "chesslink")
BLE_BOARDS = tuple(PROFILES)
BOARDS = ("emulator", *dict.fromkeys(SERIAL_BOARDS + BLE_BOARDS))
SETTLE = 1.0
Connect = Callable[[], Transport]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayOptions:
    board: str = "emulator"
    port: str | None = None
    ble: str | None = None
    start: int = DEMO_START
    time: str | None = None
    engine: str | None = None
    level: int | None = None
    engine_side: chess.Color = chess.BLACK
    record: Path | None = None
    resume: Path | None = None
    demo: bool = False
    pace: float = 0.05
    keyboard: bool = True
    white_side: str = "left"  # the side of a DGT clock that White presses


def default_journal_path(now: datetime.datetime) -> Path:
    """A fresh timestamped file under $XDG_DATA_HOME/eboard960/games (~/.local/share by default)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "eboard960" / "games" / f"play-{now:%Y%m%d-%H%M%S}.jsonl"


def _controls(text: str | None) -> tuple[TimeControl, TimeControl] | None:
    return parse_time_controls(text) if text else None


def _names(engine_name: str | None, engine_side: chess.Color) -> tuple[str, str]:
    if engine_name is None:
        return ("White", "Black")
    return (engine_name, "Player") if engine_side == chess.WHITE else ("Player", engine_name)


def _session(start: int | chess.Board, options: PlayOptions, engine_name: str | None,
             created: str | None = None) -> PlaySession:
    """The session; `created` is the journal's creation time (ISO), which dates the PGN."""
    day = (created or datetime.datetime.now(datetime.UTC).isoformat())[:10]
    return PlaySession(
        start,
        controls=_controls(options.time),
        engine_side=options.engine_side if options.engine else None,
        settle=SETTLE,
        names=_names(engine_name, options.engine_side),
        headers={"Date": day.replace("-", ".")},
    )


def _resumed_options(options: PlayOptions, header: dict[str, Any]) -> PlayOptions:
    """The journal's settings win over the command line's (it is the same game)."""
    assert options.resume is not None  # the journal the header was read from
    path = options.resume
    side = _setting(path, header, "engine_side", str, ("white", "black"))
    time = _setting(path, header, "time", str)
    try:
        _controls(time)
    except ClockError as error:
        raise PlayError(f"{path}: line 1: {error}") from None
    return PlayOptions(
        board=_setting(path, header, "play_board", str, BOARDS) or options.board,
        port=options.port, ble=options.ble, start=options.start,
        time=time, engine=_setting(path, header, "engine", str), level=_setting(path, header, "level", int),
        engine_side=chess.WHITE if side == "white" else chess.BLACK,
        record=options.resume, resume=options.resume, demo=options.demo or bool(header.get("demo")),
        pace=options.pace, keyboard=options.keyboard,
        white_side=_setting(path, header.get("codec", {}), "white_side", str, ("left", "right")) or "left",
    )


def _setting(path: Path, header: dict[str, Any], key: str, kind: type,
             choices: tuple[str, ...] | None = None) -> Any:
    """One of the settings a journal's header keeps, or None; a value the program never writes there (a hand
    edit, a damaged line) is named with the journal, not a traceback or a wrong hint later."""
    value = header.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) or (choices and value not in choices):
        raise PlayError(f"{path}: line 1: the header's {key!r} cannot be {QUOTED.repr(value)}")
    return value


async def play(options: PlayOptions, out: TextIO, stdin: TextIO | None) -> int:
    """Play one game as `options` say; returns the exit status."""
    display = ScreenDisplay(out) if out.isatty() else PlainDisplay(out)
    if options.demo and options.engine:
        raise PlayError("the demo plays both sides; leave out --engine")
    offset, resumed_from = 0.0, None
    if options.resume is not None:
        resume = options.resume
        try:
            restored = read_journal(resume)
        except CaptureError as error:  # "line 1: no capture header" must say which file
            raise PlayError(f"{resume}: {error}") from None
        options = _resumed_options(options, restored.header)  # which keeps `resume`
        _check_resumable(resume, _protocol(options.board), restored.capture.header.board)
        resumed_from = restored

    if options.board == "emulator" and not options.demo and stdin is None:  # `<&-`: nobody could move
        raise PlayError("the emulated board's pieces are moved by typed moves, and standard input is "
                        "closed; use --demo, or a real board")
    connect = None if options.board == "emulator" else await _connector(options)
    if connect is not None:
        await check_opens(connect())  # before a journal is written
    engine = None
    if options.engine:
        engine = await EngineOpponent.start(find_engine(options.engine), level=options.level)
    try:
        engine_name = engine.name if engine else None
        if resumed_from is not None:
            capture = resumed_from.capture
            session = _session(capture.header.start, options, engine_name, capture.header.created)
            replay_into(session, capture)
            offset = resumed_from.end
            assert options.resume is not None  # where resumed_from was read
            journal = open_existing(options.resume, offset, board=capture.header.board,
                                    start=capture.header.start.fen())
            for problem in [capture.cut_off, *capture.problems]:
                if problem:
                    display.say(f"journal: {problem}")
        else:
            session = _session(options.start, options, engine_name)
            journal = _fresh_journal(options, engine_name)
        display.say(f"journal: {journal.path}  (after a crash: eboard960 play --resume {journal.path})")
        return await _play(options, session, journal, display, engine, offset, stdin,
                           resumed=resumed_from is not None, out=out, connect=connect)
    finally:
        if engine is not None:
            await engine.close()


def _check_resumable(path: Path, protocol: str, recorded: str) -> None:
    """A journal goes on with the board whose bytes it holds; a capture of mere square events has
    no board to go on with, but `replay` still turns it into PGN."""
    if recorded not in BOARDS:
        raise PlayError(f"{path} cannot be resumed: it holds {recorded} records, not a board's bytes; "
                        f"for its PGN: eboard960 replay {path}")
    if protocol != recorded:
        raise PlayError(f"{path} holds {recorded} bytes; resume it with --board {recorded}")


def _fresh_journal(options: PlayOptions, engine_name: str | None) -> Journal:
    path = options.record or reserve_free_path(default_journal_path(datetime.datetime.now()))
    headers: dict[str, Any] = {"event": "eboard960 play", "play_board": options.board}
    white, black = _names(engine_name, options.engine_side)
    headers.update(white=white, black=black)
    if options.board == "emulator":
        headers["emulated"] = True
    if options.time:
        headers["time"] = options.time
    if options.engine:
        headers.update(engine=options.engine, engine_side=chess.COLOR_NAMES[options.engine_side])
        if options.level is not None:
            headers["level"] = options.level
    if options.demo:
        headers["demo"] = True
    headers["codec"] = _codec_settings(options)
    return new_journal(path, board=_protocol(options.board), start=options.start, **headers)


def _protocol(board: str) -> str:
    """The protocol in the journal: the emulated board speaks DGT."""
    return "dgt" if board == "emulator" else board


def _codec_settings(options: PlayOptions) -> dict[str, Any]:
    """The codec's settings, kept in the journal header so that replay decodes the bytes the same way."""
    return {"white_side": options.white_side} if _protocol(options.board) == "dgt" else {}


async def _play(options: PlayOptions, session: PlaySession, journal: Journal, display: Display,
                engine: EngineOpponent | None, offset: float, stdin: TextIO | None, *,
                resumed: bool, out: TextIO, connect: Connect | None) -> int:
    virtual = None
    try:
        pending = session.resume_at(offset) if resumed else []
        settings = _codec_settings(options)
        if options.board == "emulator":
            virtual = VirtualBoard(session.board if resumed else options.start)
            board = Board(lambda: codec_for("dgt", **settings), lambda: virtual.link, capture=journal)
        else:
            assert connect is not None  # play makes one for every board but the emulator
            board = Board(lambda: codec_for(options.board, **settings), connect, capture=journal,
                          hello=_hello(options.board))
        runner = Runner(session, board, display, journal=journal, virtual=virtual, engine=engine,
                        offset=offset, white_side=options.white_side)
        if resumed:
            game = session.board
            moves = game.root().variation_san(game.move_stack) or "none"
            display.say(f"resumed: {len(session.board.move_stack)} moves restored: {moves}")
            runner.handle(pending)
        try:
            await runner.run(_driver(options, stdin))
        except (asyncio.CancelledError, KeyboardInterrupt):  # Ctrl-C: asyncio.run cancels this task
            display.say(f"interrupted: saved in {journal.path} and {journal.pgn_path}; "
                        f"to go on: eboard960 play --resume {journal.path}")
            display.close()
            raise
        display.say(f"saved: {journal.pgn_path}")
        display.close()
        out.write(session.pgn_text())
        return 0
    finally:
        journal.close()


def _hello(board: str) -> tuple[object, ...]:
    """What to say on every connection: updates on, the board, and for DGT the clock's state.

    The DGT codec learns which side's lever is up from the clock's times; asking
    for them at once means the first press after a (re)connection is not lost.
    """
    if board == "dgt":
        from eboard960.protocols.dgt import RequestClockTimes

        return (EnableUpdates(), RequestBoard(), RequestClockTimes())
    return (EnableUpdates(), RequestBoard())


def _driver(options: PlayOptions, stdin: TextIO | None) -> Driver:
    if options.demo:
        return demo_driver(options.pace)
    if options.keyboard and stdin is not None:
        return keyboard_driver(stdin)
    return idle_driver


async def _connector(options: PlayOptions) -> Connect:
    """How to (re)connect to the real board the options name."""
    if options.board in SERIAL_BOARDS and options.ble is None:
        port = options.port
        if not port:
            raise PlayError(f"--board {options.board} needs --port (e.g. /dev/ttyUSB0)")
        from eboard960.transport.serial import SerialTransport

        return lambda: SerialTransport(port, protocol=options.board)
    if options.board in BLE_BOARDS:
        if not options.ble:
            raise PlayError(f"--board {options.board} needs --ble NAME (see 'eboard960 scan')")
        from eboard960.ble.transport import BleTransport

        profile = profile_for(options.board)
        address = await _ble_address(options.ble, options.board)
        return lambda: BleTransport(address, profile)
    raise PlayError(f"--board {options.board} cannot be reached that way")


async def _ble_address(name: str, board: str) -> str:
    """`--ble` takes an address as it is, or a name (or the start of one) found by a scan."""
    if re.fullmatch(r"([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}|[0-9A-Fa-f-]{36}", name):
        return name
    from eboard960.ble.scan import scan

    for found in await scan(5.0):
        if found.board == board and (found.name or "").lower().startswith(name.lower()):
            return found.address
    raise PlayError(f"no {board} board named {name!r} in range (try 'eboard960 scan')")


def check_journal_target(path: Path) -> None:
    """An explicit --record names a file in a folder that exists: a typo in the folder is not made real."""
    if path.is_dir():
        raise CaptureError(f"{path} is a directory; --record needs a file name")
    if not path.parent.is_dir():
        raise CaptureError(f"{path.parent} is not an existing directory; --record does not create one")
