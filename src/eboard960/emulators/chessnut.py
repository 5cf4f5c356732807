"""Firmware model of a Chessnut Air / Pro: pieces with identities, LEDs, battery.

Every entry point returns the bytes the board sends (see `NotifyingFirmware`
for keeping notifications apart); `eboard960.ble.profiles` routes each
notification to its characteristic (position frames to `…8262`, everything
else to `…8273`). `feed(data)` is one write from the app. `tick()` is the
firmware's 200 ms timer: while reporting is on, the Air repeats the position
even when nothing moved. Scenario calls (`lift`, `place`, `apply`,
`play_game`) change the physical board; the hand holds lifted pieces, so a
place without a piece puts back the one lifted last.

`NotifyingFirmware` and `NotificationFaults` (shared by the GoChess and
Square Off models) perturb the outgoing notifications from a seeded random
source: garbage payloads, notifications cut in two, dropped notifications,
and sensor bounce.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import chess

from eboard960.choreography import game_events
from eboard960.events import PieceLifted, PiecePlaced
from eboard960.protocols.chessnut import (
    ENABLE_REPORTING,
    UPLOAD_MODE,
    BatteryLayout,
    ChessnutError,
    battery_bytes,
    leds_from_bytes,
    position_frame,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NotificationFaults:
    """Probabilities (0..1) of each fault per notification, and the seed that makes them repeat.

    `bounce` is the chance that placing a piece reads as place, lift, place.
    """

    garbage: float = 0.0
    split: float = 0.0
    drop: float = 0.0
    bounce: float = 0.0
    seed: int = 0


class NotifyingFirmware(ABC):
    """What the BLE firmware models share: faults, the notification sink, the scenario API.

    Every entry point returns the bytes the board sends. With `notify` set
    (e.g. to `BoardPeripheral.send`), each notification goes there on its own
    instead, so notification boundaries and the split/garbage faults survive,
    and the entry points return b"".
    """

    def __init__(self, faults: NotificationFaults | None) -> None:
        self.faults = faults or NotificationFaults()
        self.notify: Callable[[bytes], None] | None = None
        self._random = random.Random(self.faults.seed)

    def _bounces(self) -> bool:
        return self.faults.bounce > 0 and self._random.random() < self.faults.bounce

    def _emit(self, notifications: Iterable[bytes]) -> bytes:
        """Apply the faults; hand each notification to `notify`, or return them joined."""
        out: list[bytes] = []
        rng, faults = self._random, self.faults
        for payload in notifications:
            if faults.garbage and rng.random() < faults.garbage:
                out.append(rng.randbytes(rng.randint(1, 20)))
            if faults.drop and rng.random() < faults.drop:
                continue
            if faults.split and len(payload) > 1 and rng.random() < faults.split:
                cut = rng.randint(1, len(payload) - 1)
                out += [payload[:cut], payload[cut:]]
            else:
                out.append(payload)
        if self.notify is None:
            return b"".join(out)
        for payload in out:
            self.notify(payload)
        return b""

    @abstractmethod
    def write(self, data: bytes) -> list[bytes]:
        """The board's replies to one write from the app, one item per notification."""

    def feed(self, data: bytes) -> bytes:
        """One write from the app; the board's immediate replies."""
        return self._emit(self.write(data))

    @abstractmethod
    def lift(self, square: chess.Square) -> bytes:
        """A hand takes the piece on `square`."""

    @abstractmethod
    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A piece reaches `square`."""

    def apply(self, event: PieceLifted | PiecePlaced) -> bytes:
        if isinstance(event, PieceLifted):
            return self.lift(event.square)
        return self.place(event.square, event.piece)

    def play_game(self, board: chess.Board, moves: Iterable[chess.Move]) -> bytes:
        """Make `moves` from `board` by hand, castling the e-board way; `board` is not changed."""
        return b"".join(self.apply(event) for event in game_events(board.copy(), list(moves)))


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
        start = chess.Board.from_chess960_pos(position) if isinstance(position, int) else position
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
