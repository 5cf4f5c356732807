"""What the sensors did since the board last showed a reference position.

Occupancy alone cannot tell a transposition castling from nothing, or a
capture from a lifted piece; the order of events can. A `Segment` keeps what
the readings need of it: which squares were emptied, and which were empty
together while two or more pieces were in the air; which bounced, and what
was full at each landing; and when each square was last emptied and filled.
The timings that tell a bounce, a knock and a capture apart live here too.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

BOUNCE_SECONDS = 0.25  # a lift and place of one square this close together is a sensor bounce
# the board's scan alone (the samples: at most 0.27 s) may report a piece's place before its lift; a hand
# lifts again only later than this
SCAN_SECONDS = 0.3
# quicker than any bounce the samples show (26 ms and up): a victim's square emptied and filled this fast is
# one piece replacing another, a board that (all but) skipped the victim's empty state
SWAP_SECONDS = 0.02
# a victim taken up and the capturer set down in its place take a hand at least this long: slower than any
# bounce the samples show (at most 0.144 s), quicker than their captures (0.34 s and up)
CAPTURE_SECONDS = 0.15


def knocked(lifted_at: float | None, placed_at: float | None) -> bool:
    """Was a square filled again within `BOUNCE_SECONDS` of its lift, as a knocked piece is put back? Not in
    the same report: a board that sees one piece replace another reports the lift and the place at once."""
    return lifted_at is not None and placed_at is not None and 0.0 < placed_at - lifted_at <= BOUNCE_SECONDS


def placed_before_lift(landed_at: float | None, left_at: float | None) -> bool:
    """Was a square filled at most `SCAN_SECONDS` before a piece left its own: the board's scan reporting that
    piece's place before its lift?"""
    return landed_at is not None and left_at is not None and 0.0 <= left_at - landed_at <= SCAN_SECONDS


class Lift(NamedTuple):
    """The last lift, kept to tell a bounce or a knock (the same square filled again soon) from a move."""

    square: chess.Square
    t: float
    nth: int  # the recognizer's `_index` once it was read: the next lift or place is `nth + 1`
    piece: chess.Piece | None  # the piece that stood there, as far as the recognizer knows


class FinalLift(NamedTuple):
    """The other side's lift that made the last move final, kept in case its piece was only knocked."""

    square: chess.Square
    t: float
    plies: int  # the moves made then
    piece: chess.Piece | None  # the piece that stood there, as far as the recognizer knows


class PromotionPress(NamedTuple):
    """A promotion button, kept until the promotion it chose is final."""

    piece: chess.PieceType
    nth: int  # the recognizer's `_index` at the press: it counts for moves shown after it
    spare: bool  # pressed once the open promotion's piece was chosen: kept for the other side's


