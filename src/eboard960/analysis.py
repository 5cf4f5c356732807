"""Exact analysis of the manual methods by walking their own procedure trees.

Every request of a method is fed every outcome it lists, through the same
`advance` code a live ceremony uses, and probability flows forward as
`Fraction`s. States with equal keys merge, so even the 40,320 deals of the
eight cards stay small. Re-rolls are geometric and handled analytically: a
value that leaves the state unchanged is dropped and the others conditioned
on (the step then costs outcomes/accepted inputs on average); a value that
sends the procedure back to its start is collected, and the whole result is
conditioned on not restarting.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from eboard960.methods.base import Method
from eboard960.numbering import COUNT
from eboard960.position import StartPosition

UNIFORM = Fraction(1, COUNT)


@dataclass(frozen=True, slots=True, kw_only=True)
class Analysis:
    """What the enumeration of one method proves."""

    method: str
    probabilities: Mapping[int, Fraction]  # Scharnagl number -> probability (zeros left out)
    expected_inputs: Fraction
    fewest_inputs: int
    most_inputs: int | None  # None when a re-roll or restart makes it unbounded
    ways: Mapping[int, int] | None  # input sequences per position, when bounded
    arrangements: Mapping[str, Fraction]  # before the final king-rook swap, if the method has one

    def probability(self, number: int) -> Fraction:
        return self.probabilities.get(number, Fraction(0))

    @property
    def support(self) -> int:
        return len(self.probabilities)

    @property
    def uniform(self) -> bool:
        return self.support == COUNT and set(self.probabilities.values()) == {UNIFORM}

    @property
    def max_min_ratio(self) -> Fraction | None:
        """Most likely over least likely position; None if some never occur."""
        if self.support < COUNT:
            return None
        return max(self.probabilities.values()) / min(self.probabilities.values())

    @property
    def total_variation(self) -> Fraction:
        """Distance from the fair draw: half the summed absolute differences."""
        return sum(
            (abs(self.probability(n) - UNIFORM) for n in range(COUNT)), Fraction(0)
        ) / 2

    def _files(self, piece: str) -> tuple[Fraction, ...]:
        totals = [Fraction(0)] * 8
        for number, p in self.probabilities.items():
            for file, c in enumerate(StartPosition.from_number(number).rank):
                if c == piece:
                    totals[file] += p
        return tuple(totals)

    @property
    def king_files(self) -> tuple[Fraction, ...]:
        """Probability of the king on a1..h1."""
        return self._files("K")

    @property
    def rook_files(self) -> tuple[Fraction, ...]:
        """Expected number of rooks on a1..h1 (sums to 2)."""
        return self._files("R")


def analyze(method: Method) -> Analysis:
    """Enumerate every outcome of `method` exactly."""
    start = method.start()
    start_key = method.key(start)
    # key -> [state, probability, input sequences, fewest inputs, most inputs]
    frontier: dict = {start_key: [start, Fraction(1), 1, 0, 0]}
    final: dict[str, Fraction] = defaultdict(Fraction)
    ways: Counter[str] = Counter()
    fewest: int | None = None
    most = 0
    expected = Fraction(0)
    restart = Fraction(0)
    bounded = True
    arrangements: dict[str, Fraction] = defaultdict(Fraction)
    while frontier:
        following: dict = {}
        for key, (state, mass, count, low, high) in frontier.items():
            request = method.request(state)
            if request is None:
                rank = state.rank
                final[rank] += mass
                ways[rank] += count
                fewest = low if fewest is None else min(fewest, low)
                most = max(most, high)
                arrangement = method.arrangement(state)
                if arrangement:
                    arrangements[arrangement] += mass
                continue
            moves = [method.advance(state, value)[0] for value in request.outcomes]
            keys = [method.key(s) for s in moves]
            accepted = sum(k != key for k in keys)
            if accepted < len(keys):
                bounded = False
            expected += mass * Fraction(len(keys), accepted)
            share = mass / accepted
            for moved, moved_key in zip(moves, keys, strict=True):
                if moved_key == key:
                    continue
                if moved_key == start_key:
                    restart += share
                    bounded = False
                    continue
                entry = following.setdefault(moved_key, [moved, Fraction(0), 0, low + 1, high + 1])
                entry[1] += share
                entry[2] += count
                entry[3] = min(entry[3], low + 1)
                entry[4] = max(entry[4], high + 1)
        frontier = following
    keep = 1 / (1 - restart)
    return Analysis(
        method=method.name,
        probabilities={
            StartPosition(rank).number: p * keep for rank, p in final.items()
        },
        expected_inputs=expected * keep,
        fewest_inputs=fewest or 0,
        most_inputs=most if bounded else None,
        ways={StartPosition(r).number: c for r, c in ways.items()} if bounded else None,
        arrangements={rank: p * keep for rank, p in arrangements.items()},
    )


# -- counting arrangements -----------------------------------------------------


def arrangement_counts() -> dict[str, int]:
    """Seeds 001/003: distinct orders of the eight pieces, by the two rules."""
    ranks = {"".join(p) for p in permutations("RNBQKBNR")}
    opposite = {r for r in ranks if _opposite_bishops(r)}
    legal = {r for r in opposite if _king_between(r)}
    return {
        "arrangements": len(ranks),
        "opposite bishops": len(opposite),
        "same-coloured bishops": len(ranks) - len(opposite),
        "king between the rooks": len(legal),
    }


def _opposite_bishops(rank: str) -> bool:
    first, second = (i for i, c in enumerate(rank) if c == "B")
    return (first - second) % 2 == 1


def _king_between(rank: str) -> bool:
    left, right = (i for i, c in enumerate(rank) if c == "R")
    return left < rank.index("K") < right


# -- the seeds' claims ---------------------------------------------------------

Measured = Fraction | float | int | bool | tuple[Fraction | int | None, ...]  # a tuple: several figures


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A figure a seed states, and how to measure it from the enumeration."""

    text: str
    source: str
    claimed: Measured
    measure: Callable[[Callable[[str], Analysis]], Measured]
    places: int | None = None  # the seed's figure is rounded to this many decimals
    why: str = ""  # what the enumeration shows, for a claim it refutes


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    claim: Claim
    measured: Measured

    @property
    def ok(self) -> bool:
        measured = self.measured
        if self.claim.places is not None:
            # a claim with places measures one figure; mypy joins round's result over the union to object
            measured = round(measured, self.claim.places)  # type: ignore[arg-type, assignment]
        return measured == self.claim.claimed


