"""`eboard960 emulate dgt|chesslink`: an emulated board on a pseudo-terminal.

Prints the pty's path on standard output (alone on its line, so
`PORT=$(eboard960 emulate dgt | head -1)` works), then serves until Ctrl-C.
With `--script FILE` the emulated hands follow a script once the host has
spoken; one action per line, `#` starts a comment:

    move e2e4 | move Nf3     a whole move, UCI or SAN, from the game so far
                             (castling the e-board way: king, rook, rook, king)
    lift e2                  a piece leaves e2
    place e4 [Q]             a piece arrives (the piece lifted last, or the one named)
    press white              a clock button (DGT boards with a clock): white, black,
                             back, minus, pause, plus, confirm
    wait 1.5                 pause, in seconds (0 to 3600)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import chess

from eboard960.emulators.dgt import ClockModel, DgtFirmware, ScenarioError
from eboard960.emulators.pty import FirmwareModel, PtyRunner
from eboard960.errors import Eboard960Error
from eboard960.protocols.dgt_clock import BUTTON_BY_NAME
from eboard960.transport.serial import LINE_SETTINGS


class ScriptableModel(FirmwareModel, Protocol):
    """A firmware model with hands: what a script drives (`press` is optional)."""

    def lift(self, square: chess.Square) -> bytes: ...

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes: ...

    def play_move(self, board: chess.Board, move: chess.Move) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One script line: what the hands do, and where it was written."""

    line: int
    action: str
    square: chess.Square | None = None
    piece: chess.Piece | None = None
    board: chess.Board | None = None
    move: chess.Move | None = None
    button: str = ""
    seconds: float = 0.0


PRESSABLE = ("white", "black", *BUTTON_BY_NAME)
"""What a script may press on a DGT board's clock: the lever's two sides and the DGT 3000's buttons."""

SCRIPT_HELP = (
    "actions the emulated hands play once the host has spoken, one a line (# starts a comment): "
    "'move e2e4' or 'move Nf3' (a whole move from the game so far, UCI or SAN); 'lift e2'; "
    "'place e4' or 'place e4 Q' (the piece lifted last, or the one named); "
    f"'press BUTTON' (a DGT board's clock: {', '.join(PRESSABLE)}); 'wait 1.5' (seconds, 0 to 3600)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", choices=sorted(LINE_SETTINGS), help="which board to emulate")
    parser.add_argument("--position", type=int, default=518, metavar="N",
                        help="Chess960 start position 0..959 (default 518, standard chess)")
    parser.add_argument("--script", type=Path, metavar="FILE", help=SCRIPT_HELP)
    parser.add_argument("--clock", choices=["3000", "xl", "none"], default="3000",
                        help="the clock behind an emulated DGT board (default 3000)")
    parser.add_argument("--no-pace", action="store_true",
                        help="send as fast as the pty goes instead of at the board's baud rate")


def parse_script(text: str, start: chess.Board, buttons: tuple[str, ...] = PRESSABLE) -> list[Step]:
    """Check the whole script before serving, so no mistake stops the board once a host relies on it;
    a mistake names its line. `buttons` are the ones the emulated board has (none without a clock)."""
    board, steps = start.copy(), []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            steps.append(_step(number, words, board, buttons))
        except ValueError as error:
            raise ScenarioError(f"script line {number}: {raw.strip()!r}: {error}") from None
    return steps


def _step(number: int, words: list[str], board: chess.Board, buttons: tuple[str, ...]) -> Step:
    verb, args = words[0].lower(), words[1:]
    if verb == "move" and len(args) == 1:
        before = board.copy(stack=False)
        move = _move(args[0], board)
        board.push(move)
        return Step(number, "move", board=before, move=move)
    if verb == "lift" and len(args) == 1:
        return Step(number, "lift", square=_square(args[0]))
    if verb == "place" and len(args) in (1, 2):
        piece = _piece(args[1]) if len(args) == 2 else None
        return Step(number, "place", square=_square(args[0]), piece=piece)
    if verb == "press" and len(args) == 1:
        return Step(number, "press", button=_button(args[0], buttons))
    if verb == "wait" and len(args) == 1:
        return Step(number, "wait", seconds=_seconds(args[0]))
    raise ValueError("expected move/lift/place/press/wait with its argument (see --help)")


