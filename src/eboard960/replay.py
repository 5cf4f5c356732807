"""Replay a capture: decode its bytes with the board's codec, recognise the moves, keep the games.

Nothing here prints; the CLI decides what to show. Every problem is kept
as a one-line message naming the capture line, and replay goes on past it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import chess.pgn

from eboard960.capture import Capture, Record
from eboard960.errors import Eboard960Error, ProtocolError
from eboard960.events import (
    BoardSnapshot,
    ButtonPressed,
    LinkChanged,
    PieceLifted,
    PiecePlaced,
    SquareEvent,
)
from eboard960.protocols import codec_for, codec_settings, unknown_settings
from eboard960.protocols.dgt import Discarded
from eboard960.recognizer import IllegalPosition, Mode, Report
from eboard960.reread import away_from_game, followed, read, reread

SQUARE_EVENTS = (PieceLifted, PiecePlaced, BoardSnapshot, ButtonPressed, LinkChanged)


class ReplayError(Eboard960Error):
    """The replay's output cannot be written where the user asked."""


@dataclass(slots=True)
class Replay:
    """The outcome of replaying one capture."""

    games: list[chess.pgn.Game]
    reports: list[tuple[int, Report]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what a second reading assumed; replay is still good

    @property
    def ok(self) -> bool:
        return not self.problems


def decoded(capture: Capture, problems: list[str]) -> Iterator[tuple[Record, SquareEvent | None]]:
    """Every record with the square events it carries, raw bytes decoded with the capture's protocol.

    A fresh decoder starts at every `link up`, as a live connection does. A record that carries
    no square event (a note, bytes sent, a board's own message) comes once with None. Bytes the
    codec refuses are named in `problems` and skipped; the codec resynchronises. Raw bytes in which
    the codec finds no message at all are named too: they are another board's, and an empty game
    would hide it. Codec settings the header names (`codec`) are used; ones the codec does not know
    are named and left out.
    """
    board, settings = capture.header.board, capture.header.codec_settings
    if board != "events" and settings:
        try:
            settings = _known_settings(board, settings, problems)
            codec_for(board, **settings)
        except ProtocolError as error:
            problems.append(f"line 1: {error}; the bytes are decoded with the codec's defaults")
            settings = {}
    codec = codec_for(board, **settings) if board != "events" else None
    raw_from: int | None = None  # the first rx record's line
    heard = False  # whether the raw bytes have carried a message (not only bytes thrown away)
    for record in capture.records:
        event = record.event
        if event is not None:
            if codec is not None and isinstance(event, LinkChanged) and event.up:
                codec = codec_for(board, **settings)
            yield record, event
            continue
        if record.kind != "rx":
            yield record, None
            continue
        if codec is None:
            problems.append(f"line {record.line}: raw bytes in a capture of board 'events'")
            continue
        assert record.data is not None  # the capture reader gives every rx record its bytes
        try:
            received = codec.receive_data(record.data, record.t)
        except ProtocolError as error:
            problems.append(f"line {record.line}: {error}")
            continue
        events = [event for event in received if isinstance(event, SQUARE_EVENTS)]
        for event in events:
            yield record, event
        if not events:
            yield record, None
        raw_from = record.line if raw_from is None else raw_from
        heard = heard or any(not isinstance(event, Discarded) for event in received)
    if raw_from is not None and not heard:
        problems.append(f"line {raw_from}: no message in any of the raw bytes: they are not what a "
                        f"'{board}' board sends (is the header's board right?)")


def _known_settings(board: str, settings: dict[str, object], problems: list[str]) -> dict[str, object]:
    """The header's codec settings that `board`'s codec has; the others are named (with the ones it has)
    in `problems` and left out, so a typo in one setting does not cost the others."""
    if problem := unknown_settings(board, settings):
        problems.append(f"line 1: {problem}; left out")
    known = codec_settings(board)
    return {name: value for name, value in settings.items() if name in known}


def replay_capture(capture: Capture, *, takebacks: bool = True) -> Replay:
    """Feed every record of `capture` to a recognizer; returns its games, reports and problems.

    If the board was lost for good while play went on, the capture is read a second time with one
    sensor slip undone (`reread`); that reading is kept if it follows the board to the end.
    """
    header = capture.header
    problems = list(capture.problems)
    warnings: list[str] = []
    items = list(decoded(capture, problems))
    events = [(record.line, event) for record, event in items if event is not None]
    last_line = items[-1][0].line if items else 1
    reading = read(header.start, events, last_line, takebacks=takebacks)
    inconsistent = set(reading.skipped)  # a second reading skips more only as its slip leaves a lift out
    if (second := reread(header.start, events, last_line, reading, takebacks=takebacks)) is not None:
        assert reading.lost_at is not None  # reread reads again only a reading that lost the board
        lost_line = events[reading.lost_at][0]
        reach = "to the end" if followed(second.recognizer) else "to where play stopped"
        warnings.append(f"line {lost_line}: the board was lost here for good; read again with {second.slip}, "
                        f"which follows it {reach} ({second.plies - reading.plies} more plies)")
        reading = second
    recognizer, reports = reading.recognizer, reading.reports
    warnings += [f"line {lost}: the board showed a position no legal move explains from here, with the clock "
                 f"going on, until the new game set up at line {set_up}; moves made on it meanwhile are not "
                 "recorded" for lost, set_up in reading.set_up_lost]  # and no second reading explained
    problems += [f"line {line}: a place on {chess.square_name(square)}, which holds a piece already: "
                 "a sensor inconsistency, skipped" for line, square in reading.skipped
                 if (line, square) in inconsistent]
    if recognizer.mode is Mode.ILLEGAL:
        fix = next((r for _, r in reversed(reports) if isinstance(r, IllegalPosition)), None)
        detail = f": {fix.describe()}" if fix else ""
        problems.append(f"line {last_line}: the board ends in a position no legal move explains{detail}")
    elif recognizer.mode is not Mode.GAME_OVER and (away := away_from_game(recognizer)):
        problems.append(f"line {last_line}: the board ends away from the game, moves may be missing: "
                        f"{away.describe()}")
    games = recognizer.games(header.pgn_headers())
    # a game set up but not begun (a session's last set-up) is no game played, unless none was
    played = [game for game in games if game.next() is not None] or games[-1:]
    return Replay(games=played, reports=reports, problems=problems, warnings=warnings)
