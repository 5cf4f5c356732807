"""`eboard960 replay FILE...`: captures to PGN, or to the recognizer's event stream."""

from __future__ import annotations

import argparse
import sys
import traceback
from dataclasses import fields
from pathlib import Path

import chess
from tqdm import tqdm

from eboard960.capture import read_capture
from eboard960.errors import Eboard960Error
from eboard960.pgn import pgn_text
from eboard960.recognizer import IllegalPosition, MoveProvisional, MoveRecognized, Report
from eboard960.replay import Replay, ReplayError, replay_capture


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE",
                        help="capture files (.jsonl or .jsonl.gz)")
    output = parser.add_mutually_exclusive_group()  # --events goes to standard output, never into --out
    output.add_argument("--out", type=Path, metavar="DIR",
                        help="write one PGN per capture into DIR, NAME.pgn for NAME.jsonl "
                             "(NAME-2.pgn for a second capture named NAME)")
    output.add_argument("--events", action="store_true", help="print the recognizer's reports, not PGN")
    parser.add_argument("--no-takebacks", action="store_true",
                        help="never treat an undone move as a takeback")


def describe(report: Report) -> str:
    """One line for a report, as `--events` prints it."""
    match report:
        case MoveRecognized(san=san, uci=uci, ply=ply):
            return f"move {san} ({uci}) ply {ply}"
        case MoveProvisional(san=san, castling=castling):
            return f"provisional {san} (may become castling {chess.Move.uci(castling)})"
        case IllegalPosition():
            return f"illegal: {report.describe()}"
    details = " ".join(f"{f.name}={getattr(report, f.name)}" for f in fields(report) if f.name != "t")
    return f"{report.kind} {details}".rstrip()


def capture_stem(path: Path) -> str:
    """A capture's NAME: its file name without `.gz` and the extension before it (`game.5.jsonl.gz`:
    `game.5`)."""
    return Path(path.name.removesuffix(".gz")).stem


def output_names(paths: list[Path]) -> dict[Path, str]:
    """The PGN name for each capture in `--out`: its stem, or `stem-2`, `stem-3`... when an earlier capture
    has the same stem, so that no game overwrites another one; a name no input has."""
    stems = {path: capture_stem(path) for path in paths}
    inputs = set(stems.values())
    used: set[str] = set()
    names: dict[Path, str] = {}
    for path, stem in stems.items():
        name, number = stem, 2
        while name in used or (name != stem and name in inputs):
            name, number = f"{stem}-{number}", number + 1
        used.add(name)
        names[path] = name + ".pgn"
    return names


def _make_out_dir(out: Path) -> None:
    """Create `--out` before any capture is replayed, so a wrong directory costs no work."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ReplayError(f"--out {out} is a file, not a directory") from None
    except OSError as error:
        raise ReplayError(f"cannot create --out {out}: {error.strerror}") from None


def _say(message: str) -> None:
    """One line on standard error, on a line of its own even while the progress bar is drawn."""
    tqdm.write(f"eboard960 replay: {message}", file=sys.stderr)


def main(args: argparse.Namespace) -> int:
    names: dict[Path, str] = {}
    if args.out:
        _make_out_dir(args.out)
        names = output_names(args.files)
    status = 0
    files = tqdm(args.files, unit="capture", disable=not args.out or not sys.stderr.isatty())
    for path in files:
        try:
            capture = read_capture(path)
            result = replay_capture(capture, takebacks=not args.no_takebacks)
        except Eboard960Error as error:  # this file cannot be replayed; the others still are
            _say(f"{path}: {error}")
            status = 1
            continue
        except Exception as error:  # a fault of eboard960's, not of the file: it costs no other capture
            _say(f"{path}: {_internal(error)}")
            status = 1
            continue
        if capture.cut_off:
            _say(f"{path}: warning: {capture.cut_off}")
        for warning in result.warnings:
            _say(f"{path}: warning: {warning}")
        for problem in result.problems:
            _say(f"{path}: {problem}")
        if not result.ok:
            status = 1
        if args.events:
            for line, report in result.reports:
                print(f"{path.name}:{line}\tt={report.t:.3f}\t{describe(report)}")
        elif args.out:
            status = max(status, _write_pgn(path, args.out / names[path], result))
        else:
            sys.stdout.write(pgn_text(result.games))
    return status


def _internal(error: Exception) -> str:
    """One line for a fault in eboard960 itself, naming where it happened, for a bug report."""
    where = traceback.extract_tb(error.__traceback__)[-1]
    return (f"internal error ({type(error).__name__} at {Path(where.filename).name}:{where.lineno}), "
            "please report it with this capture; nothing of it was written")


def _write_pgn(path: Path, target: Path, result: Replay) -> int:
    """Write one capture's PGN; a target that cannot be written is named and the next capture goes on."""
    if target.name != capture_stem(path) + ".pgn":
        _say(f"{path}: written as {target.name}, another capture has the same name")
    try:
        target.write_text(pgn_text(result.games), encoding="utf-8")
    except OSError as error:
        _say(f"{path}: cannot write {target}: {error.strerror}")
        return 1
    return 0
