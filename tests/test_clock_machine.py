import random
from collections import Counter, deque
from statistics import NormalDist

import chess
import pytest

from eboard960.clock.events import (
    ClockPaused,
    ClockResumed,
    ClockStarted,
    FlagFell,
    MoveCompleted,
    PositionConfirmed,
    PositionDiscarded,
    PositionShown,
)
from eboard960.clock.machine import (
    ALL,
    BUTTON_TRIGGERS,
    TRANSITIONS,
    TRIGGERS,
    ClockMachine,
    Mode,
)
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import TimeControl
from eboard960.errors import ClockError
from eboard960.events import BUTTONS, ButtonPressed
from eboard960.position import StartPosition


def as_list(value):
    return value if isinstance(value, list) else [value]


def rules():
    for trigger, source, dest, conditions, after in TRANSITIONS:
        for name in as_list(trigger):
            for state in as_list(source):
                yield name, state, dest, conditions, after


def machine(text="5+3", **special):
    return ClockMachine(TimeControl.parse(text), special=SpecialTimer(**special))


# ----- the table ------------------------------------------------------------------------


def test_every_name_in_the_table_exists():
    for trigger, _, dest, conditions, after in rules():
        assert trigger in TRIGGERS
        assert dest is None or dest in Mode
        for name in (conditions, after):
            if name is not None:
                assert callable(getattr(ClockMachine, name)), name


def test_every_mode_is_reachable_from_setup():
    seen, todo = {Mode.SETUP}, deque([Mode.SETUP])
    while todo:
        state = todo.popleft()
        for _, source, dest, _, _ in rules():
            if source is state and dest is not None and dest not in seen:
                seen.add(dest)
                todo.append(dest)
    assert seen == set(Mode)


def test_every_mode_and_trigger_pair_has_a_row():
    handled = {(trigger, state) for trigger, state, *_ in rules()}
    missing = {(t, s) for t in TRIGGERS for s in ALL} - handled
    assert not missing


def test_clock_buttons_are_board_buttons():
    assert set(BUTTON_TRIGGERS) <= BUTTONS


def drive_to(mode):
    """A machine in `mode`, and the time of its last press."""
    m = machine()
    steps = {
        Mode.SETUP: [],
        Mode.SPECIAL: ["draw"],
        Mode.READY: ["draw", "confirm"],
        Mode.RUNNING: ["draw", "confirm", "black", "white"],
        Mode.PAUSED: ["draw", "confirm", "black", "white", "pause"],
        Mode.DICE: [],
    }[mode]
    for i, button in enumerate(steps):
        m.press(button, t=float(i))
    if mode is Mode.DICE:
        m.dice("polyhedral-d4-d4-d6-d10", t=0.0)
        m.roll(2, t=0.0)
    return m, float(len(steps))


REFUSED = [
    (mode, trigger)
    for trigger, mode, _, _, after in rules()
    if after.startswith("refuse_")
    if not (mode is Mode.RUNNING and trigger in ("white", "black"))
]


@pytest.mark.parametrize(("mode", "trigger"), REFUSED)
def test_refusals_say_why_and_change_nothing(mode, trigger):
    m, t = drive_to(mode)
    before = (m.state, m.reading(t + 5), m.shown, m.position, m.special.dice_request)
    with pytest.raises(ClockError) as info:
        if trigger == "dice_roll":
            m.roll(3, t=t + 1)
        elif trigger == "dice_done":
            m.trigger("dice_done", t=t + 1)
        elif trigger == "dice_entry":
            m.dice("no-such-method", t=t + 1)
        else:
            m.press(trigger, t=t + 1)
    message = str(info.value)
    assert message and "\n" not in message
    assert (m.state, m.reading(t + 5), m.shown, m.position, m.special.dice_request) == before


def test_wrong_players_button_is_refused_without_touching_the_times():
    m, t = drive_to(Mode.RUNNING)  # black to move
    before = m.reading(t + 2)
    with pytest.raises(ClockError, match="white is not to move: it is black's turn"):
        m.press("white", t=t + 1)
    assert m.reading(t + 2) == before


