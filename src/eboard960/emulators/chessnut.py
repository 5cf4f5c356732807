"""Firmware model of a Chessnut Air / Pro: pieces with identities, LEDs, battery.

Every entry point returns the bytes the board sends (see `NotifyingFirmware`
for keeping notifications apart); `eboard960.ble.profiles` routes each
notification to its characteristic (position frames to `…8262`, everything
else to `…8273`). `feed(data)` is one write from the app. `tick()` is the
firmware's 200 ms timer: while reporting is on, the Air repeats the position
even when nothing moved. Scenario calls (`lift`, `place`, `apply`,
`play_game`) change the physical board; the hand holds lifted pieces, so a
place without a piece puts back the one lifted last.

The faults and the notification sink come from `eboard960.emulators.notifying`.
"""

from __future__ import annotations

import chess

from eboard960.emulators.hand import start_board
from eboard960.emulators.notifying import NotificationFaults, NotifyingFirmware
from eboard960.protocols.chessnut import (
    ENABLE_REPORTING,
    UPLOAD_MODE,
    BatteryLayout,
    ChessnutError,
    battery_bytes,
    leds_from_bytes,
    position_frame,
)

ACK = bytes([0x23, 0x01, 0x00])


class ChessnutFirmware(NotifyingFirmware):
    """A Chessnut Air as the app sees it over BLE."""

    def __init__(
        self,
        position: int | chess.BaseBoard = 518,
        *,
        name: str = "Chessnut Air",
        battery_percent: int = 87,
        charging: bool = False,
        battery: BatteryLayout = "official",
        firmware: tuple[str, str] = ("CNCA100_V201", "CN_DVT9_210659"),
        faults: NotificationFaults | None = None,
    ) -> None:
        if battery not in ("official", "picochess"):
            raise ChessnutError(f"unknown battery layout {battery!r} (official or picochess)")
        super().__init__(faults)
        start = start_board(position)
        self.pieces: dict[chess.Square, chess.Piece] = start.piece_map()
        self.hand: list[chess.Piece] = []
        self.leds: frozenset[chess.Square] = frozenset()
        self.reporting = False
        self.beeps: list[tuple[int, int]] = []
        self.name = name
        self.battery_percent = battery_percent
        self.charging = charging
        self.battery = battery
        self.firmware = firmware
        self.uptime = 0.0

    # --- the app's side -------------------------------------------------------------------

    def write(self, data: bytes) -> list[bytes]:
        """The board reads `<cmd> <n> <data>` commands from one write."""
        out: list[bytes] = []
        while len(data) >= 2:
            size = 2 + data[1]
            command, data = bytes(data[:size]), data[size:]
            out += self._answer(command)
        return out

    def _answer(self, command: bytes) -> list[bytes]:
        code, body = command[0], command[2:]
        if command == ENABLE_REPORTING:
            self.reporting = True
            return [ACK, self.frame()]
        if command == UPLOAD_MODE:
            self.reporting = False
            return []
        if code == 0x0A and len(body) == 8:
            self.leds = leds_from_bytes(body)
            return [ACK]
        if code == 0x29:
            return [battery_bytes(self.battery_percent, self.charging, self.battery)]
        if code == 0x27 and body[:1] in (b"\x00", b"\x01"):
            text = self.firmware[body[0]].encode("ascii")
            return [bytes([0x27, 1 + len(text), body[0]]) + text]
        if code == 0x0B and len(body) == 4:
            self.beeps.append((int.from_bytes(body[:2], "big"), int.from_bytes(body[2:], "big")))
            return []
        if code == 0x31:
            return [bytes([0x32, 0x01, 0x00])]
        if code == 0x2B:
            text = self.name.encode("ascii")
            return [bytes([0x2C, len(text)]) + text]
        return []

    def frame(self) -> bytes:
        """The position frame for the pieces on the board now."""
        return position_frame(self.pieces, int(self.uptime))

    def tick(self, seconds: float = 0.2) -> bytes:
        """The firmware timer: time passes, and a reporting board repeats its position."""
        self.uptime += seconds
        return self._report()

    # --- the physical board ---------------------------------------------------------------

    def lift(self, square: chess.Square) -> bytes:
        """A hand takes the piece on `square` (a lift from an empty square changes nothing)."""
        if square not in self.pieces:
            return b""
        self.hand.append(self.pieces.pop(square))
        return self._report()

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """Put `piece` (by default the piece lifted last) on `square`, replacing what was there."""
        if piece is None:
            if not self.hand:
                return b""
            piece = self.hand.pop()
        elif piece in self.hand:
            self.hand.remove(piece)
        self.pieces[square] = piece
        frames = [self.frame()]
        if self._bounces():
            del self.pieces[square]
            frames.append(self.frame())
            self.pieces[square] = piece
            frames.append(self.frame())
        return self._emit(frames if self.reporting else [])

    def _report(self) -> bytes:
        return self._emit([self.frame()] if self.reporting else [])
