"""A neighbour knocked by the hand while a move is made, put back within a bounce with reports between, is
nothing (tools/fuzz_knocks.py draws the trials)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.recognizer import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import fuzz_knocks


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_knock_during_a_move_changes_no_move(seed: int) -> None:
    board, moves, events = fuzz_knocks.trial(random.Random(seed))
    recognizer = Recognizer(board)
    for event in events:
        recognizer.feed(event)
    recognizer.finish()
    assert recognizer.board.move_stack == moves
