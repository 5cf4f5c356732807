"""`eboard960 scan`: list the Bluetooth LE chessboards in range, with their type."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING

from eboard960.ble.profiles import PROFILES
from eboard960.errors import TransportError

if TYPE_CHECKING:
    from eboard960.ble.scan import FoundBoard


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=float, default=5.0, metavar="S",
        help="how long to listen, in seconds (default 5)",
    )
    parser.add_argument(
        "--emulated", choices=tuple(PROFILES),
        action="append", default=[], metavar="BOARD",
        help="also run an emulated board of this type in-process (repeatable; for trying out)",
    )


def main(args: argparse.Namespace) -> int:
    if not 0 < args.timeout <= 600:
        raise TransportError(f"--timeout must be more than 0 and at most 600 seconds, not {args.timeout:g}")
    boards = asyncio.run(_scan(args.timeout, args.emulated))
    if not boards:
        print("no boards found")
        return 0
    for board in boards:
        print(f"{board.board:<10} {board.address}  {board.rssi:>4} dBm  {board.name or '?'}")
    return 0


async def _scan(timeout: float, emulated: list[str]) -> list[FoundBoard]:
    from eboard960.ble.scan import scan

    if not emulated:
        return await scan(timeout)
    try:
        from eboard960.ble.bumble_backend import VirtualRadio, bumble_stack
        from eboard960.ble.emulated import start_peripheral
    except ImportError as error:
        raise TransportError(f"emulated boards need Bumble (pip install bumble): {error}") from None

    radio = VirtualRadio()
    peripherals = [await start_peripheral(radio, board) for board in emulated]
    try:
        return await scan(timeout, stack=bumble_stack(await radio.central()))
    finally:
        for peripheral in peripherals:
            await peripheral.stop()
