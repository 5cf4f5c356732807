"""The randomizer clock: time controls, clock arithmetic, modes, the day's position.

The pure layers (`timecontrol`, `core`, `machine`, `special`, `day`) take
values and timestamps and return events (`day` also reads and writes the
secret file); only `tui`, `announce`, the asyncio shell at the end of `dgt`
and the CLI touch terminals, processes or ports.
"""

from eboard960.clock.core import Clock, ClockReading, Flag
from eboard960.clock.timecontrol import Bonus, Stage, TimeControl, parse_time_controls

__all__ = [
    "Bonus", "Clock", "ClockReading", "Flag", "Stage", "TimeControl", "parse_time_controls",
]
