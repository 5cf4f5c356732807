"""The mode table fired through `transitions` itself and through the recognizer's compiled routes agree."""

from __future__ import annotations

import random

import chess
from hypothesis import given, settings
from hypothesis import strategies as st
from transitions import Machine

from eboard960.choreography import human_game, random_game
from eboard960.events import PieceLifted, PiecePlaced, SquareEvent
from eboard960.recognizer import Recognizer
from eboard960.recognizer.table import TRANSITIONS, Mode


class LibraryFired(Recognizer):
    """The recognizer with every trigger fired through a `transitions.Machine` bound to it."""

    def __init__(self, start: chess.Board) -> None:
        super().__init__(start)
        self.machine = Machine(model=self, states=Mode, initial=Mode.PLAYING, transitions=TRANSITIONS,
                               auto_transitions=False, model_attribute="mode")

    def _fire(self, trigger: str) -> None:
        getattr(self, trigger)()


def _events(seed: int) -> tuple[chess.Board, list[SquareEvent]]:
    """A human game, then hands that wander: wrong squares, put-backs, takebacks, a new set-up."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(rng.randrange(960))
    moves = random_game(start, rng, max_plies=rng.randrange(4, 60))
    events = human_game(start, moves, rng, noise_rate=0.3)
    t = events[-1].t if events else 0.0
    probe = Recognizer(start)
    for event in events:
        probe.feed(event)
    occupied = set(chess.SquareSet(probe.occupied))
    for _ in range(rng.randrange(40)):
        t += 0.4
        if occupied and rng.random() < 0.5:
            square = rng.choice(sorted(occupied))
            occupied.discard(square)
            events.append(PieceLifted(square=square, t=t))
        else:
            square = rng.choice(sorted(set(range(64)) - occupied))
            occupied.add(square)
            events.append(PiecePlaced(square=square, t=t))
    return start, events


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_compiled_routes_fire_as_transitions_does(seed: int) -> None:
    start, events = _events(seed)
    ours, library = Recognizer(start), LibraryFired(start)
    for event in events:
        assert ours.feed(event) == library.feed(event)
        assert ours.mode is library.mode
    assert ours.finish() == library.finish()
    assert ours.board.move_stack == library.board.move_stack
    assert ours.stop() == library.stop() and ours.mode is library.mode is Mode.GAME_OVER


def test_the_wandering_hands_reach_the_recovery_modes() -> None:
    """The property above would prove little if the random hands never left ordinary play."""
    seen = set()
    for seed in range(30):
        start, events = _events(seed)
        recognizer = LibraryFired(start)
        for event in events:
            recognizer.feed(event)
            seen.add(recognizer.mode)
    assert {Mode.PLAYING, Mode.MOVED, Mode.ILLEGAL} <= seen
