"""Full snapshots of the board (dumps) read against the game.

A board sends a full snapshot when asked (the first report, a resync after
the link dropped) or as its only kind of report. `Dumps` reads one: which way
round the board stands, the moves a reconnect shows were made meanwhile, the
changes a board that sends only snapshots made, or nothing at all when the
snapshot shows what the sensors already showed. It is a part of `Recognizer`
(machine.py) kept apart, like `Hindsight` and `Overlap`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

import chess

from eboard960.castling import castling_squares
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.recognizer.explain import (
    START_OCCUPANCY,
    after_move,
    agrees,
    is_partial,
    reads_as,
    successors,
    taken_earlier,
    touched_squares,
)
from eboard960.recognizer.overlap import Overlap
from eboard960.recognizer.table import Mode

V = TypeVar("V")


def _turned(squares: dict[chess.Square, V]) -> dict[chess.Square, V]:
    """A map of squares as a board turned round reports them."""
    return {63 - square: value for square, value in squares.items()}


def _turned_bits(occupied: chess.Bitboard) -> chess.Bitboard:
    """An occupancy as a board turned round reports it."""
    return chess.flip_vertical(chess.flip_horizontal(occupied))


def is_unpromoted_pawn(square: chess.Square, piece: chess.Piece | None) -> bool:
    """Is `piece` a pawn named on the last rank: a promoting pawn not yet swapped, which names no piece?"""
    on_last_rank = bool(chess.BB_SQUARES[square] & chess.BB_BACKRANKS)
    return on_last_rank and piece is not None and piece.piece_type == chess.PAWN


def offline_line(board: chess.Board, occupied: chess.Bitboard,
                 pieces: dict[chess.Square, chess.Piece]) -> list[chess.Move] | None:
    """The moves made while the link was down that lead from `board` to a resync snapshot: up to three (a
    longer drop; which order they came in is a guess)."""
    line = successors(board, occupied, pieces, depth=2) or successors(board, occupied, pieces, depth=3,
                                                                      narrow=True)
    if line is None and occupied.bit_count() == board.occupied.bit_count():
        # no capture, so the line may empty a square and fill it again; with one, such a line would
        # explain a piece in hand by the other side's capture in between
        line = successors(board, occupied, pieces, depth=3, keep=_no_round_trip)
    return line


def _no_round_trip(line: list[chess.Move]) -> bool:
    """Is no piece moved out and back? That explains nothing but the other side's move out of turn."""
    return not (len(line) == 3 and line[2].from_square == line[0].to_square
                and line[2].to_square == line[0].from_square)


