import itertools

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from import_probe import io_loaded_by

from eboard960.clock.core import Clock, Flag
from eboard960.clock.timecontrol import Bonus, Stage, TimeControl, parse_time_controls
from eboard960.errors import ClockError

W, B = chess.WHITE, chess.BLACK


class TickModel:
    """A deliberately naive clock: it advances one millisecond at a time."""

    def __init__(self, white: TimeControl, black: TimeControl):
        self.controls = {W: white, B: black}
        self.time = {W: white.stages[0].time_ms, B: black.stages[0].time_ms}
        self.moves = {W: 0, B: 0}
        self.mover = W
        self.used = 0
        self.now = 0
        self.running = False
        self.flags = []

    def stage_of(self, side, move_index):
        """The stage a side's move number `move_index` (0-based) is played in, and
        whether that move closes the stage."""
        stages = list(self.controls[side].stages)
        count = 0
        index = 0
        while True:
            stage = stages[min(index, len(stages) - 1)]
            if stage.moves is None:
                return stage, None
            if move_index < count + stage.moves:
                closes = move_index == count + stage.moves - 1
                nxt = stages[min(index + 1, len(stages) - 1)]
                return stage, nxt if closes else None
            count += stage.moves
            index += 1

    def shown(self, side):
        if side != self.mover:
            return self.time[side]
        stage, _ = self.stage_of(side, self.moves[side])
        if stage.bonus is Bonus.SIMPLE:
            return max(0, self.time[side] - max(0, self.used - stage.bonus_ms))
        return max(0, self.time[side] - self.used)

    def flagged(self, side):
        return side in [f.side for f in self.flags]

    def wait(self, ms):
        for _ in range(ms):
            self.now += 1
            if self.running:
                self.used += 1
                if self.shown(self.mover) == 0 and not self.flagged(self.mover):
                    self.flags.append(Flag(side=self.mover, at=self.now))

    def press(self):
        side = self.mover
        stage, next_stage = self.stage_of(side, self.moves[side])
        if self.flagged(side):
            self.time[side] = 0
        else:
            if stage.bonus is Bonus.FISCHER:
                self.time[side] += stage.bonus_ms - self.used
            elif stage.bonus is Bonus.BRONSTEIN:
                self.time[side] -= self.used - min(self.used, stage.bonus_ms)
            elif stage.bonus is Bonus.SIMPLE:
                self.time[side] -= max(0, self.used - stage.bonus_ms)
            else:
                self.time[side] -= self.used
            if next_stage is not None:
                self.time[side] += next_stage.time_ms
        self.moves[side] += 1
        self.mover = not side
        self.used = 0


small_stage = st.builds(
    lambda time_ms, moves, bonus, bonus_ms: Stage(
        time_ms=time_ms, moves=moves, bonus=bonus, bonus_ms=0 if bonus is Bonus.NONE else bonus_ms
    ),
    st.integers(1, 1500),
    st.integers(1, 3),
    st.sampled_from(list(Bonus)),
    st.integers(1, 400),
)


def small_controls():
    return st.builds(
        lambda first, last, open_end: TimeControl(
            stages=(
                *first,
                last
                if not open_end
                else Stage(time_ms=last.time_ms, bonus=last.bonus, bonus_ms=last.bonus_ms),
            )
        ),
        st.lists(small_stage, max_size=2),
        small_stage,
        st.booleans(),
    )


actions = st.lists(
    st.tuples(st.sampled_from(["press", "pause", "look"]), st.integers(0, 500)),
    max_size=14,
)


@settings(max_examples=150, deadline=None)
@given(small_controls(), small_controls(), actions)
def test_clock_agrees_with_a_tick_by_tick_model(white, black, steps):
    clock = Clock(white, black, time_source=lambda: pytest.fail("no implicit time in this test"))
    model = TickModel(white, black)
    clock.start(at=0)
    model.running = True
    for action, wait in steps:
        model.wait(wait)
        now = model.now
        if action == "press" and not clock.running:
            with pytest.raises(ClockError, match="paused"):
                clock.press(clock.to_move, at=now)
        elif action == "press":
            clock.press(clock.to_move, at=now)
            model.press()
        elif action == "pause":
            if clock.running:
                clock.pause(at=now)
            else:
                clock.resume(at=now)
            model.running = not model.running
        for side in (W, B):
            assert clock.remaining(side, at=now) == model.shown(side)
            assert clock.moves(side) == model.moves[side]
        assert clock.to_move == model.mover
        assert clock.flags(at=now) == tuple(model.flags)


