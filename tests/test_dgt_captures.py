"""The recorded emulator captures in firmware_protocols/dgt/captures replay to their games."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from eboard960.cli import main

CAPTURES = sorted((Path(__file__).resolve().parents[1] / "firmware_protocols" / "dgt"
                   / "captures").glob("*.jsonl"))


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: p.name)
def test_capture_replays_to_the_expected_game(path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", str(path)]) == 0
    got = chess.pgn.read_game(io.StringIO(capsys.readouterr().out))
    expected = chess.pgn.read_game(io.StringIO(
        path.with_name(path.name.split(".")[0] + ".expected.pgn").read_text()))
    assert list(got.mainline_moves()) == list(expected.mainline_moves())
    assert len(list(expected.mainline_moves())) >= 40


def test_there_are_clean_and_dirty_captures() -> None:
    names = {path.name for path in CAPTURES}
    assert {"dgt_pos0_clean.jsonl", "dgt_pos466_dirty_pulled.jsonl"} <= names
