"""A second reading of a capture whose board the recognizer lost for good.

A board can report two changes in an order no hand made them, or a change no
piece made. Live, the player is told which squares to fix. In a capture, play
went on: the board never again shows a position the recognizer can follow
(or not until the pieces are set up for a new game), and every move after
the slip is lost. Replay then reads the capture again with one slip undone
at a time (two reports close together taken the other way round, or one
report left out), nearest the loss first, and keeps the first reading that
follows the board to the end and recovers moves. A long game may hold a
second slip far after the first: if no single undo follows the board to the
end, the one that follows it furthest is read on, and the next slip is
looked for where that reading lost the board.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass, replace

import chess

from eboard960.events import CLOCK_BUTTONS, ButtonPressed, PieceLifted, PiecePlaced, SquareEvent
from eboard960.recognizer import IllegalPosition, Mode, MoveRecognized, NewGame, Recognizer, Report

SWAP_SECONDS = 0.6  # two piece reports this close together may have come the other way round
LOOK_BACK = 80  # events before the loss where the slip is looked for
GIVE_UP = 40  # a trial reading is dropped once it finds this many events unexplained after its slip,
GIVE_UP_PRESSES = 4  # or this many clock presses on it (each searches three moves deep for the board)
MIN_LOST = 8  # piece reports after the loss that show play went on, if no clock press confirmed a move
HELD_PLACES = 8  # the latest places whose lines are kept: one held back is skipped within an event or two
MAX_SLIPS = 3  # slips undone one after another in one capture
FOLLOWED_ON = 4  # plies a reading must make past its slip before it is read on to a later slip

PIECE_EVENTS = (PieceLifted, PiecePlaced)
SLIPS = (PieceLifted, PiecePlaced, ButtonPressed)  # reports a second reading may leave out


@dataclass(slots=True)
class Reading:
    """What the recognizer made of a capture's events, each report with its capture line."""

    recognizer: Recognizer
    reports: list[tuple[int, Report]]
    lost_at: int | None  # the index of the event where it lost the board, if play went on after it
    skipped: list[tuple[int, chess.Square]]  # places on a square that held a piece: capture line, square
    # capture lines (lost, set up) of boards unexplained while the clock went on, until a new game was set up
    set_up_lost: list[tuple[int, int]]
    slip: str = ""  # what this reading undid, for a second reading

    @property
    def plies(self) -> int:
        return _plies(self.recognizer)


class _GaveUp(Exception):
    """A trial reading stayed unexplained too long to be the one that follows the board."""


class _Reader:
    """A recognizer part way through a capture's events, with what shows where it lost the board.

    A second reading starts from a copy of the first one's reader at the slip, not from the start.
    """

    def __init__(self, start: chess.Board, takebacks: bool) -> None:
        self.recognizer = Recognizer(start, takebacks=takebacks)
        self.reports: list[tuple[int, Report]] = []
        self.skipped: list[tuple[int, chess.Square]] = []
        self.place_lines: dict[tuple[float, chess.Square], int] = {}  # the latest places' capture lines
        self.since = 0  # the index of the event that made the board unexplained, while it is
        self.after_move = 0  # the index of the event after the last that made or committed a move
        self.shown: chess.Move | None = None
        self.unexplained = 0  # events a trial found unexplained, after its slip
        self.pressed_unexplained = 0  # clock presses among them
        self.set_up_lost: list[tuple[int, int]] = []  # (from, to): unexplained until a new game was set up

    def feed(self, index: int, line: int, event: SquareEvent, trial: bool = False) -> None:
        """Feed one event; in a `trial` (a second reading, after its slip) raise `_GaveUp` once it is lost."""
        recognizer = self.recognizer
        if trial and isinstance(event, ButtonPressed) and recognizer.mode is Mode.ILLEGAL:
            self.pressed_unexplained += 1
            if self.pressed_unexplained >= GIVE_UP_PRESSES:
                raise _GaveUp
        if isinstance(event, PiecePlaced):
            lines = self.place_lines
            lines[event.t, event.square] = line
            if len(lines) > HELD_PLACES:  # kept small: a second reading copies the reader at every slip
                del lines[next(iter(lines))]
        skipped, unexplained = len(recognizer.skipped_places), recognizer.mode is Mode.ILLEGAL
        new = recognizer.feed(event)
        for place in recognizer.skipped_places[skipped:]:  # this event's, or one held for the event after it
            self.skipped.append((self.place_lines.get((place.t, place.square), line), place.square))
        if new:
            self.reports += [(line, report) for report in new]
            if unexplained and any(isinstance(report, NewGame) for report in new):
                self.set_up_lost.append((self.since, index))
            if any(isinstance(report, MoveRecognized) for report in new):
                self.after_move = index + 1
        if recognizer.open_move is not self.shown:
            self.shown, self.after_move = recognizer.open_move, index + 1
        if recognizer.mode is not Mode.ILLEGAL:
            self.since = index + 1
        elif trial:
            self.unexplained += 1
            if self.unexplained >= GIVE_UP:
                raise _GaveUp

    def finish(self, events: Sequence[tuple[int, SquareEvent]], end_line: int) -> Reading:
        recognizer = self.recognizer
        self.reports += [(end_line, report) for report in recognizer.finish()]
        lost = _lost_from(recognizer, self.since, self.after_move)
        lost = lost if lost is not None and _play_went_on(events[lost:]) else None
        set_up_lost = [(begun, ended) for begun, ended in self.set_up_lost if clocked_on(events[begun:ended])]
        if lost is None and set_up_lost:  # or lost while the clock went on, until a new game was set up
            lost = set_up_lost[0][0]
        lines = [(events[begun][0], events[ended][0]) for begun, ended in set_up_lost]
        return Reading(recognizer, self.reports, lost, self.skipped, lines)


def read(start: chess.Board, events: Sequence[tuple[int, SquareEvent]], end_line: int, *,
         takebacks: bool = True) -> Reading:
    """Feed `events` ((capture line, event) pairs) to a fresh recognizer."""
    reader = _Reader(start, takebacks)
    for index, (line, event) in enumerate(events):
        reader.feed(index, line, event)
    return reader.finish(events, end_line)


def reread(start: chess.Board, events: Sequence[tuple[int, SquareEvent]], end_line: int, first: Reading, *,
           takebacks: bool = True) -> Reading | None:
    """A reading with up to `MAX_SLIPS` slips undone that has more moves than `first` and explains the capture
    to its end, or to where play stopped; None when `first` lost nothing or no such slips are found."""
    reading, slips = first, []
    for _ in range(MAX_SLIPS):
        if (found := _undo_slip(start, events, end_line, reading, takebacks)) is None:
            return None
        events, reading, slip = found
        slips.append(slip)
        if followed(reading.recognizer) or reading.lost_at is None:  # nothing more lost
            reading.slip = " and, later, ".join(slips)
            return reading
    return None


def _undo_slip(start: chess.Board, events: Sequence[tuple[int, SquareEvent]], end_line: int, first: Reading,
               takebacks: bool) -> tuple[Sequence[tuple[int, SquareEvent]], Reading, str] | None:
    """The events with one slip undone before `first` lost the board, their reading and the slip: the first,
    nearest the loss, whose reading follows the board to the end, else the one that follows it furthest
    past the loss before losing it again; None if none recovers moves."""
    if first.lost_at is None:
        return None
    lowest = max(first.lost_at - LOOK_BACK, 0)
    reader, at_slip = _Reader(start, takebacks), {}
    for index, (line, event) in enumerate(events[:first.lost_at + 1]):
        if index >= lowest:
            at_slip[index] = _copy(reader)
        reader.feed(index, line, event)
    plies, made = first.plies, _moves(first)
    # lost until a new game was set up: a reading that has a later place land on a full square left out a real
    # report (the lift of a piece taken off the board as the pieces were set up); anything goes otherwise
    skipped = set(first.skipped) if followed(first.recognizer) else None
    little_after = _pieces_moved(events[first.lost_at:]) < MIN_LOST  # play went on, but only just
    furthest, further = None, plies + FOLLOWED_ON  # a trial lost again: (index, events, slip), plies to beat
    for index in range(first.lost_at, lowest - 1, -1):
        for trial, slip in _trials(events, index):
            reader = _copy(at_slip[index])
            try:
                for later in range(index, len(trial)):
                    reader.feed(later, *trial[later], trial=True)
            except _GaveUp:
                if (reached := _plies(reader.recognizer)) >= further and _kept(reader.skipped, skipped):
                    furthest, further = (index, trial, slip), reached + 1
                continue
            reading = reader.finish(trial, end_line)
            if not _kept(reading.skipped, skipped):
                continue
            if (not takebacks or little_after) and _moves(reading)[:plies] != made:
                # with takebacks off, no move once made may be undone unseen; with little play after the
                # loss, the few moves found after it are no reason to rewrite the game before it (an
                # illegal move at the end would be explained away by leaving out a move made before it)
                continue
            if followed(reading.recognizer) and reading.plies > plies:
                return trial, reading, slip
            if reading.plies >= further:  # lost again, or unexplained only where play stopped
                furthest, further = (index, trial, slip), reading.plies + 1
    if furthest is None or not takebacks or little_after:
        return None
    index, trial, slip = furthest
    reader = _copy(at_slip[index])
    for later in range(index, len(trial)):
        reader.feed(later, *trial[later])
    reading = reader.finish(trial, end_line)
    further_on = reading.lost_at is None or reading.lost_at > first.lost_at
    kept = further_on and reading.plies >= plies + FOLLOWED_ON and _kept(reading.skipped, skipped)
    return (trial, reading, slip) if kept else None


