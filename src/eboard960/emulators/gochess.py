"""Firmware model of a GoChess board: Hall sensors (presence only), RGB LEDs, battery.

Every entry point returns the bytes the board sends on the Nordic UART TX
characteristic (see `NotifyingFirmware` for keeping notifications apart).
`feed(data)` is one write from the app; the board takes each write as one
command, as the SDK sends them. A piece leaving or reaching a square is
notified at once as `<row><col>u|d`, unless the app masked that square out
with `0x3B`. The XR model also has border slots (`border_lift`,
`border_place`).
"""

from __future__ import annotations

import chess

from eboard960.emulators.hand import start_board
from eboard960.emulators.notifying import NotificationFaults, PresenceFirmware
from eboard960.protocols.gochess import (
    GoChessError,
    board_state_bytes,
    border_event_bytes,
    border_state_bytes,
    framed,
    piece_event_bytes,
)

MODELS = {"xr": 0x04, "mini": 0x03, "lite": 0x03}
BORDER_SLOTS = {"top": 8, "bottom": 8, "left": 10, "right": 10}


def _rgb(data: bytes) -> tuple[int, int, int]:
    return data[0], data[1], data[2]


class GoChessFirmware(PresenceFirmware):
    """A GoChess XR, Mini or Lite as the app sees it over BLE."""

    def __init__(
        self,
        position: int | chess.BaseBoard = 518,
        *,
        model: str = "mini",
        battery_percent: int = 87,
        battery_mv: int = 3950,
        current_ua: int = 12000,
        charging: bool = False,
        faults: NotificationFaults | None = None,
    ) -> None:
        if model not in MODELS:
            raise GoChessError(f"GoChess model must be one of {sorted(MODELS)}, not {model!r}")
        if faults is not None and faults.split:
            raise GoChessError("every GoChess message fits in one notification: nothing to split")
        super().__init__(faults)
        start = start_board(position)
        self.model = model
        self.occupied: chess.Bitboard = start.occupied
        self.interrupt_mask: chess.Bitboard = chess.BB_ALL
        self.leds: dict[chess.Square, tuple[int, int, int]] = {}
        self.led_follows_sensor = False
        self.led_mode = 0
        self.led_pattern: int | None = None
        self.border: dict[str, int] = dict.fromkeys(BORDER_SLOTS, 0)
        self.battery_percent = battery_percent
        self.battery_mv = battery_mv
        self.current_ua = current_ua
        self.charging = charging

    # --- the app's side -------------------------------------------------------------------

    def write(self, data: bytes) -> list[bytes]:
        """The board takes one write as one command: a command byte and its data."""
        return self._answer(data[0], bytes(data[1:])) if data else []

    def _answer(self, code: int, body: bytes) -> list[bytes]:
        if code == 0x35:
            return [board_state_bytes(self.occupied)]
        if code == 0x39:
            return [framed(0x01, bytes([self.battery_percent]))]
        if code == 0x3A:
            return [framed(0x02, self.battery_mv.to_bytes(2, "big"))]
        if code == 0x3C:
            return [framed(0x04, self.current_ua.to_bytes(2, "big"))]
        if code == 0x3D:
            return [framed(0x07, bytes([int(self.charging)]))]
        if code == 0x76:
            return [b"Ver" + bytes([MODELS[self.model]])]
        if code == 0x22 and self.model == "xr":
            return [border_state_bytes(**self.border)]
        if code == 0x32 and len(body) == 12:
            self._leds_colour(body)
        elif code == 0x34:
            self._led_groups(body)
        elif code == 0x33 and len(body) == 1:
            self.led_follows_sensor = bool(body[0])
        elif code == 0x36 and len(body) == 1 and body[0] <= 2:
            self.led_mode = body[0]
        elif code in (0x37, 0x38):
            self.led_pattern = code
        elif code == 0x3B and len(body) == 8:
            self.interrupt_mask = int.from_bytes(body, "little")
        return []

    def _leds_colour(self, body: bytes) -> None:
        mask, rgb, overwrite = int.from_bytes(body[:8], "little"), _rgb(body[8:11]), body[11]
        if overwrite:
            self.leds = {}
        for square in chess.scan_forward(mask):
            self.leds[square] = rgb

    def _led_groups(self, body: bytes) -> None:
        self.leds = {}
        while body:
            count = body[0]
            cells, rgb, body = body[1 : 1 + count], body[1 + count : 4 + count], body[4 + count :]
            if len(rgb) < 3:
                return
            for cell in cells:
                row, col = cell >> 4, cell & 0x0F
                if 1 <= row <= 8 and 1 <= col <= 8:
                    self.leds[chess.square(col - 1, row - 1)] = _rgb(rgb)

    # --- the physical board (`lift` and `place` are `PresenceFirmware`'s) -----------------

    def border_place(self, side: str, slot: int) -> bytes:
        """A captured piece put on a border slot (XR only)."""
        return self._border(side, slot, down=True)

    def border_lift(self, side: str, slot: int) -> bytes:
        return self._border(side, slot, down=False)

    def _border(self, side: str, slot: int, *, down: bool) -> bytes:
        if self.model != "xr":
            raise GoChessError("only the GoChess XR has border slots")
        if side not in BORDER_SLOTS or not 1 <= slot <= BORDER_SLOTS[side]:
            raise GoChessError(f"no border slot {side} {slot} (sides: {', '.join(BORDER_SLOTS)})")
        bit = 1 << (slot - 1)
        self.border[side] = self.border[side] | bit if down else self.border[side] & ~bit
        return self._emit([border_event_bytes(side, slot, down)])

    def _report(self, square: chess.Square, *, down: bool) -> list[bytes]:
        if not self.interrupt_mask & chess.BB_SQUARES[square]:
            return []
        return [piece_event_bytes(square, down)]
