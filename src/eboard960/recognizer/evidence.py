"""What the sensors did since the board last showed a reference position.

Occupancy alone cannot tell a transposition castling from nothing, or a
capture from a lifted piece; the order of events can. A `Segment` keeps just
enough of that order: which squares were emptied at some point, and which
were empty together while two or more pieces were in the air.
"""

from __future__ import annotations

import chess


class Segment:
    """Evidence gathered from the events since the board showed `base` (an occupancy)."""

    __slots__ = ("base", "base_count", "ever", "lifted", "start", "together", "when_lifted")

    def __init__(self, base: chess.Bitboard, start: int = 0) -> None:
        self.base = base
        self.base_count = base.bit_count()
        self.lifted: chess.Bitboard = 0  # since the board last showed `base`
        self.ever: chess.Bitboard = 0  # since `base` was reached, touches included
        self.together: list[chess.Bitboard] = []
        # the occupancy right after each square was last emptied
        self.when_lifted: dict[chess.Square, chess.Bitboard] = {}
        self.start = start  # index of the first event that may belong to this segment

    def note_lift(self, square: chess.Square, occupied: chess.Bitboard) -> None:
        self.lifted |= chess.BB_SQUARES[square]
        self.ever |= chess.BB_SQUARES[square]
        self.when_lifted[square] = occupied
        if occupied.bit_count() <= self.base_count - 2:
            vacated = self.base & ~occupied
            if not self.together or vacated != self.together[-1]:
                self.together.append(vacated)

    def rest(self) -> None:
        """The board shows the reference position again: a touch ended, its lifts prove nothing."""
        self.lifted = 0
        self.together.clear()
        self.when_lifted.clear()

    def forget(self, square: chess.Square) -> None:
        """A sensor bounce: the lift of `square` just now is no evidence of anything."""
        bit = chess.BB_SQUARES[square]
        self.lifted &= ~bit
        self.ever &= ~bit
        self.when_lifted.pop(square, None)
        self.together = [vacated for vacated in self.together if not vacated & bit]

    def held_together(self, a: chess.Square, b: chess.Square) -> bool:
        """Were the pieces from `a` and `b` both off the board at one moment?"""
        both = chess.BB_SQUARES[a] | chess.BB_SQUARES[b]
        return any(vacated & both == both for vacated in self.together)

    def was_lifted(self, square: chess.Square) -> bool:
        return bool(self.lifted & chess.BB_SQUARES[square])

    def left_before(self, square: chess.Square, target: chess.Square) -> bool:
        """Was `square` emptied while `target` was still empty (a piece leaving for `target`)?"""
        occupied = self.when_lifted.get(square)
        return occupied is not None and not occupied & chess.BB_SQUARES[target]
