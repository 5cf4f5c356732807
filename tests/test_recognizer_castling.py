"""Castling in every order people use, for every Chess960 position and both wings."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import chess
import pytest
from game_helpers import as_snapshots

from eboard960.choreography import castling_orders
from eboard960.events import PieceLifted, PiecePlaced
from eboard960.recognizer import MoveProvisional, Recognizer


def open_wing(number: int, a_side: bool) -> chess.Board:
    """Position `number` with only the kings and one wing's rooks left on the back ranks."""
    board = chess.Board.from_chess960_pos(number)
    for rank in (0, 7):
        king = board.king(chess.WHITE if rank == 0 else chess.BLACK)
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_type_at(square)
            wing_rook = piece == chess.ROOK and (square < king if a_side else square > king) if rank == 0 \
                else piece == chess.ROOK and (file < chess.square_file(king)) == a_side
            if piece != chess.KING and not wing_rook:
                board.remove_piece_at(square)
    return board


def castling(board: chess.Board, a_side: bool) -> chess.Move:
    return next(
        move for move in board.generate_castling_moves()
        if (move.to_square < move.from_square) == a_side
    )


def replay(start: chess.Board, steps: list) -> list[chess.Move]:
    """Feed the steps half a second apart, as a hand makes them."""
    recognizer = Recognizer(start)
    reports = []
    for number, step in enumerate(steps):
        reports += recognizer.feed(dataclasses.replace(step, t=number * 0.5))
    reports += recognizer.finish()
    return [report.move for report in reports if report.kind == "move"]


def castlings_in_every_order(number: int) -> Iterator[tuple]:
    """For each wing of position `number` and each order: the start, the position after White's castling,
    the two castlings, the order's name, and the events of White's castling and of Black's (in the same
    order where it can be made so)."""
    for a_side in (True, False):
        start = open_wing(number, a_side)
        white = castling(start, a_side)
        after_white = start.copy()
        after_white.push(white)
        black = castling(after_white, a_side)
        black_orders = castling_orders(after_white, black)
        for order, steps in castling_orders(start, white).items():
            black_steps = black_orders.get(order) or black_orders["eboard"]
            yield start, after_white, [white, black], (a_side, order), steps, black_steps


@pytest.mark.parametrize("number", range(960))
def test_every_castling_order_in_every_position(number: int) -> None:
    for start, _, moves, name, white_steps, black_steps in castlings_in_every_order(number):
        assert replay(start, white_steps + black_steps) == moves, (number, name)


@pytest.mark.parametrize("number", range(0, 960, 7))
def test_every_castling_order_seen_only_through_snapshots(number: int) -> None:
    for start, after_white, moves, name, white_steps, black_steps in castlings_in_every_order(number):
        for every in (1, 2):
            # with two per snapshot, king and rook are only ever seen both in hand and both placed
            snapshots = [*as_snapshots(start, white_steps, every),
                         *as_snapshots(after_white, black_steps, every)]
            assert replay(start, snapshots) == moves, (number, name, every)


def test_first_half_that_is_an_ordinary_move_is_provisional_then_committed_as_played() -> None:
    # king b1 beside its a-side rook: the castling king step b1-c1 is also an ordinary move
    start = chess.Board("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", chess960=True)
    recognizer = Recognizer(start)
    reports = recognizer.feed(chess_lift("b1", 1.0)) + recognizer.feed(chess_place("c1", 1.5))
    assert [type(r) for r in reports] == [MoveProvisional]
    assert reports[0].castling == chess.Move.from_uci("b1a1")
    # the other side begins: the king step is final as an ordinary move
    reports = recognizer.feed(chess_lift("e7", 2.0)) + recognizer.feed(chess_place("e5", 2.5))
    reports += recognizer.finish()
    assert [r.san for r in reports if r.kind == "move"] == ["Kc1", "e5"]


def test_first_half_then_the_rook_becomes_one_castling() -> None:
    start = chess.Board("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", chess960=True)
    assert replay(start, [chess_lift("b1"), chess_place("c1"), chess_lift("a1"), chess_place("d1")]) == [
        chess.Move.from_uci("b1a1")
    ]


def test_king_and_rook_in_hand_together_put_back_is_a_transposition_castling() -> None:
    # king f1, rook g1: h-side castling swaps them, the occupancy does not change
    start = chess.Board("4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w KQkq - 0 1", chess960=True)
    steps = [chess_lift("f1"), chess_lift("g1"), chess_place("g1"), chess_place("f1")]
    assert [m.uci() for m in replay(start, steps)] == ["f1g1"]
    # the same two pieces touched one after the other are only touches
    touches = [chess_lift("f1"), chess_place("f1"), chess_lift("g1"), chess_place("g1")]
    assert replay(start, touches) == []