def _kept(skipped: list[tuple[int, chess.Square]], allowed: set[tuple[int, chess.Square]] | None) -> bool:
    """Are the places a reading skipped (on full squares) among those `allowed`, if any are set?"""
    return allowed is None or set(skipped) <= allowed


def _plies(recognizer: Recognizer) -> int:
    return sum(len(game.end().board().move_stack) for game in recognizer.games())


def _moves(reading: Reading) -> list[chess.Move]:
    return [move for game in reading.recognizer.games() for move in game.mainline_moves()]


def _copy(reader: _Reader) -> _Reader:
    """A copy to read on from. The games already archived are finished and shared: a long game is a tree of
    nodes too deep for `deepcopy`."""
    return deepcopy(reader, {id(game): game for game in reader.recognizer.archive})


def _trials(events: Sequence[tuple[int, SquareEvent]],
            index: int) -> Iterator[tuple[list[tuple[int, SquareEvent]], str]]:
    """The event lists with the slip at `index` undone: swapped with the next report, or left out."""
    line, event = events[index]
    if index + 1 < len(events):
        next_line, following = events[index + 1]
        if (isinstance(event, PIECE_EVENTS) and isinstance(following, PIECE_EVENTS)
                and following.t - event.t <= SWAP_SECONDS):
            lines = f"line {line}" if line == next_line else f"lines {line} and {next_line}"
            swapped = [(next_line, replace(following, t=event.t)), (line, replace(event, t=following.t))]
            yield ([*events[:index], *swapped, *events[index + 2:]],
                   f"the two reports of {lines} taken the other way round")
    if isinstance(event, SLIPS) and not _lands_lifted(events, index):
        yield [*events[:index], *events[index + 1:]], f"the report of line {line} left out"


def _lands_lifted(events: Sequence[tuple[int, SquareEvent]], index: int) -> bool:
    """Is the report at `index` a place right after a lift from another square: a hand's move (an illegal
    one, say), which no sensor slip made? Left out, its piece would stay in hand and read as anything."""
    event = events[index][1]
    if not isinstance(event, PiecePlaced):
        return False
    pieces = (events[at][1] for at in range(index - 1, -1, -1) if isinstance(events[at][1], PIECE_EVENTS))
    before = next(pieces, None)  # the piece report before it, found without copying the events before it
    return isinstance(before, PieceLifted) and before.square != event.square


def _lost_from(recognizer: Recognizer, unexplained_since: int, after_move: int) -> int | None:
    """Where a reading lost the board: where it became unexplained for good, or after the last move it
    made when it ends with pieces read as in hand for good."""
    if recognizer.mode is Mode.ILLEGAL:
        return unexplained_since
    if recognizer.mode is not Mode.GAME_OVER and away_from_game(recognizer) is not None:
        return after_move
    return None


def _play_went_on(events: Sequence[tuple[int, SquareEvent]]) -> bool:
    """Did play go on after the loss (`events` begin with the report that lost the board): a clock press
    after a piece was placed since, a piece moved after a press, or many pieces moved? Less is the move
    that lost it pressed as made (an illegal move), a king laid down to resign, or a move the recording cut
    off, which lost nothing."""
    return clocked_on(events) or _pieces_moved(events) >= MIN_LOST


def clocked_on(events: Sequence[tuple[int, SquareEvent]]) -> bool:
    """Did the clock show play going on after the first of `events`: a press after a piece was placed
    since, or a piece moved after a press? Pieces set up again by hand press no clock."""
    placed = pressed = False
    for _, event in events[1:]:
        if isinstance(event, ButtonPressed) and event.button in CLOCK_BUTTONS:
            if placed:
                return True
            pressed = True
        elif isinstance(event, PIECE_EVENTS):
            if pressed:
                return True
            placed = placed or isinstance(event, PiecePlaced)
    return False


def _pieces_moved(events: Sequence[tuple[int, SquareEvent]]) -> int:
    return sum(isinstance(event, PIECE_EVENTS) for _, event in events)


def away_from_game(recognizer: Recognizer) -> IllegalPosition | None:
    """What would bring the board back to the game's position, if more than a piece lifted as the
    recording stopped (pieces read as in hand for good: moves the recognizer never saw)."""
    to_empty, to_fill = recognizer.squares_to_fix()
    if len(to_empty) + len(to_fill) <= 1:
        return None
    return IllegalPosition(to_empty=to_empty, to_fill=to_fill)


def followed(recognizer: Recognizer) -> bool:
    """Did the recognizer follow the board to the end of the capture?"""
    return recognizer.mode is Mode.GAME_OVER or (
        recognizer.mode is not Mode.ILLEGAL and away_from_game(recognizer) is None)