class Segment:
    """Evidence gathered from the events since the board showed `base` (an occupancy)."""

    __slots__ = ("base", "base_count", "bounced", "ever", "landed", "landings", "left_at", "lifted",
                 "lifted_at", "order", "placed_at", "rebounced", "together", "when_lifted")

    def __init__(self, base: chess.Bitboard) -> None:
        self.base = base
        self.base_count = base.bit_count()
        self.lifted: chess.Bitboard = 0  # since the board last showed `base`
        self.ever: chess.Bitboard = 0  # since `base` was reached, touches included
        self.bounced: dict[chess.Square, chess.Bitboard] = {}  # put back within a bounce: squares empty then
        self.rebounced: chess.Bitboard = 0  # squares that bounced more than once
        # for each square, every square that was full at some moment a piece landed on it
        self.landed: dict[chess.Square, chess.Bitboard] = {}
        self.landings: dict[chess.Square, int] = {}  # how many pieces landed on each square
        self.together: list[chess.Bitboard] = []
        # for each square, every square that was empty at some moment it was emptied
        self.when_lifted: dict[chess.Square, chess.Bitboard] = {}
        self.order: list[chess.Square] = []  # squares by their last lift, oldest first, touches included
        # each square's last lift of a piece and last place on it, touches included (like the recognizer's
        # `_lifted_at` and `_placed_at`, since `base`)
        self.lifted_at: dict[chess.Square, float] = {}
        self.placed_at: dict[chess.Square, float] = {}
        # when each square's piece left: its last lift, or the first of a flicker (lifted, full again within a
        # bounce, lifted again within one)
        self.left_at: dict[chess.Square, float] = {}

    def note_lift(self, square: chess.Square, occupied: chess.Bitboard, t: float) -> None:
        lifted, back = self.lifted_at.get(square), self.placed_at.get(square)
        flickered = back is not None and knocked(lifted, back) and t - back <= BOUNCE_SECONDS
        self.left_at[square] = self.left_at.get(square, t) if flickered else t
        self.lifted_at[square] = t
        self.lifted |= chess.BB_SQUARES[square]
        self.ever |= chess.BB_SQUARES[square]
        self.when_lifted[square] = self.when_lifted.get(square, 0) | (chess.BB_ALL & ~occupied)
        if square in self.order:
            self.order.remove(square)
        self.order.append(square)
        if occupied.bit_count() <= self.base_count - 2:
            vacated = self.base & ~occupied
            if not self.together or vacated != self.together[-1]:
                self.together.append(vacated)

    def note_place(self, square: chess.Square, occupied: chess.Bitboard, t: float) -> None:
        self.placed_at[square] = t
        self.landed[square] = self.landed.get(square, 0) | occupied
        self.landings[square] = self.landings.get(square, 0) + 1

    def rest(self) -> None:
        """The board shows the reference position again: a touch ended, its lifts prove nothing."""
        self.lifted = 0
        self.together.clear()
        self.when_lifted.clear()

    def forget(self, square: chess.Square) -> None:
        """The lift of `square` just now proves no move under way (a touch of a piece only touched).

        It stays in `ever` and `together`: if nothing else explains the board once the
        move is confirmed, a too-quick hand (a victim taken off and the capturer put down
        within the bounce time) is still read as the capture or castling it was.
        """
        self.lifted &= ~chess.BB_SQUARES[square]
        if square in self.order:  # and it is the least likely victim
            self.order.remove(square)
            self.order.insert(0, square)

    def bounce(self, square: chess.Square, occupied: chess.Bitboard) -> None:
        """A sensor bounce of `square`, put back to make `occupied`: forgotten, but remembered as a
        possible victim of a piece that was in hand then."""
        self.forget(square)
        if square in self.bounced:
            self.rebounced |= chess.BB_SQUARES[square]
        self.bounced[square] = self.bounced.get(square, 0) | (chess.BB_ALL & ~occupied)

    def landed_before_bounce(self, square: chess.Square) -> bool:
        """Did a piece land on `square` before its last bounce, other than by a bounce: the bounce was of a
        piece set down there (a capturer placed first), after its victim had been taken off?"""
        return self.landings.get(square, 0) >= 2 and not self.rebounced & chess.BB_SQUARES[square]

    def bounced_while_empty(self, square: chess.Square, target: chess.Square) -> bool:
        """Did `square` bounce while `target` was empty (its piece in hand, say)?"""
        return bool(self.bounced.get(square, 0) & chess.BB_SQUARES[target])

    def landed_before_left(self, square: chess.Square, origin: chess.Square) -> bool:
        """Did a piece land on `square` while `origin` was still full (a capture placed first)?"""
        return bool(self.landed.get(square, 0) & chess.BB_SQUARES[origin])

    def held_together(self, a: chess.Square, b: chess.Square) -> bool:
        """Were the pieces from `a` and `b` both off the board at one moment?"""
        both = chess.BB_SQUARES[a] | chess.BB_SQUARES[b]
        return any(vacated & both == both for vacated in self.together)

    def landed_just_before(self, square: chess.Square, origin: chess.Square) -> bool:
        """Did a piece land on `square` at most `SCAN_SECONDS` before `origin` was emptied (first emptied, if
        its sensor flickered): the board reporting the place of the piece from `origin` before its lift?"""
        left = self.lifted_at.get(origin)
        return placed_before_lift(self.placed_at.get(square), self.left_at.get(origin)) and not knocked(
            left, self.placed_at.get(origin))  # a knocked piece never left

    def was_lifted(self, square: chess.Square) -> bool:
        return bool(self.lifted & chess.BB_SQUARES[square])

    def left_before(self, square: chess.Square, target: chess.Square) -> bool:
        """Was `square` ever emptied while `target` was still empty (a piece leaving for `target`)?"""
        return bool(self.when_lifted.get(square, 0) & chess.BB_SQUARES[target])
