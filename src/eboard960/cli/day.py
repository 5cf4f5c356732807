"""`eboard960 day`: the day's position from a tournament secret, its commitment and its check.

    eboard960 day --secret-file F [--date D] [--round R] [--rounds N] [--exclude ...] [--no-repeat]
    eboard960 day commit --secret-file F
    eboard960 day verify --secret-file F --commitment HEX [--date D --round R --position N]
    eboard960 day new-secret --secret-file F
"""

from __future__ import annotations

import argparse
import datetime
import string
from collections.abc import Iterable

from eboard960.clock.day import (
    SECRET_BYTES,
    DayError,
    commitment,
    day_position,
    event_positions,
    parse_date,
    read_secret,
    write_new_secret,
)
from eboard960.draw import parse_number_set
from eboard960.position import StartPosition

ACTIONS = ("show", "commit", "verify", "new-secret")
COMMITMENT_DIGITS = 64  # a SHA-256 in hex


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=ACTIONS, default="show",
                        help="show (default) the position, print the commitment, verify, "
                             "or write a new secret")
    parser.add_argument("--secret-file", required=True, metavar="F",
                        help="file with the tournament secret in hex")
    parser.add_argument("--date", type=str, default=None,
                        help="YYYY-MM-DD (default: today, local time)")
    parser.add_argument("--round", type=int, default=1, metavar="R",
                        help="round (default 1); with --rounds, the first round listed")
    parser.add_argument("--rounds", type=int, default=None, metavar="N",
                        help="list rounds R..N (R from --round, default 1) instead of one round")
    parser.add_argument("--exclude", default="", metavar="NUMBERS",
                        help='positions never chosen, e.g. "518" or "0-99,518"')
    parser.add_argument("--no-repeat", action="store_true",
                        help="no position twice within the event (earlier rounds excluded)")
    parser.add_argument("--dgt960-numbers", action="store_true",
                        help="also show the DGT960 clock's number (1..960)")
    parser.add_argument("--commitment", metavar="HEX", help="verify: the published commitment")
    parser.add_argument("--position", type=int, metavar="N",
                        help="verify: the Scharnagl number shown for --date/--round")


def main(args: argparse.Namespace) -> int:
    if args.action == "new-secret":
        write_new_secret(args.secret_file)
        print(f"wrote a new {SECRET_BYTES}-byte secret to {args.secret_file} (mode 0600); publish:")
        print(commitment(read_secret(args.secret_file)))
        return 0
    if args.action != "verify" and (args.commitment or args.position is not None):
        raise DayError("--commitment and --position are checked by `day verify`; "
                       "add verify or leave them out")
    secret = read_secret(args.secret_file)
    if args.action == "commit":
        print(commitment(secret))
        return 0
    date = parse_date(args.date) if args.date is not None else datetime.date.today()  # not '' for today
    exclude = parse_number_set(args.exclude)
    if args.action == "verify":
        return _verify(args, secret, date, exclude)
    if args.rounds is not None:
        _check_rounds(args.round, args.rounds)
        positions: Iterable[int]
        if args.no_repeat:  # each round excludes the rounds before it: all are drawn from round 1
            positions = event_positions(secret, date, args.rounds, exclude, no_repeat=True)[args.round - 1:]
        else:  # each round on its own, one line at a time: round 1,000,000 needs no rounds before it
            positions = (day_position(secret, date, n, exclude) for n in range(args.round, args.rounds + 1))
        for round_number, number in enumerate(positions, start=args.round):
            print(_line(date, round_number, number, args.dgt960_numbers))
        return 0
    number = _round_position(args, secret, date, exclude)
    print(_line(date, args.round, number, args.dgt960_numbers))
    return 0


def _round_position(args: argparse.Namespace, secret: bytes, date: datetime.date,
                    exclude: frozenset[int]) -> int:
    _check_round(args.round, "--round")
    if args.no_repeat:
        return event_positions(secret, date, args.round, exclude, no_repeat=True)[-1]
    return day_position(secret, date, args.round, exclude)


def _verify(args: argparse.Namespace, secret: bytes, date: datetime.date,
            exclude: frozenset[int]) -> int:
    if not args.commitment:
        raise DayError("verify needs --commitment HEX (the value published before the event)")
    published = _commitment(args.commitment)
    if commitment(secret) != published:
        print("FAILED: this secret does not match the published commitment")
        return 1
    print("commitment OK: this is the secret that was committed to")
    if args.position is None:
        return 0
    number = _round_position(args, secret, date, exclude)
    if number != args.position:
        print(f"FAILED: {date.isoformat()} round {args.round} gives position {number}, "
              f"not {args.position}")
        return 1
    print(f"position OK: {_line(date, args.round, number, args.dgt960_numbers)}")
    return 0


def _commitment(text: str) -> str:
    """The published commitment, lower case; a malformed one is a typing mistake, not a failed check."""
    value = text.strip().lower()
    if len(value) != COMMITMENT_DIGITS or not all(char in string.hexdigits for char in value):
        raise DayError(f"--commitment {text!r} is not a hex commitment "
                       f"({COMMITMENT_DIGITS} hex digits, as `eboard960 day commit` prints)")
    return value


def _check_round(value: int, option: str) -> None:
    if value < 1:
        raise DayError(f"{option} must be 1 or more, not {value}")


def _check_rounds(first: int, last: int) -> None:
    """`--round R --rounds N` lists rounds R..N, so that neither option is silently ignored."""
    _check_round(first, "--round")
    _check_round(last, "--rounds")
    if first > last:
        raise DayError(f"--round {first} comes after the last round listed, --rounds {last}")


def _line(date: datetime.date, round_number: int, number: int, dgt960: bool) -> str:
    position = StartPosition.from_number(number)
    shown = f"{number} (DGT960 {position.dgt960_number})" if dgt960 else str(number)
    return f"{date.isoformat()} round {round_number}: position {shown} {position.rank}"
