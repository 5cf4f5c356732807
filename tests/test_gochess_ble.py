"""A whole Chess960 game on an emulated GoChess over BLE (scenario in test_chessnut_ble)."""

from __future__ import annotations

from test_chessnut_ble import (
    OFF_BEFORE_PRESENCE,
    check_full_game,
    check_recorded_sessions,
    check_three_disconnects,
)


def test_a_full_game_gives_the_exact_pgn() -> None:
    check_full_game("gochess")


def test_three_disconnects_lose_no_move() -> None:
    check_three_disconnects("gochess", OFF_BEFORE_PRESENCE, model="xr")


def test_recorded_sessions_replay_to_their_pgn() -> None:
    check_recorded_sessions("gochess")