def test_a_quick_transposition_castling_right_after_the_other_side_s_move_keeps_that_move() -> None:
    """Found failing (an outside generator of fast hands): 1.e4, then Black's king and rook swapped in 0.2 s.
    The king back on its square within the bounce time read as a knock of the piece whose lift had made e4
    final, so e4 was reported taken back and the castling lost."""
    start = chess.Board.from_chess960_pos(912)  # king d8, rook c8: O-O-O swaps them
    moves = [PieceLifted(square=chess.E2, t=0.5), PiecePlaced(square=chess.E4, t=0.8),
             PieceLifted(square=chess.D8, t=1.4), PieceLifted(square=chess.C8, t=1.45),
             PiecePlaced(square=chess.C8, t=1.5), PiecePlaced(square=chess.D8, t=1.6),
             PieceLifted(square=chess.D2, t=2.2), PiecePlaced(square=chess.D4, t=2.5)]
    recognizer = Recognizer(start)
    reports = [report for event in moves for report in recognizer.feed(event)] + recognizer.finish()
    assert [r.kind for r in reports] == ["move", "move", "move"]
    assert [m.uci() for m in recognizer.board.move_stack] == ["e2e4", "d8c8", "d2d4"]


def test_king_only_and_rook_only_castling_are_recognised_at_once() -> None:
    # king e1 with its h-side rook already on f1: O-O is a king move over the rook
    king_only = chess.Board("4kr2/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w Kk - 0 1", chess960=True)
    assert replay(king_only, [chess_lift("e1"), chess_place("g1")]) == [chess.Move.from_uci("e1f1")]
    # king g1 with its rook on h1: O-O is a rook move over the king
    rook_only = chess.Board("6kr/pppppppp/8/8/8/8/PPPPPPPP/6KR w Kk - 0 1", chess960=True)
    assert replay(rook_only, [chess_lift("h1"), chess_place("f1")]) == [chess.Move.from_uci("g1h1")]


def test_castling_through_check_is_not_recognised() -> None:
    # a black rook on f8 attacks f1: White may not castle h-side through f1
    board = chess.Board("5r1k/8/8/8/8/8/8/4K2R w K - 0 1", chess960=True)
    steps = [chess_lift("e1"), chess_lift("h1"), chess_place("f1"), chess_place("g1")]
    recognizer = Recognizer(board)
    reports = [r for n, s in enumerate(steps) for r in recognizer.feed(dataclasses.replace(s, t=n * 0.5))]
    reports += recognizer.finish()
    assert {r.kind for r in reports} == {"illegal"}
    assert reports[-1].describe() == "empty f1, g1; fill e1, h1"


def chess_lift(name: str, t: float = 0.0) -> PieceLifted:
    return PieceLifted(square=chess.parse_square(name), t=t)


def chess_place(name: str, t: float = 0.0) -> PiecePlaced:
    return PiecePlaced(square=chess.parse_square(name), t=t)


def placed_before_lift(steps: list, move: chess.Move) -> Iterator[list]:
    """`steps` with the king's or the rook's landing reported just before its departure (as a board's scan
    order does), every way the square it lands on is already empty then; the departure follows in 0.12 s."""
    k0, k1, r0, r1 = (move.from_square, chess.square(2 if move.to_square < move.from_square else 6, 0),
                      move.to_square, chess.square(3 if move.to_square < move.from_square else 5, 0))
    timed = [dataclasses.replace(step, t=n * 0.5) for n, step in enumerate(steps)]
    for i in range(len(timed) - 1):
        lift, place = timed[i], timed[i + 1]
        if not (isinstance(lift, PieceLifted) and isinstance(place, PiecePlaced)
                and (lift.square, place.square) in ((k0, k1), (r0, r1))):
            continue
        early = [*timed[:i], dataclasses.replace(place, t=lift.t), dataclasses.replace(lift, t=lift.t + 0.12),
                 *timed[i + 2:]]
        emptied = {step.square for step in early[:i] if isinstance(step, PieceLifted)}
        if place.square not in ({k0, r0} - emptied):
            yield early


@pytest.mark.parametrize("number", range(0, 960, 3))
def test_castling_with_a_landing_reported_before_its_lift(number: int) -> None:
    """Found failing (a black-box review): where the king's target held the rook, or the rook's the king,
    an early-reported landing made the castling look like a king or rook move and a touch of the other."""
    for a_side in (True, False):
        start = open_wing(number, a_side)
        white = castling(start, a_side)
        for order, steps in castling_orders(start, white).items():
            for early in placed_before_lift(steps, white):
                recognizer = Recognizer(start)
                reports = [r for step in early for r in recognizer.feed(step)] + recognizer.finish()
                moves = [r.move for r in reports if r.kind == "move"]
                assert moves == [white], (number, a_side, order, early)


def test_a_king_step_then_its_rook_knocked_is_the_king_step() -> None:
    """The rook knocked just after the king lands on the rook's castling square is no castling whose rook
    landing the board reported first: the rook is back within a bounce, so it never left."""
    start = chess.Board("r3k1r1/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w GAga - 0 1", chess960=True)
    steps = [PieceLifted(square=chess.E1, t=1.0), PiecePlaced(square=chess.F1, t=1.6),
             PieceLifted(square=chess.G1, t=1.7), PiecePlaced(square=chess.G1, t=1.8)]
    recognizer = Recognizer(start)
    reports = [r for step in steps for r in recognizer.feed(step)] + recognizer.finish()
    assert [r.move for r in reports if r.kind == "move"] == [chess.Move.from_uci("e1f1")]