def _move(word: str, board: chess.Board) -> chess.Move:
    try:
        return board.parse_uci(word)
    except ValueError:
        pass
    try:
        return board.parse_san(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a legal move here, in UCI or SAN") from None


def _square(word: str) -> chess.Square:
    if word.lower() not in chess.SQUARE_NAMES:
        raise ValueError(f"{word!r} is not a square (a1 to h8)")
    return chess.parse_square(word.lower())


def _piece(word: str) -> chess.Piece:
    if len(word) != 1 or word.lower() not in chess.PIECE_SYMBOLS:
        raise ValueError(f"{word!r} is not a piece letter (KQRBNP for white, kqrbnp for black)")
    return chess.Piece.from_symbol(word)


def _button(word: str, buttons: tuple[str, ...]) -> str:
    if not buttons:
        raise ValueError("this emulated board has no clock, so no buttons to press")
    if word.lower() not in buttons:
        raise ValueError(f"{word!r} is not a button; the clock has {', '.join(buttons)}")
    return word.lower()


def _seconds(word: str) -> float:
    try:
        seconds = float(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a number of seconds") from None
    if not 0 <= seconds <= 3600:  # also refuses nan
        raise ValueError(f"wait takes 0 to 3600 seconds, not {word}")
    return seconds


def _model(args: argparse.Namespace) -> ScriptableModel:
    if not 0 <= args.position <= 959:
        raise ScenarioError(f"--position must be 0..959, not {args.position}")
    if args.board == "chesslink":
        from eboard960.emulators.chesslink import ChessLinkFirmware

        return ChessLinkFirmware(start=args.position)
    clock = None if args.clock == "none" else ClockModel(args.clock)
    return DgtFirmware(start=args.position, clock=clock)


def _act(model: ScriptableModel, step: Step) -> bytes:
    """What the board sends when the hands do one step (a wait sends nothing); a refusal names the line."""
    try:
        match step.action:
            case "move":
                assert step.board is not None and step.move is not None  # parse_script sets them
                return model.play_move(step.board, step.move)
            case "lift":
                assert step.square is not None  # parse_script sets it
                return model.lift(step.square)
            case "place":
                assert step.square is not None  # parse_script sets it
                return model.place(step.square, step.piece)
            case "press":
                press = getattr(model, "press", None)
                if press is None:
                    raise ScenarioError("this board has no clock buttons")
                return press(step.button)
    except Eboard960Error as error:
        raise ScenarioError(f"script line {step.line}: {error}") from None
    return b""


def rehearse(model: ScriptableModel, steps: list[Step]) -> None:
    """Play the script once on a board no host sees, so a step the pieces refuse (a lift from an empty
    square, a place with nothing in hand) is named before serving, not after a host relies on the board."""
    for step in steps:
        _act(model, step)


async def _perform(model: ScriptableModel, runner: PtyRunner, step: Step) -> None:
    if step.action == "wait":
        await asyncio.sleep(step.seconds)
    else:
        runner.send(_act(model, step))


async def _serve(model: ScriptableModel, steps: list[Step], byte_time: float) -> None:
    async with PtyRunner(model, byte_time=byte_time) as runner:
        print(runner.path, flush=True)
        print(f"serving an emulated board on {runner.path}; Ctrl-C stops it",
              file=sys.stderr, flush=True)
        if steps:
            await runner.heard.wait()
            for step in steps:
                await _perform(model, runner, step)
            await runner.drained()
            print("script done", file=sys.stderr, flush=True)
        await asyncio.Event().wait()  # serve until interrupted


def main(args: argparse.Namespace) -> int:
    model = _model(args)
    steps: list[Step] = []
    if args.script is not None:
        try:
            text = args.script.read_text(encoding="utf-8-sig")  # with or without a byte order mark
        except OSError as error:
            raise ScenarioError(f"cannot read the script {args.script}: {error.strerror}") from None
        except UnicodeDecodeError as error:
            raise ScenarioError(
                f"cannot read the script {args.script}: not UTF-8 text (byte {error.start})"
            ) from None
        buttons = PRESSABLE if getattr(model, "clock", None) is not None else ()
        steps = parse_script(text, chess.Board.from_chess960_pos(args.position), buttons)
        rehearse(_model(args), steps)
    # 10 bits a byte on either line (8N1 or 7O1, with the start bit)
    byte_time = 0.0 if args.no_pace else 10 / LINE_SETTINGS[args.board]["baudrate"]
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how an emulator is meant to stop
        asyncio.run(_serve(model, steps, byte_time))
    return 0