class Dumps(Overlap):
    """The layer of `Recognizer` that reads full snapshots (`_snapshot`) and keeps the way round the board
    stands (`rotated`); a part of it kept apart, like `Overlap` and `Hindsight`."""

    start: chess.Board  # the game's starting position
    rotated: bool  # the board is turned round: black nearest the connector
    _detect_rotation: bool  # the way round may still be told, before the game's first move
    _reconnected: bool  # the link dropped since the last snapshot: reports may be lost
    _first_shown: int  # the event that showed the open move, or the first one it replaced
    _after_open: chess.Board | None
    _late_promotion: bool
    _either_press: chess.PieceType | None
    _lift_on_unseen: PieceLifted | None
    _other_side_lifted: float | None
    # the recognizer's methods it calls, as it calls them
    _decide_pending: Callable[[BoardSnapshot], None]
    _piece_expected: Callable[[chess.Square], chess.Piece | None]
    _set_up: Callable[[], None]
    _misplace: Callable[[], None]
    _close_open: Callable[[], None]
    _other_side_began: Callable[[PieceLifted | PiecePlaced | None], None]

    if TYPE_CHECKING:
        @property
        def expected(self) -> chess.Board: ...

    def _snapshot(self, snapshot: BoardSnapshot) -> None:
        occupied = snapshot.occupied
        pieces = {square: piece for square, piece in snapshot.pieces.items()
                  if not is_unpromoted_pawn(square, piece)}
        if self.rotated:
            occupied, pieces = _turned_bits(occupied), _turned(pieces)
        if self._detect_rotation and pieces and self._turned_round(pieces):
            occupied, pieces = _turned_bits(occupied), _turned(pieces)
        resync, self._resync = self._resync, False
        reconnected, self._reconnected = self._reconnected, False
        if not reconnected and occupied == self._occupied and all(
                self._pieces.get(square) == piece for square, piece in pieces.items()):
            return  # what the sensors showed already: a dump mid-move (a takeback's) changes nothing
        if resync:
            self._unseen_capture = self._held_capture = self._lift_on_unseen = None  # the snapshot shows it
            if self._sets_down_swapped(occupied):
                self._report_changes(occupied, pieces, snapshot.t)  # read as the places it stands for
                return
        if not resync and self.mode is not Mode.GAME_OVER and not (
                occupied == self._occupied and self._shows_expected(occupied, pieces)):
            self._report_changes(occupied, pieces, snapshot.t)  # reports were lost, or the board sends
            return  # only snapshots (a dump showing what the events did, mid-move, reports nothing)
        self._decide_pending(snapshot)
        self._t = snapshot.t
        sensed, known = self._occupied, self._pieces
        self._occupied, self._pieces = occupied, pieces
        self._index += 1
        if self.mode is Mode.GAME_OVER and occupied == START_OCCUPANCY:
            self._fire("set_up")
            return
        if self._shows_expected(occupied, pieces):  # nothing moved: nobody's first event
            if self.mode is not Mode.GAME_OVER:
                self._rebase()
            if self.mode is Mode.ILLEGAL:
                self._fire("restore")
            return
        self._late_promotion, self._either_press = False, None
        if self.mode is Mode.GAME_OVER:
            return
        expected = self.expected
        if self._open is not None and reads_as(self._board, occupied, pieces):
            self._rebase()
            self._fire("retract")  # the open move was put back while the link was down
            return
        line, halfway = self._offline_moves(occupied, pieces), self._caught_halfway(occupied, pieces)
        if line is not None and halfway and (len(line) > 1 or self._one_of_several(line[0])):
            line = None  # a move under way as the link came back (no move open): the rest of it comes live
        if line is not None:
            self._make_offline(line)
            return
        if occupied == START_OCCUPANCY:
            self._set_up()
            return
        if is_partial(expected, occupied) or halfway or (
                self._open is not None and is_partial(self._board, occupied)):
            self._occupied, self._pieces = sensed, known
            self._report_changes(occupied, pieces, snapshot.t)  # a move caught halfway after a reconnect
            return
        self._misplace()

    def _caught_halfway(self, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece]) -> bool:
        """Does a reconnect's snapshot, with no move open, show squares emptied and nothing else (every piece
        it names where it stood): those of one legal move in hand (a piece of the mover's, an en passant, a
        castling), or a victim's taken first? Moves made while the link was down would have filled as many
        squares, but for a castling that moves no sensor."""
        board = self._board
        vacated = board.occupied & ~occupied
        victim = vacated.bit_count() == 1 and any(board.generate_legal_captures(chess.BB_ALL, vacated))
        unmoved = not occupied & ~board.occupied and agrees(board, pieces)
        return self._open is None and unmoved and (victim or is_partial(board, occupied))

    def _one_of_several(self, capture: chess.Move) -> bool:
        """Could the piece of `capture` (a snapshot showing only its square empty) take on another square too
        (an en passant among them)? Which one it took, if any, is then a guess; the landing will show."""
        board = self._board
        captures = board.generate_legal_captures(chess.BB_SQUARES[capture.from_square])
        return len({move.to_square for move in captures}) > 1

    def _offline_moves(self, occupied: chess.Bitboard,
                       pieces: dict[chess.Square, chess.Piece]) -> list[chess.Move] | None:
        """The moves made while the link was down that the board shows: the open move first if the board
        allows it (the move already seen is kept), else from the game, unless the open move stands."""
        if self._open is not None:
            after = offline_line(self._after(), occupied, pieces)
            if after is not None:
                return [self._open, *after]
        return None if self._open_stands(occupied) else offline_line(self._board, occupied, pieces)

    def _make_offline(self, line: list[chess.Move]) -> None:
        """Make the moves made while the link was down, the last open; a move open before is made as the
        line's first (no longer open, nor replacing any) or replaced by it."""
        if self._open is not None:
            press = self._promotion
            if press is not None and press.nth >= self._first_shown and not self._open.promotion:
                self._promotion = press._replace(nth=self._index)  # for the line's promotion, made now
            self._close_open()
        self._make_line(line, open_last=True)  # a button pressed before the drop chooses a promotion

    def _open_stands(self, occupied: chess.Bitboard) -> bool:
        """Does a reconnect's snapshot show the open move on all its squares, with the difference elsewhere?
        A piece knocked while the link was down is then misplaced; it is no reason to read the move the
        events showed as another one, changed unseen (a change of mind moves the open move's pieces)."""
        move = self._open
        if move is None or self._open_kind is Mode.PROVISIONAL:
            return False  # a king step may have become a castling, whose rook squares lie elsewhere
        emptied, filled = touched_squares(self._board, move)
        differs = occupied ^ self._after().occupied
        return bool(differs) and not differs & (emptied | filled)

    def _sets_down_swapped(self, occupied: chess.Bitboard) -> bool:
        """Does a reconnect's snapshot fill again just the squares of the mover's king and a rook that were in
        hand together when the link dropped, squares a transposition castling swaps? The spec's king and
        rook in hand together: the castling, finished while the link was down, though the occupancy is the
        game's."""
        if self.mode is not Mode.PLAYING or self._open is not None or occupied != self._board.occupied:
            return False
        returned = occupied & ~self._occupied
        segment = self._segment
        return any(shape.is_transposition and returned == shape.pair
                   and segment.held_together(shape.king_from, shape.rook_from) for shape in self._shapes)

    def _shows_expected(self, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece]) -> bool:
        return reads_as(self.expected, occupied, pieces)

    def _report_changes(
        self, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece], t: float
    ) -> None:
        """Read a snapshot's change from what the sensors showed as the reports that make it, the side to
        move's lifts first, then its places, then the other side's (`_other_sides`), each an event of its
        own: a board that sends only snapshots (or one whose reports were cut on the wire) then reads as one
        that reports each change, and a move under way goes on."""
        events, changed = self._changes(occupied, pieces, t)
        if events and (captures := self._captured_between_scans(occupied, pieces)) is not None:
            if self._open is not None:
                self._other_side_began(events[0])  # its lift made the open move final: the scan shows more
            if self._open is None and self._board.is_legal(captures[0]):
                self._make_line(captures)
                self._segment = self._in_hand(self._board.occupied)  # the reply's piece, its victim
                if self._early_lift is not None:
                    self._release_early()  # the reply's lift, held while the capturer seemed in hand
                events, changed = self._changes(occupied, pieces, t)
        for event in events:
            if self._map(event.square) in changed:
                self._step(event)  # a piece named anew: no hand, nothing to hold back
            else:
                self._take(event)
        for square in [square for square in self._pieces if square not in pieces]:
            del self._pieces[square]  # a name the board no longer gives (an earlier dump's) may be stale

    def _changes(self, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece],
                 t: float) -> tuple[list[PieceLifted | PiecePlaced], list[chess.Square]]:
        """The reports that make a snapshot's change (`_report_changes`), in that order, and the squares whose
        piece is named anew."""
        sensed = self._occupied
        if self._early_lift is not None:
            sensed &= ~chess.BB_SQUARES[self._map(self._early_lift.event.square)]  # lifted, its reading held
        changed = [square for square in chess.scan_forward(sensed & occupied)
                   if pieces.get(square) not in (None, self._piece_expected(square))
                   and self._may_come(square, pieces[square], occupied)]
        for held in (self._paused, self._shared):
            if held is not None:
                sensed |= chess.BB_SQUARES[self._map(held.square)]  # placed, its reading held
        def lifts(squares: Iterable[chess.Square]) -> list[PieceLifted | PiecePlaced]:
            return [PieceLifted(square=self._map(square), t=t) for square in squares]

        def places(squares: Iterable[chess.Square]) -> list[PieceLifted | PiecePlaced]:
            return [PiecePlaced(square=self._map(square), piece=pieces.get(square), t=t)
                    for square in squares]

        vacated, filled = sensed & ~occupied, occupied & ~sensed
        left_later, filled_later = self._other_sides(vacated, filled, pieces)
        events = [*lifts([*chess.scan_forward(vacated & ~left_later), *changed]),
                  *places([*chess.scan_forward(filled & ~filled_later), *changed]),
                  *lifts(chess.scan_forward(left_later)), *places(chess.scan_forward(filled_later))]
        return events, changed

    def _captured_between_scans(self, occupied: chess.Bitboard,
                                pieces: dict[chess.Square, chess.Piece]) -> list[chess.Move] | None:
        """A snapshot that shows the other side's reply made while a piece of the mover's, no move open, is
        still in hand: the only capture that piece can make, its victim taken off and the capturer set down
        between two scans, so that its square never showed empty (`_capture_in_one_scan`); and so on for a
        piece of the other side's still in hand, captures answered by captures, up to three. The reply's
        lift may have come in an earlier snapshot: held as taken up early (`_take_held`), or read as the
        mover's, the reply's victim taken off first. The captures, if one line alone shows the board."""
        sensed, decided = self._occupied, self._open is None and self.mode is Mode.PLAYING
        pending = self._open is not None and self._other_side_lifted is not None  # final at the next event
        board = self._after() if pending else self._board
        if not (decided or pending) or self._paused or self._shared or sensed & ~board.occupied:
            return None
        if not occupied & ~sensed:
            return None  # the reply not yet made: the other side may have taken its piece up early (bullet)
        lines = self._captures_unseen(board, board.occupied & ~(sensed & occupied), occupied, pieces, depth=3)
        return lines[0] if len(lines) == 1 else None

    def _captures_unseen(self, board: chess.Board, in_hand: chess.Bitboard, occupied: chess.Bitboard,
                         pieces: dict[chess.Square, chess.Piece], depth: int) -> list[list[chess.Move]]:
        """The lines of `_captured_between_scans` from `board`, with `in_hand` its pieces off the sensors or
        the snapshot (a lift held as taken up early too; a square the reply refilled)."""
        sensed, lines = self._occupied, []
        landed = occupied & ~sensed
        for origin in chess.scan_forward(in_hand & board.occupied_co[board.turn]):
            capture = self._only_capture(board, origin, board.occupied_co[not board.turn] & sensed)
            if capture is None or not occupied & chess.BB_SQUARES[capture.to_square] or any(
                    board.generate_legal_moves(chess.BB_SQUARES[origin], landed)):
                continue  # its victim's square now empty, or the piece may have landed where one was placed
            after, held = after_move(board, capture), in_hand & ~chess.BB_SQUARES[origin]
            lifted = held | (sensed & ~occupied)  # the reply's, its victim's too
            if lifted & after.occupied_co[after.turn] and successors(after, occupied, pieces, depth=1):
                lines.append([capture])
            elif depth > 1:
                further = self._captures_unseen(after, held, occupied, pieces, depth - 1)
                lines += [[capture, *line] for line in further]
        return lines

    def _other_sides(self, vacated: chess.Bitboard, filled: chess.Bitboard,
                     pieces: dict[chess.Square, chess.Piece]) -> tuple[chess.Bitboard, chess.Bitboard]:
        """Of a snapshot's changes, those of the side not to move: the squares its pieces left (but for
        pieces the side to move can take, victims taken off first) and those filled by no piece of the side
        to move (named the other side's, or where none of its pieces off the board can go). They are read
        after the side to move's, as one scan may catch a move and the reply to it. With a move open whose
        piece was picked up again, its side is still moving, unless the scan shows the other side's reply."""
        position = self.expected
        if self._open is not None and touched_squares(self._board, self._open)[1] & vacated and not (
                self._replied_in_scan(position, vacated, filled, pieces)):
            position = self._board
        turn = position.turn
        in_hand = position.occupied_co[turn] & ~(self._occupied & ~vacated)
        landings = 0
        for move in position.generate_legal_moves():
            emptied, to_fill = touched_squares(position, move)
            if emptied & in_hand:
                landings |= to_fill
        theirs = 0
        for square in chess.scan_forward(filled):
            piece = pieces.get(square)
            if piece.color != turn if piece is not None else not landings & chess.BB_SQUARES[square]:
                theirs |= chess.BB_SQUARES[square]
        return vacated & position.occupied_co[not turn] & ~landings, theirs

    @staticmethod
    def _replied_in_scan(position: chess.Board, vacated: chess.Bitboard, filled: chess.Bitboard,
                         pieces: dict[chess.Square, chess.Piece]) -> bool:
        """Does a scan show a move of `position`'s side to move made, from a square it left to one it
        filled, with the piece there named as that side's, if named?"""
        turn = position.turn
        for move in position.generate_legal_moves(from_mask=position.occupied_co[turn] & vacated,
                                                  to_mask=filled):
            named = pieces.get(move.to_square)
            if named is None or named.color == turn:
                return True
        return False

    def _may_come(self, square: chess.Square, piece: chess.Piece, occupied: chess.Bitboard) -> bool:
        """Can `piece` be what a snapshot names on `square`, which stood full: a piece in hand, one of the
        side to move that can go there (placed before its lift) or castle there, a promotion's, or one taken
        earlier put back? Else the name is a misread of the piece standing there, no change; unless the game
        is over and a set-up may be under way."""
        expected = self.expected
        kind, colour = piece.piece_type, piece.color
        in_hand = expected.occupied & ~occupied
        promoting = kind != chess.KING and (
            expected.pieces_mask(chess.PAWN, colour) & in_hand
            or (expected.promoted & chess.BB_SQUARES[square] and expected.color_at(square) == colour))
        if self.mode is Mode.GAME_OVER or promoting or expected.pieces_mask(kind, colour) & in_hand:
            return True
        if colour == expected.turn and any(
                move.promotion == kind or expected.piece_type_at(move.from_square) == kind
                for move in expected.generate_legal_moves(to_mask=chess.BB_SQUARES[square])):
            return True  # placed before its lift
        if colour == expected.turn and kind in (chess.KING, chess.ROOK) and any(
                square == (castled.king_to if kind == chess.KING else castled.rook_to)
                for castled in map(castling_squares, expected.generate_castling_moves())):
            return True  # a castling's, king and rook swapped within one scan
        return taken_earlier(self._board.root(), expected, piece)

    def _sets_up_turned(self, square: chess.Square, named: dict[chess.Square, chess.Piece]) -> bool:
        """Does a piece placed on `square` complete a set-up of the start position turned round: its
        occupancy, every piece `named` (a board that names pieces names each one set up), agreeing with the
        start that way round only? A touch that names one piece decides nothing."""
        filled, start = self._occupied | chess.BB_SQUARES[square], self.start.occupied
        return (filled in (start, _turned_bits(start)) and len(named) == start.bit_count()
                and self._turned_round(named))

    def _turned_round(self, pieces: dict[chess.Square, chess.Piece]) -> bool:
        """Is the board turned round? Decided once the pieces identified so far agree with the start position
        one way round and not the other (a board being set up, or an empty first dump, decides nothing yet),
        or, when a set-up still has a piece wrong (a spare one, two swapped, one misplaced), nearly all of
        eight or more agree one way and hardly any the other; turned, what the sensors showed is turned too.
        A move made fixes the way round."""
        turned = _turned(pieces)
        straight, round_ = agrees(self.start, pieces), agrees(self.start, turned)
        if straight == round_ and len(pieces) >= 8:
            agree, agree_turned = (sum(self.start.piece_at(square) == piece for square, piece in way.items())
                                   for way in (pieces, turned))
            few, most = sorted((agree, agree_turned))
            if 4 * few <= len(pieces) <= 4 * most / 3:
                straight, round_ = agree > agree_turned, agree_turned > agree
        if straight == round_:
            return False
        self._detect_rotation = False
        if round_:
            self._turn()
        return round_

    def _new_game_turned(self) -> bool:
        """Were the pieces of a new game set up the other way round from the last game's (players who change
        colours turn the board)? Nearly all of eight or more pieces named stand on the other colour's half."""
        named = self._pieces
        other_half = sum((chess.square_rank(square) < 4) != piece.color for square, piece in named.items())
        return len(named) >= 8 and 4 * other_half >= 3 * len(named)

    def _turn(self) -> None:
        """The board is turned round from how it was read: what the sensors showed so far turns too."""
        self.rotated = not self.rotated
        self._occupied, self._pieces = _turned_bits(self._occupied), _turned(self._pieces)
        self._lifted_at, self._placed_at = _turned(self._lifted_at), _turned(self._placed_at)
        self._left_at = _turned(self._left_at)
        self._rebase()
