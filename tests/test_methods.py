"""The manual methods, driven through MethodRun exactly as a ceremony would."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eboard960.errors import MethodError
from eboard960.methods import METHODS, Request
from eboard960.numbering import COUNT


def run_with(name, values):
    run = METHODS[name].run()
    for value in values:
        run.feed(value)
    return run


def test_registry_names_and_descriptions():
    assert len(METHODS) == 17
    for name, method in METHODS.items():
        assert name == method.name
        assert name == name.lower() and " " not in name and "_" not in name
        assert method.title and method.inputs and method.source
        assert isinstance(method.run().request, Request)


@pytest.mark.parametrize("rolls", [(2, 3, 3, 2, 3), (2, 3, 3, 4, 2)])
def test_bodlaender_rolls_for_standard_chess(rolls):
    """Seed 000: 2-3-3-2-3 and 2-3-3-4-2 both give the standard position."""
    run = run_with("bodlaender-die", rolls)
    assert run.done and run.position.number == 518


def test_a_roll_the_method_refuses_repeats_the_request_with_a_note():
    run = METHODS["bodlaender-die"].run()
    first = run.request
    assert first.kind == "d6" and "5 or 6: roll again" in first.prompt
    again = run.feed(5)
    assert again.prompt == first.prompt and again.note == "5: roll again"
    run.feed(1)
    assert "light-square bishop" in run.request.prompt and run.request.note == (
        "the dark-square bishop on a1"
    )
    assert [step.value for step in run.history] == [5, 1]


@pytest.mark.parametrize("bad", [7, 0, "7", "six", "", 2.5, True])
def test_a_value_the_die_cannot_show_is_refused(bad):
    run = METHODS["bodlaender-die"].run()
    with pytest.raises(MethodError, match=r"a d6 cannot give .* \(possible: 1, 2, 3, 4, 5, 6\)"):
        run.feed(bad)
    assert run.history == () and "dark-square bishop" in run.request.prompt


def test_text_values_are_read_like_the_cli_gives_them():
    assert run_with("bodlaender-die", ["2", " 3", "3", "2", "3"]).position.is_standard
    assert run_with("northam-joint", ["C", "f", "b", "g", "d"]).position.is_standard


def test_finished_and_unfinished_runs_say_so():
    run = run_with("polyhedral-d4-d4-d6-d10", [1, 1, 1])
    with pytest.raises(MethodError, match="not finished: next is d10"):
        _ = run.position
    run.feed(1)
    assert run.position.number == 0
    with pytest.raises(MethodError, match="finished"):
        run.feed(1)


def test_single_coin_seed_example():
    """Seed 000: T H T T H H H H T T is 1011000011 = 707 = BRKQNNRB."""
    run = run_with("single-coin", "THTTHHHHTT")
    assert run.position.number == 707 and run.position.rank == "BRKQNNRB"


def test_single_coin_restarts_after_four_tails():
    run = run_with("single-coin", "TTT")
    request = run.feed("T")
    assert request.prompt.startswith("coin toss 1 of 10") and "start again" in request.note
    assert run_with("single-coin", "TTTT" + "HHHHHHHHHH").position.number == 0


def test_d4_d4_d6_d10_rolls_are_the_scharnagl_digits():
    """Seed 000: (d4-1) + 4(d4'-1) + 16(d6-1) + 96(d10-1) is the position's number."""
    seen = set()
    for light in range(1, 5):
        for dark in range(1, 5):
            for queen in range(1, 7):
                for knights in range(1, 11):
                    run = run_with("polyhedral-d4-d4-d6-d10", [light, dark, queen, knights])
                    number = run.position.number
                    assert number == light - 1 + 4 * (dark - 1) + 16 * (queen - 1) + 96 * (
                        knights - 1
                    )
                    seen.add(number)
    assert len(seen) == COUNT


@pytest.mark.parametrize(("d20", "files"), [(20, ("h", "g")), (11, ("f", "g")), (1, ("d", "e"))])
def test_d20_in_groups_of_four(d20, files):
    """Seed 000: a 20 means the fifth and then the fourth empty square; 11 the third and third.

    With bishops on a1, b1 (d8 1, d4 1) and the queen on c1 (d6 1) the empty
    squares are d1 e1 f1 g1 h1."""
    run = run_with("polyhedral-d20-div4", [1, 1, 1, d20])
    first, second = ("abcdefgh".index(f) for f in files)
    assert "both knights on " + f"{files[0]}1 {files[1]}1" in run.history[-1].note
    assert run.position.rank[first] == run.position.rank[second] == "N"


def test_d20_divided_by_five_moves_a_doubled_square_to_the_fifth():
    run = run_with("polyhedral-d20-div5", [1, 1, 1, 6])  # 6 / 5: quotient 1, remainder 1
    assert run.history[-1].note == "both knights on e1 h1"


def test_optimised_die_high_pairs_and_circular_knight():
    run = run_with("optimised-die", [6, 5])  # 6 then 5 counts as 3: e1
    assert "bishop on e1" in run.history[-1].note
    run = run_with("optimised-die", [5, 2])  # a 5 then 1-4: the 2 counts
    assert "bishop on c1" in run.history[-1].note
    # bishops a1 b1, queen c1, first knight on the last of d1..h1, then a 5: next in circle
    run = run_with("optimised-die", [1, 1, 1, 5, 5])
    assert run.position.rank == "BBQNRKRN"


def test_permutation_cards_seed_examples():
    """Seed 003's two worked permutations and their final positions."""
    first = run_with("permutation-cards", ["R", "R", "wN", "wB", "Q", "bB", "K"])
    assert first.position.rank == "RKNBQRBN"
    second = run_with("permutation-cards", ["R", "R", "bN", "wB", "Q", "bB", "K"])
    assert second.position.rank == "BRNBQKRN"


def test_eight_cards_draw_a_ninth_card_only_for_same_coloured_bishops():
    run = run_with("eight-cards", [1, 2, 3, 4, 5, 6, 7, 8])
    assert run.done and run.position.is_standard
    run = run_with("eight-cards", [1, 3, 2, 6, 5, 4, 7, 8])  # R B N B K Q N R: b1 and d1
    assert not run.done and "face down" in run.request.prompt
    run.feed(5)  # h-side bishop (d1) to the first dark square, a1, swapping with the rook
    assert run.history[-1].note == "bishop from d1 to a1"
    assert run.position.rank == "BBNRKQNR"


def test_eight_cards_are_keyed_in_as_dealt_the_last_one_too():
    """The eighth card of the deal is asked for, so it is never read as the bishops' card."""
    run = run_with("eight-cards", [3, 1, 6, 2, 4, 5, 7])
    assert run.request.prompt.startswith("card for h1") and run.request.values == (8,)
    run.feed(8)  # B R B N Q K N R: bishops on a1 and c1, both dark
    assert run.history[-1].note == "bishops on one colour: draw a card"
    assert "face down" in run.request.prompt
    run.feed(1)
    assert run.history[-1].note == "bishop from a1 to b1"
    assert run.position.rank == "RBBNQKNR"


def test_coffin_swaps_the_leftmost_pair_holding_a_bishop():
    run = run_with("coffin-bag", list("BRBNNQK"))
    assert run.position.rank == "RBBNNQKR"


def test_horizontal_symmetry_mirrors_and_repairs():
    run = run_with("horizontal-symmetry", ["K", "B", "N", "R", "abcd"])
    assert run.history[-1].note == "arranged KBNRRNBQ"
    assert run.position.rank == "RBNKQNBR"


def test_three_boxes_redraws_over_959_and_the_limited_variant_cannot():
    run = run_with("three-boxes", [9, 6, 0])
    assert not run.done and "draw all three again" in run.request.note
    run = run_with("three-boxes-limited", [9])
    assert run.request.values == (0, 1, 2, 3, 4, 5)
    with pytest.raises(MethodError, match="cannot give '6'"):
        run.feed(6)


def test_northam_joint_refuses_an_occupied_or_wrong_colour_square():
    run = run_with("northam-joint", ["a"])
    with pytest.raises(MethodError, match="square cannot give 'a'"):
        run.feed("a")
    with pytest.raises(MethodError, match="cannot give 'c'"):
        run.feed("c")  # c1 is dark like a1


def test_northam_coins_use_one_coin_for_two_squares():
    # light bishop h1 (HH), dark bishop a1 (TT): six empty b..g, king on the middle four
    run = run_with("northam-two-coins", ["HH", "TT", "TH"])  # king on d1: b1, c1 on its left
    assert run.request.kind == "large coin" and "a-side rook" in run.request.prompt
    assert run.request.values == ("T", "H")
    run = run_with("northam-two-coins", ["HH", "TT", "TT"])  # king on c1: the rook takes b1
    assert run.request.kind == "two coins" and "h-side rook" in run.request.prompt


@st.composite
def ceremonies(draw, name):
    run = METHODS[name].run()
    for _ in range(300):
        if run.done:
            return run
        run.feed(draw(st.sampled_from(run.request.outcomes)))
    return None


@pytest.mark.parametrize("name", list(METHODS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_valid_sequence_ends_in_a_valid_position(name, data):
    run = data.draw(ceremonies(name))
    if run is not None:
        position = run.position
        assert 0 <= position.number < COUNT
        assert len(run.history) >= 1


@pytest.mark.parametrize("name", list(METHODS))
@settings(max_examples=20, deadline=None)
@given(bad=st.one_of(st.integers(), st.text(max_size=3)))
def test_impossible_values_raise_method_error(name, bad):
    run = METHODS[name].run()
    request = run.request
    allowed = {str(v).lower() for v in request.values}
    if str(bad).strip().lower() in allowed:
        return
    with pytest.raises(MethodError):
        run.feed(bad)
    assert run.request == request and run.history == ()
