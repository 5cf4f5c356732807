"""`eboard960 play`: a game on a sensor board (the emulated one by default), recorded safely."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import signal
import sys
from pathlib import Path

import chess

from eboard960.errors import PositionError
from eboard960.numbering import is_decimal
from eboard960.play.app import BOARDS, PlayOptions, check_journal_target, play
from eboard960.play.errors import PlayError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", choices=BOARDS, default="emulator",
                        help="which board (default: the built-in emulated DGT board)")
    parser.add_argument("--port", metavar="P", help="serial port of a dgt or chesslink board")
    parser.add_argument("--ble", metavar="NAME", help="Bluetooth LE board: its name (or address)")
    parser.add_argument("--position", default=None, metavar="N|random|day",
                        help="start position: a number 0..959, 'random', or 'day' (with --secret-file)")
    parser.add_argument("--secret-file", type=Path, metavar="FILE", help="the organiser's secret for 'day'")
    parser.add_argument("--round", type=int, default=1, help="the round number for 'day' (default 1)")
    parser.add_argument("--time", metavar="CONTROL", help="time control, e.g. 15+10 (default: no clock)")
    parser.add_argument("--engine", metavar="ENGINE", help="play against a UCI engine, e.g. stockfish")
    parser.add_argument("--level", type=int, metavar="L", help="the engine's Skill Level (Stockfish 0..20)")
    parser.add_argument("--engine-plays", choices=("white", "black"), default="black",
                        help="the engine's colour (default black)")
    parser.add_argument("--white-side", choices=("left", "right"), default="left",
                        help="the side of a DGT clock on the board that white presses (default left)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="the journal (default: a new file under ~/.local/share/eboard960/games)")
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the game in this journal")
    parser.add_argument("--demo", action="store_true",
                        help="play a scripted Chess960 game (position 466) on the emulated board")
    parser.add_argument("--fast", action="store_true", help="the demo without pauses")
    parser.add_argument("--pace", type=float, default=0.05, metavar="S",
                        help="seconds between the demo's hand movements (default 0.05)")


def _start(args: argparse.Namespace) -> int:
    from eboard960.play.demo import DEMO_START

    text = args.position
    if text is None:
        return DEMO_START if args.demo else _drawn()
    if args.demo and text != str(DEMO_START):
        raise PositionError(f"the demo plays position {DEMO_START}; leave out --position")
    if text == "random":
        return _drawn()
    if text == "day":
        from eboard960.clock.day import day_position, read_secret

        if args.secret_file is None:
            raise PositionError("--position day needs --secret-file FILE")
        return day_position(read_secret(args.secret_file), datetime.date.today(), args.round)
    if is_decimal(text) and 0 <= int(text) <= 959:
        return int(text)
    raise PositionError(f"--position must be 0..959, 'random' or 'day', not {text!r}")


def _drawn() -> int:
    from eboard960.draw import draw

    return draw().number


def main(args: argparse.Namespace) -> int:
    if not 0 <= args.pace <= 5:  # also refuses nan, which every comparison passes
        raise PlayError(f"--pace must be between 0 and 5 seconds, not {args.pace}")
    if args.board == "emulator" and (args.port or args.ble):
        raise PlayError("--port and --ble connect a real board; name it with --board")
    if args.board != "emulator" and args.demo:
        raise PlayError("--demo plays on the emulated board; leave out --board")
    if args.engine is None and (args.level is not None or args.engine_plays != "black"):
        raise PlayError("--level and --engine-plays need --engine")
    if args.white_side != "left" and args.board not in ("emulator", "dgt"):
        raise PlayError("--white-side is for a DGT clock; leave it out for other boards")
    if args.record is not None:
        check_journal_target(args.record)
    if args.record is not None and args.resume is not None:
        raise PlayError("--resume continues the journal it names; leave out --record")
    options = PlayOptions(
        board=args.board, port=args.port, ble=args.ble,
        start=_start(args) if args.resume is None else 0,
        time=args.time, engine=args.engine, level=args.level,
        engine_side=chess.WHITE if args.engine_plays == "white" else chess.BLACK,
        record=args.record, resume=args.resume, demo=args.demo,
        pace=0.0 if args.fast else args.pace, keyboard=not args.demo, white_side=args.white_side,
    )
    try:
        return asyncio.run(play(options, sys.stdout, sys.stdin))
    except BrokenPipeError:
        return _output_closed()


def _output_closed() -> int:
    """The reader of the output went away (`play --demo | head`) after the journal and its PGN were saved:
    end as a tool stopped by SIGPIPE does, and let Python's last flush of stdout go nowhere, silently."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE
