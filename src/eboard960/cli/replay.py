"""`eboard960 replay FILE...`: captures to PGN, or to the recognizer's event stream."""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from pathlib import Path

import chess
from tqdm import tqdm

from eboard960.capture import read_capture
from eboard960.errors import Eboard960Error
from eboard960.recognizer import IllegalPosition, MoveProvisional, MoveRecognized, Report
from eboard960.replay import Replay, replay_capture


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE",
                        help="capture files (.jsonl or .jsonl.gz)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="write one PGN per capture into DIR")
    parser.add_argument("--events", action="store_true", help="print the recognizer's reports, not PGN")
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


def _pgn_text(result: Replay) -> str:
    return "\n\n".join(str(game) for game in result.games) + "\n"


def main(args: argparse.Namespace) -> int:
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    status = 0
    files = tqdm(args.files, unit="capture", disable=not args.out or not sys.stderr.isatty())
    for path in files:
        try:
            capture = read_capture(path)
            result = replay_capture(capture, takebacks=not args.no_takebacks)
        except Eboard960Error as error:  # this file cannot be replayed; the others still are
            print(f"eboard960 replay: {path}: {error}", file=sys.stderr)
            status = 1
            continue
        if capture.cut_off:
            print(f"eboard960 replay: {path}: warning: {capture.cut_off}", file=sys.stderr)
        for warning in result.warnings:
            print(f"eboard960 replay: {path}: warning: {warning}", file=sys.stderr)
        for problem in result.problems:
            print(f"eboard960 replay: {path}: {problem}", file=sys.stderr)
        if not result.ok:
            status = 1
        if args.events:
            for line, report in result.reports:
                print(f"{path.name}:{line}\tt={report.t:.3f}\t{describe(report)}")
        elif args.out:
            (args.out / (path.name.split(".")[0] + ".pgn")).write_text(_pgn_text(result), encoding="utf-8")
        else:
            sys.stdout.write(_pgn_text(result))
    return status