def test_unknown_button_and_time_going_backwards():
    m, t = drive_to(Mode.RUNNING)
    with pytest.raises(ClockError, match="not a clock button"):
        m.feed(ButtonPressed(button="promote_q", t=t))
    before = m.reading(t)
    with pytest.raises(ClockError, match="backwards"):
        m.press("black", t=t - 2)
    assert m.reading(t) == before and m.state is Mode.RUNNING


# ----- scenarios ------------------------------------------------------------------------


def test_draw_redraw_confirm_play_pause():
    m = machine(rng=random.Random(7))
    shown = m.feed(ButtonPressed(button="draw", t=0.0))
    assert [type(e) for e in shown] == [PositionShown]
    redrawn = m.feed(ButtonPressed(button="draw", t=1.0))[0]
    assert redrawn.how == "draw" and m.state is Mode.SPECIAL
    assert redrawn.number == redrawn.position.number
    (confirmed,) = m.press("confirm", t=2.0)
    assert confirmed == PositionConfirmed(position=redrawn.position, t=2.0)
    assert m.position == redrawn.position and m.state is Mode.READY
    assert m.press("black", t=3.0) == [ClockStarted(t=3.0)]
    assert m.press("white", t=5.5) == [
        MoveCompleted(side=chess.WHITE, used_ms=2_500, remaining_ms=300_500, moves=1, t=5.5)
    ]
    assert m.press("black", t=6.0)[0].remaining_ms == 302_500
    assert m.press("white", t=7.0)[0].moves == 2
    assert m.press("pause", t=8.0) == [ClockPaused(t=8.0)]
    reading = m.reading(100.0)
    assert (reading.white_ms, reading.black_ms) == (300_500 + 3_000 - 1_000, 301_500)
    assert reading.move_number == 2 and reading.to_move == chess.BLACK
    assert m.press("pause", t=100.0) == [ClockResumed(t=100.0)]
    assert m.reading(101.0).black_ms == 300_500


def test_back_discards_a_shown_position():
    m = machine()
    m.press("draw", t=0.0)
    assert m.press("back", t=1.0) == [PositionDiscarded(t=1.0)]
    assert m.state is Mode.SETUP and m.shown is None


def test_plain_clock_needs_no_position():
    m = machine()
    assert m.press("confirm", t=0.0) == [PositionConfirmed(position=None, t=0.0)]
    m.press("pause", t=1.0)
    assert m.state is Mode.RUNNING and m.reading(2.0).white_ms == 299_000


def test_manual_setting_steps_through_allowed_numbers_and_wraps():
    m = machine(exclude={519, 520})
    first = m.press("plus", t=0.0)[0]
    assert (first.number, first.how, first.position.rank) == (518, "manual", "RNBQKBNR")
    assert m.press("plus", t=1.0)[0].number == 521
    assert m.press("minus", t=2.0)[0].number == 518
    for _ in range(518):
        m.press("minus", t=3.0)
    assert m.shown.number == 0
    assert m.press("minus", t=4.0)[0].number == 959


def test_dgt960_numbering_shows_960_for_zero_and_sorts_it_last():
    m = machine(dgt960_numbers=True)
    m.press("plus", t=0.0)
    for _ in range(441):
        event = m.press("plus", t=1.0)[0]
    assert (event.number, event.position.number) == (959, 959)
    event = m.press("plus", t=2.0)[0]
    assert (event.number, event.position) == (960, StartPosition.from_number(0))
    assert m.press("plus", t=3.0)[0].number == 1


def test_flags_are_reported_once_first_flag_first():
    m = machine("1")
    m.press("black", t=0.0)
    assert m.tick(59.999) == []
    assert m.tick(60.5) == [FlagFell(side=chess.WHITE, at_ms=60_000, t=60.5)]
    assert m.tick(61.0) == []
    m.press("white", t=62.0)  # the flagged side may still move
    assert m.reading(62.0).white_ms == 0
    assert m.tick(200.0) == [FlagFell(side=chess.BLACK, at_ms=122_000, t=200.0)]


# ----- dice entry ---------------------------------------------------------------------------

D10_METHOD = "polyhedral-d4-d4-d6-d10"


def d10_number(light, dark, queen, knights):
    """Seed 000: subtract one from each die, weigh by 1, 4, 16 and 96, add: Scharnagl's number."""
    return (light - 1) + 4 * (dark - 1) + 16 * (queen - 1) + 96 * (knights - 1)


