import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.clock.timecontrol import (
    Bonus,
    Stage,
    TimeControl,
    controls_text,
    parse_time_controls,
)
from eboard960.errors import ClockError, Eboard960Error


def test_issue_examples_have_their_documented_meaning():
    white, black = parse_time_controls("90/40+30:30+30s")
    assert white is black
    assert white.stages == (
        Stage(time_ms=90 * 60_000, moves=40, bonus=Bonus.FISCHER, bonus_ms=30_000),
        Stage(time_ms=30 * 60_000, bonus=Bonus.FISCHER, bonus_ms=30_000),
    )
    assert TimeControl.parse("5+3").stages == (
        Stage(time_ms=300_000, bonus=Bonus.FISCHER, bonus_ms=3_000),
    )
    assert TimeControl.parse("15d5").stages == (
        Stage(time_ms=900_000, bonus=Bonus.BRONSTEIN, bonus_ms=5_000),
    )


@pytest.mark.parametrize("text", ["15s5", "15u5", "15 S 5s", "15U5"])
def test_simple_delay_spellings(text):
    assert TimeControl.parse(text).stages == (
        Stage(time_ms=900_000, bonus=Bonus.SIMPLE, bonus_ms=5_000),
    )


def test_sudden_death_and_game_prefix():
    assert TimeControl.parse("G/90") == TimeControl.parse("90")
    assert TimeControl.parse("90").stages == (Stage(time_ms=5_400_000),)


def test_decimals_are_exact():
    control = TimeControl.parse("0.5+0.25")
    assert control.stages[0].time_ms == 30_000
    assert control.stages[0].bonus_ms == 250


def test_time_odds():
    white, black = parse_time_controls("5+3,3+2")
    assert white.initial_ms == 300_000 and black.initial_ms == 180_000
    assert black.stages[0].bonus_ms == 2_000


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("5x3", "'5x3'"),
        ("five", "'five'"),
        ("15s", "'15s'"),
        ("90:30/40", "only the last stage"),
        ("0+3", "positive time"),
        ("5/0", "move count"),
        ("0.00001", "whole number of milliseconds"),
        ("5+3,3+2,1", "two controls"),
    ],
)
def test_bad_controls_get_one_clear_line(text, fragment):
    with pytest.raises(ClockError) as info:
        parse_time_controls(text)
    assert isinstance(info.value, Eboard960Error)
    message = str(info.value)
    assert fragment in message and "\n" not in message


@pytest.mark.parametrize("text", ["5+0", "5d0", "5s0", "5u0.0s", "5 + 0"])
def test_a_zero_bonus_is_no_bonus(text):
    assert TimeControl.parse(text).stages == (Stage(time_ms=300_000),)
    assert TimeControl.parse(text).text() == "5"


def test_a_zero_bonus_in_one_stage_keeps_the_others():
    assert TimeControl.parse("90/40+0:30+30").stages == (
        Stage(time_ms=90 * 60_000, moves=40),
        Stage(time_ms=30 * 60_000, bonus=Bonus.FISCHER, bonus_ms=30_000),
    )


def test_a_bonus_kind_without_seconds_is_still_refused():
    with pytest.raises(ClockError, match="'5\\+' is not a time control"):
        TimeControl.parse("5+")
    with pytest.raises(ClockError, match="a bonus needs a kind"):
        Stage(time_ms=300_000, bonus=Bonus.FISCHER, bonus_ms=0)


def test_a_pair_of_controls_is_named_once_when_even_and_both_ways_with_time_odds():
    assert controls_text(*parse_time_controls("5+3")) == "5+3"
    assert controls_text(*parse_time_controls("90/40+30:30+30s, 3+2")) == "90/40+30:30+30 vs 3+2"


def test_last_stage_with_moves_repeats():
    control = TimeControl.parse("120/40:60/20")
    assert control.stage(1).time_ms == 3_600_000
    assert control.stage(5) == control.stage(1)


def stages(moves):
    return st.builds(
        Stage,
        time_ms=st.integers(1, 10**8).map(lambda ms: ms * 60),  # whole ms when shown in minutes
        moves=moves,
        bonus=st.sampled_from([Bonus.FISCHER, Bonus.BRONSTEIN, Bonus.SIMPLE]),
        bonus_ms=st.integers(1, 600_000),
    )


@settings(max_examples=150)
@given(
    st.lists(stages(st.integers(1, 99)), max_size=3),
    stages(st.one_of(st.none(), st.integers(1, 99))),
)
def test_text_round_trips(first_stages, last_stage):
    control = TimeControl(stages=(*first_stages, last_stage))
    assert TimeControl.parse(control.text()) == control
