"""Crash `eboard960 play` many times and count lost moves: kill -9 at random moments, then resume.

Each trial starts the paced demo with a journal and a clock, kills it with
SIGKILL at a random moment, reads the journal (what `replay` sees), and then,
with `--double`, resumes with pacing and kills the resumed process as well,
before a last `--resume --fast` finishes the game. A move is lost if a resume
restores fewer moves than the journal held, or the finished journal does not
replay to the whole demo game. Prints the counts, and the time a resume takes
against a fresh `--demo --fast` run measured in the same session (both are
whole processes: start-up, the game, the PGN).

    python tools/play_crash_trials.py --trials 100 --double
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from eboard960.capture import read_capture  # noqa: E402
from eboard960.play.demo import demo_moves  # noqa: E402
from eboard960.replay import replay_capture  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
PLAY = [sys.executable, "-m", "eboard960", "play"]


def journal_moves(path: Path) -> list:
    return list(replay_capture(read_capture(path)).games[-1].mainline_moves())


def wait_for_lines(path: Path, lines: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_text().count("\n") >= lines:
            return
        time.sleep(0.005)


def kill_at_random(args: list[str], journal: Path, rng: random.Random, window: float) -> None:
    lines = journal.read_text().count("\n") + 1 if journal.exists() else 2
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    try:
        wait_for_lines(journal, lines, process)
        time.sleep(rng.uniform(0, window))
    finally:
        process.kill()
        process.wait()


def resume(journal: Path) -> tuple[int, float]:
    """Resume to the end; returns the number of moves it said it restored, and its wall time."""
    started = time.perf_counter()
    done = subprocess.run([*PLAY, "--resume", str(journal), "--fast"], capture_output=True, text=True,
                          env=ENV, timeout=60)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"resume failed: {done.stderr}")
    restored = re.search(r"^resumed: (\d+) moves restored", done.stdout, re.MULTILINE)
    return int(restored.group(1)) if restored else -1, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--double", action="store_true", help="also kill the first resume")
    parser.add_argument("--pace", type=float, default=0.01)
    parser.add_argument("--window", type=float, default=1.0, help="seconds within which to kill")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    script = demo_moves()
    lost = mid_game = second_mid_game = 0
    resume_times: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        baseline = []
        for index in range(5):
            path = Path(scratch) / f"baseline{index}.jsonl"
            started = time.perf_counter()
            subprocess.run([*PLAY, "--demo", "--fast", "--record", str(path)], check=True,
                           capture_output=True, env=ENV)
            baseline.append(time.perf_counter() - started)
        for trial in range(args.trials):
            journal = Path(scratch) / f"trial{trial}.jsonl"
            demo = [*PLAY, "--demo", "--pace", str(args.pace), "--time", "5+3", "--record", str(journal)]
            kill_at_random(demo, journal, rng, args.window)
            held = journal_moves(journal)
            mid_game += 0 < len(held) < len(script)
            if args.double:
                paced = [*PLAY, "--resume", str(journal), "--pace", str(args.pace)]
                kill_at_random(paced, journal, rng, args.window)
                again = journal_moves(journal)
                lost += again[: len(held)] != held
                second_mid_game += len(held) < len(again) < len(script)
                held = again
            restored, elapsed = resume(journal)
            resume_times.append(elapsed)
            final = replay_capture(read_capture(journal))
            if restored != len(held) or list(final.games[-1].mainline_moves()) != script or not final.ok:
                lost += 1
                print(f"trial {trial}: restored {restored} of {len(held)}; problems {final.problems}")
    print(f"trials: {args.trials}  killed inside the game: {mid_game}"
          + (f"  resumed game killed again inside the game: {second_mid_game}" if args.double else ""))
    print(f"trials with a lost move: {lost}")
    fresh, resumed = statistics.median(baseline), statistics.median(resume_times)
    print(f"resume to the end (median): {resumed * 1000:.0f} ms; fresh --demo --fast: {fresh * 1000:.0f} ms;"
          f" ratio {resumed / fresh:.2f}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
