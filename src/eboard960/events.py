"""Facts a board reports: the one input model of the move recognizer.

Decoders of every protocol turn bytes into these; the capture format stores
them; the recognizer consumes them. Squares are python-chess ints, occupancy
is a python-chess bitboard, and `t` is seconds on the session's clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import final

import chess

from eboard960.errors import CaptureError

CLOCK_BUTTONS = {"white": chess.WHITE, "black": chess.BLACK}  # pressed by the player who just moved
PROMOTION_BUTTONS = {"promote_q": chess.QUEEN, "promote_r": chess.ROOK,
                     "promote_b": chess.BISHOP, "promote_n": chess.KNIGHT}
BUTTONS = frozenset({*CLOCK_BUTTONS, *PROMOTION_BUTTONS, "draw", "confirm", "pause", "plus", "minus", "back",
                     "forward"})


@final  # so that a check of type(event) narrows a SquareEvent both ways
@dataclass(frozen=True, slots=True, kw_only=True)
class PieceLifted:
    """A piece left `square`."""

    square: chess.Square
    t: float = 0.0


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class PiecePlaced:
    """A piece arrived on `square`; `piece` is set by boards that identify pieces."""

    square: chess.Square
    piece: chess.Piece | None = None
    t: float = 0.0


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardSnapshot:
    """A full reading of the sensors: which squares are occupied, and by what where known."""

    occupied: chess.Bitboard
    pieces: dict[chess.Square, chess.Piece] = field(default_factory=dict)
    t: float = 0.0

    @classmethod
    def from_text(cls, text: str, t: float = 0.0) -> BoardSnapshot:
        """Parse the capture format's 64 characters, a8..h8 down to a1..h1."""
        if len(text) != 64:
            raise CaptureError(f"a board snapshot has 64 squares, not {len(text)}")
        occupied = 0
        pieces: dict[chess.Square, chess.Piece] = {}
        for index, char in enumerate(text):
            square = chess.square(index % 8, 7 - index // 8)
            if char == ".":
                continue
            occupied |= chess.BB_SQUARES[square]
            if char != "x":
                try:
                    pieces[square] = chess.Piece.from_symbol(char)
                except ValueError:
                    raise CaptureError(f"{char!r} is not a piece letter, '.' or 'x'") from None
        return cls(occupied=occupied, pieces=pieces, t=t)

    @classmethod
    def from_pieces(cls, pieces: dict[chess.Square, chess.Piece], t: float = 0.0) -> BoardSnapshot:
        """What an identifying board reports: `pieces`, their squares the occupied ones."""
        return cls(occupied=int(chess.SquareSet(pieces)), pieces=pieces, t=t)

    @classmethod
    def from_board(cls, board: chess.BaseBoard, t: float = 0.0) -> BoardSnapshot:
        """What an identifying board would report for `board`."""
        return cls(occupied=board.occupied, pieces=board.piece_map(), t=t)

    def text(self) -> str:
        """The capture format's 64 characters."""
        chars = []
        for rank in range(7, -1, -1):
            for file in range(8):
                square = chess.square(file, rank)
                if square in self.pieces:
                    chars.append(self.pieces[square].symbol())
                elif self.occupied & chess.BB_SQUARES[square]:
                    chars.append("x")
                else:
                    chars.append(".")
        return "".join(chars)


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed:
    """A clock or board button; names are those of `BUTTONS`."""

    button: str
    t: float = 0.0


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class LinkChanged:
    """The transport to the board came up or went down."""

    up: bool
    t: float = 0.0


SquareEvent = PieceLifted | PiecePlaced | BoardSnapshot | ButtonPressed | LinkChanged
