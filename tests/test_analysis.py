"""The exact enumeration: checked against brute force over the real runs,
against hand derivations, and against the seeds' claims."""

import time
from collections import defaultdict
from fractions import Fraction

import pytest

from eboard960.analysis import CLAIMS, analyze, arrangement_counts, check_claims
from eboard960.methods import METHODS
from eboard960.numbering import COUNT
from eboard960.position import StartPosition

# What the seeds say is fair (and the two digit-box variants this project adds).
FAIR = {
    "bodlaender-die", "optimised-die", "polyhedral-d20-div4", "polyhedral-d20-div5",
    "polyhedral-d4-d4-d6-d10", "polyhedral-d20-d12", "three-coins", "single-coin",
    "eight-cards", "permutation-cards", "three-boxes", "northam-joint",
}


def analysis(name):
    return METHODS[name].analysis


def brute_force(name):
    """Every input sequence walked one by one: no merging of states, no re-roll maths."""
    method = METHODS[name]
    result = defaultdict(Fraction)

    def walk(state, weight):
        request = method.request(state)
        if request is None:
            result[StartPosition(state.rank).number] += weight
            return
        for value in request.outcomes:
            walk(method.advance(state, value)[0], weight / len(request.outcomes))

    walk(method.start(), Fraction(1))
    return dict(result)


def test_brute_force_agrees_with_real_runs():
    """The walk above sees what a MethodRun fed the same values sees."""
    run = METHODS["rovida-die"].run()
    state = METHODS["rovida-die"].start()
    for value in (3, 6, 1, 2, 5, 4):
        if run.done:
            break
        run.feed(value)
        state = METHODS["rovida-die"].advance(state, value)[0]
    assert run.done and run.position.rank == state.rank


@pytest.mark.parametrize(
    "name", ["rovida-die", "northam-joint", "horizontal-symmetry", "three-boxes-limited"]
)
def test_enumeration_matches_brute_force(name):
    assert analysis(name).probabilities == brute_force(name)


def test_every_distribution_sums_to_one():
    for name in METHODS:
        assert sum(analysis(name).probabilities.values()) == 1, name


def test_fair_methods_are_exactly_the_ones_the_seeds_call_fair():
    assert {name for name, m in METHODS.items() if m.uniform} == FAIR
    for name in FAIR:
        probabilities = analysis(name).probabilities
        assert len(probabilities) == COUNT
        assert all(p == Fraction(1, COUNT) for p in probabilities.values())
        assert analysis(name).total_variation == 0 and analysis(name).max_min_ratio == 1


def test_expected_inputs_against_hand_derivations():
    # Bodlaender: 6/4 + 6/4 + 1 + 6/5 + 6/4.
    assert analysis("bodlaender-die").expected_inputs == Fraction(67, 10)
    # Optimised: a bishop takes 1 + 2/6 rolls; 4/3 + 4/3 + 1 + 6/5 + 1.
    assert analysis("optimised-die").expected_inputs == Fraction(88, 15)
    # Three coins: 1 + 1 + 8/6 + 8/5 + 1 = 5 14/15.
    assert analysis("three-coins").expected_inputs == 5 + Fraction(14, 15)
    # Single coin: an attempt costs 4 + (15/16) 6 tosses and succeeds with 15/16.
    assert analysis("single-coin").expected_inputs == (4 + Fraction(15, 16) * 6) / Fraction(15, 16)
    # Eight cards: all eight dealt, one more card when the bishops share a colour (2160 of 5040).
    assert analysis("eight-cards").expected_inputs == 8 + Fraction(2160, 5040)
    # Three boxes: 3 draws, kept with 960/1000.
    assert analysis("three-boxes").expected_inputs == Fraction(3 * 1000, 960)


def test_northam_two_coins_by_hand():
    """p = 1/16 (bishops) 1/4 (king) 1/(k-1) 1/(6-k) (rooks) 1/3 (queen), k the
    king's place among the six non-bishop squares: 1/768 or 1/1152."""
    a = analysis("northam-two-coins")
    assert set(a.probabilities.values()) == {Fraction(1, 768), Fraction(1, 1152)}
    assert a.max_min_ratio == Fraction(3, 2)
    assert a.expected_inputs == 6


def test_three_boxes_limited_by_hand():
    a = analysis("three-boxes-limited")
    assert a.probability(959) == Fraction(1, 10) * Fraction(1, 6) * Fraction(1, 10)
    assert a.probability(123) == Fraction(1, 1000)


def test_files_for_a_fair_method_are_the_seed_figures():
    a = analysis("eight-cards")
    assert a.king_files == tuple(Fraction(k, 80) for k in (0, 9, 14, 17, 17, 14, 9, 0))
    assert a.rook_files == tuple(Fraction(k, 80) for k in (30, 21, 16, 13, 13, 16, 21, 30))
    assert sum(a.rook_files) == 2


def test_ways_per_position_for_the_dice_sets():
    assert set(analysis("polyhedral-d20-div4").ways.values()) == {4}
    assert set(analysis("polyhedral-d20-d12").ways.values()) == {48}
    assert analysis("bodlaender-die").ways is None  # re-rolls make it unbounded


def test_arrangement_counts():
    assert arrangement_counts() == {
        "arrangements": 5040, "opposite bishops": 2880,
        "same-coloured bishops": 2160, "king between the rooks": 960,
    }
    # Before the king-rook swap the bishop repairs leave 2880 arrangements, evenly.
    for name in ("eight-cards", "permutation-cards"):
        arrangements = analysis(name).arrangements
        assert len(arrangements) == 2880
        assert set(arrangements.values()) == {Fraction(1, 2880)}
    # Coffin's pair swap does not: that is where its bias comes from.
    assert len(set(analysis("coffin-bag").arrangements.values())) > 1
    assert len(analysis("horizontal-symmetry").arrangements) == 48


def test_seed_claims_all_hold_but_two():
    verdicts = check_claims(analysis)
    assert len(verdicts) == len(CLAIMS)
    wrong = {v.claim.text: v.measured for v in verdicts if not v.ok}
    assert wrong == {
        "the optimised die uses 6.2 rolls on average": Fraction(88, 15),
        "horizontal symmetry with the king between the rooks: 16 positions": 24,
    }
    assert all(v.claim.why for v in verdicts if not v.ok)


def test_full_analysis_is_fast():
    started = time.perf_counter()
    for method in METHODS.values():
        analyze(method)
    assert time.perf_counter() - started < 10  # about 1.5 s here; generous for shared CI
