"""Methods that deal a whole arrangement and then repair it: the eight cards
(seed 001), Coffin's bag (seeds 001, 004), the permutation method with its
knight-order bishop swap (seed 003) and the horizontal-symmetry cards (seed 003).
"""

from __future__ import annotations

from collections.abc import Hashable

import chess

from eboard960.methods.base import (
    BLANK,
    Method,
    Request,
    State,
    Value,
    king_between_rooks,
    put,
    same_colour_bishops,
    swap,
)
from eboard960.numbering import DARK_FILES, LIGHT_FILES


class _Deal(Method):
    """Cards (or pieces) dealt onto a1, b1, ... h1; the last one needs no draw.

    The final state remembers the arrangement just before the king-rook swap,
    for the analysis of the bishop repairs.
    """

    DECK: tuple[Value, ...]
    KIND = "card"

    def piece(self, value: Value) -> str:
        raise NotImplementedError

    def remaining(self, state: State) -> tuple[Value, ...]:
        left = list(self.DECK)
        for value in state.memo:
            left.remove(value)
        return tuple(left)

    def deal_request(self, state: State) -> Request:
        square = chess.FILE_NAMES[len(state.memo)]
        return Request(
            kind=self.KIND, outcomes=self.remaining(state),
            prompt=f"{self.KIND} for {square}1{self.legend()}",
        )

    def legend(self) -> str:
        return ""

    def deal(self, state: State, value: Value) -> State:
        """Place one more; when one is left, it goes on the last square at once."""
        dealt = (*state.memo, value)
        rank = put(state.rank, self.piece(value), len(state.memo))
        left = self.remaining(State(memo=dealt))
        if len(left) == 1:
            dealt = (*dealt, left[0])
            rank = put(rank, self.piece(left[0]), len(state.memo) + 1)
        return State(rank, 0, dealt)

    def arrangement(self, state: State) -> str | None:
        return state.memo[0] if state.step else None

    def key(self, state: State) -> Hashable:
        # While dealing, the rank shows what was dealt; which of two cards
        # showing the same piece it was cannot matter.
        return state.rank, state.step, state.memo if state.step else len(state.memo)

    def repaired(self, rank: str) -> State:
        """The final state from the rank before the king-rook swap, which it remembers."""
        return State(king_between_rooks(rank), 1, (rank,))

    def dealing(self, state: State) -> bool:
        return state.step == 0 and len(state.memo) < len(self.DECK)

    def request(self, state: State) -> Request | None:
        return self.deal_request(state) if self.dealing(state) else None

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        state = self.deal(state, value)
        if self.dealing(state):
            return state, ""
        return self.dealt(state)

    def dealt(self, state: State) -> tuple[State, str]:
        """The final state, and its note, once the whole deck is down."""
        raise NotImplementedError


def _bishop_fix_square(rank: str, card: int) -> tuple[int, int]:
    """Eight-card fix: 1-4 move the a-side bishop, 5-8 the h-side one, to the
    card's square among the four of the other colour."""
    bishops = [i for i, c in enumerate(rank) if c == "B"]
    bishop = bishops[0] if card <= 4 else bishops[1]
    targets = LIGHT_FILES if bishop in DARK_FILES else DARK_FILES
    return bishop, targets[(card - 1) % 4]


class EightCards(_Deal):
    """Cards 1-8 stand for the pieces of the standard rank (1, 8 rook; 2, 7
    knight; 3, 6 bishop; 4 queen; 5 king). Same-coloured bishops: one more card
    moves a bishop; then a king outside the rooks swaps with the nearer rook.

    All eight dealt cards are keyed in, the last one too, as the seed deals
    them: the card drawn for the bishops comes after them, so it can never be
    mistaken for the eighth card of the deal.
    """

    name = "eight-cards"
    title = "Eight cards with the random-bishop fix"
    inputs = "eight cards numbered 1-8, all dealt"
    source = "seed 001"
    DECK = tuple(range(1, 9))

    def piece(self, value: Value) -> str:
        return "RNBQKBNR"[int(value) - 1]

    def legend(self) -> str:
        return " (1,8 rook; 2,7 knight; 3,6 bishop; 4 queen; 5 king)"

    def deal(self, state: State, value: Value) -> State:
        """Place one more card, the eighth too (it is keyed in though it has no choice)."""
        return State(put(state.rank, self.piece(value), len(state.memo)), 0, (*state.memo, value))

    def request(self, state: State) -> Request | None:
        if self.dealing(state):
            return self.deal_request(state)
        if state.step == 0:
            return Request(
                kind="card", outcomes=self.DECK,
                prompt="card drawn from all eight, face down (1-4 move the a-side bishop, "
                "5-8 the h-side bishop, to that square of the other colour)",
            )
        return None

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        if self.dealing(state):
            state = self.deal(state, value)
            if self.dealing(state):
                return state, ""
            if same_colour_bishops(state.rank):
                return state, "bishops on one colour: draw a card"
            return self.repaired(state.rank), "bishops on both colours: no card to draw"
        bishop, target = _bishop_fix_square(state.rank, int(value))
        note = f"bishop from {chess.FILE_NAMES[bishop]}1 to {chess.FILE_NAMES[target]}1"
        return self.repaired(swap(state.rank, bishop, target)), note


