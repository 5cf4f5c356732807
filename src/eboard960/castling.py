"""Where a Chess960 castling takes its king and rook: the one place that knows the geometry.

python-chess encodes a Chess960 castling as the king moving to its rook's
square; after castling the king and rook stand where they would in standard
chess (a-side: king c, rook d; h-side: king g, rook f).
"""

from __future__ import annotations

from typing import NamedTuple

import chess


class CastlingSquares(NamedTuple):
    king_from: chess.Square
    king_to: chess.Square
    rook_from: chess.Square
    rook_to: chess.Square


def castling_squares(castling: chess.Move) -> CastlingSquares:
    """The four squares of a castling given in python-chess's king-to-rook encoding."""
    king, rook = castling.from_square, castling.to_square
    rank = chess.square_rank(king)
    a_side = rook < king
    king_to = chess.square(2 if a_side else 6, rank)
    rook_to = chess.square(3 if a_side else 5, rank)
    return CastlingSquares(king, king_to, rook, rook_to)
