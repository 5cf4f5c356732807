"""Firmware model of a Square Off Pro or Neo: presence sensors, square LEDs, battery.

Every entry point returns the bytes the board sends on the Nordic UART TX
characteristic (see `NotifyingFirmware` for keeping notifications apart).
`feed(data)` takes the app's bytes (commands may arrive cut across writes and
may end in CR LF). Lifts and drops are reported as `0#e2u*` / `0#e4d*` once a
game has been started with `14#1*`; `30#R*` answers the occupancy at any
time. The Pro answers a new game with `14#GO*` and reports its battery as
`22#<volts>*`; the Neo does neither and answers `4#*` with `4#<percent>*`.
"""

from __future__ import annotations

import re

import chess

from eboard960.emulators.hand import start_board
from eboard960.emulators.notifying import NotificationFaults, PresenceFirmware
from eboard960.protocols.squareoff import (
    ANNOUNCEMENTS,
    STATUS_COLOURS,
    SquareOffError,
    message,
    occupancy_text,
    parse_occupancy,
)

MODELS = ("pro", "neo")
_COMMAND = re.compile(rb"([0-9]{1,2}|!)#([^#*]{0,64})\*")
_MAX_PENDING = 80


class SquareOffFirmware(PresenceFirmware):
    """A Square Off Pro or Neo as the app sees it over BLE."""

    def __init__(
        self,
        position: int | chess.BaseBoard = 518,
        *,
        model: str = "pro",
        mac: str = "C0:FF:EE:96:00:01",
        battery_volts: float = 3.95,
        battery_percent: int = 87,
        faults: NotificationFaults | None = None,
    ) -> None:
        if model not in MODELS:
            raise SquareOffError(f"Square Off model must be 'pro' or 'neo', not {model!r}")
        super().__init__(faults)
        start = start_board(position)
        self.model = model
        self.occupied: chess.Bitboard = start.occupied
        self.expected: chess.Bitboard | None = None
        self.leds: frozenset[chess.Square] = frozenset()
        self.status_led = ""
        self.announcements: list[str] = []
        self.game_started = False
        self.mac = mac
        self.battery_volts = battery_volts
        self.battery_percent = battery_percent
        self._pending = b""

    # --- the app's side -------------------------------------------------------------------

    def write(self, data: bytes) -> list[bytes]:
        """Every complete `code#body*` command is answered; a cut one waits for its end."""
        text = self._pending + data
        out: list[bytes] = []
        end = 0
        for found in _COMMAND.finditer(text):
            code, body = (part.decode("ascii", "replace") for part in found.groups())
            out += self._answer(code, body)
            end = found.end()
        self._pending = text[end:][-_MAX_PENDING:]
        return out

    def _answer(self, code: str, body: str) -> list[bytes]:
        if code == "14" and body == "1":
            self.game_started = True
            return [message("14", "GO")] if self.model == "pro" else []
        if code == "30" and body == "R":
            return [message("30", occupancy_text(self.occupied))]
        if code == "30" and (occupied := parse_occupancy(body)) is not None:
            self.expected = occupied
        elif code == "25":
            self.leds = frozenset(
                chess.parse_square(body[i : i + 2])
                for i in range(0, len(body) - 1, 2)
                if body[i : i + 2] in chess.SQUARE_NAMES
            )
        elif code == "26" and body in STATUS_COLOURS.values():
            self.status_led = body
        elif code == "27" and body in ANNOUNCEMENTS.values():
            self.announcements.append(body)
        elif code == "4":
            if self.model == "pro":
                return [message("22", f"{self.battery_volts:.2f}")]
            return [message("4", str(self.battery_percent))]
        elif code == "1":
            return [message("1", self.mac)]
        return []

    # --- the physical board (`lift` and `place` are `PresenceFirmware`'s) -----------------

    def _report(self, square: chess.Square, *, down: bool) -> list[bytes]:
        if not self.game_started:
            return []
        return [message("0", chess.square_name(square) + ("d" if down else "u"))]