def test_dice_entry_shows_the_rolled_position_then_confirm_locks_it():
    m = machine()
    (request,) = m.dice(D10_METHOD, t=0.0)
    assert request.method == D10_METHOD and "d4" in request.request
    assert m.state is Mode.DICE
    for roll in (2, 3, 5):
        (request,) = m.roll(roll, t=1.0)
        assert m.state is Mode.DICE
    assert "d10" in request.request
    (shown,) = m.roll("4", t=2.0)  # keyboard input arrives as text
    assert (shown.how, shown.number) == ("dice", d10_number(2, 3, 5, 4))
    assert m.state is Mode.SPECIAL
    assert m.press("confirm", t=3.0)[0].position.number == d10_number(2, 3, 5, 4)


def test_a_die_face_out_of_range_is_refused_and_the_entry_goes_on():
    m = machine()
    m.dice(D10_METHOD, t=0.0)
    m.roll(2, t=1.0)
    request = m.special.dice_request
    with pytest.raises(ClockError, match="roll 7 refused: a d4 cannot give '7'"):
        m.roll(7, t=2.0)
    assert m.state is Mode.DICE and m.special.dice_request == request
    for roll in (1, 1, 1):
        m.roll(roll, t=3.0)
    assert m.shown.number == d10_number(2, 1, 1, 1)


def test_non_uniform_methods_are_refused_for_dice_entry():
    m = machine()
    with pytest.raises(ClockError, match="does not give every position the same chance"):
        m.dice("rovida-die", t=0.0)
    assert m.state is Mode.SETUP
    with pytest.raises(ClockError, match="unknown method 'dice'"):
        m.dice("dice", t=0.0)


def test_rolls_that_give_an_excluded_position_start_over():
    m = machine(exclude={d10_number(1, 1, 1, 1)})
    m.dice(D10_METHOD, t=0.0)
    for roll in (1, 1, 1):
        m.roll(roll, t=1.0)
    with pytest.raises(ClockError, match="excluded position 0: roll again from the start"):
        m.roll(1, t=2.0)
    assert m.state is Mode.DICE and "light-square bishop" in m.special.dice_request
    assert m.press("back", t=3.0) == [PositionDiscarded(t=3.0)]
    assert m.state is Mode.SETUP


# ----- fairness ---------------------------------------------------------------------------


def chi_square_critical(df, p=0.001):
    """Wilson–Hilferty: (chi2/df)^(1/3) is close to normal with mean 1 - 2/(9 df)
    and variance 2/(9 df), so the upper-p quantile is df * (1 - 2/(9df) + z sqrt(2/(9df)))^3."""
    z = NormalDist().inv_cdf(1 - p)
    return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3


def test_wilson_hilferty_matches_known_quantiles():
    assert chi_square_critical(100) == pytest.approx(149.449, rel=2e-3)
    assert chi_square_critical(1000) == pytest.approx(1143.917, rel=1e-3)


EXCLUDED = {518, 0, 959, *range(100, 140)}


def test_200000_special_timer_draws_honour_exclusions_and_reach_every_other_position():
    special = SpecialTimer(exclude=EXCLUDED)  # the CSPRNG, as in use
    counts = Counter(special.draw().number for _ in range(200_000))
    assert set(counts) == set(range(960)) - EXCLUDED  # a miss has odds below e^-200


def test_200000_special_timer_draws_are_uniform():
    """A chi-square test on a seeded source: the same verdict every run (the CSPRNG's draws
    would fail it one run in a thousand, and CI must not flip on chance)."""
    special = SpecialTimer(exclude=EXCLUDED, rng=random.Random(2026))
    draws = 200_000
    counts = Counter(special.draw().number for _ in range(draws))
    allowed = set(range(960)) - EXCLUDED
    expected = draws / len(allowed)
    chi2 = sum((counts[n] - expected) ** 2 / expected for n in allowed)
    assert chi2 < chi_square_critical(len(allowed) - 1)


def test_draws_through_the_buttons_never_show_an_excluded_position():
    m = machine(exclude=set(range(0, 950)))
    numbers = {m.press("draw", t=float(i))[0].number for i in range(300)}
    assert numbers == set(range(950, 960))
