"""Moves made by hand on a serial board model, the way the recognizer expects people to move."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

import chess

from eboard960.choreography import move_events
from eboard960.events import PieceLifted, PiecePlaced


class HandMoves(ABC):
    """`apply`, `play_move` and `play_game` for a model that says what its sensors see.

    The model's `lift` and `place` return the bytes the board sends about one
    change; a move is the choreography's lifts and places (castling the
    e-board way: lift king, lift rook, place rook, place king), each placed
    piece named, so a model that knows pieces puts down the right one.
    """

    @abstractmethod
    def lift(self, square: chess.Square) -> bytes:
        """A hand takes the piece on `square`."""

    @abstractmethod
    def place(self, square: chess.Square, piece: chess.Piece | None = None) -> bytes:
        """A hand puts a piece on `square`."""

    def apply(self, event: PieceLifted | PiecePlaced) -> bytes:
        if isinstance(event, PieceLifted):
            return self.lift(event.square)
        return self.place(event.square, event.piece)

    def play_move(self, board: chess.Board, move: chess.Move) -> bytes:
        """Make `move` from `board` by hand (`board` is not changed)."""
        after = board.copy(stack=False)
        after.push(move)
        out = b""
        for event in move_events(board, move, order="eboard"):
            if isinstance(event, PiecePlaced) and event.piece is None:
                event = PiecePlaced(square=event.square, piece=after.piece_at(event.square))
            out += self.apply(event)
        return out

    def play_game(self, board: chess.Board, moves: Iterable[chess.Move]) -> bytes:
        """Play `moves` from `board` (which is left at the final position)."""
        out = b""
        for move in moves:
            out += self.play_move(board, move)
            board.push(move)
        return out
