"""The recorded Pegasus BLE sessions replay to their games with `eboard960 replay`."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from eboard960.capture import read_capture
from eboard960.cli import main

CAPTURES = sorted((Path(__file__).parent.parent / "firmware_protocols/pegasus/captures").glob("*.jsonl"))


def _moves(text: str) -> list[str]:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    return [move.uci() for move in game.mainline_moves()]


@pytest.mark.parametrize("path", CAPTURES, ids=lambda path: path.stem)
def test_recorded_session_replays_to_its_game(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capture = read_capture(path)
    assert capture.problems == []
    assert sum(record.kind == "link" for record in capture.records) >= 2
    assert main(["replay", str(path)]) == 0
    expected = path.with_suffix("").with_suffix(".expected.pgn").read_text()
    assert _moves(capsys.readouterr().out) == _moves(expected)


def test_there_are_recordings() -> None:
    assert CAPTURES
