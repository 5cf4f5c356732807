"""The `eboard960` command: one argparse front end over lazily imported subcommands.

Each subcommand lives in its own module of this package with two functions,
`add_arguments(parser)` and `main(args) -> int`. Only the chosen one is
imported, so `eboard960 draw` never loads bleak or bumble.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import sys
from collections.abc import Sequence

from eboard960 import __version__
from eboard960.errors import Eboard960Error

# what writing fails with when the output cannot take more (a full disk, a quota): the user's to fix
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)

SUBCOMMANDS: dict[str, str] = {
    "draw": "draw a fair Chess960 start position",
    "position": "convert between position numbers, back ranks and FENs",
    "methods": "the manual randomization methods: list, analyze, roll",
    "replay": "turn capture files into PGN",
    "emulate": "run an emulated board on a pseudo-terminal",
    "scan": "list the Bluetooth boards in range",
    "clock": "a chess clock with a Chess960 special-timer mode",
    "day": "the day's position for a tournament, from a committed secret",
    "play": "play on a sensor board (the emulated one by default)",
}


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eboard960",
        description="Electronic chessboards, a Chess960 move recognizer and a randomizer clock.",
        epilog="Try `eboard960 play --demo`; `eboard960 COMMAND --help` for each command.",
    )
    parser.add_argument("--version", action="version", version=f"eboard960 {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0,
        help="more logging; -vvv also logs every byte on the wire",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            importlib.import_module(f"eboard960.cli.{name}").add_arguments(sub)
    return parser


def _configure_logging(verbosity: int) -> None:
    level = {0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    wire_level = logging.DEBUG if verbosity >= 3 else logging.WARNING
    logging.getLogger("eboard960.wire").setLevel(wire_level)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for a user's mistake)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((arg for arg in argv if arg in SUBCOMMANDS), None)
    parser = build_parser(chosen)
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    module = importlib.import_module(f"eboard960.cli.{args.command}")
    try:
        status: int = module.main(args)
        sys.stdout.flush()  # here, so that output that cannot be written is reported below
        return status
    except Eboard960Error as error:
        print(f"eboard960 {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`eboard960 methods | head`): stop quietly, as Unix tools do
        sys.stderr.close()
        return 0
    except OSError as error:  # after BrokenPipeError, which is one too
        if error.errno not in FULL:
            raise
        where = error.filename or "standard output"
        print(f"eboard960 {args.command}: cannot write {where}: {error.strerror}", file=sys.stderr)
        return 1


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
