"""The scripted demo game: Chess960 position 466, both sides castle, mate on move 12.

White castles on the h-side with the king landing on its own rook's square
(king e1 -> g1, rook g1 -> f1), Black on the a-side (king e8 -> c8, rook
b8 -> d8); both are made the e-board way: lift king, lift rook, place rook,
place king. The demo makes every hand movement on the emulated board and
presses the mover's clock once the move shows, as a person would.
"""

from __future__ import annotations

import chess

DEMO_START = 466
DEMO_UCI = (
    "c2c3", "a7a6", "e2e3", "c7c6", "f1a6", "b7a6", "e1g1", "c6c5", "f2f4", "f7f6", "g1f2", "a8g2",
    "c1e2", "g2f1", "f2g3", "c8b6", "h1f1", "d8c6", "h2h4", "e8b8", "g3g4", "h7h5", "g4f5", "h8h7",
)


def demo_moves() -> list[chess.Move]:
    return [chess.Move.from_uci(uci) for uci in DEMO_UCI]


def demo_board() -> chess.Board:
    return chess.Board.from_chess960_pos(DEMO_START)
