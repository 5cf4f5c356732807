"""Die methods: Bodlaender's single die, its optimised form, the polyhedral
sets (seeds 000 and 001) and Rovida's king-first method (seed 001)."""

from __future__ import annotations

from eboard960.methods.base import (
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
    Place,
    Request,
    Sequential,
    State,
    Value,
    any_square,
    dark_square,
    empty,
    file_names,
    light_square,
    opposite_to_bishop,
    put,
    six_way_ranges,
    wrap_around,
)
from eboard960.numbering import DARK_FILES, LIGHT_FILES, N5N_TABLE


class BodlaenderDie(Sequential):
    name = "bodlaender-die"
    title = "Bodlaender's single die (Althöfer)"
    inputs = "one six-sided die"
    source = "seeds 000, 001, 004"
    STEPS = (
        Place("B", dark_square, "the dark-square bishop", D6),
        Place("B", light_square, "the light-square bishop", D6),
        Place("Q", any_square, "the queen", D6),
        Place("N", any_square, "the first knight", D6),
        Place("N", any_square, "the second knight", D6),
    )


# The optimised die turns a 5 or 6 for a bishop into one more roll:
# a 1-4 then counts as it is, and two high rolls map by this table (seed 000).
_HIGH_PAIRS = {(5, 5): 1, (5, 6): 2, (6, 5): 3, (6, 6): 4}


class OptimisedDie(BodlaenderDie):
    """Seed 000's optimisation: no re-rolls for the bishops or the second knight.

    A bishop roll of 5 or 6 is held and the die rolled again; the pair maps
    to 1-4 by the seed's table. For the second knight a 5 means the empty
    square after the first knight, a 6 the one after that, counting the five
    squares the knights share in a circle.
    """

    name = "optimised-die"
    title = "Bodlaender's die, optimised (fewer rolls)"

    def request(self, state: State) -> Request | None:
        request = super().request(state)
        if request is None:
            return None
        if state.step < 2:
            held = f" (after a {state.memo[0]}: 1-4 count as they are)" if state.memo else ""
            label = self.STEPS[state.step].label
            return Request(kind="d6", outcomes=D6.outcomes, prompt=f"d6 for {label}{held}")
        if state.step == 4:
            prompt = "d6 for the second knight (5: next empty square after the first, 6: the one after)"
            return Request(kind="d6", outcomes=D6.outcomes, prompt=prompt)
        return request

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        value = int(value)
        if state.step < 2:
            if value <= 4 or state.memo:
                number = value if value <= 4 else _HIGH_PAIRS[(state.memo[0], value)]
                return super().advance(State(state.rank, state.step), number)
            return State(state.rank, state.step, (value,)), f"{value}: roll once more"
        if state.step == 4 and value > 4:
            first = state.memo[0]
            circle = sorted((*empty(state.rank), first))
            square = circle[(circle.index(first) + value - 4) % len(circle)]
            rank = put(state.rank, "N", square)
            return self._settle(State(rank, 5)), f"the second knight on {file_names([square])}"
        after, note = super().advance(State(state.rank, state.step), value)
        if state.step == 3 and after.step == 4:  # remember the first knight for the circle
            first = next(i for i, (a, b) in enumerate(zip(state.rank, after.rank, strict=True)) if a != b)
            after = after._replace(memo=(first,))
        return after, note


def _knights_div4(number: int, count: int) -> tuple[int, ...]:
    """Seed 000: the d20 as a d5 (groups of four) and, inside the group, a d4."""
    first, second = divmod(number - 1, 4)
    rest = [i for i in range(count) if i != first]
    return first, rest[second]


def _knights_div5(number: int, count: int) -> tuple[int, ...]:
    """Seed 001: quotient and remainder of d20 / 5, plus one; equal ones move to 5."""
    quotient, remainder = divmod(number, 5)
    first, second = quotient, remainder
    if first == second:
        second = count - 1
    return first, second


def _knights_n5n(number: int, count: int) -> tuple[int, ...]:
    """The d10 read as Scharnagl's N5N code (seed 000)."""
    return tuple(i for i, c in enumerate(N5N_TABLE[number - 1]) if c == "N")


_BISHOPS_D8_D4 = (
    Place("B", any_square, "the first bishop (a1..h1)", D8),
    Place("B", opposite_to_bishop, "the second bishop (squares of the other colour)", D4),
    Place("Q", any_square, "the queen", D6),
)