def _bishops_on_a_pair(number: int) -> bool:
    first = StartPosition.from_number(number).rank.index("B")
    return first % 2 == 0 and StartPosition.from_number(number).rank[first + 1] == "B"


def _mean_ratio(analysis: Analysis, special: Callable[[int], bool]) -> Fraction:
    """Average probability of the `special` positions over that of the others."""
    groups: dict[bool, list[Fraction]] = {True: [], False: []}
    for n in range(COUNT):
        groups[special(n)].append(analysis.probability(n))
    means = {k: sum(v, Fraction(0)) / len(v) for k, v in groups.items()}
    return means[True] / means[False]


def _king_in_centre_for_northam(number: int) -> bool:
    """The king on the 2nd or 3rd of the four squares the coins offered it."""
    rank = StartPosition.from_number(number).rank
    open_squares = [i for i, c in enumerate(rank) if c != "B"][1:-1]
    return open_squares.index(rank.index("K")) in (1, 2)


def _f(text: str) -> Fraction:
    return Fraction(text)


CLAIMS: tuple[Claim, ...] = (
    Claim(text="Bodlaender's die gives every position an equal chance", source="seed 001",
          claimed=True, measure=lambda a: a("bodlaender-die").uniform),
    Claim(text="Bodlaender's die uses 6.7 rolls on average", source="seeds 000, 001, 004",
          claimed=_f("6.7"), measure=lambda a: a("bodlaender-die").expected_inputs),
    Claim(text="an optimal procedure would use log(960)/log(6) = 3.83 rolls", source="seed 001",
          claimed=3.83, places=2,
          measure=lambda a: math.log(a("bodlaender-die").support) / math.log(6)),
    Claim(text="the optimised die uses 6.2 rolls on average", source="seed 000",
          claimed=_f("6.2"), places=1, measure=lambda a: a("optimised-die").expected_inputs,
          why="each bishop now costs 4/3 rolls, not 3/2, and the second knight 1: "
          "4/3 + 4/3 + 1 + 6/5 + 1 = 88/15; 6.2 counts only the knight's saving"),
    Claim(text="the optimised die is still fair", source="seed 000 (implied)",
          claimed=True, measure=lambda a: a("optimised-die").uniform),
    Claim(text="king on b1..g1 with 9/80 14/80 17/80 17/80 14/80 9/80", source="seed 001",
          claimed=tuple(Fraction(k, 80) for k in (9, 14, 17, 17, 14, 9)),
          measure=lambda a: a("bodlaender-die").king_files[1:7]),
    Claim(text="rooks on a1..h1 with 30/80 21/80 16/80 13/80 13/80 16/80 21/80 30/80",
          source="seed 001",
          claimed=tuple(Fraction(k, 80) for k in (30, 21, 16, 13, 13, 16, 21, 30)),
          measure=lambda a: a("bodlaender-die").rook_files),
    Claim(text="5040 distinct arrangements of the eight pieces", source="seeds 001, 003",
          claimed=5040, measure=lambda a: arrangement_counts()["arrangements"]),
    Claim(text="2880 of them with bishops on different colours", source="seeds 001, 003",
          claimed=2880, measure=lambda a: arrangement_counts()["opposite bishops"]),
    Claim(text="2160 with bishops on the same colour", source="seeds 001, 003",
          claimed=2160, measure=lambda a: arrangement_counts()["same-coloured bishops"]),
    Claim(text="960 with the king between the rooks", source="seeds 001, 003",
          claimed=960, measure=lambda a: arrangement_counts()["king between the rooks"]),
    Claim(text="d8 d4 d6 d20 (groups of four): fair, each position 4 ways", source="seed 000",
          claimed=(True, 4, 4), measure=lambda a: _fair_ways(a("polyhedral-d20-div4"))),
    Claim(text="d8 d4 d6 d20 (divide by five): fair", source="seed 001",
          claimed=True, measure=lambda a: a("polyhedral-d20-div5").uniform),
    Claim(text="d4 d4 d6 d10: fair, one roll of each, each position 1 way", source="seed 000",
          claimed=(True, 1, 1), measure=lambda a: _fair_ways(a("polyhedral-d4-d4-d6-d10"))),
    Claim(text="d8 d4 d6 d20 d12 (circles): fair, each position 48 ways", source="seed 000",
          claimed=(True, 48, 48), measure=lambda a: _fair_ways(a("polyhedral-d20-d12"))),
    Claim(text="Northam's two coins: 6 tosses on average", source="seed 001",
          claimed=Fraction(6), measure=lambda a: a("northam-two-coins").expected_inputs),
    Claim(text="Northam's two coins: king-centre positions 2/3 as likely as the others",
          source="seed 001", claimed=Fraction(2, 3),
          measure=lambda a: _mean_ratio(a("northam-two-coins"), _king_in_centre_for_northam)),
    Claim(text="three coins: fair", source="seeds 000, 001",
          claimed=True, measure=lambda a: a("three-coins").uniform),
    Claim(text="three coins: 5 14/15 tosses on average", source="seeds 000, 001",
          claimed=Fraction(89, 15), measure=lambda a: a("three-coins").expected_inputs),
    Claim(text="single coin: fair", source="seeds 000, 001",
          claimed=True, measure=lambda a: a("single-coin").uniform),
    Claim(text="eight cards with the random-bishop fix: fair", source="seed 001",
          claimed=True, measure=lambda a: a("eight-cards").uniform),
    Claim(text="Wheeler's random-bishop move gives all 2880 arrangements equal chances",
          source="seed 001", claimed=(2880, True),
          measure=lambda a: _even_arrangements(a("eight-cards"))),
    Claim(text="the knight-order bishop swap gives all 2880 arrangements equal chances",
          source="seed 003", claimed=(2880, True),
          measure=lambda a: _even_arrangements(a("permutation-cards"))),
    Claim(text="Coffin's bag: positions with bishops on a pair half as likely",
          source="seeds 001, 004", claimed=Fraction(1, 2),
          measure=lambda a: _mean_ratio(a("coffin-bag"), _bishops_on_a_pair)),
    Claim(text="Rovida's die: the king on b1 with probability 1/6 (fair: 9/80)",
          source="seed 001", claimed=Fraction(1, 6),
          measure=lambda a: a("rovida-die").king_files[1]),
    Claim(text="Rovida's die uses 5-6 rolls", source="seed 001", claimed=(5, 6),
          measure=lambda a: (a("rovida-die").fewest_inputs, a("rovida-die").most_inputs)),
    Claim(text="permutation cards with the knight-order swap: fair", source="seed 003",
          claimed=True, measure=lambda a: a("permutation-cards").uniform),
    Claim(text="horizontal symmetry: 48 arrangements", source="seed 003",
          claimed=48, measure=lambda a: len(a("horizontal-symmetry").arrangements)),
    Claim(text="horizontal symmetry with the king between the rooks: 16 positions",
          source="seed 003", claimed=16, measure=lambda a: a("horizontal-symmetry").support,
          why="12 of the 24 orders of K, B, N, R have the king nearer the centre than "
          "the rook, in either half: 24 positions"),
)


def _even_arrangements(analysis: Analysis) -> tuple[int, bool]:
    return len(analysis.arrangements), len(set(analysis.arrangements.values())) == 1


def _fair_ways(analysis: Analysis) -> tuple[bool, int, int]:
    ways = analysis.ways or {0: 0}
    return analysis.uniform, min(ways.values()), max(ways.values())


def check_claims(analyses: Callable[[str], Analysis]) -> list[Verdict]:
    """Measure every claim; `analyses(name)` returns a method's analysis."""
    return [Verdict(claim=c, measured=c.measure(analyses)) for c in CLAIMS]


