"""tools/record_capture.py as a user runs it: mistakes are one line, Ctrl-C keeps the game, no loss."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import record_capture

from eboard960.capture import read_capture
from eboard960.replay import replay_capture

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
TOOL = [sys.executable, str(ROOT / "tools" / "record_capture.py")]


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 20
    while not (path.exists() and len(path.read_text().splitlines()) >= count):
        assert process.poll() is None and time.monotonic() < deadline, "the recording never got going"
        time.sleep(0.05)


def _moves(pgn: Path) -> list[str]:
    return [move.uci() for move in chess.pgn.read_game(io.StringIO(pgn.read_text())).mainline_moves()]


def test_a_bad_move_is_one_line_and_nothing_is_written(tmp_path: Path, capsys) -> None:
    capture = tmp_path / "game.jsonl"
    assert record_capture.main([str(capture), "--moves", "e4 e9"]) == 2
    err = capsys.readouterr().err
    assert err == "record_capture: --moves: 'e9' is not a legal move as ply 2 (UCI or SAN)\n"
    assert list(tmp_path.iterdir()) == []


def test_an_existing_capture_is_kept_unless_forced(tmp_path: Path, capsys) -> None:
    capture = tmp_path / "game.jsonl"
    capture.write_text("an earlier recording\n")
    assert record_capture.main([str(capture), "--moves", "e4 e5"]) == 2
    assert capsys.readouterr().err == f"record_capture: {capture} exists; --force replaces it\n"
    assert capture.read_text() == "an earlier recording\n"
    assert record_capture.main([str(capture), "--moves", "e4 e5", "--force"]) == 0
    header = json.loads(capture.read_text().splitlines()[0])
    assert header["event"] == "eboard960 recording of an emulated dgt board"
    assert _moves(tmp_path / "game.expected.pgn") == ["e2e4", "e7e5"]


def test_a_missing_port_is_one_line_not_a_silent_wait(tmp_path: Path) -> None:
    capture = tmp_path / "game.jsonl"
    done = subprocess.run([*TOOL, str(capture), "--port", str(tmp_path / "ttyUSB9")],
                          capture_output=True, text=True, env=ENV, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith(f"record_capture: cannot open {tmp_path / 'ttyUSB9'}: ")
    assert done.stderr.count("\n") == 1 and not capture.exists()


def test_ctrl_c_keeps_the_capture_and_writes_the_moves_so_far(tmp_path: Path) -> None:
    capture = tmp_path / "game.jsonl"
    process = subprocess.Popen([*TOOL, str(capture), "--random", "200", "--pause", "0.2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    _wait_for_lines(capture, 12, process)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130 and "Traceback" not in err, err
    expected = _moves(tmp_path / "game.expected.pgn")
    assert "(interrupted)" in out and 0 < len(expected) < 200
    games = replay_capture(read_capture(capture)).games
    replayed = [move.uci() for game in games for move in game.mainline_moves()]
    assert replayed == expected[: len(replayed)] and len(expected) - len(replayed) <= 1


def test_a_real_port_recording_says_what_it_recorded(tmp_path: Path) -> None:
    board = subprocess.Popen([sys.executable, "-m", "eboard960", "emulate", "dgt", "--no-pace"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        port = board.stdout.readline().strip()
        capture = tmp_path / "real.jsonl"
        process = subprocess.Popen([*TOOL, str(capture), "--port", port], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=ENV)
        _wait_for_lines(capture, 3, process)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        board.send_signal(signal.SIGINT)
        board.communicate(timeout=10)
    assert process.returncode == 0 and "Traceback" not in err, err
    header = json.loads(capture.read_text().splitlines()[0])
    assert header["event"] == f"eboard960 recording of a dgt board on {port}"
