#!/usr/bin/env python3
"""Replay every capture of a corpus and compare its moves with the expected PGN.

Uses the same path as `eboard960 replay` (`read_capture` + `replay_capture`).
Prints the pass rate (games and plies) and, for each failure, the file, the
first divergent ply (with the behaviours the generator used for it, when a
`.tags.json` lies beside the capture) and the records around it.

    PYTHONPATH=src python tools/check_corpus.py DIR [--show 20] [--context 15]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from eboard960.capture import read_capture
from eboard960.errors import Eboard960Error
from eboard960.replay import replay_capture

PIECES = ".PRNBKQprnbkq"


@dataclass(slots=True)
class Outcome:
    """One capture's verdict."""

    path: Path
    expected: list[str]
    got: list[str]
    problems: list[str]
    games: int
    report_lines: list[tuple[int, str]] = field(default_factory=list)

    @property
    def divergence(self) -> int | None:
        """Index (0-based) of the first ply that differs, or None when the moves agree."""
        for index, (want, have) in enumerate(zip(self.expected, self.got, strict=False)):
            if want != have:
                return index
        if len(self.expected) != len(self.got):
            return min(len(self.expected), len(self.got))
        return None

    @property
    def ok(self) -> bool:
        return self.divergence is None and not self.problems and self.games == 1


@dataclass(slots=True)
class Summary:
    outcomes: list[Outcome]
    unchecked: list[Path] = field(default_factory=list)  # captures with no expected PGN to compare

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def plies(self) -> int:
        return sum(len(o.expected) for o in self.outcomes)

    @property
    def plies_ok(self) -> int:
        """Plies recognised before each game's first divergence."""
        return sum(len(o.expected) if o.divergence is None else o.divergence for o in self.outcomes)


def capture_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz")))


def stem_of(path: Path) -> str:
    return path.name.removesuffix(".gz").removesuffix(".jsonl")


def expected_path(path: Path) -> Path:
    return path.with_name(stem_of(path) + ".expected.pgn")


def expected_sans(pgn_path: Path) -> list[str]:
    game = chess.pgn.read_game(io.StringIO(pgn_path.read_text(encoding="utf-8")))
    if game is None:
        raise SystemExit(f"check_corpus: {pgn_path} holds no game")
    return game_sans(game)


def game_sans(game: chess.pgn.Game) -> list[str]:
    """The main line in SAN, replayed once (a node's own `san()` replays from the root each time)."""
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def check_file(path: Path) -> Outcome:
    expected = expected_sans(expected_path(path))
    try:
        replay = replay_capture(read_capture(path))
    except Eboard960Error as error:
        return Outcome(path, expected, [], [f"replay failed: {error}"], 0)
    got = [san for game in replay.games for san in game_sans(game)]
    lines = [(line, f"{r.kind}:{getattr(r, 'san', '')}".rstrip(":")) for line, r in replay.reports]
    return Outcome(path, expected, got, list(replay.problems), len(replay.games), lines)


def check_dir(directory: Path) -> Summary:
    """Check every capture that has an expected PGN beside it; the others are listed as unchecked."""
    captures = capture_files(directory)
    unchecked = [path for path in captures if not expected_path(path).exists()]
    return Summary([check_file(path) for path in captures if path not in unchecked], unchecked)


def read_lines(path: Path) -> list[str]:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8").split("\n")


