"""The BLE firmware models' shared base: seeded notification faults and the scenario API.

`NotifyingFirmware` and `NotificationFaults` (used by the Chessnut, GoChess,
Square Off and Pegasus models) perturb the outgoing notifications from a
seeded random source: garbage payloads, notifications cut in two, dropped
notifications, and sensor bounce. `PresenceFirmware` adds the physical board
of the presence-only boards (GoChess, Square Off), which report a square's
lift or drop the same way and differ only in how they word it.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import chess

from eboard960.choreography import game_events
from eboard960.emulators.hand import Hands


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


class NotifyingFirmware(Hands):
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

    def play_game(self, board: chess.Board, moves: Iterable[chess.Move]) -> bytes:
        """Make `moves` from `board` by hand, castling the e-board way; `board` is not changed."""
        return b"".join(self.apply(event) for event in game_events(board.copy(), list(moves)))


class PresenceFirmware(NotifyingFirmware):
    """A board whose sensors see only presence; a lift or drop on a free or full square is ignored.

    Subclasses keep `occupied` and say in `_report` what the board notifies for one change.
    """

    occupied: chess.Bitboard

    def lift(self, square: chess.Square) -> bytes:
        if not self.occupied & chess.BB_SQUARES[square]:
            return b""
        self.occupied &= ~chess.BB_SQUARES[square]
        return self._emit(self._report(square, down=False))

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A piece reaches `square` (which piece it is, the sensor cannot tell)."""
        if self.occupied & chess.BB_SQUARES[square]:
            return b""
        self.occupied |= chess.BB_SQUARES[square]
        out = self._report(square, down=True)
        if self._bounces():
            out += self._report(square, down=False) + self._report(square, down=True)
        return self._emit(out)

    @abstractmethod
    def _report(self, square: chess.Square, *, down: bool) -> list[bytes]:
        """The notifications for a piece leaving (`down=False`) or reaching `square`."""
