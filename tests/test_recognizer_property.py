"""Random legal Chess960 games, made by random human event orders, replay to the same moves."""

from __future__ import annotations

import random

import chess
from game_helpers import as_snapshots
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from eboard960.choreography import human_game, random_game
from eboard960.events import ButtonPressed, PieceLifted, PiecePlaced
from eboard960.recognizer import Recognizer


def recognised(start: chess.Board, events: list) -> list[chess.Move]:
    recognizer = Recognizer(start)
    reports = [report for event in events for report in recognizer.feed(event)]
    reports += recognizer.finish()
    return [report.move for report in reports if report.kind == "move"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1),
       noise=st.sampled_from([0.0, 0.2, 0.5]), clock=st.sampled_from([0.0, 0.5, 1.0]))
# a bounce long before a capture, with no clock press since, is no sign the capture was quicker than a bounce
@example(number=77, seed=5652, noise=0.2, clock=0.0)
# after a capture, the other side's reply and the next move both shown before their lifts; the board names the
# knight of the second
@example(number=837, seed=2282862683, noise=0.2, clock=0.0)
def test_random_games_made_by_hand_replay_exactly(number: int, seed: int, noise: float, clock: float) -> None:
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=80)
    events = human_game(start, moves, rng, noise_rate=noise, clock_rate=clock)
    assert recognised(start, events) == moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1), noise=st.sampled_from([0.0, 0.2]),
       clock=st.sampled_from([0.0, 0.5, 1.0]), snapshots=st.booleans())
def test_replies_taken_up_before_the_move_lands_replay_exactly(number: int, seed: int, noise: float,
                                                              clock: float, snapshots: bool) -> None:
    """Bullet hands: the other side takes up the piece of its reply before the mover's piece lands, at half
    the moves where the spec decides the reading (`human_game`'s `overlap_rate`: never a piece the moving
    one could take; during a slide too, even by a piece that could take it where it paused, and during a
    castling with king and rook in hand together). The lift is read after the landing, also on a board
    that sends a snapshot at every change."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=80)
    events = human_game(start, moves, rng, noise_rate=noise, clock_rate=clock, overlap_rate=0.5)
    assert recognised(start, as_snapshots(start, events) if snapshots else events) == moves


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1), overlap=st.sampled_from([0.0, 0.5]),
       snapshots=st.booleans())
def test_clocks_pressed_before_the_piece_lands_replay_exactly(number: int, seed: int, overlap: float,
                                                             snapshots: bool) -> None:
    """Bullet hands: the mover's clock pressed with its piece still in hand, a slide's too, at half the moves
    where the reading is not in doubt (`human_game`'s `press_in_hand_rate`: never by a piece that could take
    something, nor right after a touch), with or without the other side's reply taken up early. The press
    makes the landing final, not a square the slide paused on."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=80)
    events = human_game(start, moves, rng, noise_rate=0.1, overlap_rate=overlap, press_in_hand_rate=0.5)
    assert recognised(start, as_snapshots(start, events) if snapshots else events) == moves


@settings(max_examples=25, deadline=None)
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1))
def test_events_of_one_move_may_arrive_in_any_order_the_board_allows(number: int, seed: int) -> None:
    """Each single move, with its lifts and places shuffled but never a place on an occupied square.

    Castlings keep the orders of `castling_orders` (tested exhaustively elsewhere): a shuffle
    could report a piece's arrival before its own departure from a square two moves away. So do
    slides into a capture: the arrival on the victim's square reported before the departure from
    the square slid over is, on presence alone, also the other side touching that piece and then
    taking the piece that stands there.
    """
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=40)
    board = start.copy()
    events = []
    for move in moves:
        steps = human_game(board, [move], rng, noise_rate=0.0, clock_rate=1.0)
        squares = [s for s in steps if isinstance(s, PieceLifted | PiecePlaced)]
        buttons = [s for s in steps if isinstance(s, ButtonPressed)]
        slid_into_capture = board.is_capture(move) and any(
            isinstance(s, PiecePlaced) and s.square != move.to_square for s in squares)
        keep = board.is_castling(move) or slid_into_capture
        shuffled = squares if keep else _physical_shuffle(board, squares, rng)
        events += [*shuffled, *buttons]
        board.push(move)
    assert recognised(start, events) == moves


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1),
       noise=st.sampled_from([0.0, 0.2]), clock=st.sampled_from([0.0, 0.5, 1.0]))
def test_a_board_that_sends_a_snapshot_at_every_change_replays_exactly(number: int, seed: int, noise: float,
                                                                      clock: float) -> None:
    """The same hands on a board that sends the whole board at every change, never single reports: each
    snapshot's change is read as the report it stands for, so castling shown only by the order of events
    (a transposition) and a capture replacing an open move read as they do from reports."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=80)
    events = human_game(start, moves, rng, noise_rate=noise, clock_rate=clock)
    assert recognised(start, as_snapshots(start, events)) == moves


def _physical_shuffle(board: chess.Board, steps: list, rng: random.Random) -> list:
    """A random order of `steps` in which no piece lands on an occupied square and no square
    is emptied twice: what some sensor board could report."""
    occupied = board.occupied
    remaining = list(steps)
    order = []
    while remaining:
        doable = [s for s in remaining if _doable(s, occupied)]
        step = rng.choice(doable) if doable else remaining[0]
        remaining.remove(step)
        bit = chess.BB_SQUARES[step.square]
        occupied = occupied & ~bit if isinstance(step, PieceLifted) else occupied | bit
        order.append(step)
    return order


def _doable(step, occupied: int) -> bool:
    bit = chess.BB_SQUARES[step.square]
    if isinstance(step, PieceLifted):
        return bool(occupied & bit)
    return not occupied & bit


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1), clock=st.sampled_from([0.0, 0.5, 1.0]))
def test_moves_taken_back_in_any_order_and_made_again_replay_exactly(number: int, seed: int,
                                                                     clock: float) -> None:
    """Every kind of move (captures, en passant, castlings) taken back after its clock press, or while
    still open, in any physical order, then made again: the game is the same."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=60)
    events = human_game(start, moves, rng, noise_rate=0.1, clock_rate=clock, takeback_rate=0.3)
    recognizer = Recognizer(start)
    for event in events:
        recognizer.feed(event)
    recognizer.finish()
    assert recognizer.board.move_stack == moves