class PolyhedralDiv4(Sequential):
    name = "polyhedral-d20-div4"
    title = "Polyhedral dice d8 d4 d6 d20, knights by d20 in groups of four"
    inputs = "d8, d4, d6 and d20"
    source = "seed 000"
    STEPS = (*_BISHOPS_D8_D4, Place("NN", any_square, "both knights", D20, _knights_div4))


class PolyhedralDiv5(Sequential):
    name = "polyhedral-d20-div5"
    title = "Polyhedral dice d8 d4 d6 d20, knights by d20 divided by five"
    inputs = "d8, d4, d6 and d20"
    source = "seed 001"
    STEPS = (*_BISHOPS_D8_D4, Place("NN", any_square, "both knights", D20, _knights_div5))


class PolyhedralD20D12(Sequential):
    name = "polyhedral-d20-d12"
    title = "Polyhedral dice d8 d4 d6 d20 d12, knights counted in a circle"
    inputs = "d8, d4, d6, d20 and d12"
    source = "seed 000"
    STEPS = (
        *_BISHOPS_D8_D4,
        Place("N", any_square, "the first knight (counting the five in a circle)", D20, wrap_around),
        Place("N", any_square, "the second knight (counting the four in a circle)", D12, wrap_around),
    )


class PolyhedralD10(Sequential):
    """Two d4, a d6 and a d10: 4 x 4 x 6 x 10 = 960, one roll each, and
    (d4 - 1) + 4 (d4' - 1) + 16 (d6 - 1) + 96 (d10 - 1) is Scharnagl's number."""

    name = "polyhedral-d4-d4-d6-d10"
    title = "Polyhedral dice d4 d4 d6 d10 (one roll of each)"
    inputs = "two d4 of different colours, d6 and d10"
    source = "seed 000"
    STEPS = (
        Place("B", light_square, "the light-square bishop", D4),
        Place("B", dark_square, "the dark-square bishop", D4),
        Place("Q", any_square, "the queen", D6),
        Place("NN", any_square, "both knights (Scharnagl's N5N code + 1)", D10, _knights_n5n),
    )


def _king_file(rank: str) -> int:
    return rank.index("K")


def _near_side(rank: str) -> range:
    king = _king_file(rank)
    return range(king) if king <= 3 else range(king + 1, 8)


def _far_side(rank: str) -> range:
    king = _king_file(rank)
    return range(king + 1, 8) if king <= 3 else range(king)


def _colour(square: int) -> int:
    return square % 2


def _same_colour(rank: str) -> bool:
    """King, first rook and queen all on one colour (Rovida's step 4)."""
    rook = next(i for i in _near_side(rank) if rank[i] == "R")
    return len({_colour(rank.index("K")), _colour(rook), _colour(rank.index("Q"))}) == 1


def _king_rook_queen_colour(rank: str) -> tuple[int, ...]:
    return empty(rank, LIGHT_FILES if _colour(rank.index("K")) else DARK_FILES)


def _other_colour(rank: str) -> tuple[int, ...]:
    return empty(rank, DARK_FILES if _colour(rank.index("K")) else LIGHT_FILES)


_ROVIDA_START = (
    Place("K", lambda rank: empty(rank, range(1, 7)), "the king (not in a corner)", D6, six_way_ranges),
    Place("R", lambda rank: empty(rank, _near_side(rank)), "a rook on the king's nearer side",
          D6, six_way_ranges),
    Place("Q", any_square, "the queen", D6, six_way_ranges),
)
_far_rook = Place("R", lambda rank: empty(rank, _far_side(rank)), "the other rook", D6, six_way_ranges)
_ROVIDA_SAME = (
    *_ROVIDA_START,
    Place("B", _king_rook_queen_colour, "a bishop on the fourth square of that colour",
          D6, six_way_ranges),
    _far_rook,
    Place("B", _other_colour, "the other bishop", D6, six_way_ranges),
)
_ROVIDA_MIXED = (
    *_ROVIDA_START,
    Place("B", dark_square, "the dark-square bishop", D6, six_way_ranges),
    Place("B", light_square, "the light-square bishop", D6, six_way_ranges),
    _far_rook,
)


class RovidaDie(Sequential):
    """King first, then rooks, queen and bishops; each die roll is read in
    ranges over 2, 3 or 6 squares, and a single square needs no roll."""

    name = "rovida-die"
    title = "Rovida's die method (king first)"
    inputs = "one six-sided die"
    source = "seed 001"
    REST = "NN"

    def plan(self, state: State) -> tuple[Place, ...]:
        if state.step < 3:
            return _ROVIDA_START
        return _ROVIDA_SAME if _same_colour(state.rank) else _ROVIDA_MIXED
