"""A whole Chess960 game on an emulated Square Off over BLE (scenario in test_chessnut_ble)."""

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
from eboard960.protocols.squareoff import GameStarted


def test_a_full_game_gives_the_exact_pgn() -> None:
    result = asyncio.run(play("squareoff"))
    assert result["connections"] == 1
    assert moves_of(result["pgn"]) == expected_moves()
    assert any(isinstance(e, GameStarted) for e in result["events"]), "the Pro answers 14#1*"


def test_three_disconnects_lose_no_move() -> None:
    result = asyncio.run(play("squareoff", OFF_BEFORE_PRESENCE, model="neo"))
    assert result["connections"] == 4
    assert len([e for e in result["events"] if e == LinkChanged(up=False, t=e.t)]) == 3
    assert moves_of(result["pgn"]) == expected_moves()


def test_recorded_sessions_replay_to_their_pgn() -> None:
    assert captures("squareoff")
    for path in captures("squareoff"):
        got, expected = replayed(path)
        assert got == expected, path.name
