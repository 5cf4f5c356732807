"""Clock figures: draw rate of the special timer and cost of the mode table.

Each figure is printed with a ratio against a baseline measured in the same run:
- special-timer draws against `eboard960.draw.draw` (which rebuilds the allowed list per draw);
- button presses through the `transitions` table against bare `Clock.press` arithmetic;
- the day's position (HMAC-SHA256) per round.

    PYTHONPATH=src python tools/bench_clock.py [--n 50000]
"""

from __future__ import annotations

import argparse
import datetime
import secrets
import time
from collections.abc import Callable

from eboard960.clock.core import Clock
from eboard960.clock.day import day_position
from eboard960.clock.machine import ClockMachine
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import TimeControl
from eboard960.draw import draw


def rate(n: int, work: Callable[[int], object]) -> float:
    """Calls per second of `work(i)` over n calls."""
    start = time.perf_counter()
    for i in range(n):
        work(i)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    n = parser.parse_args().n
    exclude = {518, *range(100, 140)}
    rng = secrets.SystemRandom()

    special = SpecialTimer(exclude=exclude, rng=rng)
    baseline = rate(n, lambda i: draw(exclude=exclude, rng=rng))
    ours = rate(n, lambda i: special.draw())
    print(f"draws/s: special timer {ours:,.0f}, draw() baseline {baseline:,.0f}, "
          f"ratio {ours / baseline:.1f}x")

    control = TimeControl.parse("90/40+30:30+30")
    bare = Clock(control)
    bare.start(at=0)
    bare_rate = rate(n, lambda i: bare.press(bare.to_move, at=i + 1))
    machine = ClockMachine(control)
    machine.press("black", 0.0)
    buttons = ("white", "black")
    table_rate = rate(n, lambda i: machine.press(buttons[i % 2], (i + 1) / 1000))
    print(f"presses/s: through the mode table {table_rate:,.0f}, bare arithmetic "
          f"{bare_rate:,.0f}, ratio {table_rate / bare_rate:.2f}x")

    secret = secrets.token_bytes(32)
    day = datetime.date(2026, 11, 22)
    rounds = rate(min(n, 20_000), lambda i: day_position(secret, day, i + 1))
    print(f"day positions/s: {rounds:,.0f} (ratio to special-timer draws "
          f"{rounds / ours:.2f}x)")


if __name__ == "__main__":
    main()
