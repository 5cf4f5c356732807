"""`eboard960 clock`: a chess clock in the terminal with a Chess960 special timer.

    eboard960 clock [--time 5+3] [--black-time 3+2] [--special] [--exclude 518]
                    [--dgt960-numbers] [--speak] [--dice METHOD] [--dgt PORT]
"""

from __future__ import annotations

import argparse

from eboard960.clock.announce import Speaker
from eboard960.clock.machine import ClockMachine
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import EXAMPLES, TimeControl, parse_time_controls
from eboard960.clock.tui import TerminalClock
from eboard960.draw import parse_number_set
from eboard960.errors import ClockError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--time", default="5+3", metavar="CONTROL",
                        help=f"time control, e.g. {EXAMPLES} (default 5+3)")
    parser.add_argument("--black-time", metavar="CONTROL",
                        help="black's own control (time odds); same as --time by default")
    parser.add_argument("--special", action="store_true",
                        help="special-timer mode: start with a drawn position on show")
    parser.add_argument("--exclude", default="", metavar="NUMBERS",
                        help='positions never drawn or shown, e.g. "518" or "0-99,518"')
    parser.add_argument("--dgt960-numbers", action="store_true",
                        help="number positions 1..960 like the DGT960 (960 for Scharnagl's 0)")
    parser.add_argument("--speak", action="store_true",
                        help="announce positions through espeak-ng (silent if not installed)")
    parser.add_argument("--dice", metavar="METHOD",
                        help="uniform manual method for dice entry (key x, then the rolls); "
                        "terminal clock only")
    parser.add_argument("--dgt", metavar="PORT",
                        help="drive a DGT 3000 / XL attached to the DGT board on PORT")
    parser.add_argument("--dgt-clock", choices=("3000", "xl"), default="3000",
                        help="which DGT clock is attached (default 3000)")
    parser.add_argument("--white-side", choices=("left", "right"), default="left",
                        help="the side of the DGT clock that white presses (default left)")


def build_machine(args: argparse.Namespace) -> ClockMachine:
    """The clock the options describe (shared by the terminal and the DGT front ends)."""
    white, black = parse_time_controls(args.time)
    if args.black_time:
        black = TimeControl.parse(args.black_time)
    special = SpecialTimer(exclude=parse_number_set(args.exclude),
                           dgt960_numbers=args.dgt960_numbers)
    return ClockMachine(white, black, special=special)


def main(args: argparse.Namespace) -> int:
    if args.dice and args.dgt:
        raise ClockError("--dice needs the terminal clock to type the rolls on; "
                         "the DGT clock's buttons cannot (drop --dgt or --dice)")
    machine = build_machine(args)
    speaker = Speaker() if args.speak else None
    if args.dice:
        problem = machine.special.method_problem(args.dice)
        if problem:
            raise ClockError(problem)
    if args.dgt:
        from eboard960.clock.dgt import run_dgt_clock

        return run_dgt_clock(machine, args.dgt, kind=args.dgt_clock, white_side=args.white_side,
                             speaker=speaker, special=args.special)
    terminal = TerminalClock(machine, speaker=speaker, dice_method=args.dice)
    if args.special:
        terminal.key("d")
    return terminal.run()