def _coffin_fix(rank: str) -> str:
    if not same_colour_bishops(rank):
        return rank
    pair = next(p for p in ((0, 1), (2, 3), (4, 5)) if "B" in rank[p[0]] + rank[p[1]])
    return swap(rank, *pair)


class CoffinBag(_Deal):
    """Draw the eight pieces from a bag onto a1..h1; same-coloured bishops swap
    the leftmost of the pairs a-b, c-d, e-f holding a bishop; a king outside
    the rooks swaps with the nearer rook."""

    name = "coffin-bag"
    title = "Coffin's bag of pieces"
    inputs = "the eight white pieces in a bag"
    source = "seeds 001, 004"
    DECK = tuple("BBKNNQRR")
    KIND = "piece"

    def piece(self, value: Value) -> str:
        return str(value)

    def dealt(self, state: State) -> tuple[State, str]:
        return self.repaired(_coffin_fix(state.rank)), ""


# Seed 003's cards: white and black knights and bishops are told apart.
_SYMBOLS = {"wN": "N", "bN": "n", "wB": "B", "bB": "b", "Q": "Q", "K": "K", "R": "R"}


def _permutation_fix(rank: str) -> str:
    """Same-coloured bishops: the black bishop swaps with the piece on the next
    square of the other colour if the white knight stands left of the black
    knight, else the second next (in a circle). Then all pieces are one colour."""
    bishop = rank.index("b")
    if (rank.index("B") - bishop) % 2 == 0:
        step = 1 if rank.index("N") < rank.index("n") else 3
        rank = swap(rank, bishop, (bishop + step) % 8)
    return rank.upper()


class PermutationCards(_Deal):
    name = "permutation-cards"
    title = "Eight marked cards with the knight-order bishop swap"
    inputs = "eight cards: wN bN wB bB Q K R R"
    source = "seed 003"
    DECK = ("wN", "bN", "wB", "bB", "Q", "K", "R", "R")

    def piece(self, value: Value) -> str:
        return _SYMBOLS[str(value)]

    def legend(self) -> str:
        return " (wN/bN white/black knight, wB/bB white/black bishop, Q, K, R)"

    def dealt(self, state: State) -> tuple[State, str]:
        return self.repaired(_permutation_fix(state.rank)), ""


_HALVES = {"abcd": range(4), "efgh": range(4, 8)}
_MIRROR = {"K": "Q", "B": "B", "N": "N", "R": "R"}


class HorizontalSymmetry(_Deal):
    """Six cards (K, B, N, R, abcd, efgh) shuffled: the pieces in the order
    dealt fill the half named by the first letter card, the other half mirrors
    it with the queen facing the king; a king outside the rooks swaps with the
    nearer rook, and the queen likewise."""

    name = "horizontal-symmetry"
    title = "Horizontal symmetry cards"
    inputs = "six cards: K B N R abcd efgh"
    source = "seed 003"
    DECK = ("K", "B", "N", "R", "abcd", "efgh")

    def piece(self, value: Value) -> str:
        return str(value)

    def deal_request(self, state: State) -> Request:
        return Request(
            kind="card", outcomes=self.remaining(state),
            prompt=f"card {len(state.memo) + 1} of 6 (K, B, N, R, abcd, efgh)",
        )

    def deal(self, state: State, value: Value) -> State:
        dealt = (*state.memo, value)
        left = self.remaining(State(memo=dealt))
        if len(left) == 1:
            dealt = (*dealt, left[0])
        return State(BLANK, 0, dealt)

    def dealt(self, state: State) -> tuple[State, str]:
        arrangement = symmetric_arrangement(state.memo)
        rank = king_between_rooks(arrangement)
        if rank != arrangement:
            rank = swap(rank, rank.index("Q"), 7 - rank.index("K"))
        return State(rank, 1, (arrangement,)), f"arranged {arrangement}"

    def key(self, state: State) -> Hashable:
        return state  # the dealt letters are not on the board yet


def symmetric_arrangement(dealt: tuple[Value, ...]) -> str:
    """The mirrored rank the six cards give before any king-rook swap."""
    half = next(str(v) for v in dealt if v in _HALVES)
    pieces = [str(v) for v in dealt if v not in _HALVES]
    rank = BLANK
    for square, piece in zip(_HALVES[half], pieces, strict=True):
        rank = put(put(rank, piece, square), _MIRROR[piece], 7 - square)
    return rank
