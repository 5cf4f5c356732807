"""The fair draw: injected randomness, exclusions, number sets."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.draw import draw, parse_number_set
from eboard960.errors import PositionError


def test_a_seed_with_a_byte_that_is_not_utf8_draws_as_its_bytes():
    """Python gives such an argv byte as a lone surrogate ('\\udce9'); random.Random could not encode it."""
    assert draw(seed="caf\udce9") == draw(seed=b"caf\xe9")
    assert draw(seed="demo") == draw(seed=b"demo")  # the seeds people already use draw what they drew


def test_seeded_draws_repeat():
    assert draw(seed=42) == draw(seed=42)
    assert [draw(seed=s).number for s in range(20)] == [draw(seed=s).number for s in range(20)]


def test_default_source_is_the_os_csprng(monkeypatch):
    import secrets

    calls = []

    class Spy(secrets.SystemRandom):
        def choice(self, seq):
            calls.append(len(seq))
            return super().choice(seq)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    draw()
    assert calls == [960]


def test_exclusions_are_respected():
    rng = random.Random(1)
    seen = {draw(exclude=range(0, 958), rng=rng).number for _ in range(50)}
    assert seen == {958, 959}


def test_only_one_left():
    assert draw(exclude=set(range(960)) - {518}, seed=3).is_standard


def test_excluding_everything_is_an_error():
    with pytest.raises(PositionError, match="excludes all 960"):
        draw(exclude=range(960))


def test_out_of_range_exclusion_and_double_source_are_errors():
    with pytest.raises(PositionError, match="out of range"):
        draw(exclude=[960])
    with pytest.raises(PositionError, match="not both"):
        draw(seed=1, rng=random.Random(1))


def test_draw_is_roughly_uniform():
    rng = random.Random(7)
    counts = Counter(draw(rng=rng).number for _ in range(9600))
    assert len(counts) > 900
    assert max(counts.values()) < 35  # mean 10; a biased source would pile up


def test_parse_number_set():
    assert parse_number_set("518,12") == {518, 12}
    assert parse_number_set("0-3, 518") == {0, 1, 2, 3, 518}
    assert parse_number_set("") == frozenset()


@pytest.mark.parametrize(
    ("text", "problem"),
    [("5x", "bad position number"), ("9-2", "backwards"), ("0-960", "out of range"),
     ("-3", "bad position number")],
)
def test_parse_number_set_errors(text, problem):
    with pytest.raises(PositionError, match=problem):
        parse_number_set(text)


@settings(max_examples=50)
@given(st.sets(st.integers(0, 959), max_size=959), st.integers())
def test_draw_never_returns_an_excluded_number(excluded, seed):
    assert draw(exclude=excluded, seed=seed).number not in excluded
