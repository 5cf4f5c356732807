"""`eboard960 position`: convert between numbers, back ranks and FENs."""

from __future__ import annotations

import argparse
import json

from eboard960.errors import PositionError
from eboard960.position import StartPosition


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("value", help="a Scharnagl number 0-959, a back rank such as BBQNNRKR, "
                        "or a FEN (quote it)")
    scheme = parser.add_mutually_exclusive_group()
    scheme.add_argument("--dgt960", action="store_true",
                        help="read the number as a DGT960 clock number (1-960); "
                        "with a rank or FEN, print just its DGT960 number")
    scheme.add_argument("--fritz", action="store_true",
                        help="read the number as a Fritz 9 number (1-960); "
                        "with a rank or FEN, print just its Fritz 9 number")
    add_format_arguments(parser)


def add_format_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--board", choices=("none", "ascii", "unicode"), default="none",
                        help="also draw the start board (text format)")


def read(value: str, *, dgt960: bool = False, fritz: bool = False) -> StartPosition:
    """The position `value` names, reading a bare number in the chosen scheme."""
    text = value.strip()
    if text.removeprefix("-").isdigit():
        if not text.isascii():  # "²" and "١٢" are digits to Python, and int() refuses or reads them
            raise PositionError(f"{text!r}: write a position number with the digits 0-9")
        number = int(text)
        if dgt960:
            return StartPosition.from_dgt960(number)
        if fritz:
            return StartPosition.from_fritz(number)
        return StartPosition.from_number(number)
    if text.isalpha() and len(text) != 8:
        raise PositionError(f"{text!r} is neither a number, a back rank of 8 letters nor a FEN")
    return StartPosition.parse(text)


def as_dict(position: StartPosition) -> dict[str, object]:
    return {
        "number": position.number,
        "dgt960": position.dgt960_number,
        "fritz": position.fritz_number,
        "rank": position.rank,
        "xfen": position.xfen(),
        "shredder_fen": position.shredder_fen(),
        "frc_fen": position.frc_fen(),
    }


def show(position: StartPosition, args: argparse.Namespace) -> None:
    """Print a position in the format the arguments ask for."""
    if args.format == "json":
        print(json.dumps(as_dict(position), ensure_ascii=False))
        return
    print(f"position {position.number} (DGT960 {position.dgt960_number}, "
          f"Fritz 9 {position.fritz_number}): {position.rank}")
    print(f"X-FEN     {position.xfen()}")
    print(f"Shredder  {position.shredder_fen()}")
    print(f"FRC-FEN   {position.frc_fen()}")
    if args.board != "none":
        print(position.unicode() if args.board == "unicode" else position.ascii())


def main(args: argparse.Namespace) -> int:
    position = read(args.value, dgt960=args.dgt960, fritz=args.fritz)
    if not args.value.strip().isdigit() and (args.dgt960 or args.fritz):
        print(position.dgt960_number if args.dgt960 else position.fritz_number)
        return 0
    show(position, args)
    return 0
