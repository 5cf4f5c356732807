"""What the recognizer reports: facts about the game, each stamped with the sensor event's time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

import chess


class Line:
    """The moves committed from one position on, with their SAN worked out when first asked for.

    Recognising a move costs about what its SAN costs, and replaying a capture needs no SAN:
    the move reports share a line and ask it. A takeback starts a new line, so that a move
    committed later at the same ply never changes what an earlier report says.
    """

    __slots__ = ("_board", "_moves", "_sans")

    def __init__(self, start: chess.Board) -> None:
        self._board = start.copy(stack=False)  # the position after the moves whose SAN is known
        self._moves: list[chess.Move] = []
        self._sans: list[str] = []

    def append(self, move: chess.Move) -> int:
        """Add a legal move; returns its index on this line."""
        self._moves.append(move)
        return len(self._moves) - 1

    def san(self, index: int) -> str:
        sans, board = self._sans, self._board
        while len(sans) <= index:
            sans.append(board.san_and_push(self._moves[len(sans)]))
        return sans[index]


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRecognized:
    """A committed move; it is in the game record from now on."""

    kind: ClassVar[Literal["move"]] = "move"
    move: chess.Move
    ply: int
    t: float = 0.0
    line: Line = field(repr=False, compare=False)
    index: int = field(repr=False, compare=False)

    @property
    def san(self) -> str:
        return self.line.san(self.index)

    @property
    def uci(self) -> str:
        """UCI in the Chess960 convention: castling is the king taking its own rook."""
        return self.move.uci()


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveProvisional:
    """A move the board shows that may still become (or already must be) a castling."""

    kind: ClassVar[Literal["provisional"]] = "provisional"
    move: chess.Move
    before: chess.Board = field(repr=False, compare=False)
    castling: chess.Move
    t: float = 0.0

    @property
    def san(self) -> str:
        return self.before.san(self.move)

    @property
    def uci(self) -> str:
        return self.move.uci()


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveTakenBack:
    """The last committed move was undone on the board."""

    kind: ClassVar[Literal["takeback"]] = "takeback"
    move: chess.Move
    san: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class IllegalPosition:
    """The board settled where no legal continuation explains it; these squares get it back."""

    kind: ClassVar[Literal["illegal"]] = "illegal"
    to_empty: frozenset[chess.Square]
    to_fill: frozenset[chess.Square]
    t: float = 0.0

    def describe(self) -> str:
        parts = []
        if self.to_empty:
            parts.append("empty " + ", ".join(sorted(chess.square_name(s) for s in self.to_empty)))
        if self.to_fill:
            parts.append("fill " + ", ".join(sorted(chess.square_name(s) for s in self.to_fill)))
        return "; ".join(parts) or "check the board"


@dataclass(frozen=True, slots=True, kw_only=True)
class PositionRestored:
    """The board is back in a position the recognizer can follow."""

    kind: ClassVar[Literal["restored"]] = "restored"
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGame:
    """The pieces were set up again: a new game from `fen`."""

    kind: ClassVar[Literal["new_game"]] = "new_game"
    fen: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver:
    """An automatic ending (python-chess's `outcome`); moves are no longer recorded."""

    kind: ClassVar[Literal["game_over"]] = "game_over"
    result: str
    termination: str
    t: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawClaimable:
    """Threefold repetition or the 50-move rule: a draw may be claimed; play goes on."""

    kind: ClassVar[Literal["claimable"]] = "claimable"
    reason: str
    t: float = 0.0


Report = (
    MoveRecognized | MoveProvisional | MoveTakenBack | IllegalPosition | PositionRestored
    | NewGame | GameOver | DrawClaimable
)
