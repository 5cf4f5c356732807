"""Games and views the tests share: the serial board tests (ChessLink and DGT models, the Board joiner), and
the recognizer tests that replay events as a snapshot-only board sends them."""

from __future__ import annotations

import random

import chess

from eboard960.board import Board
from eboard960.commands import RequestBoard
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced

# Position 0 (BBQNNRKR): en passant, a promotion, captures and both sides castling
# queen-side, the king walking from g1/g8 to c1/c8 by the e-board procedure.
GAME_960 = [
    "c2c4",
    "h7h5",
    "c4c5",
    "e8d6",
    "e2e4",
    "b7b5",
    "c5b6",
    "a8d5",
    "b6c7",
    "d6e4",
    "c7d8q",
    "e4d2",
    "c1c2",
    "d5a2",
    "d8a5",
    "a2b1",
    "a5h5",
    "a7a5",
    "d1c3",
    "c8c3",
    "h5a5",
    "c3d4",
    "c2d1",
    "d7d6",
    "a5d2",
    "g8f8",
    "d1g4",
    "b1f5",
    "e1d3",
    "g7g6",
    "d2c1",
    "b8c7",
    "d3b4",
    "c8b7",
    "c1d1",
    "d4b2",
    "a1b2",
    "h8h7",
    "d1b1",
    "f5b1",
    "g1f1",
]


def view(events: list[object]) -> dict[chess.Square, chess.Piece]:
    """The pieces the host believes are on the board after these events."""
    pieces: dict[chess.Square, chess.Piece] = {}
    for event in events:
        if isinstance(event, BoardSnapshot):
            pieces = dict(event.pieces)
        elif isinstance(event, PieceLifted):
            pieces.pop(event.square, None)
        elif isinstance(event, PiecePlaced) and event.piece is not None:
            pieces[event.square] = event.piece
    return pieces


def castling_game(start: int, plies: int, seed: int) -> list[chess.Move]:
    """A random legal game that castles whenever it can and spares king and rooks till then."""
    rng, board, moves = random.Random(seed), chess.Board.from_chess960_pos(start), []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        castles = [m for m in legal if board.is_castling(m)]
        spare = board.kings | board.rooks if board.has_castling_rights(board.turn) else 0
        quiet = [m for m in legal if not chess.BB_SQUARES[m.from_square] & spare] or legal
        move = castles[0] if castles else rng.choice(quiet)
        moves.append(move)
        board.push(move)
    return moves


def as_snapshots(start: chess.Board, events: list, every: int = 1) -> list:
    """`events` as a board that reports only full snapshots sends them: one after every `every` lifts and
    places (and before any other event, and at the end), with the pieces named so far."""
    occupied, named, out, pending = start.occupied, {}, [], 0
    for event in events:
        if isinstance(event, PieceLifted | PiecePlaced):
            bit = chess.BB_SQUARES[event.square]
            if isinstance(event, PieceLifted):
                occupied &= ~bit
                named.pop(event.square, None)
            else:
                occupied |= bit
                if event.piece is not None:
                    named[event.square] = event.piece
            pending += 1
            if pending == every:
                out.append(BoardSnapshot(occupied=occupied, pieces=dict(named), t=event.t))
                pending = 0
            continue
        if pending:
            out.append(BoardSnapshot(occupied=occupied, pieces=dict(named), t=event.t))
            pending = 0
        out.append(event)
    if pending:
        out.append(BoardSnapshot(occupied=occupied, pieces=dict(named), t=events[-1].t))
    return out


async def two_snapshots(board: Board) -> list[BoardSnapshot]:
    """The board's first whole snapshot, then the one answering a RequestBoard sent through the joiner."""
    snapshots: list[BoardSnapshot] = []
    async with board:
        async for event in board:
            if isinstance(event, BoardSnapshot):
                snapshots.append(event)
                if len(snapshots) == 2:
                    break
                board.send(RequestBoard())  # the board is unchanged: no lift or place to diff
    return snapshots
