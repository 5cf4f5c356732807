"""A whole Chess960 game on an emulated Square Off over BLE (scenario in test_chessnut_ble)."""

from __future__ import annotations

from test_chessnut_ble import (
    OFF_BEFORE_PRESENCE,
    check_full_game,
    check_recorded_sessions,
    check_three_disconnects,
)

from eboard960.protocols.squareoff import GameStarted


def test_a_full_game_gives_the_exact_pgn() -> None:
    result = check_full_game("squareoff")
    assert any(isinstance(e, GameStarted) for e in result["events"]), "the Pro answers 14#1*"


def test_three_disconnects_lose_no_move() -> None:
    check_three_disconnects("squareoff", OFF_BEFORE_PRESENCE, model="neo")


def test_recorded_sessions_replay_to_their_pgn() -> None:
    check_recorded_sessions("squareoff")
