"""Firmware model of a Square Off Pro or Neo: presence sensors, square LEDs, battery.

Every entry point returns the notifications the board would send on the
Nordic UART TX characteristic. `feed(data)` takes the app's bytes (commands
may arrive cut across writes and may end in CR LF). Lifts and drops are
reported as `0#e2u*` / `0#e4d*` once a game has been started with `14#1*`;
`30#R*` answers the occupancy at any time. The Pro answers a new game with
`14#GO*` and reports its battery as `22#<volts>*`; the Neo does neither and
answers `4#*` with `4#<percent>*`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import chess

from eboard960.emulators.chessnut import FaultInjector, NotificationFaults
from eboard960.events import PieceLifted, PiecePlaced
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


class SquareOffFirmware:
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
        start = chess.Board.from_chess960_pos(position) if isinstance(position, int) else position
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
        self._faults = FaultInjector(faults)

    # --- the app's side -------------------------------------------------------------------

    def feed(self, data: bytes) -> list[bytes]:
        """Bytes from the app; every complete `code#body*` command is answered."""
        text = self._pending + data
        out: list[bytes] = []
        end = 0
        for found in _COMMAND.finditer(text):
            code, body = (part.decode("ascii", "replace") for part in found.groups())
            out += self._answer(code, body)
            end = found.end()
        self._pending = text[end:][-_MAX_PENDING:]
        return self._faults.apply(out)

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

    # --- the physical board ---------------------------------------------------------------

    def lift(self, square: chess.Square) -> list[bytes]:
        if not self.occupied & chess.BB_SQUARES[square]:
            return []
        self.occupied &= ~chess.BB_SQUARES[square]
        return self._report(square, down=False)

    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> list[bytes]:
        """A piece reaches `square` (which piece it is, the sensor cannot tell)."""
        if self.occupied & chess.BB_SQUARES[square]:
            return []
        self.occupied |= chess.BB_SQUARES[square]
        out = self._report(square, down=True)
        if self._faults.bounces():
            out += self._report(square, down=False) + self._report(square, down=True)
        return out

    def apply(self, event: PieceLifted | PiecePlaced) -> list[bytes]:
        if isinstance(event, PieceLifted):
            return self.lift(event.square)
        return self.place(event.square)

    def play_game(self, board: chess.Board, moves: Iterable[chess.Move]) -> list[bytes]:
        """Make `moves` from `board` by hand, castling the e-board way; `board` is not changed."""
        from eboard960.choreography import game_events

        out: list[bytes] = []
        for event in game_events(board.copy(), list(moves)):
            out += self.apply(event)
        return out

    def _report(self, square: chess.Square, *, down: bool) -> list[bytes]:
        if not self.game_started:
            return []
        name = chess.square_name(square) + ("d" if down else "u")
        return self._faults.apply([message("0", name)])
