"""The built-in emulated board: the DGT firmware model on an in-memory cable, and hands to move it.

Bytes really flow: the `Board` joiner speaks the DGT protocol to the model
through `MemoryLink`, exactly as it does to a board on a serial port, so the
codec, the journal (`rx`/`tx` records) and resume are all exercised with no
hardware. `VirtualBoard.act` is a hand lifting or placing a piece;
`parse_command` reads what a person types to drive it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import chess

from eboard960.emulators.dgt import DgtFirmware
from eboard960.errors import TransportError
from eboard960.events import PieceLifted, PiecePlaced
from eboard960.play.errors import PlayError

HELP = ("type a move (e2e4, Nf3, O-O), or 'lift e1', 'place g1 [K]', 'press' (the clock), "
        "'resign [white|black]', 'draw' (agreed), 'help', 'quit'")


class MemoryLink:
    """A cable to a firmware model in this process; implements the `Transport` protocol."""

    def __init__(self, model: DgtFirmware, name: str = "emulated DGT board") -> None:
        self.model = model
        self.name = name
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._open = False

    async def open(self) -> None:
        self._queue = asyncio.Queue()
        self._open = True

    async def close(self) -> None:
        self._open = False
        self._queue.put_nowait(None)

    async def read(self) -> bytes:
        data = await self._queue.get()
        if data is None:
            raise TransportError(f"{self.name} was switched off")
        return data

    async def write(self, data: bytes) -> None:
        if not self._open:
            raise TransportError(f"{self.name} is not connected")
        self.send(self.model.feed(data) + self.model.flush())

    def send(self, data: bytes) -> None:
        """Bytes the board sends on its own (a piece moved)."""
        if data and self._open:
            self._queue.put_nowait(data)


class VirtualBoard:
    """The emulated board with its pieces in `start` (a Chess960 number or any position)."""

    def __init__(self, start: chess.BaseBoard | int) -> None:
        self.model = DgtFirmware(start)
        self.link = MemoryLink(self.model)

    def act(self, event: PieceLifted | PiecePlaced) -> None:
        """A hand lifts or places a piece (a ScenarioError if a person could not do it)."""
        self.link.send(self.model.apply(event))


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """One typed command: `action` is move, lift, place, press, resign, draw, help or quit."""

    action: str
    move: chess.Move | None = None
    square: chess.Square | None = None
    piece: chess.Piece | None = None
    side: chess.Color | None = None  # who resigns; None: the player at the keyboard


def parse_command(text: str, board: chess.Board) -> Command:
    """Read one typed line against the current position; PlayError says what is wrong."""
    words = text.split()
    if not words:
        raise PlayError("empty command; " + HELP)
    head = words[0].lower()
    if head in ("press", "draw", "quit", "help") and len(words) == 1:
        return Command(action=head)
    if head == "resign":
        return _resign_command(words)
    if head in ("lift", "place"):
        return _square_command(head, words)
    if len(words) == 1:
        return Command(action="move", move=_parse_move(words[0], board))
    raise PlayError(f"cannot read {text.strip()!r}; " + HELP)


def _square_command(head: str, words: list[str]) -> Command:
    if len(words) < 2 or words[1].lower() not in chess.SQUARE_NAMES:
        raise PlayError(f"'{head}' needs a square, e.g. '{head} e2'")
    square = chess.parse_square(words[1].lower())
    if head == "lift" and len(words) == 2:
        return Command(action="lift", square=square)
    if head == "place" and len(words) in (2, 3):
        piece = None
        if len(words) == 3:
            try:
                piece = chess.Piece.from_symbol(words[2])
            except ValueError:
                raise PlayError(f"{words[2]!r} is not a piece letter (KQRBNP, kqrbnp)") from None
        return Command(action="place", square=square, piece=piece)
    raise PlayError(f"too many words for '{head}'")


def _resign_command(words: list[str]) -> Command:
    if len(words) == 1:
        return Command(action="resign")
    if len(words) == 2 and words[1].lower() in chess.COLOR_NAMES:
        return Command(action="resign", side=words[1].lower() == "white")
    raise PlayError("'resign' takes no more than the side: 'resign', 'resign white' or 'resign black'")


def _parse_move(word: str, board: chess.Board) -> chess.Move:
    side = chess.COLOR_NAMES[board.turn].capitalize()
    illegal = PlayError(f"{word} is not legal here ({side} to move)")
    is_san = True
    try:
        return board.parse_san(word)
    except chess.AmbiguousMoveError:
        raise PlayError(f"{word} is ambiguous here; name the piece's file or rank") from None
    except chess.IllegalMoveError:
        pass  # well-formed; as UCI it may still be a castling by the king's target square
    except chess.InvalidMoveError:
        is_san = False
    try:
        move = chess.Move.from_uci(word.lower())
    except chess.InvalidMoveError:
        if is_san:
            raise illegal from None
        raise PlayError(f"{word!r} is neither a move nor a command; " + HELP) from None
    if board.is_legal(move):
        return move
    for legal in board.legal_moves:  # king-to-target castling (e1g1) as well as king-to-rook
        if board.is_castling(legal) and board.uci(legal, chess960=False) == word.lower():
            return legal
    raise illegal
