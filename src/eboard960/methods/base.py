"""The machinery every manual method shares: requests, runs, and placing pieces.

A method is a small state machine over immutable states: `request(state)`
says what to roll, toss or draw next (None when the position is complete) and
`advance(state, value)` returns the next state. Keeping the state a plain
hashable value lets `MethodRun` drive one ceremony and lets the analysis walk
every branch of the very same code (`eboard960.analysis`).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import chess

from eboard960.errors import MethodError
from eboard960.numbering import DARK_FILES, LIGHT_FILES
from eboard960.position import StartPosition

if TYPE_CHECKING:
    from eboard960.analysis import Analysis

Value = int | str
EMPTY = "."
BLANK = EMPTY * 8


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """What the method needs next: a die roll, a coin toss, a card, a choice.

    `outcomes` lists the equally likely physical results; a value listed twice
    (two rooks in a bag) is twice as likely. `note` explains a repeated
    request ("5: roll again").
    """

    kind: str
    outcomes: tuple[Value, ...]
    prompt: str
    note: str = ""

    @property
    def values(self) -> tuple[Value, ...]:
        """The distinct values that may be fed, in order."""
        return tuple(dict.fromkeys(self.outcomes))

    def parse(self, raw: Value | str) -> Value:
        """The allowed value `raw` stands for; MethodError if it cannot occur."""
        if raw in self.values and type(raw) is not bool:
            return self.values[self.values.index(raw)]  # 1.0 becomes the die's 1
        text = str(raw).strip()
        exact = [v for v in self.values if str(v) == text]
        loose = [v for v in self.values if str(v).lower() == text.lower()]
        for found in (exact, loose):
            if len(found) == 1:
                return found[0]
        shown = ", ".join(str(v) for v in self.values)
        article = "" if self.kind.endswith("s") else "a "
        raise MethodError(f"{article}{self.kind} cannot give {text!r} here (possible: {shown})")


@dataclass(frozen=True, slots=True, kw_only=True)
class Input:
    """One value fed to a run, with the request it answered and what it did."""

    kind: str
    prompt: str
    value: Value
    note: str = ""


class State(NamedTuple):
    """A method's state: the rank so far ('.' empty), a step counter, extras.

    When no request is left, `rank` is the position the method ended in.
    """

    rank: str = BLANK
    step: int = 0
    memo: tuple = ()


class Method(ABC):
    """A manual randomization procedure, as a state machine over immutable states."""

    name: str
    title: str
    inputs: str
    source: str  # which seed describes it

    def start(self) -> State:
        return State()

    @abstractmethod
    def request(self, state: State) -> Request | None:
        """What to feed next in `state`, or None when the position is complete."""

    @abstractmethod
    def advance(self, state: State, value: Value) -> tuple[State, str]:
        """The state after `value` (already checked against the request) and a note.

        Returning `state` itself means "roll again"; returning `start()` means
        "start the whole procedure again".
        """

    def key(self, state: State) -> Hashable:
        """What the analysis may merge on: states with equal keys behave alike."""
        return state

    def arrangement(self, state: State) -> str | None:
        """For methods that arrange all pieces and then move the king between
        the rooks: the arrangement before that swap (final states only)."""
        return None

    def run(self) -> MethodRun:
        return MethodRun(self)

    @cached_property
    def analysis(self) -> Analysis:
        """Exact enumeration of this method (computed once, on first use)."""
        from eboard960.analysis import analyze

        return analyze(self)

    @property
    def uniform(self) -> bool:
        """Whether the enumeration gives every one of the 960 positions 1/960."""
        return self.analysis.uniform

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


@dataclass(slots=True)
class MethodRun:
    """One ceremony: feed values until `done`, then read `position`."""

    method: Method
    _state: State = field(init=False)
    _note: str = field(init=False, default="")
    _history: list[Input] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self._state = self.method.start()

    @property
    def request(self) -> Request | None:
        request = self.method.request(self._state)
        if request is None or not self._note:
            return request
        return dataclasses.replace(request, note=self._note)

    @property
    def done(self) -> bool:
        return self.method.request(self._state) is None

    @property
    def history(self) -> tuple[Input, ...]:
        return tuple(self._history)

    @property
    def position(self) -> StartPosition:
        request = self.request
        if request is not None:
            raise MethodError(f"{self.method.name} is not finished: next is {request.prompt}")
        return StartPosition(self._state.rank)

    def feed(self, value: Value) -> Request | None:
        """Use one roll, toss, card or choice; returns the next request."""
        request = self.request
        if request is None:
            raise MethodError(f"{self.method.name} is finished and needs no more input")
        parsed = request.parse(value)
        self._state, self._note = self.method.advance(self._state, parsed)
        self._history.append(
            Input(kind=request.kind, prompt=request.prompt, value=parsed, note=self._note)
        )
        return self.request


# -- pieces on a rank -------------------------------------------------------


def empty(rank: str, files: Sequence[int] = range(8)) -> tuple[int, ...]:
    return tuple(i for i in files if rank[i] == EMPTY)


def put(rank: str, piece: str, square: int) -> str:
    return rank[:square] + piece + rank[square + 1 :]


def swap(rank: str, a: int, b: int) -> str:
    cells = list(rank)
    cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


def fill(rank: str, pieces: str) -> str:
    """Put `pieces` on the empty squares from left to right."""
    rest = iter(pieces)
    return "".join(next(rest) if c == EMPTY else c for c in rank)


def same_colour_bishops(rank: str) -> bool:
    first, second = (i for i, c in enumerate(rank) if c == "B")
    return (first - second) % 2 == 0


def king_between_rooks(rank: str) -> str:
    """The usual fix: a king outside its rooks trades places with the nearer rook."""
    king = rank.index("K")
    rooks = [i for i, c in enumerate(rank) if c == "R"]
    if rooks[0] < king < rooks[1]:
        return rank
    return swap(rank, king, min(rooks, key=lambda r: abs(r - king)))


def file_names(squares: Sequence[int]) -> str:
    return " ".join(f"{chess.FILE_NAMES[s]}1" for s in squares)


# -- random sources and placement steps -------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    """A die or coin set: its outcomes and the number each stands for."""

    kind: str
    numbers: dict[Value, int]
    hint: str = ""  # how to enter a value, when it is not just a number

    @property
    def outcomes(self) -> tuple[Value, ...]:
        return tuple(self.numbers)

    @property
    def verb(self) -> str:
        return "roll" if self.kind.startswith("d") else "toss"

    def showing(self, predicate: Callable[[int], bool]) -> list[str]:
        return [str(v) for v, n in self.numbers.items() if predicate(n)]


def die(sides: int) -> Source:
    return Source(f"d{sides}", {i: i for i in range(1, sides + 1)})


D4, D6, D8, D10, D12, D20 = (die(n) for n in (4, 6, 8, 10, 12, 20))

Rule = Callable[[int, int], tuple[int, ...] | None]
"""(number shown, how many candidate squares) -> candidate indices to fill, or None to re-roll."""


def reroll_above(number: int, count: int) -> tuple[int, ...] | None:
    return (number - 1,) if number <= count else None


def wrap_around(number: int, count: int) -> tuple[int, ...]:
    return ((number - 1) % count,)


def six_way_ranges(number: int, count: int) -> tuple[int, ...]:
    """Rovida's reading of a d6 over 2, 3 or 6 squares: 1-3/4-6, 1-2/3-4/5-6, or as shown."""
    if 6 % count:
        raise ValueError(f"a d6 cannot be split evenly over {count} squares")
    return ((number - 1) // (6 // count),)


def _range_legend(squares: Sequence[int]) -> str:
    width = 6 // len(squares)
    return ", ".join(
        f"{i * width + 1}-{(i + 1) * width} {file_names([s])}" if width > 1
        else f"{i + 1} {file_names([s])}"
        for i, s in enumerate(squares)
    )


@dataclass(frozen=True, slots=True)
class Place:
    """Put `pieces` on candidate squares chosen by one value from `source`."""

    pieces: str
    squares: Callable[[str], tuple[int, ...]]
    label: str
    source: Source | None = None  # None: the method picks one by the number of squares
    rule: Rule = reroll_above


def any_square(rank: str) -> tuple[int, ...]:
    return empty(rank)


def dark_square(rank: str) -> tuple[int, ...]:
    return empty(rank, DARK_FILES)


def light_square(rank: str) -> tuple[int, ...]:
    return empty(rank, LIGHT_FILES)


def opposite_to_bishop(rank: str) -> tuple[int, ...]:
    bishop = rank.index("B")
    return empty(rank, LIGHT_FILES if bishop in DARK_FILES else DARK_FILES)


class Sequential(Method):
    """Most methods: one piece (or two) after another, each chosen by one value.

    A step with only one way to go is taken without asking; the squares left
    at the end get `REST` from left to right (the king between the rooks).
    """

    STEPS: tuple[Place, ...] = ()
    REST = "RKR"

    def plan(self, state: State) -> tuple[Place, ...]:
        return self.STEPS

    def source_for(self, place: Place, squares: tuple[int, ...]) -> Source:
        if place.source is None:
            raise TypeError(f"{self.name}: step {place.label!r} needs source_for()")
        return place.source

    def start(self) -> State:
        return self._settle(State())

    def _settle(self, state: State) -> State:
        plan = self.plan(state)
        while state.step < len(plan):
            place = plan[state.step]
            squares = place.squares(state.rank)
            if len(squares) > len(place.pieces):
                return state
            state = State(_put_all(state.rank, place.pieces, squares), state.step + 1)
            plan = self.plan(state)
        if EMPTY in state.rank:
            state = state._replace(rank=fill(state.rank, self.REST))
        return state

    def request(self, state: State) -> Request | None:
        plan = self.plan(state)
        if state.step >= len(plan):
            return None
        place = plan[state.step]
        squares = place.squares(state.rank)
        source = self.source_for(place, squares)
        prompt = f"{source.kind} for {place.label}{source.hint}"
        if place.rule is reroll_above:
            again = source.showing(lambda n: n > len(squares))
            if again:
                prompt += f" ({' or '.join(again)}: {source.verb} again)"
        elif place.rule is six_way_ranges:
            prompt += f" ({_range_legend(squares)})"
        return Request(kind=source.kind, outcomes=source.outcomes, prompt=prompt)

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        place = self.plan(state)[state.step]
        squares = place.squares(state.rank)
        source = self.source_for(place, squares)
        picked = place.rule(source.numbers[value], len(squares))
        if picked is None:
            return state, f"{value}: {source.verb} again"
        chosen = tuple(squares[i] for i in picked)
        rank = _put_all(state.rank, place.pieces, chosen)
        return self._settle(State(rank, state.step + 1)), f"{place.label} on {file_names(chosen)}"


def _put_all(rank: str, pieces: str, squares: tuple[int, ...]) -> str:
    for piece, square in zip(pieces, squares, strict=True):
        rank = put(rank, piece, square)
    return rank