def describe(text: str) -> str:
    """A record line, with DGT field updates spelt out (`e2=.` lifted, `e4=P` placed)."""
    try:
        record = json.loads(text)
    except ValueError:
        return text
    if not isinstance(record, dict) or "rx" not in record:
        return text
    data = bytes.fromhex(record["rx"])
    notes = []
    at = data.find(b"\x8e\x00\x05")
    while at >= 0 and at + 5 <= len(data):
        field_no, code = data[at + 3], data[at + 4]
        square = chess.square(field_no % 8, 7 - field_no // 8)
        notes.append(f"{chess.square_name(square)}={PIECES[code] if code < len(PIECES) else code}")
        at = data.find(b"\x8e\x00\x05", at + 5)
    return f"{text}   # {' '.join(notes)}" if notes else text


def failure_report(outcome: Outcome, context: int) -> str:
    index = outcome.divergence
    out = [f"FAIL {outcome.path.name}"]
    if outcome.games != 1:
        out.append(f"  replay made {outcome.games} games")
    out += [f"  problem: {p}" for p in outcome.problems]
    if index is None:
        return "\n".join(out)
    want = outcome.expected[index] if index < len(outcome.expected) else "(end)"
    have = outcome.got[index] if index < len(outcome.got) else "(end)"
    out.append(f"  first divergent ply {index + 1}: expected {want}, got {have}")
    tags_path = outcome.path.with_name(stem_of(outcome.path) + ".tags.json")
    start_t = None
    if tags_path.exists():
        plies = json.loads(tags_path.read_text(encoding="utf-8"))
        if index < len(plies):
            out.append(f"  behaviours: {', '.join(plies[index]['tags'])}")
            start_t = plies[index]["t"][0]
        if index > 0:
            out.append(f"  previous ply {plies[index - 1]['san']}: {', '.join(plies[index - 1]['tags'])}")
    lines = read_lines(outcome.path)
    reports: dict[int, list[str]] = {}
    for line, text in outcome.report_lines:
        reports.setdefault(line, []).append(text)
    centre = None
    if start_t is not None:
        for number, text in enumerate(lines[1:], start=2):
            try:
                if json.loads(text).get("t", -1) >= start_t:
                    centre = number
                    break
            except ValueError:
                break
    if centre is None:
        moves = [line for line, text in outcome.report_lines if text.startswith("move:")]
        centre = moves[index - 1] + 1 if 0 < index <= len(moves) else 2
    first = max(2, centre - context // 3)
    for number in range(first, min(len(lines), first + context) + 1):
        text = lines[number - 1]
        if not text:
            continue
        mark = ">>" if number == centre else "  "
        seen = " ".join(reports.get(number, []))
        out.append(f"  {mark}{number:5} {describe(text)}  {seen}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--show", type=int, default=20, help="print at most this many failures")
    parser.add_argument("--context", type=int, default=15, help="records shown around a failure")
    args = parser.parse_args(argv)
    if not args.directory.is_dir():
        print(f"check_corpus: {args.directory} is not a directory", file=sys.stderr)
        return 2
    summary = check_dir(args.directory)
    for path in summary.unchecked:
        print(f"check_corpus: {path.name}: unchecked, no {expected_path(path).name} beside it",
              file=sys.stderr)
    failures = [o for o in summary.outcomes if not o.ok]
    for outcome in failures[: args.show]:
        print(failure_report(outcome, args.context))
        print()
    by_behaviour: Counter[str] = Counter()
    for outcome in failures:
        index = outcome.divergence
        tags_path = outcome.path.with_name(stem_of(outcome.path) + ".tags.json")
        if index is not None and tags_path.exists():
            plies = json.loads(tags_path.read_text(encoding="utf-8"))
            if index < len(plies):
                by_behaviour[" + ".join(plies[index]["tags"])] += 1
    for behaviour, count in by_behaviour.most_common():
        print(f"  {count:4}  {behaviour}")
    rate = 100.0 * summary.passed / summary.games if summary.games else 100.0
    ply_rate = 100.0 * summary.plies_ok / summary.plies if summary.plies else 100.0
    print(f"games: {summary.passed}/{summary.games} passed ({rate:.2f}%); "
          f"plies recognised before the first divergence: {summary.plies_ok}/{summary.plies} "
          f"({ply_rate:.2f}%)" + (f"; {len(summary.unchecked)} unchecked" if summary.unchecked else ""))
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
