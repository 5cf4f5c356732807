"""A person's hands on a board model: lifts and places, and moves made the e-board way."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

import chess

from eboard960.choreography import move_events
from eboard960.errors import Eboard960Error
from eboard960.events import PieceLifted, PiecePlaced


class ScenarioError(Eboard960Error, ValueError):
    """A scenario asked the emulated board for something a person could not do."""


def start_board(start: chess.BaseBoard | int) -> chess.BaseBoard:
    """A model's first position: `start` itself, or Chess960 start position number `start`."""
    if isinstance(start, chess.BaseBoard):
        return start
    if not isinstance(start, int) or not 0 <= start <= 959:
        raise ScenarioError(f"a Chess960 start position is a number 0..959, not {start!r}")
    return chess.Board.from_chess960_pos(start)


def hand_steps(board: chess.Board, move: chess.Move) -> list[PieceLifted | PiecePlaced]:
    """The lifts and places of `move` (castling the e-board way), each placed piece named.

    Named because a model that only senses presence still has to know which
    piece lands where, and a castling king and rook are both in the hand.
    """
    after = board.copy(stack=False)
    after.push(move)
    return [PiecePlaced(square=step.square, piece=after.piece_at(step.square))
            if isinstance(step, PiecePlaced) and step.piece is None else step
            for step in move_events(board, move, order="eboard")]


class Hands(ABC):
    """A model whose `lift` and `place` return the bytes the board sends about one change."""

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


class HandMoves(Hands):
    """`play_move` and `play_game` for the serial models, which know which piece is put down.

    A move is the choreography's lifts and places (castling the e-board way:
    lift king, lift rook, place rook, place king), each placed piece named.
    """

    def play_move(self, board: chess.Board, move: chess.Move) -> bytes:
        """Make `move` from `board` by hand (`board` is not changed)."""
        return b"".join(self.apply(step) for step in hand_steps(board, move))

    def play_game(self, board: chess.Board, moves: Iterable[chess.Move]) -> bytes:
        """Play `moves` from `board` (which is left at the final position)."""
        out = b""
        for move in moves:
            out += self.play_move(board, move)
            board.push(move)
        return out