def play_60_moves(text, white_used, black_used):
    white_control, black_control = parse_time_controls(text)
    clock = Clock(white_control, black_control)
    now = 0
    clock.start(at=now)
    for w, b in zip(white_used, black_used, strict=True):
        now += w
        clock.press(W, at=now)
        now += b
        clock.press(B, at=now)
    return clock, now


# thinking times that straddle the delays: 0 ms up to 40 s, never the same twice in a row
WHITE_USED = [(i * 7919) % 40_001 for i in range(1, 61)]
BLACK_USED = [(i * 104_729) % 30_011 for i in range(1, 61)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90", lambda used, side: 90 * 60_000 - sum(used)),
        ("90+30", lambda used, side: 90 * 60_000 - sum(used) + 60 * 30_000),
        ("90d5", lambda used, side: 90 * 60_000 - sum(u - min(u, 5_000) for u in used)),
        ("90s5", lambda used, side: 90 * 60_000 - sum(max(0, u - 5_000) for u in used)),
        ("90u5", lambda used, side: 90 * 60_000 - sum(max(0, u - 5_000) for u in used)),
        (
            "90/40+30:30+30s",
            lambda used, side: (90 + 30) * 60_000 - sum(used) + 60 * 30_000,
        ),
        (
            "20/25:10/25:5",  # stage times arrive after the 25th and the 50th move
            lambda used, side: (20 + 10 + 5) * 60_000 - sum(used),
        ),
        (
            "30,20+10",  # time odds
            lambda used, side: (
                30 * 60_000 - sum(used) if side == W else 20 * 60_000 - sum(used) + 60 * 10_000
            ),
        ),
    ],
)
def test_60_move_game_ends_exact_to_the_millisecond(text, expected):
    clock, now = play_60_moves(text, WHITE_USED, BLACK_USED)
    assert clock.remaining(W, at=now) == expected(WHITE_USED, W)
    assert clock.remaining(B, at=now) == expected(BLACK_USED, B)
    assert clock.moves(W) == clock.moves(B) == 60
    assert clock.reading(at=now).move_number == 61
    assert clock.flags(at=now) == ()


def test_multi_stage_adds_time_after_the_40th_move_only():
    clock = Clock(TimeControl.parse("90/40+30:30+30"))
    clock.start(at=0)
    now = 0
    for move in range(1, 41):
        now += 1_000
        clock.press(W, at=now)
        if move < 40:
            assert clock.remaining(W, at=now) == 90 * 60_000 + move * 29_000
        now += 1_000
        clock.press(B, at=now)
    assert clock.remaining(W, at=now) == 120 * 60_000 + 40 * 29_000


def test_a_takeback_gives_back_the_increment_and_the_move_but_not_the_time_spent():
    clock = Clock(TimeControl.parse("1+2"))
    clock.start(at=0)
    clock.press(W, at=3_000)  # 60 - 3 + 2
    assert clock.remaining(W, at=3_000) == 59_000
    clock.take_back(at=8_000)  # Black thought 5 s: spent; White's move is undone, its increment with it
    assert (clock.to_move, clock.moves(W), clock.moves(B)) == (W, 0, 0)
    assert (clock.remaining(W, at=8_000), clock.remaining(B, at=8_000)) == (57_000, 55_000)
    clock.press(W, at=9_000)
    assert clock.remaining(W, at=9_000) == 58_000 and clock.moves(W) == 1


def test_a_takeback_of_the_move_that_completed_a_stage_takes_its_time_back():
    clock = Clock(TimeControl.parse("1/2+0:1"))  # a minute for two moves, then another minute
    clock.start(at=0)
    for at, side in ((1_000, W), (2_000, B), (3_000, W)):
        clock.press(side, at=at)
    assert clock.remaining(W, at=3_000) == 118_000 and clock.stage(W).moves is None
    clock.take_back(at=4_000)
    assert clock.remaining(W, at=4_000) == 58_000 and clock.stage(W).moves == 2 and clock.moves(W) == 1
    clock.press(W, at=5_000)  # the second move, made again, completes the stage
    assert clock.remaining(W, at=5_000) == 117_000
    clock.take_back(at=5_000)
    clock.take_back(at=6_000)  # two moves back: Black's first move is undone too
    assert (clock.to_move, clock.moves(W), clock.moves(B)) == (B, 1, 0)
    assert clock.remaining(B, at=6_000) == 59_000  # the second Black spent on that move stays spent
    assert clock.remaining(W, at=6_000) == 56_000  # one second on each of its moves, made or undone


