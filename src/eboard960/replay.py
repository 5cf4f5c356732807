"""Replay a capture: decode its bytes with the board's codec, recognise the moves, keep the games.

Nothing here prints; the CLI decides what to show. Every problem is kept
as a one-line message naming the capture line, and replay goes on past it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess.pgn

from eboard960.capture import Capture
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, ButtonPressed, LinkChanged, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for
from eboard960.recognizer import IllegalPosition, Recognizer, Report
from eboard960.recognizer.table import Mode

SQUARE_EVENTS = (PieceLifted, PiecePlaced, BoardSnapshot, ButtonPressed, LinkChanged)


@dataclass(slots=True)
class Replay:
    """The outcome of replaying one capture."""

    games: list[chess.pgn.Game]
    reports: list[tuple[int, Report]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def replay_capture(capture: Capture, *, takebacks: bool = True) -> Replay:
    """Feed every record of `capture` to a recognizer; returns its games, reports and problems."""
    header = capture.header
    recognizer = Recognizer(header.start, takebacks=takebacks)
    codec = codec_for(header.board) if header.board != "events" else None
    reports: list[tuple[int, Report]] = []
    problems = list(capture.problems)
    last_line = 1
    for record in capture.records:
        last_line = record.line
        if record.event is not None:
            if codec is not None and isinstance(record.event, LinkChanged) and record.event.up:
                codec = codec_for(header.board)  # a new connection starts with a fresh decoder
            reports += [(record.line, report) for report in recognizer.feed(record.event)]
        elif record.kind == "rx":
            if codec is None:
                problems.append(f"line {record.line}: raw bytes in a capture of board 'events'")
                continue
            try:
                decoded = codec.receive_data(record.data, record.t)
            except ProtocolError as error:
                problems.append(f"line {record.line}: {error}")
                continue
            for event in decoded:
                if isinstance(event, SQUARE_EVENTS):
                    reports += [(record.line, report) for report in recognizer.feed(event)]
    reports += [(last_line, report) for report in recognizer.finish()]
    if recognizer.mode is Mode.ILLEGAL:
        fix = next((r for _, r in reversed(reports) if isinstance(r, IllegalPosition)), None)
        detail = f": {fix.describe()}" if fix else ""
        problems.append(f"line {last_line}: the board ends in a position no legal move explains{detail}")
    games = [game for game in recognizer.games(header.pgn_headers()) if game.next() or game is not None]
    played = [game for game in games[:-1] if game.next() is not None] + games[-1:]
    return Replay(games=played, reports=reports, problems=problems)
