"""Firmware model of a DGT Pegasus: the physical board, its LEDs, and its side of the protocol.

Deterministic and I/O-free. `feed(app_bytes)` takes what the app wrote (in
any chunking) and returns the board's immediate replies; the scenario API
(`lift`, `place`, `apply`, `play_game`) changes the pieces on the board and
returns what the board says about it (field updates, only once the app has
enabled them, as the real board does). The same model runs in memory in
tests and behind the Bumble GATT server of `eboard960.ble.peripheral`.

It shares the BLE models' base, `NotifyingFirmware`: seeded
`NotificationFaults` (garbage, split and dropped notifications, sensor
bounce) and the `notify` sink that keeps notification boundaries.

The model answers every command of the facts sheet's section 2.3. It sends
no DGT identification text of its own: the trademark reply keeps the four-line
shape apps look for but says it is an emulator.
"""

from __future__ import annotations

import chess

from eboard960.emulators.hand import start_board
from eboard960.emulators.notifying import NotificationFaults, NotifyingFirmware
from eboard960.protocols.dgt import field_of, frame
from eboard960.protocols.pegasus import (
    BATTERY,
    BOARD_DUMP,
    BUS_ADDRESS,
    EE_MOVES,
    FIELD_UPDATE,
    HARDWARE_VERSION,
    KEY_COMMAND,
    KEY_STATE,
    LED_COMMAND,
    LOCK_STATE,
    LOCKED_DUMP,
    LONG_SERIAL_NUMBER,
    NAME_COMMAND,
    SERIAL_NUMBER,
    TRADEMARK,
    UNKNOWN_V,
    VERSION,
    LedPattern,
    PegasusError,
    leds_from_command,
)

LONG_COMMANDS = frozenset({LED_COMMAND, KEY_COMMAND, NAME_COMMAND})

TRADEMARK_TEXT = (
    "eboard960 Pegasus emulator\r\n"
    "not a DGT product; emulated for interoperability tests\r\n"
    "software version: 1.00, build: 000001\r\n"
    "hardware version: 1.00, serial no: {long_serial}"
)


class PegasusFirmware(NotifyingFirmware):
    """A Pegasus as the app sees it: pieces on squares (presence only), LEDs, settings.

    `position` is the board's starting arrangement (a chess.Board, a Chess960
    number, or None for an empty board). `key_required` makes it behave like a
    real board before a developer key is registered: dumps read 0x7F and the
    LEDs stay dark.
    """

    def __init__(
        self,
        position: chess.BaseBoard | int | None = 518,
        *,
        serial: str = "00001",
        long_serial: str = "P000000001",
        battery: int = 80,
        charging: bool = False,
        key_required: bool = False,
        name: str = "DGT_PEGASUS_EMU",
        faults: NotificationFaults | None = None,
    ) -> None:
        super().__init__(faults)
        if len(serial) != 5 or not serial.isdigit():
            raise PegasusError(f"a Pegasus serial number is 5 digits, not {serial!r}")
        if len(long_serial) != 10 or not long_serial.isascii():
            raise PegasusError(f"a Pegasus long serial number is 10 characters: {long_serial!r}")
        self.occupied: chess.Bitboard = start_board(position).occupied if position is not None else 0
        self.serial = serial
        self.long_serial = long_serial
        self.battery = battery
        self.charging = charging
        self.key_required = key_required
        self.name = name
        self.key: bytes | None = None
        self.updates = False
        self.leds: LedPattern | None = None
        self._pending = bytearray()

    # -- the app's side ---------------------------------------------------------------------

    @property
    def unlocked(self) -> bool:
        return not self.key_required or self.key is not None

    def write(self, data: bytes) -> list[bytes]:
        """One write from the app (commands may arrive in pieces); one reply per command."""
        self._pending += data
        replies: list[bytes] = []
        while self._pending:
            command = self._pending[0]
            if command in LONG_COMMANDS:
                if len(self._pending) < 2:
                    break
                size = 2 + self._pending[1]
                if len(self._pending) < size:
                    break
                self._long_command(bytes(self._pending[:size]))
                del self._pending[:size]
            else:
                reply = self._short_command(command)
                if reply:
                    replies.append(reply)
                del self._pending[:1]
        return replies

    def _short_command(self, command: int) -> bytes:
        match chr(command):
            case "@":
                self.updates = False
            case "B":
                return self.dump()
            case "D":
                self.updates = True
            case "E":
                return frame(SERIAL_NUMBER, self.serial.encode("ascii"))
            case "F":
                number = int(self.serial) & 0x3FFF
                return frame(BUS_ADDRESS, bytes([number >> 7, number & 0x7F]))
            case "G":
                text = TRADEMARK_TEXT.format(long_serial=self.long_serial)
                return frame(TRADEMARK, text.encode("ascii"))
            case "H":
                return frame(HARDWARE_VERSION, b"\x01\x00")
            case "I":
                return frame(EE_MOVES)
            case "L":
                status = 0x01 if self.charging else 0x02
                return frame(BATTERY, bytes([self.battery, 0, 0, 0, 0, 0, 0, 0, status]))
            case "M":
                return frame(VERSION, b"\x01\x00")
            case "U":
                return frame(LONG_SERIAL_NUMBER, self.long_serial.encode("ascii"))
            case "V":
                return frame(UNKNOWN_V)
            case "Y":
                return frame(LOCK_STATE, b"\x00")
            case "Z":
                return frame(KEY_STATE, b"\x00" if self.unlocked else b"\x01")
        return b""

    def _long_command(self, data: bytes) -> None:
        if data[-1] != 0:
            return
        if data[0] == LED_COMMAND:
            try:
                pattern = leds_from_command(data)
            except PegasusError:
                return
            if self.unlocked:
                self.leds = pattern
        elif data[0] == KEY_COMMAND and len(data) == 9:
            self.key = data[2:8]
        elif data[0] == NAME_COMMAND and len(data) > 3:
            self.name = data[2:-1].decode("ascii", "replace")

    def dump(self) -> bytes:
        """The board-dump message for the pieces on the board now."""
        if not self.unlocked:
            return frame(BOARD_DUMP, bytes([LOCKED_DUMP]) * 64)
        fields = bytearray(64)
        for square in chess.scan_forward(self.occupied):
            fields[field_of(square)] = 1
        return frame(BOARD_DUMP, bytes(fields))

    @property
    def lit(self) -> frozenset[chess.Square]:
        """The squares whose LEDs are on."""
        return self.leds.squares if self.leds is not None else frozenset()

    # -- the player's side ------------------------------------------------------------------

    def lift(self, square: chess.Square) -> bytes:
        """A piece leaves `square`; returns the board's report (if updates are on)."""
        if not self.occupied & chess.BB_SQUARES[square]:
            raise PegasusError(f"there is no piece on {chess.square_name(square)} to lift")
        self.occupied &= ~chess.BB_SQUARES[square]
        return self._emit(self._field_updates((square, 0)))

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A piece arrives on `square` (which piece, the board cannot tell); returns its report."""
        if self.occupied & chess.BB_SQUARES[square]:
            raise PegasusError(f"{chess.square_name(square)} is occupied; lift that piece first")
        self.occupied |= chess.BB_SQUARES[square]
        changes = [(square, 1)]
        if self._bounces():
            changes += [(square, 0), (square, 1)]
        return self._emit(self._field_updates(*changes))

    def _field_updates(self, *changes: tuple[chess.Square, int]) -> list[bytes]:
        if not self.updates:
            return []
        return [frame(FIELD_UPDATE, bytes([field_of(square), state])) for square, state in changes]
