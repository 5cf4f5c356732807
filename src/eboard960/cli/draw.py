"""`eboard960 draw`: a fair start position from the operating system's CSPRNG."""

from __future__ import annotations

import argparse

from eboard960.cli.position import add_format_arguments, show
from eboard960.draw import draw, parse_number_set


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", help="repeatable draw from this seed (not for real events)")
    parser.add_argument("--exclude", default="", metavar="LIST",
                        help="numbers not to draw, e.g. 518 or 0-99,518")
    add_format_arguments(parser)


def main(args: argparse.Namespace) -> int:
    position = draw(exclude=parse_number_set(args.exclude), seed=args.seed)
    show(position, args)
    return 0
