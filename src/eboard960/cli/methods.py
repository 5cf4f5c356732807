"""`eboard960 methods`: list the manual methods, analyze them exactly, or run one."""

from __future__ import annotations

import argparse
import io
import sys
from fractions import Fraction

from eboard960.analysis import Analysis, check_claims
from eboard960.cli.position import add_format_arguments, show
from eboard960.errors import MethodError
from eboard960.methods import METHODS, Method, MethodRun
from eboard960.position import StartPosition


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", help="the methods and whether they are fair (default)")
    analyze = actions.add_parser("analyze", help="exact probabilities and the seeds' claims")
    analyze.add_argument("method", nargs="?", help="one method in detail")
    roll = actions.add_parser("roll", help="run a method with your dice, coins or cards")
    roll.add_argument("method")
    roll.add_argument("values", nargs="*",
                      help="the values in order; without them you are asked for each on stdin")
    add_format_arguments(roll)


def _method(name: str) -> Method:
    try:
        return METHODS[name]
    except KeyError:
        raise MethodError(
            f"unknown method {name!r} (known: {', '.join(METHODS)})"
        ) from None


def _fraction(value: Fraction | None) -> str:
    if value is None:
        return "-"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value} = {float(value):.4f}"


def _list() -> None:
    width = max(map(len, METHODS))
    print(f"{'method':{width}}  fair  inputs")
    for name, method in METHODS.items():
        print(f"{name:{width}}  {'yes' if method.uniform else 'no ':4}  {method.inputs}")


def _table() -> None:
    width = max(map(len, METHODS))
    print(f"{'method':{width}}  fair  positions  max/min  TV distance  expected inputs")
    for name, method in METHODS.items():
        a = method.analysis
        ratio = "-" if a.max_min_ratio is None else str(a.max_min_ratio)
        print(f"{name:{width}}  {'yes' if a.uniform else 'no ':4}  {a.support:9}  "
              f"{ratio:>7}  {float(a.total_variation):11.4f}  {_fraction(a.expected_inputs)}")


def _files(label: str, values: tuple[Fraction, ...]) -> str:
    """Eightieths where they are whole (as the seeds write them), else plain fractions."""
    cells = (
        f"{'abcdefgh'[i]} {v * 80}/80" if (v * 80).denominator == 1 else f"{'abcdefgh'[i]} {v}"
        for i, v in enumerate(values)
    )
    return f"{label:6} {' '.join(cells)}"


def _detail(method: Method) -> None:
    a: Analysis = method.analysis
    print(f"{method.name}: {method.title}")
    print(f"source: {method.source}; inputs: {method.inputs}")
    print(f"fair: {'yes' if a.uniform else 'no'}; positions reached: {a.support} of 960")
    print(f"expected inputs: {_fraction(a.expected_inputs)} "
          f"(fewest {a.fewest_inputs}, most {a.most_inputs or 'unbounded'})")
    print(f"max/min probability: {a.max_min_ratio or 'some positions never occur'}; "
          f"total variation from fair: {_fraction(a.total_variation)}")
    if a.ways:
        ways = set(a.ways.values())
        print(f"input sequences per position: {min(ways)}..{max(ways)}")
    if a.arrangements:
        even = "all equally likely" if len(set(a.arrangements.values())) == 1 else "not equally likely"
        print(f"arrangements before the king-rook swap: {len(a.arrangements)}, {even}")
    print(_files("king", a.king_files))
    print(_files("rooks", a.rook_files))
    ranked = sorted(a.probabilities.items(), key=lambda item: (-item[1], item[0]))
    for label, (number, p) in (("most likely", ranked[0]), ("least likely", ranked[-1])):
        rank = StartPosition.from_number(number).rank
        print(f"{label}: {number} {rank} with {_fraction(p)} (fair: 1/960)")


def _claims() -> None:
    verdicts = check_claims(lambda name: METHODS[name].analysis)
    print("\nseed claims:")
    for verdict in verdicts:
        claim = verdict.claim
        measured = verdict.measured
        shown = _fraction(measured) if isinstance(measured, Fraction) else _plain(measured)
        print(f"{'OK   ' if verdict.ok else 'WRONG'} {claim.text} [{claim.source}]: "
              f"enumeration gives {shown}")
        if not verdict.ok and claim.why:
            print(f"      {claim.why}")


def _plain(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, tuple):
        return " ".join(_plain(v) for v in value)
    return str(value)


def _values_from_stdin(run: MethodRun) -> None:
    if isinstance(sys.stdin, io.TextIOWrapper):  # a byte that is not UTF-8 is a refused value, not a crash
        sys.stdin.reconfigure(errors="replace")
    while run.request is not None:
        request = run.request
        print(f"{request.prompt}: ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            raise MethodError(f"input ended before the position was complete: {request.prompt}")
        try:
            run.feed(line.strip())
        except MethodError as error:
            print(f"\n  {error}; try again")
            continue
        print(f"\n  -> {run.history[-1].note}" if run.history[-1].note else "")


def _roll(args: argparse.Namespace) -> None:
    run = _method(args.method).run()
    if not args.values:
        _values_from_stdin(run)
    for index, value in enumerate(args.values):
        request = run.request
        if request is None:
            left = len(args.values) - index
            raise MethodError(f"the position was complete with {left} value(s) left over")
        run.feed(value)
        note = f" -> {run.history[-1].note}" if run.history[-1].note else ""
        if args.format == "text":
            print(f"{request.prompt}: {value}{note}")
    if run.request is not None:
        raise MethodError(f"ran out of values; next is {run.request.prompt}")
    show(run.position, args)


def main(args: argparse.Namespace) -> int:
    action = args.action or "list"
    if action == "list":
        _list()
    elif action == "analyze":
        if args.method:
            _detail(_method(args.method))
        else:
            _table()
            _claims()
    else:
        _roll(args)
    return 0