def test_a_takeback_keeps_a_delay_free():
    clock = Clock(TimeControl.parse("1s5"))
    clock.start(at=0)
    clock.press(W, at=3_000)
    clock.take_back(at=10_000)  # Black used 7 s, 5 of them free
    assert clock.remaining(B, at=10_000) == 58_000 and clock.remaining(W, at=10_000) == 60_000


def test_a_takeback_needs_a_running_clock_and_a_move():
    clock = Clock(TimeControl.parse("1"))
    clock.start(at=0)
    with pytest.raises(ClockError, match="no move to take back"):
        clock.take_back(at=1_000)
    clock.press(W, at=1_000)
    clock.pause(at=2_000)
    with pytest.raises(ClockError, match="not running"):
        clock.take_back(at=3_000)


def test_bronstein_and_simple_delay_differ_while_thinking():
    bronstein = Clock(TimeControl.parse("1d5"))
    simple = Clock(TimeControl.parse("1s5"))
    for clock in (bronstein, simple):
        clock.start(at=0)
    assert bronstein.remaining(W, at=3_000) == 57_000
    assert simple.remaining(W, at=3_000) == 60_000
    assert simple.delay_left(at=3_000) == bronstein.delay_left(at=3_000) == 2_000
    assert bronstein.flags(at=60_000) == (Flag(side=W, at=60_000),)
    assert simple.flags(at=64_999) == ()
    assert simple.flags(at=65_000) == (Flag(side=W, at=65_000),)


def test_first_flag_is_remembered_and_the_second_follows():
    clock = Clock(TimeControl.parse("1"))
    clock.start(at=0)
    clock.press(W, at=70_000)  # white's flag fell at 60 s, the press does not save it
    assert clock.remaining(W, at=70_000) == 0
    assert clock.flags(at=70_000) == (Flag(side=W, at=60_000),)
    assert clock.flags(at=200_000) == (Flag(side=W, at=60_000), Flag(side=B, at=130_000))


def test_a_press_at_the_exact_flag_instant_is_too_late():
    clock = Clock(TimeControl.parse("1+2"))
    clock.start(at=0)
    clock.press(W, at=60_000)
    assert clock.flags(at=60_000) == (Flag(side=W, at=60_000),)
    assert clock.remaining(W, at=60_000) == 0  # no increment once the flag has fallen


def test_pause_stops_time_and_flags():
    clock = Clock(TimeControl.parse("1"))
    clock.start(at=0)
    clock.pause(at=10_000)
    assert clock.remaining(W, at=500_000) == 50_000
    assert clock.flags(at=500_000) == ()
    clock.resume(at=500_000)
    assert clock.remaining(W, at=510_000) == 40_000
    assert clock.flags(at=550_000) == (Flag(side=W, at=550_000),)


def test_time_source_is_used_when_no_time_is_given():
    ticks = itertools.count(0, 1_000)
    clock = Clock(TimeControl.parse("1"), time_source=lambda: next(ticks))
    clock.start()  # 0
    clock.press(W)  # 1000
    assert clock.remaining(W, at=5_000) == 59_000


def test_misuse_is_refused_and_changes_nothing():
    clock = Clock(TimeControl.parse("5+3"))
    with pytest.raises(ClockError, match="not started"):
        clock.press(W, at=0)
    clock.start(at=0)
    with pytest.raises(ClockError, match="already started"):
        clock.start(at=1)
    with pytest.raises(ClockError, match="black is not to move"):
        clock.press(B, at=1_000)
    with pytest.raises(ClockError, match="not paused"):
        clock.resume(at=1_000)
    clock.press(W, at=2_000)
    with pytest.raises(ClockError, match="backwards"):
        clock.press(B, at=1_500)
    assert clock.reading(at=2_000).white_ms == 301_000
    assert clock.reading(at=2_000).black_ms == 300_000
    assert clock.to_move == B and clock.moves(W) == 1


def test_pure_clock_layers_import_no_io_library():
    assert io_loaded_by("eboard960.clock.core", "eboard960.clock.timecontrol") == []
