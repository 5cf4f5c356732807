"""Two hands at once, read in the order of the moves.

In bullet the other side takes up the piece of its reply before the mover's
piece has landed. A presence board then shows a move with a piece of the other
side missing, which no legal move explains. `Overlap` holds such a lift back
until the mover's piece lands and reads the two in that order: the landing as
the move, the held lift as the reply begun. The mover's clock pressed while a
sliding piece is up waits for its landing the same way. It is the layer in
front of `Recognizer._step` (machine.py), which reads events one at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, cast

import chess

from eboard960.events import (
    CLOCK_BUTTONS,
    BoardSnapshot,
    ButtonPressed,
    PieceLifted,
    PiecePlaced,
    SquareEvent,
)
from eboard960.recognizer.evidence import SCAN_SECONDS, Segment
from eboard960.recognizer.explain import after_move, with_promotions
from eboard960.recognizer.hindsight import Hindsight
from eboard960.recognizer.table import Mode


class EarlyLift(NamedTuple):
    """The other side's lift made while the mover's piece was in hand, read once that piece lands."""

    event: PieceLifted
    decided: bool  # what the events before it left pending was decided at it then


class Overlap(Hindsight):
    """The layer of `Recognizer` that holds events back (the other side's early lift, the buttons and a place
    that wait with it, a clock pressed mid-slide) and steps them through the recognizer (`_step`, `_apply`)
    in the order the moves were made; a part of it kept apart, like `Dumps` and `Hindsight`."""

    _resync: bool
    # the mover's clock, pressed just after a piece landed that may be the other side's reply placed first
    _held_press: tuple[chess.Move, Segment, chess.Square] | None
    _early_lift: EarlyLift | None
    _held_presses: list[ButtonPressed]  # buttons after it, while it may be a victim's lift
    _slide_press: ButtonPressed | None  # the mover's clock pressed mid-slide, stepped once the piece lands
    _paused: PiecePlaced | None  # a place on the way to take the held piece: a landing, or a slide going on
    _shared: PiecePlaced | None  # a place the mover's piece and the held one can both make (`_both_land`)
    _place_on_held: PiecePlaced | None  # a place after a clock press held with a capture, for the next event
    # the recognizer's methods it calls, as it calls them
    _step: Callable[..., None]  # (event, *, may_hold=False)
    _apply: Callable[[PieceLifted | PiecePlaced | ButtonPressed], None]
    _hand_may_take: Callable[[chess.Board, chess.Square], bool]
    _castling_in_hand: Callable[[], bool]

    def _take(self, event: SquareEvent) -> None:
        """Step `event`; but the mover's clock pressed during a slide, its piece back in hand, waits for that
        piece to land (`_waits_with_slide`): the press makes final the square it lands on, not the one it
        paused on. Any other event steps the press first."""
        press = self._slide_press
        if press is not None and not self._waits_with_slide(event):
            self._slide_press = None
            self._take_held(press)
        if type(event) is ButtonPressed and CLOCK_BUTTONS.get(event.button) == self._board.turn and (
                self._sliding()):
            self._slide_press = event
            return
        self._take_held(event)
        if self._early_lift is None:
            self._release_slide_press()

    def _waits_with_slide(self, event: SquareEvent) -> bool:
        """Does the mover's clock, pressed mid-slide, wait on past `event`: a place further on the slide's
        line (its landing, or one more square passed over), the other side's reply taken up before it
        (`_taken_up_early`), or a snapshot read as the changes it shows? Not a place short of where the
        piece paused: the piece there was lifted as a victim, and the press came late (an en passant)."""
        if type(event) is PiecePlaced:
            move = self._open
            assert move is not None  # a press waits only during a slide
            return self._further_on(move, self._map(event.square))
        if type(event) is PieceLifted:
            return self._early_lift is None and self._taken_up_early(event)
        return type(event) is BoardSnapshot and not self._resync and self.mode is not Mode.GAME_OVER

    def _release_slide_press(self) -> None:
        """Step the mover's clock pressed mid-slide once its piece is no longer in hand."""
        press = self._slide_press
        if press is not None and not self._sliding():
            self._slide_press = None
            self._step(press)

    def _take_held(self, event: SquareEvent) -> None:
        """Step `event`; but the other side's lift made while the mover's piece was in hand (bullet: the reply
        taken up early) waits (`_step`) until that piece has landed, and the two are read in that order. An
        event that is not the mover's (`_by_mover`) steps the held lift first. A lift the piece in hand could
        take may be its victim's: buttons after it wait too, as what the board shows decides a press, and a
        place on the way to it waits for the next event (`_slide_goes_on`); so does a place either hand
        could have made (`_both_land`)."""
        held = self._early_lift
        if held is not None:
            early = self._map(held.event.square)
            if type(event) is BoardSnapshot and self._reads_on(event, held.event.square):
                self._step(event)  # its changes are taken one by one (`_report_changes`)
                return
            shared, self._shared = self._shared, None
            if shared is not None:
                if type(event) is PiecePlaced:
                    self._land(shared, held)  # a piece still in hand lands: the press came early
                else:
                    self._release_early()  # the capture made, then the held piece's move
                    self._step(shared)
                self._take_held(event)
                return
            if self._victim_or_reply(event, early):
                self._release_early()  # a capture with the victim taken first, the paused piece its victim
                self._take_held(event)
                return
            paused, self._paused = self._paused, None
            if paused is not None:
                if self._slide_goes_on(event, paused, early):
                    self._release_early()  # on its way to take the held piece: it was the victim
                    self._step(paused)
                else:
                    self._land(paused, held)  # it stayed where it paused: the move
                self._take_held(event)
                return
            if type(event) is ButtonPressed and self._hand_may_take(self._board, early):
                self._held_presses.append(event)  # pressed with a victim lifted, or not: the landing tells
                return
            if self._on_the_way(event, early):
                self._paused = cast(PiecePlaced, event)  # the next event tells a landing from a slide
                return
            if self._both_land(event, early):
                self._shared = cast(PiecePlaced, event)  # the next event tells whose landing it is
                return
            if self._by_mover(event, early):
                self._land(event, held)
                return
            self._release_early()
        pending = self._unseen_capture or self._held_capture
        if pending is not None and type(event) is PieceLifted and (
                self._map(event.square) != pending.to_square and self._taken_up_early(event)):
            # the press held for the mover's next event: it decides both
            self._early_lift = EarlyLift(event, decided=False)
            return
        self._step(event, may_hold=True)

    def _land(self, event: SquareEvent, held: EarlyLift) -> None:
        """Step the mover's `event` and the buttons held before it, then the `held` lift of the other side's,
        unless the mover's move is not complete yet (a king step that may be the first half of a castling is:
        the spec makes it final once the other side begins)."""
        self._early_lift = None
        for press in self._held_presses:
            self._step(press)
        self._held_presses.clear()
        self._step(event)
        self._release_slide_press()
        in_hand = self._mover_in_hand()
        if self.mode is Mode.CASTLING or (self.mode is Mode.PLAYING and in_hand):
            self._early_lift = held
        else:
            self._step(PieceLifted(square=held.event.square, t=self._t))

    def _reads_on(self, snapshot: BoardSnapshot, reported: chess.Square) -> bool:
        """Is `snapshot` read as the changes it shows (`_report_changes`), with the square of the held lift
        (as the board reported it) still empty: a board that sends a snapshot at every change, the held lift
        kept?"""
        return not self._resync and self.mode is not Mode.GAME_OVER and (
            not snapshot.occupied & chess.BB_SQUARES[reported])

    def _release_early(self) -> None:
        """Step a lift held back by `_step` as it came (what it decided stays decided), then the buttons held
        after it: the next event is not the mover's, or the input ended (a piece paused on its way to the
        held one stayed: the move; a place either could make is the held piece's, after the capture)."""
        paused, self._paused = self._paused, None
        if paused is not None and self._early_lift is not None:
            self._land(paused, self._early_lift)
        shared, self._shared = self._shared, None
        press, self._slide_press = self._slide_press, None
        if press is not None:
            self._step(press)
        held, self._early_lift = self._early_lift, None
        if held is not None:
            early, decided = held
            if decided:
                self._apply(early)
            else:
                self._step(early)
        for press in self._held_presses:
            self._step(press)
        self._held_presses.clear()
        if shared is not None:
            self._step(shared)  # at rest: the capture made, then the held piece's move

    def _taken_up_early(self, event: SquareEvent) -> bool:
        """Is `event` the lift of a piece of the other side with the mover's piece in hand, no move of the
        mover's on the board yet (but half a castling with king and rook in hand together, or a slide's piece
        up again: `_sliding`, and `_victim_or_reply`): the other side's move begun early, or a victim (where
        the mover's piece lands says which)? Not where a capture may be on the board already: a square of the
        other side's that bounced while the piece was in hand, or one filled before its lift, not longer
        before than a capture's place can come (placed first, `_left_late`)."""
        if type(event) is not PieceLifted or self._held_press or self._held_undo or self._place_on_held:
            return False
        if not ((self.mode is Mode.PLAYING and self._open is None) or self._sliding()):
            return False
        board, occupied, square = self._board, self._occupied, self._map(event.square)
        in_hand = self._mover_in_hand()
        if not in_hand or self._landed_unheld() or not (
                board.occupied_co[not board.turn] & occupied & chess.BB_SQUARES[square]):
            return False
        if any(board.color_at(bounced) is not board.turn and empty & in_hand
               for bounced, empty in self._segment.bounced.items()):
            return False  # taken quicker than a bounce
        if self._held_capture is not None or self._unseen_capture is not None:
            return True  # a press held for the mover's next event: that event decides it too
        latent = self._latent_capture(occupied, with_reply=False)
        return latent is None or self._left_late(latent)

    def _sliding(self) -> bool:
        """Is the open move (no capture, no castling) back in hand, its piece picked up again from where it
        landed: a slide going on?"""
        move = self._open
        return self.mode is Mode.MOVED and move is not None and not self._board.is_capture(move) and not (
            self._board.is_castling(move) or self._occupied & chess.BB_SQUARES[move.to_square])

    def _landed_unheld(self) -> bool:
        """Has a piece of the mover's landed where none stood, other than half a castling whose king and rook
        were in hand together (the rest of it still to land)?"""
        landed = self._occupied & ~self._board.occupied
        if not landed or not self._castling_in_hand():
            return bool(landed)
        return not any(not landed & ~shape.targets for shape in self._shapes)

    def _victim_or_reply(self, event: SquareEvent, early: chess.Square) -> bool:
        """With a slide going on and the piece from `early` held, which can take where the slide paused: does
        `event` say the paused piece was that capture's victim, taken first? Anything but a place further on
        the slide's line does: only the sliding piece can land there."""
        move = self._open
        if not self._sliding() or move is None or not with_promotions(self._after(), early, move.to_square):
            return False
        return type(event) is not PiecePlaced or not self._further_on(move, self._map(event.square))

    @staticmethod
    def _further_on(move: chess.Move, square: chess.Square) -> bool:
        """Is `square` further along the line of a slide than `move`, where it paused?"""
        return bool(chess.between(move.from_square, square) & chess.BB_SQUARES[move.to_square])

    def _on_the_way(self, event: SquareEvent, early: chess.Square) -> bool:
        """Is `event` a place where a piece in hand can go, on its way to take the held piece from `early`: a
        move, or a pause in a slide toward that capture? The next event tells (`_take_held`)."""
        if type(event) is not PiecePlaced:
            return False
        board, square = self._board, self._map(event.square)
        moves = list(board.generate_legal_moves(from_mask=self._mover_in_hand()))
        return any(move.to_square == square for move in moves) and any(
            move.to_square == early and chess.between(move.from_square, early) & chess.BB_SQUARES[square]
            for move in moves)

    def _slide_goes_on(self, event: SquareEvent, paused: PiecePlaced, early: chess.Square) -> bool:
        """After a place on the way to take the held piece from `early` (`_on_the_way`), does `event` go on
        toward it: its piece lifted from there, or set down further on or on `early` itself within the
        board's scan (a board reporting each square before the last let go; later, such a place is the held
        piece's own)? Where the held piece can take on the square paused on, a lift from there later than the
        scan is that capture's victim taken first."""
        quick = event.t - paused.t <= SCAN_SECONDS
        if type(event) is PieceLifted:
            return event.square == paused.square and (quick or not self._takes_paused(paused, early))
        return type(event) is PiecePlaced and quick and (
            self._map(event.square) == early or self._on_the_way(event, early))

    def _takes_paused(self, paused: PiecePlaced, early: chess.Square) -> bool:
        """Can the held piece from `early` take the mover's piece where it paused, were that the move?"""
        board, square = self._board, self._map(paused.square)
        in_hand = self._mover_in_hand()
        return any(with_promotions(after_move(board, move), early, square)
                   for move in board.generate_legal_moves(in_hand, chess.BB_SQUARES[square]))

    def _both_land(self, event: SquareEvent, early: chess.Square) -> bool:
        """Can both a piece in hand and the held piece from `early` make the place `event`, with a press held
        for the mover's next event: the press early and the mover's landing, or the capture the board showed
        at it made and the held piece's move? The next event tells: a place says a piece is still in hand."""
        pending = self._unseen_capture or self._held_capture
        if type(event) is not PiecePlaced or pending is None:
            return False
        board, square = self._board, self._map(event.square)
        in_hand = self._mover_in_hand()
        return bool(with_promotions(after_move(board, pending), early, square)) and any(
            board.generate_legal_moves(in_hand, chess.BB_SQUARES[square]))

    def _by_mover(self, event: SquareEvent, early: chess.Square) -> bool:
        """Is `event` the mover's, with the other side's piece from `early` held back: a button, a lift of one
        of its pieces, or a place where one in hand can go (a place on the way to take the held piece has
        waited already: `_on_the_way`)? Another lift of the other side's is not: the order in which victims
        were lifted tells which one was taken."""
        if type(event) is ButtonPressed:
            return True  # the mover's clock pressed with its piece in hand, or the other side's pressed late
        if type(event) is not PieceLifted and type(event) is not PiecePlaced:
            return False
        board, square = self._board, self._map(event.square)
        if type(event) is PieceLifted:
            return bool(board.occupied_co[board.turn] & chess.BB_SQUARES[square])
        if any(square in (shape.king_to, shape.rook_to) for shape in self._shapes):
            return True
        pending = self._unseen_capture or self._held_capture
        if pending is not None and with_promotions(after_move(board, pending), early, square):
            return False  # the capture made, the held piece's move: the press was not early
        moves = list(board.generate_legal_moves(from_mask=self._mover_in_hand()))
        if any(board.is_en_passant(move) and (move.to_square, move.to_square ^ 8) == (square, early)
               for move in moves):
            return False  # the pawn that takes it en passant landing
        return square != early and any(move.to_square == square for move in moves)
