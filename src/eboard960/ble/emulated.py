"""Try the software with no board: an emulated BLE board and a connected transport, in-process.

    emulated = await open_emulated("pegasus", position=518)
    board = Board(lambda: codec_for("pegasus"), lambda: emulated.transport)  # as for a real one
    await emulated.move(chess_board, move)           # a person moves a piece
    await emulated.peripheral.go_away()              # ... and switches the board off

`open_emulated` builds a `VirtualRadio`, the board's firmware model (see
`MODELS`), a `BoardPeripheral` serving it under the board's profile, and a
`BleTransport` that reaches it through bleak with the Bumble backend. Nothing
leaves the process; everything between bleak's API and the firmware model is
the real Bumble stack.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import chess

from eboard960.ble.bumble_backend import VirtualRadio, bumble_stack
from eboard960.ble.peripheral import BoardPeripheral
from eboard960.ble.profiles import profile_for
from eboard960.ble.transport import BleTransport
from eboard960.choreography import move_events
from eboard960.events import PieceLifted, PiecePlaced

MODELS: dict[str, str] = {
    "pegasus": "eboard960.emulators.pegasus:PegasusFirmware",
    "chesslink": "eboard960.emulators.chesslink:ChessLinkFirmware",
    "chessnut": "eboard960.emulators.chessnut:ChessnutFirmware",
    "gochess": "eboard960.emulators.gochess:GoChessFirmware",
    "squareoff": "eboard960.emulators.squareoff:SquareOffFirmware",
}
"""Firmware model of each BLE board; each takes the start position as first argument."""


def make_model(board: str, position: chess.BaseBoard | int = 518, **options: Any) -> Any:
    """A fresh firmware model of `board` holding `position` (a board or a Chess960 number)."""
    profile_for(board)  # a clear error for a board that is not a BLE board
    module_name, class_name = MODELS[board].split(":")
    return getattr(importlib.import_module(module_name), class_name)(position, **options)


@dataclass(slots=True, kw_only=True)
class EmulatedBoard:
    """An emulated board on its own virtual radio, and the transport that reaches it."""

    radio: VirtualRadio
    model: Any
    peripheral: BoardPeripheral
    transport: BleTransport

    async def act(self, *events: PieceLifted | PiecePlaced) -> None:
        """A person lifts or places pieces; returns once the board's reports are on the air."""
        for event in events:
            self.peripheral.send(self.model.apply(event))
        await self.peripheral.drain()

    async def move(self, board: chess.Board, move: chess.Move, order: str = "eboard") -> None:
        """A person makes `move` in `board`'s position (castling per `order`)."""
        await self.act(*move_events(board, move, order))

    async def close(self) -> None:
        await self.transport.close()
        await self.peripheral.stop()


async def start_peripheral(
    radio: VirtualRadio, board: str, position: chess.BaseBoard | int = 518, **options: Any
) -> BoardPeripheral:
    """An emulated `board` advertising on `radio`."""
    peripheral = BoardPeripheral(radio, profile_for(board), make_model(board, position, **options))
    await peripheral.start()
    return peripheral


async def open_emulated(
    board: str, position: chess.BaseBoard | int = 518, *, connect: bool = True, **options: Any
) -> EmulatedBoard:
    """Start an emulated `board` and a transport to it (opened unless `connect=False`).

    `options` go to the firmware model (e.g. `faults=` or `key_required=`).
    """
    radio = VirtualRadio()
    peripheral = await start_peripheral(radio, board, position, **options)
    transport = BleTransport(
        peripheral.address,
        peripheral.profile,
        stack=bumble_stack(await radio.central()),
        find_timeout=2.0,
    )
    if connect:
        await transport.open()
    return EmulatedBoard(
        radio=radio, model=peripheral.model, peripheral=peripheral, transport=transport
    )
