"""`kill -9` of `eboard960 play` at a random moment, then `--resume`: no move lost, clocks restored.

Each trial runs the paced demo in a subprocess with a journal and a clock,
kills it with SIGKILL at a random moment of the game, reads what the journal
holds at that instant (the `replay` pipeline), then resumes in this process
with `--resume FILE --fast`, which restores the game, finishes the demo and
appends to the same journal. The sleeps are the random kill moments; the
whole test runs in about half a minute.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn

from eboard960.capture import read_capture
from eboard960.cli import main
from eboard960.play.demo import demo_board, demo_moves
from eboard960.replay import replay_capture

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 20
GAME_SECONDS = 1.0  # about how long the demo's game takes at --pace 0.01 on this machine


def _clocks(pgn_file: Path) -> list[float]:
    if not pgn_file.exists():
        return []
    with pgn_file.open() as handle:
        game = chess.pgn.read_game(handle)
    return [node.clock() for node in game.mainline()]


def _wait_for_game_start(journal: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.read_text().count("\n") >= 2:
            return
        time.sleep(0.01)
    raise AssertionError(f"the demo did not start its journal: {process.stderr.read().decode()}")


def test_kill_9_at_random_moments_then_resume_loses_no_move(tmp_path: Path, capsys) -> None:
    rng = random.Random(960)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    script = demo_moves()
    mid_game = 0
    for trial in range(TRIALS):
        journal = tmp_path / f"game{trial}.jsonl"
        process = subprocess.Popen(
            [sys.executable, "-m", "eboard960", "play", "--demo", "--pace", "0.01", "--time", "5+3",
             "--record", str(journal)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        try:
            _wait_for_game_start(journal, process)
            time.sleep(rng.uniform(0, GAME_SECONDS))
        finally:
            process.kill()
            process.wait()
        killed = read_capture(journal)
        before = list(replay_capture(killed).games[-1].mainline_moves())
        assert before == script[: len(before)], f"trial {trial}: the journal holds another game"
        clocks_before = _clocks(tmp_path / f"game{trial}.jsonl.pgn")
        mid_game += 0 < len(before) < len(script)

        assert main(["play", "--resume", str(journal), "--fast"]) == 0
        out = capsys.readouterr().out
        restored = re.search(r"^resumed: (\d+) moves restored: (.*)$", out, re.MULTILINE)
        assert restored, out
        assert int(restored.group(1)) == len(before), f"trial {trial}: {out}"
        assert restored.group(2) == (demo_board().variation_san(before) if before else "none")

        after = replay_capture(read_capture(journal))
        assert after.ok, f"trial {trial}: {after.problems}"
        assert list(after.games[-1].mainline_moves()) == script
        clocks_after = _clocks(tmp_path / f"game{trial}.jsonl.pgn")
        assert len(clocks_after) == len(script)
        assert clocks_after[: len(clocks_before)] == clocks_before, f"trial {trial}: clocks changed"
    assert mid_game >= TRIALS // 2, f"only {mid_game} of {TRIALS} kills fell inside the game"
