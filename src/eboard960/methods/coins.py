"""Coin methods: Northam's two coins, the three-coin method, the single coin
read as a ten-bit number (seeds 000, 001, 004).

Coins are entered as their faces, H or T, smallest coin first: "TH" is the
small coin tails and the large coin heads.
"""

from __future__ import annotations

from itertools import product

from eboard960.methods.base import (
    BLANK,
    Method,
    Place,
    Request,
    Sequential,
    Source,
    State,
    Value,
    any_square,
    dark_square,
    empty,
    light_square,
)
from eboard960.numbering import scharnagl_rank

# Northam's values: small coin tails 0, large coin tails 1, heads 2 on either;
# the third coin counts tails 0 and heads 4.
_SMALL, _LARGE, _THIRD = {"T": 0, "H": 2}, {"T": 1, "H": 2}, {"T": 0, "H": 4}


def _coins(kind: str, *coins: dict[str, int]) -> Source:
    numbers: dict[Value, int] = {
        "".join(faces): sum(coin[face] for coin, face in zip(coins, faces, strict=True))
        for faces in product("TH", repeat=len(coins))
    }
    hint = " [H or T]" if len(coins) == 1 else f" [{len(coins)} faces, smallest coin first]"
    return Source(kind, numbers, hint)


LARGE_COIN = _coins("large coin", _LARGE)
TWO_COINS = _coins("two coins", _SMALL, _LARGE)
THREE_COINS = _coins("three coins", _SMALL, _LARGE, _THIRD)


def _king_squares(rank: str) -> tuple[int, ...]:
    """Only the middle four of the six vacant squares leave room for a rook each side."""
    return empty(rank)[1:-1]


def _a_side(rank: str) -> tuple[int, ...]:
    return empty(rank, range(rank.index("K")))


def _h_side(rank: str) -> tuple[int, ...]:
    return empty(rank, range(rank.index("K") + 1, 8))


class NorthamTwoCoins(Sequential):
    """Bishops, then the king, the rooks either side, the queen; knights last.

    At most four squares are ever open, so two coins (1-4, re-tossing a 4
    when only three squares are open) or the large coin alone (1-2) suffice.
    """

    name = "northam-two-coins"
    title = "Northam's two coins"
    inputs = "a small and a large coin"
    source = "seeds 001, 004"
    REST = "NN"
    STEPS = (
        Place("B", light_square, "the light-square bishop"),
        Place("B", dark_square, "the dark-square bishop"),
        Place("K", _king_squares, "the king (middle four of the six empty squares)"),
        Place("R", _a_side, "the a-side rook"),
        Place("R", _h_side, "the h-side rook"),
        Place("Q", any_square, "the queen"),
    )

    def source_for(self, place: Place, squares: tuple[int, ...]) -> Source:
        return LARGE_COIN if len(squares) == 2 else TWO_COINS


class ThreeCoins(Sequential):
    """Bodlaender's placements with coins: a third coin worth 4 makes 1-8."""

    name = "three-coins"
    title = "Three coins (Northam's coins plus a coin worth 4)"
    inputs = "a small, a large and a third coin"
    source = "seeds 000, 001"
    STEPS = (
        Place("B", light_square, "the light-square bishop", TWO_COINS),
        Place("B", dark_square, "the dark-square bishop", TWO_COINS),
        Place("Q", any_square, "the queen", THREE_COINS),
        Place("N", any_square, "the first knight", THREE_COINS),
        Place("N", any_square, "the second knight", TWO_COINS),
    )


class SingleCoin(Method):
    """Ten tosses read as a binary number (heads 0, tails 1, first toss highest).

    Four tails to begin with would give 960 or more, so the procedure starts
    again as soon as they appear.
    """

    name = "single-coin"
    title = "A single coin, ten tosses as a binary number"
    inputs = "one coin"
    source = "seeds 000, 001"
    TOSSES = 10

    def request(self, state: State) -> Request | None:
        if state.step:
            return None
        done = len(state.memo)
        prompt = f"coin toss {done + 1} of {self.TOSSES} (heads 0, tails 1)"
        return Request(kind="coin", outcomes=("H", "T"), prompt=prompt)

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        bits = (*state.memo, "1" if value == "T" else "0")
        if bits == ("1",) * 4:
            return self.start(), "four tails: start again"
        if len(bits) < self.TOSSES:
            return State(BLANK, 0, bits), ""
        number = int("".join(bits), 2)
        return State(scharnagl_rank(number), 1), f"binary {''.join(bits)} = {number}"
