"""A whole Chess960 game on an emulated GoChess over BLE (scenario in test_chessnut_ble)."""

from __future__ import annotations

import asyncio

from test_chessnut_ble import (
    OFF_BEFORE_PRESENCE,
    captures,
    expected_moves,
    moves_of,
    play,
    replayed,
)

from eboard960.events import LinkChanged


def test_a_full_game_gives_the_exact_pgn() -> None:
    result = asyncio.run(play("gochess"))
    assert result["connections"] == 1
    assert moves_of(result["pgn"]) == expected_moves()


def test_three_disconnects_lose_no_move() -> None:
    result = asyncio.run(play("gochess", OFF_BEFORE_PRESENCE, model="xr"))
    assert result["connections"] == 4
    assert len([e for e in result["events"] if e == LinkChanged(up=False, t=e.t)]) == 3
    assert moves_of(result["pgn"]) == expected_moves()


def test_recorded_sessions_replay_to_their_pgn() -> None:
    assert captures("gochess")
    for path in captures("gochess"):
        got, expected = replayed(path)
        assert got == expected, path.name
