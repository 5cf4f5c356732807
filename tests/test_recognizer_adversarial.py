"""Minimal reproducers of what the independent corpus generator (tools/corpus.py) found.

Each case is a short event list cut down from a failing generated game, with
the moves the spec (shared/specs/move-recognition.md) requires. Cases the
recognizer does not yet meet are marked xfail(strict=True) with the reason,
so the suite stays green and turns red the moment one is fixed (then drop the
mark); cases whose docstring says "Found failing" have since been fixed and
stay as regression guards. Times matter only where the spec's "within a short time" (a sensor
bounce) is the evidence; they are given in every case anyway.
"""

from __future__ import annotations

import chess
import pytest

from eboard960.capture import parse_record
from eboard960.events import BoardSnapshot, ButtonPressed, LinkChanged, PieceLifted, PiecePlaced, SquareEvent
from eboard960.recognizer import Mode, Recognizer


def lift(name: str, t: float) -> PieceLifted:
    return PieceLifted(square=chess.parse_square(name), t=t)


def place(name: str, t: float, piece: str | None = None) -> PiecePlaced:
    identified = chess.Piece.from_symbol(piece) if piece else None
    return PiecePlaced(square=chess.parse_square(name), piece=identified, t=t)


def press(button: str, t: float) -> ButtonPressed:
    return ButtonPressed(button=button, t=t)


def sans(fen: str, events: list) -> list[str]:
    recognizer = Recognizer(chess.Board(fen, chess960=True))
    reports = [report for event in events for report in recognizer.feed(event)]
    reports += recognizer.finish()
    return [report.san for report in reports if report.kind == "move"]


# Queen d1 can take the knight on d5 or the bishop on a4; the rook a1 can go up the a-file.
TWO_VICTIMS = "4k3/7p/8/3n4/b7/8/8/R2QK3 w - - 0 1"


# ---------------------------------------------------------------- sensor bounces mid-move


def test_bounce_of_a_capturable_enemy_piece_while_a_piece_is_in_hand() -> None:
    """Found failing: a 30 ms bounce of an enemy piece the lifted rook could take is read as the capture;
    the rook then lands elsewhere and the board goes illegal."""
    events = [lift("a1", 1.0), lift("a4", 1.5), place("a4", 1.53), place("a3", 2.0)]
    assert sans(TWO_VICTIMS, events) == ["Ra3"]


def test_bounce_of_a_capturable_enemy_piece_reported_with_its_identity() -> None:
    """Found failing: even when the board reports the bishop back on a4 (identity), the bounce is read as
    Rxa4."""
    events = [lift("a1", 1.0), lift("a4", 1.5), place("a4", 1.53, "b"), place("a3", 2.0, "R")]
    assert sans(TWO_VICTIMS, events) == ["Ra3"]


def test_a_capture_quicker_than_a_bounce_taken_back_victim_first_leaves_the_game_as_it_was() -> None:
    """Found failing (a two-hand generator): exd5 with the victim swapped for the pawn in 0.2 s (a bounce by
    the clock), then taken back, the victim put back first. Read with the pawn still in hand, the takeback's
    lift and place on d5 looked like exd5 itself, and the pawn set back on e4 like a piece from nowhere:
    exd5 stood. The board shows the game again, so the open capture is put back."""
    opening = [lift("e2", 1.0), place("e4", 2.0), press("white", 2.5), lift("d7", 4.0), place("d5", 5.0),
               press("black", 5.5)]
    quick = [lift("e4", 7.0), lift("d5", 8.0), place("d5", 8.2), lift("d5", 9.7), place("d5", 11.0),
             place("e4", 12.5)]
    start = chess.STARTING_FEN
    assert sans(start, opening + quick) == ["e4", "d5"]
    assert sans(start, [*opening, *quick, lift("g1", 14.0), place("f3", 15.0)]) == ["e4", "d5", "Nf3"]


def test_a_reply_placed_first_on_the_square_a_capture_left_does_not_take_the_capture_back() -> None:
    """Found failing (a GoChess generator, after the change above): cxd5, then Black's Nc4 placed 2.3 s
    later and lifted from e3 0.7 s after that. The board showed the game before cxd5 for a moment, read
    as the capture put back; only a capture whose victim's square was touched again, or bounced, is."""
    fen = "R2br1qr/4p3/1p4kp/pN1p4/2PP2pP/4n3/PP2NPP1/B4RK1 w - - 2 18"
    events = [lift("c4", 1.0), lift("d5", 1.47), place("d5", 1.81), place("c4", 4.1), lift("e3", 4.78),
              press("black", 5.4), lift("b5", 8.0), place("c3", 8.8), press("white", 9.3)]
    assert sans(fen, events) == ["cxd5", "Nc4", "Nbc3"]


def test_a_misplaced_reply_picked_up_again_does_not_rewrite_the_move_before_it() -> None:
    """Found failing (a two-hand generator): Qxc1 victim first with a bounce of the f5 pawn while the queen
    was in hand, made final by Black's rook lift; the rook set down on b6 (illegal) and picked up again
    read as the queen having taken on f5 (the same squares) and the rook on b8. A misplaced board picked
    up again shows the game with a move under way: nothing in it says the earlier move was misread."""
    fen = "bBrnnrkb/8/8/p4pP1/P2P4/4p3/8/BQnNNK1B w - - 0 23"
    events = [lift("c1", 1.0), lift("b1", 1.63), lift("f5", 1.91), place("f5", 2.02), place("c1", 3.09),
              lift("c8", 4.55), place("b6", 5.7), lift("b6", 7.28)]
    assert sans(fen, [*events, place("c7", 7.93), press("black", 8.52)]) == ["Qxc1", "Rc7"]
    assert sans(fen, [*events, place("c8", 7.9), lift("c8", 8.5), place("c7", 9.0)]) == ["Qxc1", "Rc7"]


def test_a_misplaced_piece_that_cannot_move_picked_up_again_does_not_rewrite_the_move_before_it() -> None:
    """Found failing (a two-hand generator): Qxa2+ victim first with a bounce of the f4 pawn while the queen
    was in hand; White's c3 pawn, which cannot move out of the check, set down on e4 and picked up again
    read as the queen having taken on f4 (the same squares) and the pawn taking on b4. The board was the
    game's with a piece in hand, and Kc1 and Bxf3 were lost."""
    fen = "1nk4r/1bpp1q1p/8/p7/1n3P2/2PR1N1p/PP2P2P/BK1R4 b - - 9 23"
    quick = [lift("a2", 1.0), lift("f7", 1.66), lift("f4", 1.78), place("f4", 1.79), place("a2", 3.0)]
    detour = [lift("c3", 6.6), place("e4", 8.5), lift("e4", 11.1), place("c3", 11.9)]
    replies = [lift("b1", 12.5), place("c1", 13.2), press("white", 13.5), lift("f3", 16.0), lift("b7", 17.2),
               place("f3", 18.4), press("black", 19.7)]
    assert sans(fen, quick + detour + replies) == ["Qxa2+", "Kc1", "Bxf3"]


def test_bounce_of_an_enemy_piece_in_the_middle_of_a_slide() -> None:
    """Found failing (Ra2 committed); passes since the recognizer's bounce handling changed."""
    events = [lift("a1", 1.0), place("a2", 1.1), lift("a2", 1.2), lift("h7", 1.25), place("h7", 1.28),
              place("a3", 1.35)]
    assert sans(TWO_VICTIMS, events) == ["Ra3"]


def test_bounce_of_an_enemy_piece_during_a_change_of_mind() -> None:
    """Found failing (Qd3 committed); passes since the recognizer's bounce handling changed."""
    events = [lift("d1", 1.0), place("d3", 2.0), lift("d3", 3.0), lift("h7", 3.2), place("h7", 3.23),
              place("d2", 4.0)]
    assert sans(TWO_VICTIMS, events) == ["Qd2"]


def test_place_before_lift_with_a_bounce_of_a_piece_that_could_go_there() -> None:
    """Found failing: knight placed on c3 before its lift, and the c2 pawn bounces in between: the
    recognizer takes c2-c3 and never recovers."""
    fen = "4k3/8/8/8/8/8/2P5/1N2K3 w - - 0 1"
    events = [place("c3", 1.0), lift("c2", 1.05), place("c2", 1.08), lift("b1", 1.2)]
    assert sans(fen, events) == ["Nc3"]


def test_bounce_of_another_victim_during_a_victim_first_capture() -> None:
    """Found failing: victim d5 taken off, then a 30 ms bounce on a4 (also capturable) before the queen is
    lifted: read as Qxa4 with d5 touched."""
    events = [lift("d5", 1.0), lift("a4", 1.5), place("a4", 1.53), lift("d1", 2.0), place("d5", 3.0)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_bounce_after_an_open_move_then_the_moved_piece_is_captured_victim_first() -> None:
    """Found failing (the bounce and the queen's lift read as Qxa7, a place-first capture)."""
    fen = "8/pk6/8/2Q5/8/8/8/4K3 w - - 0 1"
    events = [lift("c5", 1.0), place("c7", 2.0), lift("a7", 3.0), place("a7", 3.03), lift("c7", 4.0),
              lift("b7", 5.0), place("c7", 6.0)]
    assert sans(fen, events) == ["Qc7+", "Kxc7"]


def test_touch_after_an_open_move_then_the_moved_piece_is_captured_victim_first() -> None:
    """The same with a 0.8 s touch instead of the bounce: the touch commits Qc7+."""
    fen = "8/pk6/8/2Q5/8/8/8/4K3 w - - 0 1"
    events = [lift("c5", 1.0), place("c7", 2.0), lift("a7", 3.0), place("a7", 3.8), lift("c7", 4.0),
              lift("b7", 5.0), place("c7", 6.0)]
    assert sans(fen, events) == ["Qc7+", "Kxc7"]


# ---------------------------------------------------------------- place-before-lift captures


def test_place_before_lift_capture_on_a_presence_board() -> None:
    """Victim off, attacker shown on its square before its own square empties (a push)."""
    events = [lift("d5", 1.0), place("d5", 2.0), lift("d1", 2.1)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_place_before_lift_capture_after_a_touch_of_another_victim() -> None:
    """Found failing: a finished touch of a4 (another piece the queen could take) before the capture on
    d5 makes the latent capture pick a4."""
    events = [lift("a4", 1.0), place("a4", 1.6), lift("d5", 3.0), place("d5", 4.0), lift("d1", 4.1)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_place_before_lift_capture_after_a_bounce_of_another_victim() -> None:
    """Found failing: same with a sensor bounce of a4 instead of a touch."""
    events = [lift("a4", 1.0), place("a4", 1.03), lift("d5", 3.0), place("d5", 4.0), lift("d1", 4.1)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_promotion_button_after_a_place_before_lift_capture_promotion() -> None:
    """Found failing: promote_n pressed after a place-before-lift capture-promotion (before the clock)
    is ignored: bxa1=Q."""
    fen = "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1"
    events = [lift("a1", 1.0), place("a1", 2.0), lift("b2", 2.1), press("promote_n", 3.0),
              press("black", 4.0)]
    assert sans(fen, events) == ["bxa1=N"]


def test_victim_first_slide_after_a_place_before_lift_capture() -> None:
    """Found failing: after a place-before-lift capture, the next move (a capture with the victim off
    and the rook slid over e4, e5) is turned into Rxa3."""
    fen = "1k2r2n/7p/1P1bp2n/5p2/p7/P3R2P/6P1/1K1R1BNN b - - 0 24"
    events = [lift("a3", 1.0), place("a3", 2.0), lift("d6", 2.1), press("black", 3.0),
              lift("e6", 5.0), lift("e3", 6.0), place("e4", 6.2), lift("e4", 6.4), place("e5", 6.6),
              lift("e5", 6.8), place("e6", 7.0)]
    assert sans(fen, events) == ["Bxa3", "Rxe6"]


# ---------------------------------------------------------------- identifying boards


def test_enemy_piece_reported_on_the_promotion_square_is_a_capture_not_the_promotion() -> None:
    """Found failing: a black bishop reported on e8 (Black's capture replacing the new queen) is taken
    as White's promotion piece: e8=B."""
    fen = "7k/4P3/8/8/b7/8/8/K7 w - - 0 1"
    events = [lift("e7", 1.0), place("e8", 2.0, "Q"), lift("e8", 4.0), place("e8", 4.0, "b"),
              lift("a4", 4.2)]
    assert sans(fen, events) == ["e8=Q+", "Bxe8"]


# ---------------------------------------------------------------- castling


def test_rook_first_castling_then_a_touch_of_the_king() -> None:
    """Found failing: rook first (Rg1-f1, provisional), then the king e1-g1, then a touch of the king:
    the castling is lost and Kf1 is recorded."""
    fen = "r1bqkbr1/pppppppp/2n5/8/8/1PN2P2/P1PPP1BP/R1BQK1RN w KQkq - 1 5"
    events = [lift("g1", 1.0), place("f1", 2.0), lift("e1", 3.0), place("g1", 4.0), lift("g1", 6.0),
              place("g1", 6.7), lift("a8", 9.0), place("b8", 10.0)]
    assert sans(fen, events) == ["O-O", "Rb8"]


# ---------------------------------------------------------------- more found by the 3000-game run


def test_promotion_button_before_a_place_before_lift_capture_promotion() -> None:
    """Found failing: promote_r pressed before a place-before-lift capture-promotion is ignored:
    hxg1=Q."""
    fen = "4k3/8/8/8/8/8/7p/K5R1 b - - 0 1"
    events = [press("promote_r", 1.0), lift("g1", 2.0), place("g1", 3.0), lift("h2", 3.1),
              press("black", 4.0)]
    assert sans(fen, events) == ["hxg1=R+"]


def test_place_before_lift_capture_right_after_one_by_the_opponent() -> None:
    """Found failing: the square of the opponent's place-before-lift capture (e1, lifted and filled a
    ply earlier) is taken as the victim of the next place-before-lift capture."""
    fen = "4k3/8/8/p7/8/2B5/6n1/4R2K b - - 0 1"
    events = [lift("e1", 1.0), place("e1", 2.0), lift("g2", 2.1), press("black", 3.0),
              lift("a5", 5.0), place("a5", 6.0), lift("c3", 6.1)]
    assert sans(fen, events) == ["Nxe1", "Bxa5"]


def test_bounce_while_the_opponent_takes_the_piece_just_moved() -> None:
    """Found failing: after Rh5 (no clock) Black lifts h5 to take it; a 30 ms bounce of the e1
    knight was read as Rh1xe1 (the rook's move corrected), then gxh5 was illegal."""
    fen = "4k3/8/6p1/8/8/K7/8/4n2R w - - 0 1"
    events = [lift("h1", 1.0), place("h5", 2.0), lift("h5", 4.0), lift("e1", 4.5), place("e1", 4.53),
              lift("g6", 5.0), place("h5", 6.0)]
    assert sans(fen, events) == ["Rh5", "gxh5"]


def test_bounce_while_the_opponent_takes_the_piece_just_moved_with_identities() -> None:
    """Found failing on DGT captures: the same with the knight reported back on e1 and a black
    pawn on h5."""
    fen = "4k3/8/6p1/8/8/K7/8/4n2R w - - 0 1"
    events = [lift("h1", 1.0), place("h5", 2.0, "R"), lift("h5", 4.0), lift("e1", 4.5),
              place("e1", 4.53, "n"), lift("g6", 5.0), place("h5", 6.0, "p")]
    assert sans(fen, events) == ["Rh5", "gxh5"]


# ---------------------------------------------------------------- quick hands (the 0.25 s bounce window)


def test_quick_attacker_first_capture_then_the_clock() -> None:
    events = [lift("d1", 1.0), lift("d5", 2.0), place("d5", 2.2), press("white", 3.0)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


ROOK_TAKES_H7_OR_D6 = "B1k4r/7b/3r3R/4pp2/1P3P2/3p1B2/1P1R1B2/N2K4 w - - 0 25"


@pytest.mark.parametrize("quick", [0.16, 0.2, 0.24])
def test_a_capture_own_piece_first_as_quick_as_a_slow_bounce_then_a_touch_of_another_victim(quick) -> None:
    """Found failing (a raw-bytes generator): Rxh7 own piece first, the victim swapped for the rook in 0.2 s,
    then Black touches its d6 rook, which the white rook could take too. The swap read as a bounce with the
    rook still in hand, and the touch as Rxd6 victim first. A hand sets a capturer down that quickly; the
    samples' bounces are quicker (at most 0.144 s), and a flicker that quick stays a bounce."""
    touch = [lift("d6", 5.3), place("d6", 6.6)]
    swap = [lift("h6", 1.0), lift("h7", 1.7), place("h7", 1.7 + quick)]
    assert sans(ROOK_TAKES_H7_OR_D6, [*swap, *touch]) == ["Rxh7"]
    bounce = [lift("h6", 1.0), lift("h7", 1.7), place("h7", 1.8)]
    assert sans(ROOK_TAKES_H7_OR_D6, [*bounce, *touch]) == ["Rxd6"]


def test_a_quick_capture_own_piece_first_then_a_reply_placed_first_where_the_capturer_stood() -> None:
    """Found failing (the same generator): Bxb6 with the knight swapped for the bishop in 0.2 s, then Black's
    rook shown on g1, the square the bishop left, 56 ms before its lift. Read as a bounce and the bishop put
    back, the rook's lift came out of turn, and the game ended Ke2 Rxg1."""
    events = [lift("g1", 1.0), lift("b6", 1.2), place("b6", 1.4), place("g1", 3.0), lift("g4", 3.056),
              lift("f1", 5.0), place("e2", 5.5)]
    assert sans("8/8/1n4k1/8/6rb/8/8/N4KB1 w - - 0 1", events) == ["Bxb6", "Rg1+", "Ke2"]


def test_quick_castling_with_both_in_hand() -> None:
    fen = "5k1r/8/8/8/8/8/8/4K3 b k - 0 1"
    events = [lift("h8", 1.0), lift("f8", 2.0), place("f8", 2.2), place("g8", 3.0), press("black", 4.0)]
    assert sans(fen, events) == ["O-O"]


# ---------------------------------------------------------------- found by the second 3000-game run


def test_bounce_of_an_enemy_piece_in_the_middle_of_a_place_first_slide() -> None:
    """Found failing: an enemy bounce while the bishop is shown on two squares of a place-first slide
    (e4 and d3) committed Be4."""
    fen = "4k3/8/8/5b2/8/8/8/1B2K3 b - - 0 1"
    events = [place("e4", 1.0), lift("f5", 1.2), place("d3", 1.4), lift("b1", 1.47), place("b1", 1.59),
              lift("e4", 1.8), place("c2", 2.0), lift("d3", 2.2)]
    assert sans(fen, events) == ["Bc2"]


def test_touch_then_a_victim_first_slide_capture() -> None:
    fen = "4q2Q/8/3kP3/8/8/8/8/6K1 b - - 0 1"
    events = [lift("e6", 1.0), place("e6", 3.0), lift("h8", 5.0), lift("e8", 7.0), place("f8", 7.2),
              lift("f8", 7.4), place("g8", 7.6), lift("g8", 7.8), place("h8", 8.0)]
    assert sans(fen, events) == ["Qxh8"]


def test_bounce_of_another_victim_during_a_place_first_capture() -> None:
    """Found failing (game_0735 of seed 2027): victim d5 off, a 30 ms bounce of a4 (also capturable),
    then the queen shown on d5 before it leaves d1, was read as Qxa4."""
    events = [lift("d5", 1.0), lift("a4", 1.5), place("a4", 1.53), place("d5", 2.5), lift("d1", 2.6)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_enemy_piece_lifted_and_put_back_while_a_piece_is_in_hand() -> None:
    """Found failing: rook in hand, the a4 bishop lifted and put back 2 s later in the same record as
    the rook's landing on a3 (a DGT bounce stretched by a merged read) was kept as Rxa4."""
    events = [lift("a1", 1.0), lift("a4", 1.5), place("a4", 3.5, "b"), place("a3", 3.5, "R")]
    assert sans(TWO_VICTIMS, events) == ["Ra3"]


def test_touch_before_the_clock_after_a_place_first_capture_then_a_plain_move() -> None:
    """Found failing: after White's place-first capture Bxe5 and a touch of his d2 pawn before the
    clock, Black's plain Bg5-h6 was recorded as Bxd2+."""
    fen = "4k3/8/8/4p1b1/8/8/1B1P4/4K3 w - - 0 1"
    events = [lift("e5", 1.0), place("e5", 2.0), lift("b2", 2.1), lift("d2", 3.0), place("d2", 3.8),
              press("white", 4.5), lift("g5", 6.0), place("h6", 7.0)]
    assert sans(fen, events) == ["Bxe5", "Bh6"]


def test_bounce_on_arrival_then_a_victim_first_slide_capture() -> None:
    fen = "1r2k3/p7/1R6/8/8/8/8/4K3 b - - 0 1"
    events = [lift("a7", 1.0), place("a6", 2.0), lift("a6", 2.04), place("a6", 2.09), press("black", 3.0),
              lift("b8", 5.0), lift("b6", 7.0), place("b7", 7.2), lift("b7", 7.4), place("b8", 7.6),
              press("white", 8.0)]
    assert sans(fen, events) == ["a6", "Rxb8+"]


def test_identified_place_first_move_onto_the_square_just_left_is_not_a_takeback() -> None:
    fen = "4k3/8/8/8/b7/P7/8/4K3 b - - 0 1"
    events = [lift("a4", 1.0), place("c6", 2.0, "b"), press("black", 3.0), place("a4", 5.0, "P"),
              lift("c6", 5.07), place("c6", 5.18, "b"), lift("a3", 5.3)]
    assert sans(fen, events) == ["Bc6", "a4"]


# ---------------------------------------------------------------- found by an independent corpus


def test_a_capture_taken_back_after_the_clock_in_either_order() -> None:
    """Found failing: once the clock was pressed, putting the captured pawn back made one piece more
    than the game had, and no takeback was looked for; the rest of the game was lost."""
    game = [lift("e2", 1), place("e4", 2), press("white", 3), lift("d7", 4), place("d5", 5),
            press("black", 6), lift("d5", 7), lift("e4", 8), place("d5", 9), press("white", 10)]
    for undo in ([lift("d5", 11), place("e4", 12), place("d5", 13)],   # capturer back, then the victim
                 [lift("d5", 11), place("d5", 12), place("e4", 13)]):  # the victim first
        recognizer = Recognizer(518)
        reports = [r for e in [*game, *undo, lift("g1", 14), place("f3", 15)] for r in recognizer.feed(e)]
        reports += recognizer.finish()
        assert [r.kind for r in reports] == ["move"] * 3 + ["takeback", "move"]  # no illegal halfway
        assert recognizer.board.move_stack == [chess.Move.from_uci(u) for u in ("e2e4", "d7d5", "g1f3")]


def test_an_en_passant_capture_taken_back_after_the_clock() -> None:
    recognizer = Recognizer(chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", chess960=True))
    events = [lift("e5", 1), lift("d5", 2), place("d6", 3), press("white", 4),
              lift("d6", 5), place("e5", 6), place("d5", 7), lift("e1", 8), place("f1", 9)]
    reports = [r for e in events for r in recognizer.feed(e)] + recognizer.finish()
    assert [(r.kind, r.san) for r in reports] == [("move", "exd6"), ("takeback", "exd6"), ("move", "Kf1")]


def test_place_before_lift_capture_then_a_recapture_on_the_same_square() -> None:
    """Found failing: the reply lifts the latent capture's victim square again, which hid it; nothing
    more was recorded, silently."""
    events = [lift("e2", 1), place("e4", 2), press("white", 3), lift("d7", 4), place("d5", 5),
              press("black", 6), lift("d5", 7), place("d5", 8.5), lift("e4", 8.53),
              lift("d5", 10), lift("d8", 11), place("d5", 12), press("black", 13), lift("g1", 14),
              place("f3", 15)]
    assert sans(chess.STARTING_FEN, events) == ["e4", "d5", "exd5", "Qxd5", "Nf3"]


# Nd4 can go to f3, the square White's knight leaves to take on e5.
KNIGHT_ON_D4 = "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
TAKE_ON_E5 = [lift("e5", 1), lift("f3", 2), place("e5", 3), press("white", 4)]


def test_a_touch_of_the_capturer_then_a_move_to_its_origin_placed_first_is_no_takeback() -> None:
    """Found failing: Black's knight shown on f3 before it left d4, after a bounce or a touch of White's
    knight on e5, is also a victim-first takeback of Nxe5; it was taken back and the game went illegal."""
    for put_back in (6.1, 6.8):  # a bounce, a touch
        events = [*TAKE_ON_E5, lift("e5", 6), place("e5", put_back), place("f3", 7), lift("d4", 7.5),
                  press("black", 8)]
        assert sans(KNIGHT_ON_D4, events) == ["Nxe5", "Nf3+"]


def test_a_victim_first_takeback_is_decided_by_the_next_event() -> None:
    undo = [lift("e5", 6), place("e5", 6.8), place("f3", 7)]
    for then in ([lift("g2", 8), place("g3", 9)], []):  # White moves again, or the input ends
        recognizer = Recognizer(chess.Board(KNIGHT_ON_D4, chess960=True))
        reports = [r for e in [*TAKE_ON_E5, *undo, *then] for r in recognizer.feed(e)] + recognizer.finish()
        assert [r.kind for r in reports] == ["move", "takeback", "move"][: 2 + bool(then)]
        assert recognizer.board.move_stack == [chess.Move.from_uci("g2g3")][: bool(then)]


# Black's queen takes on g2; White's h-pawn and knight can both go to h3, the queen's origin.
QUEEN_ON_H3 = "4k3/8/8/8/8/7q/6PP/K5N1 b - - 0 1"


def test_a_capture_taken_back_then_a_victim_first_capture_of_a_piece_that_could_go_to_its_origin() -> None:
    """Found failing: the next capture's victim, lifted first, could also be White's pawn completing a move
    to h3 placed before its lift. The capturer put back first, or a board that reports the queen on h3,
    says the capture was taken back."""
    capture = [lift("g2", 1), lift("h3", 2), place("g2", 3), press("black", 4)]
    capture_again = [lift("h2", 8), lift("h3", 9), place("h2", 10), press("black", 11)]
    for undo in ([lift("g2", 5), place("h3", 6), place("g2", 7)],               # capturer back first
                 [lift("g2", 5), place("g2", 6, "P"), place("h3", 7, "q")]):  # victim first, identified
        recognizer = Recognizer(chess.Board(QUEEN_ON_H3, chess960=True))
        reports = [r for e in [*capture, *undo, *capture_again] for r in recognizer.feed(e)]
        reports += recognizer.finish()
        assert [r.kind for r in reports] == ["move", "takeback", "move"]
        assert recognizer.board.move_stack == [chess.Move.from_uci("h3h2")]


def test_a_promotion_button_pressed_once_the_open_promotion_was_chosen_is_for_the_next_one() -> None:
    """Found failing: Black's promotion, chosen a bishop by a button, is still open when a button is pressed
    just before White's capture-promotion; the press went to Black's move and White got a queen."""
    fen = "3r3k/2P5/8/8/8/8/5p2/K3R3 b - - 0 1"
    events = [press("promote_b", 1), lift("e1", 2), lift("f2", 3), place("e1", 4), press("promote_b", 5),
              lift("d8", 6), lift("c7", 7), place("d8", 8), press("white", 9)]
    assert sans(fen, events) == ["fxe1=B", "cxd8=B"]
    other_piece = [*events[:4], press("promote_n", 5), *events[5:]]
    assert sans(fen, other_piece) == ["fxe1=B", "cxd8=N"]
    by_default = [*events[1:4], press("promote_n", 5), *events[5:]]  # Black's queen by default: N is Black's
    assert sans(fen, by_default) == ["fxe1=N", "cxd8=Q+"]
    clock_after = [*events[:5], press("black", 5.5), *events[5:]]  # so is a press before Black's clock
    assert sans(fen, clock_after) == ["fxe1=B", "cxd8=Q+"]


def test_castling_whose_first_half_was_placed_before_its_lift() -> None:
    """Found failing: the rook (or king) shown on its target before it left its square gives no sign
    that it left before its partner landed there; the half already read as a move is that sign."""
    rook_first = [place("f1", 1.0), lift("g1", 1.05), lift("e1", 2), place("g1", 3), lift("e8", 4),
                  place("d8", 5)]
    assert sans("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", rook_first) == ["O-O", "Kd8"]
    king_first = [place("c1", 1.0), lift("d1", 1.05), lift("b1", 2), place("d1", 3), lift("e8", 4),
                  place("e7", 5)]
    assert sans("4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", king_first) == ["O-O-O", "Ke7"]


def test_a_new_game_set_up_after_captures() -> None:
    """Found failing: setting the pieces up again puts the captured ones back, so the board has more
    pieces than the game; the start occupancy was never looked for then."""
    recognizer = Recognizer(518)
    game = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4), lift("e4", 5), lift("d5", 6),
            place("d5", 7), lift("d8", 8), lift("d5", 9), place("d5", 10)]
    set_up = [lift("d5", 11), place("d8", 12), place("e2", 13), place("d7", 14)]
    reports = [r for e in [*game, *set_up, lift("d2", 15), place("d4", 16)] for r in recognizer.feed(e)]
    reports += recognizer.finish()
    assert [r.kind for r in reports] == ["move"] * 4 + ["new_game", "move"]
    assert [m.uci() for m in recognizer.archive[0].mainline_moves()] == ["e2e4", "d7d5", "e4d5", "d8d5"]
    assert recognizer.board.move_stack == [chess.Move.from_uci("d2d4")]


@pytest.mark.parametrize("waited", [0.8, 1.2])
def test_a_captured_piece_put_back_named_where_the_mover_could_go_is_no_misread_name(waited: float) -> None:
    """Found failing (a coverage-guided hunt: no earlier corpus had set pieces up again on a board that
    names them): after 3.Nc3 the players set up again, Black's captured pawn first, named on d7, and the
    queen lifted from d5 later to go home to d8. The queen's lift made the board show Qd7 placed before its
    lift, the pawn's name taken for a worn piece's misread: Qd7 ended the game. A piece set down longer
    before the moving one left than a place is read before its lift, of a kind the game has captured, is
    that piece put back, and its name stands."""
    recognizer = Recognizer(518)
    game = [lift("e2", 1), place("e4", 1.8, "P"), lift("d7", 3), place("d5", 3.8, "p"), lift("d5", 5),
            lift("e4", 5.6), place("d5", 6.3, "P"), lift("d5", 7.5), lift("d8", 8.1), place("d5", 8.9, "q"),
            lift("b1", 10), place("c3", 10.8, "N"), press("white", 11.5)]
    set_up = [place("d7", 12.9, "p"), lift("d5", 12.9 + waited), place("d8", 13.7 + waited, "q"),
              lift("c3", 16), place("b1", 16.8, "N"), place("e2", 18, "P")]
    reports = [r for e in [*game, *set_up] for r in recognizer.feed(e)] + recognizer.finish()
    assert [r.kind for r in reports if r.kind in ("move", "new_game")] == ["move"] * 5 + ["new_game"]
    assert [m.uci() for m in recognizer.archive[0].mainline_moves()] == [
        "e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]


def test_castlings_taken_back() -> None:
    """Found failing: a transposition castling swapped back leaves the occupancy as it is, and was read as
    a touch (its halfway point as illegal); a rook-only castling taken back by the rook alone was not a
    takeback, since the king never moved."""
    transposition = Recognizer(185)  # king f8, rook g8: O-O swaps them
    events = [lift("d2", 1), place("d3", 2), press("white", 3), lift("f8", 4), lift("g8", 5), place("f8", 6),
              place("g8", 7), press("black", 8), lift("g8", 9), lift("f8", 10), place("g8", 11),
              place("f8", 12), lift("a7", 13), place("a6", 14)]
    reports = [r for e in events for r in transposition.feed(e)] + transposition.finish()
    assert [(r.kind, r.san) for r in reports] == [("move", "d3"), ("move", "O-O"), ("takeback", "O-O"),
                                                  ("move", "a6")]
    rook_only = "bqnbn1kr/ppp1p2p/7R/3p4/P3p3/8/1PPP1rP1/BQNBNRK1 b Qk - 0 6"
    events = [lift("h8", 1), place("f8", 2), press("black", 3), lift("f8", 4), place("h8", 5), lift("d5", 6),
              place("d4", 7), press("black", 8)]
    assert sans(rook_only, events) == ["O-O", "d4"]


def test_a_change_of_mind_to_a_single_step_then_a_capture_reported_with_identities() -> None:
    """Found failing: d7-d5 changed to d7-d6, then White's pawn takes on d6; on presence alone that is
    also d5 and an en passant capture, but the board reported Black's pawn on d6, and White's on it next."""
    events = [lift("d7", 1), place("d5", 2, "p"), lift("d5", 3), place("d6", 4, "p"), lift("e5", 5),
              lift("d6", 6), place("d6", 7, "P"), lift("e8", 8), place("f7", 9, "k")]
    assert sans("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", events) == ["d6", "exd6", "Kf7"]


def test_an_open_capture_put_back_victim_first() -> None:
    """Found failing: before the clock, the victim put back and then the capturer: the capture's square
    looked only touched, so the capture stood and the move made instead was lost."""
    events = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4), lift("e4", 5), lift("d5", 6),
              place("d5", 7), lift("d5", 8), place("d5", 9), place("e4", 10), lift("d2", 11), place("d4", 12)]
    recognizer = Recognizer(518)
    reports = [r for e in events for r in recognizer.feed(e)] + recognizer.finish()
    assert [r.san for r in reports if r.kind == "move"] == ["e4", "d5", "d4"]


def test_a_transposition_castling_swapped_back_before_the_clock() -> None:
    """Found failing: swapped back, king and rook stand as they did, which is also how the castling looks;
    the castling stood and the move made instead was called illegal. A board that reports the pieces
    shows the swap back; on presence alone, a second move by the same side shows it."""
    fen = "4k3/8/3p4/4P3/8/8/8/5KR1 w G - 0 1"
    castle = [lift("f1", 1), lift("g1", 2), place("g1", 3, "K"), place("f1", 4, "R")]
    swap_back = [lift("g1", 5), lift("f1", 6), place("f1", 7, "K"), place("g1", 8, "R")]
    capture = [lift("d6", 9), lift("e5", 10), place("d6", 11, "P"), lift("e8", 12), place("f8", 13, "k")]
    assert sans(fen, [*castle, *swap_back, *capture]) == ["exd6", "Kf8"]
    presence = [place(chess.square_name(e.square), e.t) if isinstance(e, PiecePlaced) else e
                for e in [*castle, *swap_back]]
    pawn = [lift("e5", 9), place("e6", 10), press("white", 11), lift("e8", 12), place("f8", 13)]
    assert sans(fen, [*presence, *pawn]) == ["e6", "Kf8"]


def test_a_touch_of_an_open_capture_then_the_reply_placed_first_on_its_origin() -> None:
    """Found failing once an open capture could be put back victim first: a touch of the capturer and
    Black's knight shown on f3 before it left d4 also read as White's capture put back."""
    events = [lift("f3", 1), lift("e5", 2), place("e5", 3), lift("e5", 5), place("e5", 5.8), place("f3", 6.5),
              lift("d4", 7), press("black", 8)]
    assert sans(KNIGHT_ON_D4, events) == ["Nxe5", "Nf3+"]


def moves_made(fen: str, events: list) -> list[str]:
    """The game's moves at the end, in SAN: what the PGN holds, whatever was corrected on the way."""
    recognizer = Recognizer(chess.Board(fen, chess960=True))
    for event in events:
        recognizer.feed(event)
    recognizer.finish()
    board, made = chess.Board(fen, chess960=True), []
    for move in recognizer.board.move_stack:
        made.append(board.san(move))
        board.push(move)
    return made


PAWN_ON_F2 = "3r3k/2P5/8/8/8/8/K4p2/4R3 b - - 0 1"
LONE_PAWN_ON_F2 = "3r3k/8/8/8/8/8/K4p2/4R3 b - - 0 1"


def test_a_promotion_button_after_the_movers_clock_chooses_the_piece_until_the_other_side_begins() -> None:
    """Found failing: the spec lets a promotion button choose the piece up to the other side's first event,
    and the mover's clock press is the mover's own; a press after it was kept for the next promotion."""
    black = [lift("e1", 1), lift("f2", 2), place("e1", 3), press("black", 4)]
    white = [lift("a2", 6), place("b3", 7), press("white", 8)]
    recognizer = Recognizer(chess.Board(LONE_PAWN_ON_F2, chess960=True))
    reports = [r for e in [*black, press("promote_n", 5)] for r in recognizer.feed(e)]
    assert [(r.kind, r.san) for r in reports] == [("move", "fxe1=Q"), ("takeback", "fxe1=Q"),
                                                  ("move", "fxe1=N")]
    assert moves_made(LONE_PAWN_ON_F2, [*black, press("promote_r", 5), press("promote_n", 5.5), *white]) == [
        "fxe1=N", "Kb3"]
    too_late = [*black, white[0], press("promote_n", 6.5), *white[1:]]  # White's first event came first
    assert moves_made(LONE_PAWN_ON_F2, too_late) == ["fxe1=Q", "Kb3"]


def test_a_promotion_button_after_the_movers_clock_is_the_other_sides_when_it_may_promote() -> None:
    """Found failing (the sixth corpus): bxa8, White's clock, promote_n, then Black's gxh1 read as bxa8=N and
    gxh1=Q. The side to move that may promote presses for its own promotion: the press is its first event."""
    black = [lift("e1", 1), lift("f2", 2), place("e1", 3), press("black", 4)]
    white = [lift("d8", 6), lift("c7", 7), place("d8", 8), press("white", 9)]
    assert moves_made(PAWN_ON_F2, [*black, press("promote_n", 5), *white]) == ["fxe1=Q", "cxd8=N"]
    too_late = [*black, white[0], press("promote_n", 6.5), *white[1:]]
    assert moves_made(PAWN_ON_F2, too_late) == ["fxe1=Q", "cxd8=N"]
    chosen = [press("promote_b", 0.5), *black, press("promote_n", 5), *white]  # a second choice is White's
    assert moves_made(PAWN_ON_F2, chosen) == ["fxe1=B", "cxd8=N"]


def test_a_promotion_button_either_side_may_mean_is_the_movers_unless_the_other_side_promotes() -> None:
    """Found failing (the eighteenth corpus): e8, White's clock, promote_b, then Black's a7-a6 read as
    e8=Q, because Black's pawns on c2 and g2 might have promoted. Either side may have meant the press;
    Black's first event starts no promotion, so it was White's. So too when the input ends after it."""
    start = "8/p1k1PN2/5R2/8/8/8/P1p3p1/6K1 w - - 0 40"
    white = [lift("e7", 1), place("e8", 2), press("white", 3), press("promote_b", 4)]
    assert moves_made(start, [*white, lift("a7", 5), place("a6", 6)]) == ["e8=B", "a6"]
    assert moves_made(start, white) == ["e8=B"]
    assert moves_made(start, [*white, lift("c2", 5), place("c1", 6)]) == ["e8=Q", "c1=B"]


def test_a_promoting_pawn_the_board_names_on_the_last_rank_is_the_buttons_piece_or_a_queen() -> None:
    """Found failing (a second white-box review): on a board that names pieces, a pawn pushed to the last rank
    and not swapped is reported as a pawn there. No promotion matched that name, so no move was read, and
    replay's second reading then made up moves. A pawn cannot stand there: it names no piece."""
    fen = "r7/1P4k1/8/8/8/8/6p1/4K2R w K - 0 1"
    reply = [lift("g7", 4), place("g6", 4.5), press("black", 5)]
    push = [lift("b7", 1), place("b8", 1.5, "P"), press("white", 3)]
    assert sans(fen, [*push, *reply]) == ["b8=Q", "Kg6"]
    assert sans(fen, [press("promote_n", 0.5), *push, *reply]) == ["b8=N", "Kg6"]
    capture = [lift("a8", 1), lift("b7", 1.5), place("a8", 2, "P"), press("white", 3)]
    assert sans(fen, [*capture, *reply]) == ["bxa8=Q", "Kg6"]


def test_of_two_promotion_buttons_before_the_movers_clock_the_later_chooses() -> None:
    """Found failing (the same review): b8, promote_n, then promote_r, then White's clock. The second press
    was kept for the next promotion and dropped at the clock; pressed before the mover's clock, it is the
    mover's."""
    fen = "r7/1P4k1/8/8/8/8/6p1/4K2R w K - 0 1"
    events = [lift("b7", 1), place("b8", 2), press("promote_n", 2.5), press("promote_r", 3),
              press("white", 3.5), lift("g7", 4), place("g6", 4.5), press("black", 5)]
    assert sans(fen, events) == ["b8=R", "Kg6"]


def test_a_promotion_button_after_the_promoted_piece_was_swapped_in_after_the_clock() -> None:
    """Found failing (the second white-box review): b8, White's clock, the pawn swapped for a knight on b8,
    then promote_n. The swap's lift read as Black's first event and closed the button's window; the
    promoting side touching its own promoted piece is not the other side beginning."""
    fen = "r7/1P4k1/8/8/8/8/6p1/4K2R w K - 0 1"
    events = [lift("b7", 1.5), place("b8", 2), press("white", 2.5), lift("b8", 3), place("b8", 3.5),
              press("promote_n", 4), lift("g7", 4.5), place("g6", 5), press("black", 5.5)]
    assert moves_made(fen, events) == ["b8=N", "Kg6"]
    victim = [lift("b7", 1.5), place("b8", 2), press("white", 2.5), lift("b8", 3), lift("a8", 3.5),
              place("b8", 4)]  # Black takes the new queen, victim first: no button, so it stays a queen
    assert moves_made(fen, victim) == ["b8=Q", "Rxb8"]


def test_a_promotion_button_after_the_movers_clock_undoes_an_ending_the_default_queen_made() -> None:
    """Left out last session (the second white-box review): c8 with no button, White's clock, then promote_n.
    The default queen mates, so the game was over at the clock and the press changed nothing. The press
    still chooses the piece: the ending is taken back with the queen, and the game goes on."""
    fen = "k7/2P5/1K6/8/8/8/8/7R w - - 0 1"
    white = [lift("c7", 1), place("c8", 2), press("white", 3)]
    recognizer = Recognizer(chess.Board(fen, chess960=True))
    reports = [r for e in [*white, press("promote_n", 4)] for r in recognizer.feed(e)]
    assert [(r.kind, getattr(r, "san", None)) for r in reports] == [
        ("move", "c8=Q#"), ("game_over", None), ("takeback", "c8=Q#"), ("move", "c8=N")]
    black = [lift("a8", 5), place("b8", 6), press("black", 7)]
    assert moves_made(fen, [*white, press("promote_n", 4), *black]) == ["c8=N", "Kb8"]
    assert moves_made(fen, [*white, *black]) == ["c8=Q#"]  # no press: the queen's mate stands
    assert moves_made(fen, [*white, press("promote_q", 4), *black]) == ["c8=Q#"]
    resigned = Recognizer(chess.Board(LONE_PAWN_ON_F2, chess960=True))
    for event in [lift("e1", 1), lift("f2", 2), place("e1", 3), press("black", 4)]:
        resigned.feed(event)
    resigned.stop()  # White resigned (or a flag fell): the game ended off the board, and stays over
    assert resigned.feed(press("promote_n", 5)) == [] and resigned.mode.value == "game_over"
    ended = Recognizer(chess.Board("8/p1k1PN2/5R2/8/8/8/P1p3p1/6K1 w - - 0 40", chess960=True))
    for event in [lift("e7", 1), place("e8", 2), press("white", 3), press("promote_b", 4)]:
        ended.feed(event)  # a press either side may have meant, then the game ends off the board: the mover's
    assert [(r.kind, r.san) for r in ended.stop()] == [("takeback", "e8=Q"), ("move", "e8=B")]
    assert ended.board.move_stack == [chess.Move.from_uci("e7e8b")]


def test_a_dump_showing_the_game_keeps_a_promotion_buttons_window_open() -> None:
    """Found failing (a review of the code): a8, White's clock, promote_n, then a board dump showing just
    that (a host asking for one, or a reconnect with nothing moved): the dump closed the button's window,
    and a8 stayed a queen. A dump that changes nothing is nobody's first event."""
    fen = "8/P7/4k3/8/8/4K3/7p/8 w - - 0 1"
    shown = chess.Board(fen).occupied & ~chess.BB_A7 | chess.BB_A8
    white = [lift("a7", 1), place("a8", 2), press("white", 3), press("promote_n", 4)]
    black = [lift("e6", 6), place("e5", 7), press("black", 8)]
    assert moves_made(fen, [*white, *black]) == ["a8=N", "Ke5"]
    assert moves_made(fen, [*white, BoardSnapshot(occupied=shown, t=5), *black]) == ["a8=N", "Ke5"]
    reconnect = [LinkChanged(up=False, t=4.5), LinkChanged(up=True, t=4.8),
                 BoardSnapshot(occupied=shown, t=5)]
    assert moves_made(fen, [*white, *reconnect, *black]) == ["a8=N", "Ke5"]


def test_a_promotion_put_back_forgets_its_button() -> None:
    """Found failing: a button chose the piece of a promotion that was then put back; made again without a
    press it kept that piece (and a press for the new try was taken as one for the next promotion)."""
    tried = [press("promote_n", 1), lift("f2", 2), place("f1", 3), lift("f1", 4), place("f2", 5)]
    assert moves_made(PAWN_ON_F2, [*tried, lift("f2", 6), place("f1", 7), press("black", 8)]) == ["f1=Q"]
    again = [*tried, lift("f2", 6), place("f1", 7), press("promote_r", 8), press("black", 9)]
    assert moves_made(PAWN_ON_F2, again) == ["f1=R"]
    assert moves_made(PAWN_ON_F2, [*tried[:3], press("black", 4)]) == ["f1=N"]


def test_an_open_transposition_castling_swapped_back_then_a_capture_victim_first() -> None:
    """Found failing: on presence alone, king and rook swapped back before the clock left the castling
    open, and the next capture's victim (a piece of the other side) made it final. In hand together
    again, they undo it."""
    opening = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4), lift("d2", 5), place("d3", 6),
               press("white", 7)]
    castled_and_back = [lift("f8", 8), lift("g8", 9), place("f8", 10), place("g8", 11), lift("g8", 12),
                        lift("f8", 13), place("g8", 14), place("f8", 15)]
    capture = [lift("e4", 16), lift("d5", 17), place("e4", 18), press("black", 19)]
    start = chess.Board.from_chess960_pos(185).fen()  # king f8, rook g8: O-O swaps them
    assert moves_made(start, [*opening, *castled_and_back, *capture]) == ["e4", "d5", "d3", "dxe4"]
    touched = [*castled_and_back[:4], lift("g8", 12), place("g8", 13), lift("f8", 14), place("f8", 15)]
    assert moves_made(start, [*opening, *touched, *capture[:1]]) == ["e4", "d5", "d3", "O-O"]


def test_a_victim_first_takeback_is_no_move_placed_first_when_the_lift_comes_late() -> None:
    """Found failing: a capture taken back victim first ends with the capturer back on its origin, like the
    other side's move to that square placed before its lift (here h2-h3, after a touch of g2). The samples'
    lifts follow their places within 0.27 s; one half a second or more later begins the next move, after the
    takeback (here the queen's capture victim first on h2)."""
    capture = [lift("g2", 1), lift("h3", 2), place("g2", 3), press("black", 4)]
    victim_first = [lift("g2", 5), place("g2", 6), place("h3", 7)]
    capture_again = [lift("h2", 7.6), lift("h3", 8), place("h2", 9), press("black", 10)]
    assert moves_made(QUEEN_ON_H3, [*capture, *victim_first, *capture_again]) == ["Qxh2"]
    placed_first = [*capture, *victim_first, lift("h2", 7.1), press("white", 7.5)]
    assert moves_made(QUEEN_ON_H3, placed_first) == ["Qxg2", "h3"]


def test_a_slide_or_change_of_mind_into_a_capture_lifting_the_capturer_first() -> None:
    """Found failing: the queen slid over d2 and d3 (showing Qd3) and on into a capture on d5, capturer
    first; the victim's lift, with the queen in hand, made Qd3 final. The other side's piece lifted while
    the open move's piece is in hand, then the held piece on its square, is a change of mind into a capture;
    a piece put on the open move's square instead is the other side's capture, as before."""
    fen = "4k3/8/8/3pp3/8/8/8/3QK3 w - - 0 1"
    slide = [lift("d1", 1), place("d2", 1.2), lift("d2", 1.3), place("d3", 1.5), lift("d3", 1.6),
             lift("d5", 2), place("d5", 3), press("white", 4)]
    assert moves_made(fen, slide) == ["Qxd5"]
    change_of_mind = [lift("d1", 1), place("d4", 2), lift("d4", 3), lift("d5", 4), place("d5", 5)]
    assert moves_made(fen, change_of_mind) == ["Qxd5"]
    taken = [lift("d1", 1), place("d4", 2), lift("d4", 3), lift("e5", 4), place("d4", 5)]
    assert moves_made(fen, taken) == ["Qd4", "exd4"]


def test_a_button_naming_the_open_promotions_piece_then_the_clock_leaves_the_next_press_to_the_other_side(
) -> None:
    """Found failing: promote_q pressed after a1=Q was shown (the default, so kept as spare) and the clock
    pressed; the next press, White's before lifting the pawn, changed Black's queen into a bishop."""
    fen = "4k3/P7/8/8/8/8/p6K/8 b - - 0 1"
    events = [lift("a2", 1), place("a1", 2), press("promote_q", 3), press("black", 4), press("promote_b", 5),
              lift("a7", 6), place("a8", 7), press("white", 8)]
    assert moves_made(fen, events) == ["a1=Q", "a8=B"]


KNIGHT_ON_F3 = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"


def test_a_piece_the_knight_could_take_touched_while_it_is_in_hand() -> None:
    """Found failing (the choreography's touches in hand): the knight lifted, the e5 pawn lifted and put
    back, then the knight put on g5. The touch looks like Nxe5 until the knight lands elsewhere with the
    pawn still there; Nxe5 stayed, and with it a piece too many, so the rest of the game was lost."""
    capturer_first = [lift("f3", 1), lift("e5", 1.5), place("e5", 2), place("g5", 2.5)]
    reply = [lift("d8", 4), place("d7", 4.5)]  # the queen could go to g5: no reply placed first
    assert moves_made(KNIGHT_ON_F3, [*capturer_first, *reply]) == ["Ng5", "Qd7"]
    victim_first = [lift("e5", 1), lift("f3", 1.5), place("e5", 2), place("g5", 2.5), press("white", 3)]
    assert moves_made(KNIGHT_ON_F3, [*victim_first, *reply]) == ["Ng5", "Qd7"]


def test_a_capture_then_a_reply_placed_before_its_lift_on_a_square_the_capturer_could_reach() -> None:
    """The other reading of the same events: Nxe5, then the queen shown on g5 before d8 empties. The lift
    comes at once, or is followed by the other side's clock, so the capture stands and the queen's move
    follows it (found failing in the third outside corpus: lifts 0.8 s after their places, then the clock)."""
    capture = [lift("f3", 1), lift("e5", 1.5), place("e5", 2)]
    take_f7 = [lift("f7", 5.5), lift("e5", 6), place("f7", 6.5)]
    at_once, late = [place("g5", 3.5), lift("d8", 3.6)], [place("g5", 3.5), lift("d8", 4.3)]
    for reply in ([*at_once], [*at_once, press("black", 4.5)], [*late, press("black", 4.5)]):
        assert moves_made(KNIGHT_ON_F3, [*capture, *reply, *take_f7]) == ["Nxe5", "Qg5", "Nxf7"]


def test_a_touched_piece_is_no_victim_for_a_change_of_mind() -> None:
    """Found failing: the rook in hand touched the queen on c4, landed on c5 (Rc5), and White's knight then
    took it victim first. The lift of c5 brought back Rxc4: the queen's touch, before Rc5 was shown, counted
    as the victim's lift of a change of mind into a capture."""
    fen = "2r4k/8/8/8/2Q5/1N6/8/6K1 b - - 0 1"
    events = [lift("c8", 1), lift("c4", 1.8), place("c4", 3.2), place("c5", 4.1), lift("c5", 5.3),
              lift("b3", 6), place("c5", 7)]
    assert moves_made(fen, events) == ["Rc5", "Nxc5"]


def test_two_moves_on_at_the_end_of_input_after_quick_captures() -> None:
    """Found failing (the fourth outside corpus): two captures each made faster than a bounce (the victim
    off and the capturer down within 0.25 s) read as bounces, as the spec's bounce row says, and the game
    ended with both capturers "in hand": both moves were lost without a word. At the end of input a board
    two legal moves on is caught up with, a promotion getting its piece from the button as usual."""
    fen = chess.STARTING_FEN
    events = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4), lift("e4", 6), lift("d5", 7),
              place("d5", 7.2), lift("d8", 8), lift("d5", 9), place("d5", 9)]
    assert moves_made(fen, events) == ["e4", "d5", "exd5", "Qxd5"]
    fen = "bb2rk2/1B5r/2pp3n/p6p/7P/1P2NP2/PB2p1P1/1N2RRK1 b - - 0 21"
    events = [press("promote_r", 1), lift("e2", 2.9), lift("f1", 4.9), place("f1", 4.9), lift("e1", 5.7),
              lift("f1", 7.8), place("f1", 7.9)]
    assert moves_made(fen, events) == ["exf1=R+", "Rxf1"]


def test_two_moves_on_at_the_clock_after_a_capture_read_as_a_takeback() -> None:
    """Found failing (the fourth outside corpus): Bxh3 victim first, the bishop sliding over g2 and shown
    there before f1 empties, reads as Qh3 taken back (the takeback rule), and the game never recovered.
    White's clock press with the board two moves on from there makes both."""
    fen = "1nrnkbbr/2ppp2p/8/p4p2/2Q5/1P6/P2PPPqP/1NRNKBBR b HChc - 0 6"
    events = [lift("g2", 1), place("h3", 3.9), press("black", 5.3), lift("h3", 6.9), place("g2", 7.2),
              lift("f1", 7.4), lift("g2", 7.7), place("h3", 7.8), press("white", 10)]
    assert moves_made(fen, events) == ["Qh3", "Bxh3"]


ROOK_ON_E8 = "4r1k1/8/4P3/8/8/8/8/6K1 b - - 0 1"


def test_a_slide_into_a_capture_whose_victim_goes_quicker_than_a_bounce() -> None:
    """Found failing (the fourth outside corpus, 175 games): the rook slid e8-e7 (Re7 shown before e8
    emptied), was picked up again, and the e6 pawn went off and the rook down within 0.18 s, so the pawn's
    square read as a bounce. The clock, or the other side's lift, made Re7 final with the rook in hand and
    the game was lost. A capture from the open move's origin of a piece lifted while the piece was in hand,
    that the board shows made (but for the reply's victim lifted first), is read instead."""
    slide = [place("e7", 1), lift("e8", 1.1), lift("e7", 1.5), lift("e6", 2), place("e6", 2.18)]
    assert moves_made(ROOK_ON_E8, [*slide, press("black", 3)]) == ["Rxe6"]
    assert moves_made(ROOK_ON_E8, [*slide, lift("g1", 3), place("h2", 4)]) == ["Rxe6", "Kh2"]
    assert moves_made(ROOK_ON_E8, slide) == ["Rxe6"]
    knight_on_h1 = "4r1k1/8/4P3/8/8/8/8/6Kn b - - 0 1"  # and the reply takes it, victim first
    reply = [lift("h1", 3), lift("g1", 3.5), place("h1", 4)]
    assert moves_made(knight_on_h1, [*slide, *reply]) == ["Rxe6", "Kxh1"]
    retaken = "8/8/8/8/8/8/2k5/3n1RK1 w - - 0 1"  # the reply takes the capturer back, victim first
    events = [lift("f1", 1), place("e1", 1.5), lift("e1", 2), lift("d1", 2.5), place("d1", 2.6),
              lift("d1", 4), lift("c2", 4.5), place("d1", 5)]
    assert moves_made(retaken, events) == ["Rxd1", "Kxd1"]


def test_a_knock_while_the_reply_takes_the_piece_just_moved_is_no_sign_it_took_elsewhere() -> None:
    """Found failing (a generator of the spec's clauses combined, 418 of 550 captures): the g5 pawn knocked
    while the bishop was in hand, Bf4, then gxf4 victim first with White's g3 pawn knocked as the pawn
    left g5: read as Bxg5 quicker than a bounce, and the game was lost. The pawn lifted can take the
    bishop where it landed, lifted first as its victim: Bf4 explains the events, and a bounce is nothing."""
    fen = "1rbb1krq/1ppppp2/pn3n1p/6p1/1P1P4/5NP1/PRP1PP1P/N1BB1KRQ w Gg - 0 6"
    move = [lift("c1", 1.0), lift("g5", 1.58), place("g5", 1.72), place("f4", 2.47)]
    reply = [lift("f4", 3.78), lift("g5", 4.44), lift("g3", 4.51), place("g3", 4.63), place("f4", 5.45)]
    assert sans(fen, [*move, *reply, lift("f3", 8.2), place("g5", 9.6)]) == ["Bf4", "gxf4", "Ng5"]
    # Nxg6 changed into Nc6 (the victim put back), then Qxc6 victim first with a knock of e7 as the queen
    # left d6: read as Nxg6 with the knight only brushing c6 as it was set down (found the same way)
    fen = "1k2nbbr/2p1p2p/3q1pp1/P2pN1P1/P1p5/N7/4PPBP/R1K3BR w HAh - 2 16"
    change = [lift("e5", 1.0), lift("g6", 1.53), place("g6", 1.99), lift("g6", 3.87), place("g6", 4.85),
              place("c6", 5.79)]
    reply = [lift("c6", 7.12), lift("d6", 8.05), lift("e7", 8.21), place("e7", 8.35), place("c6", 8.98),
             press("black", 9.37)]
    assert sans(fen, [*change, *reply]) == ["Nc6+", "Qxc6"]


def test_a_touch_with_the_piece_on_its_square_or_the_other_side_landing_there_is_no_quick_capture() -> None:
    """The same occupancy read the other way: a pawn the rook could have taken bounced while the rook stood
    on e7 (knocked as it was set down), or it bounced while White took the rook victim first, the bishop
    then landing on e7 (found failing in tools/corpus.py's corpus at a first version of the rule)."""
    fen = "4r1k1/8/3BP3/8/8/8/8/6K1 b - - 0 1"
    knocked = [lift("e8", 1), place("e7", 1.5), lift("e6", 1.6), place("e6", 1.7)]
    assert moves_made(fen, [*knocked, lift("e7", 3), lift("d6", 3.5), place("e7", 4)]) == ["Re7", "Bxe7"]
    bounced_meanwhile = [lift("e8", 1), place("e7", 1.5), lift("e7", 3), lift("e6", 3.2), place("e6", 3.3),
                         lift("d6", 3.5), place("e7", 4)]
    assert moves_made(fen, bounced_meanwhile) == ["Re7", "Bxe7"]
    fen = "7k/3rQ3/8/8/8/8/P7/K7 b - - 0 1"  # the queen knocked as the rook lands, then it takes the rook
    events = [lift("d7", 1), place("d8", 1.5), lift("e7", 1.5), place("e7", 1.54), lift("d8", 3),
              lift("e7", 3.5), lift("a2", 4), place("a2", 4.5), place("d8", 5)]
    assert moves_made(fen, events) == ["Rd8", "Qxd8+"]
    fen = "3Qr3/4P2k/8/8/8/8/8/6K1 b - - 0 1"  # Rxe7 or Rxd8: the same occupancy
    capture = [lift("e7", 1), lift("e8", 1.5), place("e7", 2), lift("e7", 3), lift("d8", 3.2),
               place("d8", 3.3), place("e7", 4), press("black", 5)]
    assert moves_made(fen, capture) == ["Rxe7"]


def test_a_piece_adjusted_before_its_clock_is_no_victim_for_the_other_sides_quick_capture() -> None:
    """Found failing (the fourth outside corpus): Black adjusted the rook just put on g7, then pressed the
    clock; White's knight took on h6 quicker than a bounce. The clock read the capture, but on g7: the
    adjustment was still evidence of a touched victim. The mover's clock with the board at rest starts the
    evidence afresh."""
    fen = "7k/8/7p/5Nr1/8/8/8/K7 b - - 0 1"
    events = [lift("g5", 1), place("g7", 2), lift("g7", 2.5), place("g7", 2.8), press("black", 3),
              lift("f5", 4), lift("h6", 5), place("h6", 5.12), press("white", 6)]
    assert moves_made(fen, events) == ["Rg7", "Nxh6"]


def test_a_quick_capture_takes_the_piece_touched_with_the_capturer_in_hand() -> None:
    """Found failing (the fourth outside corpus): f2 bounced before Black began, then the g3 pawn took on h2
    quicker than a bounce; at the clock both pawns looked touched and the read capture was gxf2. The victim
    touched while the capturer was in hand comes first."""
    fen = "4k3/8/8/8/8/6p1/5P1P/6K1 b - - 0 1"
    events = [lift("f2", 0.4), place("f2", 0.52), lift("g3", 2), lift("h2", 3.5), place("h2", 3.62),
              press("black", 4)]
    assert moves_made(fen, events) == ["gxh2+"]


def test_three_moves_on_after_two_quick_captures_at_the_movers_clock_or_the_end() -> None:
    """Found failing (the fourth outside corpus): bxa6 and Rxa6, each quicker than a bounce, read as two
    pieces in hand, and White's next move with it; the rest of the game was lost without a word. The mover's
    clock, when it finds nothing to commit, and the end of input catch up with a board three moves on."""
    fen = "r3k3/8/p7/1P6/8/2B5/8/4K3 w - - 0 1"
    events = [lift("b5", 1), lift("a6", 2), place("a6", 2.14), lift("a8", 3), lift("a6", 4), place("a6", 4),
              lift("c3", 5), place("d4", 6)]
    assert moves_made(fen, [*events, press("white", 7)]) == ["bxa6", "Rxa6", "Bd4"]
    assert moves_made(fen, [*events, press("white", 7), lift("e8", 8), place("d7", 9)]) == [
        "bxa6", "Rxa6", "Bd4", "Kd7"]
    assert moves_made(fen, events) == ["bxa6", "Rxa6", "Bd4"]


def test_a_move_misread_since_the_last_clock_press_is_taken_back_for_a_line_the_board_shows() -> None:
    """Found failing (the fourth outside corpus): Qxa7 quicker than a bounce left White's queen "in hand";
    Black's queen then shown on a5 before d8 emptied read as the queen landing there (Qa5), and Black's
    clock found the board two moves on from before it. Qa5, made since the last press, is taken back
    for the line that explains the board; a move confirmed by a press is not."""
    fen = "3q3k/p7/8/8/Q7/8/8/4K3 w - - 0 1"
    events = [lift("a4", 1), lift("a7", 2), place("a7", 2), place("a5", 3), lift("d8", 3.1)]
    assert moves_made(fen, [*events, press("black", 4)]) == ["Qxa7", "Qa5+"]
    assert moves_made(fen, events) == ["Qxa7", "Qa5+"]
    confirmed = [lift("a4", 1), lift("a7", 2), place("a7", 2), place("a5", 3), press("white", 3.5),
                 lift("d8", 4), press("black", 5)]
    # Black's clock with the queen in hand, and the input ends: Qxa5, the one capture it has, no scan saw
    assert moves_made(fen, confirmed) == ["Qa5", "Qxa5+"]


def test_a_double_step_changed_to_a_single_step_then_a_pawn_that_could_take_it_moves_on() -> None:
    """Found failing (the first outside generator): d2-d4 changed to d3, then Black's c4 pawn lifted read as
    d4 and c4xd3 en passant placed before its lift, and the pawn landing on c3 made the board illegal. A
    place that lands the reply to the open move as it stands keeps that move."""
    fen = "4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1"
    changed = [lift("d2", 1), place("d4", 2), lift("d4", 3), place("d3", 4)]
    assert moves_made(fen, [*changed, lift("c4", 9), place("c3", 9.4), press("black", 10)]) == ["d3", "c3"]


def test_a_capture_victim_first_then_a_reply_placed_before_a_late_lift() -> None:
    """Found failing (the third outside generator, 2 of 1,000 fresh games): Qxh1 victim first, then White's
    bishop shown on g2 before f1 emptied, the lift 1.3 s later. The queen could have gone to g2 with h1 only
    touched, and a lift that late reads as that. But a victim lifted before the capturer left is no touch
    made with the piece in hand: the capture stands and the reply completes it."""
    fen = "q3k3/3p4/8/8/8/6P1/2K5/5B1R b - - 0 1"
    capture = [lift("h1", 1), lift("a8", 2), place("h1", 3)]
    reply = [place("g2", 5), lift("f1", 6.3), lift("d7", 8), place("d5", 9)]
    assert moves_made(fen, [*capture, *reply]) == ["Qxh1", "Bg2", "d5"]


def test_a_capture_victim_first_then_a_reply_and_the_next_move_both_placed_first() -> None:
    """Found failing (the property test's generator, position 837): Qxd5 victim first, Black's queen shown
    on d4 before e5 emptied, then White's knight shown on c7 before e6 emptied. Up to the knight, the queen
    going to d4 with d5 only touched, and Black's queen in hand, read the same; the knight's place then
    also lands Black's queen on c7. A victim lifted before the capturer left was no touch, so the capture
    stands, however late the lift of e5; the board naming the knight says so too."""
    fen = "6k1/8/4N3/3pq3/2Q5/8/8/7K w - - 0 1"
    capture = [lift("d5", 1.0), lift("c4", 1.9), place("d5", 3.3)]
    for lifted in (4.6, 5.1):
        for knight in ("N", None):
            replies = [place("d4", 4.5), lift("e5", lifted), place("c7", 5.2, knight), lift("e6", 5.45)]
            assert sans(fen, [*capture, *replies]) == ["Qxd5", "Qd4", "Nc7+"]


def test_a_castling_completed_after_a_touch_of_the_other_sides_piece_made_its_first_half_final() -> None:
    """Found failing (the first outside generator, DGT): Kf1-g1, the first half of O-O and an ordinary move,
    then Black's knight lifted and put back 0.5 s later (a touch, which makes Kg1 final), then the rook to
    f1. The board shows the castling made from before Kg1, so Kg1 is taken back for it; once White's clock
    confirmed the king's step alone, the rook's move is out of turn."""
    fen = "6k1/8/1n6/8/8/8/8/5K1R w H - 0 1"
    touch = [lift("b6", 2.5), place("b6", 3)]
    king_first = [lift("f1", 1), place("g1", 1.5), *touch, lift("h1", 3.6), place("f1", 4)]
    reply = [lift("b6", 5), place("d5", 5.5)]
    assert moves_made(fen, [*king_first, press("white", 4.5), *reply]) == ["O-O", "Nd5"]
    assert moves_made(fen, [*king_first, *reply]) == ["O-O", "Nd5"]
    confirmed = [lift("f1", 1), place("g1", 1.5), press("white", 2), *king_first[2:]]
    assert moves_made(fen, confirmed) == ["Kg1"]
    rook_first = [lift("h1", 1), place("f1", 1.5), *touch, lift("e1", 3.6), place("g1", 4)]
    assert moves_made("6k1/8/1n6/8/8/8/8/4K2R w H - 0 1", [*rook_first, *reply]) == ["O-O", "Nd5"]


def test_a_reply_placed_first_read_as_a_change_of_mind_is_redone_from_the_move_it_replaced() -> None:
    """Found failing silently (the fourth outside generator): Qe1-e5+, then White takes it victim first
    with a slide whose first square (g3) shows before h2 empties; Black's queen could go from e1 to g3, so
    it read as a change of mind (Qg3). At White's clock the board showed three moves on from Qg3 (Qe2, Qe5+,
    Qxe5, all invented) and two from before it, beginning with the Qe5+ it replaced: that line wins."""
    fen = "5k2/8/8/5K2/8/8/7Q/4q3 b - - 9 84"
    slide = [lift("e1", 1), place("e5", 3), lift("e5", 4.65), place("g3", 4.94), lift("h2", 5.01),
             place("f4", 5.28), lift("g3", 5.4), place("e5", 5.69), lift("f4", 5.86)]
    reply = [press("white", 6.8), lift("f8", 8), place("g8", 9)]
    assert moves_made(fen, [*slide, *reply]) == ["Qe5+", "Qxe5", "Kg8"]
    assert moves_made(fen, slide) == ["Qe5+", "Qxe5"]


def test_of_two_lines_the_board_shows_the_catch_up_takes_the_one_the_hands_were_seen_making() -> None:
    """Found failing silently (the fourth outside generator): two captures quicker than a bounce, Nxh7 and
    then Rxf1; the rook could as well have taken on g2, which leaves the same occupancy, and the catch-up
    took the first line found. The squares emptied since the last clock press now decide."""
    fen = "k7/7p/8/6N1/8/8/5rP1/5R1K w - - 0 1"
    knight = [lift("g5", 1), lift("h7", 2), place("h7", 2), lift("f2", 5)]
    for victim, san in (("f1", "Rxf1+"), ("g2", "Rxg2")):
        rook = [lift(victim, 8), place(victim, 8)]
        assert moves_made(fen, [*knight, *rook, press("black", 9)]) == ["Nxh7", san]
        assert moves_made(fen, [*knight, *rook]) == ["Nxh7", san]


def test_a_promotion_button_after_a_capture_quicker_than_a_bounce_is_for_the_other_sides_promotion() -> None:
    """Found failing (the fourth outside generator): Bxf2 with the victim off and the bishop down at once
    reads as a touch until something tells; Black's promote_b came next, and made before the capture was
    committed, it was spent on it, so that axb1 became a queen. A promotion press with the board showing
    a capture made that is no promotion commits it: the press is the other side's."""
    fen = "5k2/8/8/8/8/8/p2K1p2/1B4B1 w - - 0 1"
    promotion = [press("promote_b", 5), lift("a2", 7), lift("b1", 9), place("b1", 9.3), press("black", 10)]
    quick = [lift("g1", 1), lift("f2", 3), place("f2", 3)]
    assert moves_made(fen, [*quick, *promotion]) == ["Bxf2", "axb1=B"]
    plain = [lift("f2", 1), lift("g1", 2), place("f2", 3)]
    assert moves_made(fen, [*plain, *promotion]) == ["Bxf2", "axb1=B"]


def test_a_quick_capture_takes_the_piece_lifted_before_the_reply_began() -> None:
    """Found failing (the fourth outside generator): Qxc1 quicker than a bounce, then White lifts its
    queen and, with it in hand, touches the a1 knight, which the black queen could also have taken. The
    capture read when the queen lands on f2 took the piece lifted last (a1); a piece first lifted once the
    reply began is no victim of the move before it."""
    fen = "7k/8/8/8/8/q7/7K/N1N1Q3 b - - 0 1"
    events = [lift("a3", 1), lift("c1", 3), place("c1", 3), lift("e1", 4), lift("a1", 4.7), place("a1", 5.6),
              place("f2", 7)]
    assert moves_made(fen, [*events, press("white", 7.5)]) == ["Qxc1", "Qf2"]
    assert moves_made(fen, events) == ["Qxc1", "Qf2"]


def test_a_touched_victim_is_no_latent_capture_when_the_piece_leaves_much_later() -> None:
    """Found failing (the fourth outside generator): Black touches White's d4 pawn, 6.4 s later lifts the
    queen, touches the c6 rook and takes on d5. With d5 lifted it read as Qxd4 made placed first (the
    pawn's lift and place) and the bishop taking c6 placed first. A piece that landed before its origin
    emptied must leave within a hand movement; this one left long after."""
    fen = "7k/8/2r5/3B4/3Pq3/7K/8/8 b - - 0 1"
    touched = [lift("d4", 1), place("d4", 3.3), lift("e4", 9.7), lift("c6", 11.2), place("c6", 11.9),
               lift("d5", 12.5), place("d5", 13)]
    assert moves_made(fen, [*touched, press("black", 17), lift("h3", 18), place("h2", 19)]) == ["Qxd5", "Kh2"]
    placed_first = [lift("d4", 1), place("d4", 1.3), lift("e4", 1.5), lift("c6", 3), place("c6", 3.5),
                    lift("d5", 4)]
    assert moves_made(fen, placed_first) == ["Qxd4", "Bxc6"]


def test_a_set_up_after_a_mate_that_ends_with_an_extra_piece_taken_off() -> None:
    """Found failing (the fifth outside generator): after a mate, a lift never settled, so a set-up whose
    last step takes an extra piece off (the mating queen, another one already on d8) started no new game,
    and the next game's first move was read as the set-up."""
    recognizer = Recognizer(518)
    mate = [lift("f2", 1), place("f3", 2), lift("e7", 3), place("e5", 4), lift("g2", 5), place("g4", 6),
            lift("d8", 7), place("h4", 8)]
    set_up = [lift("f3", 20), place("f2", 21), lift("g4", 22), place("g2", 23), lift("e5", 24),
              place("e7", 25), place("d8", 26), lift("h4", 27)]
    reports = [r for e in [*mate, *set_up, lift("e2", 40), place("e4", 41)] for r in recognizer.feed(e)]
    reports += recognizer.finish()
    assert [r.kind for r in reports] == ["move"] * 4 + ["game_over", "new_game", "move"]
    assert recognizer.board.move_stack == [chess.Move.from_uci("e2e4")]


def test_a_piece_touched_before_a_lift_long_after_is_no_capture_placed_first() -> None:
    """Found failing (the fourth outside generator): Kxg4 quicker than a bounce, White adjusts its b5
    bishop, and 1.5 s later Black lifts the b6 rook (and puts it back). The lift read as Rxb5 placed first,
    the bishop's lift and place being the victim's and the rook's; a capture's piece lands at most a
    second before its lift is reported (on presence alone), so that was a touch, and the knight moves."""
    fen = "6k1/8/1r4n1/1B6/5Kb1/8/5N2/1n6 w - - 8 56"
    events = [lift("f4", 1), lift("g4", 3.2), place("g4", 3.2), lift("b5", 3.9), place("b5", 5.8),
              lift("b6", 7.3), place("b6", 9), lift("g6", 9.4), place("f8", 10.9), lift("f8", 11.3),
              place("f8", 12.7), lift("f2", 13.4), place("h3", 15.5)]
    assert moves_made(fen, [*events, press("white", 15.8)]) == ["Kxg4", "Nf8", "Nh3"]


def test_a_slide_into_a_quick_capture_then_the_reply_placed_before_its_lift() -> None:
    """Found failing (the fourth outside generator): the queen slides e3-f2-g1 taking the knight quicker
    than a bounce, so Qf2 stays open with the queen in hand; White's d5 then shows before d4 empties. The
    capture in hand was read only with nothing else on the board: the reply's square placed first, that
    the piece lifted next can reach once the capture is made, may be there too."""
    fen = "1k6/8/8/8/3P4/4q3/K7/6N1 b - - 0 1"
    events = [lift("e3", 1), place("f2", 1.1), lift("f2", 1.3), lift("g1", 1.6), place("g1", 1.85),
              place("d5", 4.4), lift("d4", 4.47)]
    assert moves_made(fen, [*events, press("white", 5)]) == ["Qxg1", "d5"]
    assert moves_made(fen, [*events, lift("b8", 6), place("a8", 7)]) == ["Qxg1", "d5", "Ka8"]


def test_a_quick_capture_then_a_reply_that_lands_where_the_capturer_stood() -> None:
    """Found failing (the fourth outside generator): Bd4xe5 quicker than a bounce and no clock, then White's
    queen goes d3-d4, onto the square the bishop left. The capture read from the reply looked for its
    origin among the empty squares only."""
    fen = "5k2/8/8/4P3/3b4/3Q4/8/4K3 b - - 0 1"
    events = [lift("d4", 1), lift("e5", 1.85), place("e5", 2.08), lift("d3", 3.4), place("d4", 5.9),
              lift("f8", 7), place("g8", 8)]
    assert moves_made(fen, events) == ["Bxe5", "Qd4", "Kg8"]


def test_two_quick_captures_in_a_row_then_moves_on() -> None:
    """Found failing (the fourth outside generator): exf3 and then axb6, each quicker than a bounce, and no
    clock; the first was read only with a reply the board showed complete, so both pawns stayed in hand and
    the game was lost from there. A reply that is itself such a capture under way reads the first."""
    fen = "4k3/8/1n6/P4r2/4p3/5N2/8/6K1 b - - 0 1"
    events = [lift("e4", 1), lift("f3", 1.8), place("f3", 1.8), lift("a5", 4.1), lift("b6", 6.2),
              place("b6", 6.2), lift("f5", 7.8), place("c5", 9.7), lift("g1", 11), place("h1", 12)]
    assert moves_made(fen, events) == ["exf3", "axb6", "Rc5", "Kh1"]


def test_en_passant_placed_first_with_a_late_lift_is_no_touch() -> None:
    """Found failing (the third outside generator, at a first version of the late-lift rule): en passant
    with the pawn shown on d6, the victim off, and the pawn's lift 1.6 s after it landed. The rule that
    reads a late lift as a touch of the victim's square does not apply: the pawn lands on an empty one."""
    fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    events = [place("d6", 1), lift("d5", 1.3), lift("e5", 2.6), press("white", 3.6), lift("e8", 4.6),
              place("f7", 5.5)]
    recognizer = Recognizer(chess.Board(fen, chess960=True))
    assert [report.kind for event in events for report in recognizer.feed(event)] == ["move"]  # no illegal
    assert moves_made(fen, events) == ["exd6", "Kf7"]


def test_a_quick_capture_misread_by_a_slide_placed_first_is_redone_over_invented_moves() -> None:
    """Found failing (the fourth outside generator): Bxa7 quicker than a bounce, then Black's rook slides
    f5-e5-d5-c5 showing each square before the last empties; e5 read as the bishop landing there (Be5).
    At Black's clock the board showed three invented moves from Be5 (Rh5, Bxg7, Rc5) and, from before it,
    Bxa7 and Rc5+: the line whose squares the hands emptied wins."""
    fen = "3n3b/r1p3n1/4k3/p4r2/P2Bpp1P/1N3P2/Q7/1NK1R3 w - - 2 30"
    events = [lift("d4", 1), lift("a7", 1.8), place("a7", 1.8), place("e5", 3.5), lift("f5", 3.6),
              lift("e5", 3.9), place("d5", 4), place("c5", 4.2), lift("d5", 4.25), press("black", 6),
              lift("c5", 8.8), lift("a7", 10), place("c5", 12)]
    assert moves_made(fen, events) == ["Bxa7", "Rc5+", "Bxc5"]


def test_a_quick_capture_then_the_reply_placed_first_where_the_capturer_could_go() -> None:
    """Found failing (the sixth outside generator): Qxg4 with the pawn off and the queen down within 0.13 s
    (a bounce by the spec's table), then Black's bishop shown on d3 before a6 emptied: read as Qd3, made
    final by the lift. The queen then went back to d1, and the board stayed illegal for the rest of the
    game. Once the board is unexplained, the capture and the moves after it that show it are read."""
    fen = "rn2qbnr/p2ppk1p/bpp2p1B/5P2/3P2pP/1PP1P3/P5PR/RN1QKBN1 w Q - 1 10"
    events = [lift("d1", 1), lift("g4", 1.77), place("g4", 1.9), place("d3", 4.4), lift("a6", 4.54),
              lift("g4", 7.04), place("d1", 7.54), lift("f8", 9.54), place("g7", 10.54)]
    assert moves_made(fen, events) == ["Qxg4", "Bd3", "Qd1", "Bg7"]


def test_a_quick_capture_then_two_moves_placed_first() -> None:
    """Found failing (the sixth outside generator): Nxe7 within 0.13 s, Black's Re3 shown before e6
    emptied (read as Ne3), then White's Nd5 shown before e7 emptied. The line is read once the board
    shows it, while the illegal position is reported."""
    fen = "7k/4np2/4r1pp/3N4/1K6/5P1P/8/8 w - - 4 42"
    events = [lift("d5", 1), lift("e7", 1.77), place("e7", 1.9), place("e3", 4.44), lift("e6", 4.58),
              place("d5", 7.13), lift("e7", 7.84), lift("e3", 11), place("e2", 12), press("black", 13)]
    assert moves_made(fen, events) == ["Nxe7", "Re3", "Nd5", "Re2"]


def test_a_bounce_of_another_victim_while_the_capturer_is_in_hand_is_no_quick_reply() -> None:
    """Found failing (tools/corpus.py, seed 1618): Qb3 lifted, the queen on b1 lifted as the victim, then the
    rook on b8 bounced, then the queen landed on b1. The bounce read as Qxb8 quicker than a bounce, with
    Black's queen (its lift) retaking on b8 quicker than a bounce: one bounce made both captures."""
    fen = "1rb2rk1/2nppN1p/8/2p4B/8/PQ4PP/3P1P2/1qB2RK1 w - - 1 20"
    events = [lift("b3", 1.1), lift("b1", 2.9), lift("b8", 3.0), place("b8", 3.1), place("b1", 3.4),
              press("white", 5.5), lift("f7", 7.2), lift("f8", 8), place("f7", 9.5)]
    assert moves_made(fen, events) == ["Qxb1", "Rxf7"]


def test_a_bounce_after_a_move_committed_counts_once() -> None:
    """Found failing (tools/corpus.py, seed 1618): once Nxd5 was committed, its evidence and the game's were
    one, and a bounce of c2 was counted twice, as if the square had bounced again after Qxc2 landed there."""
    fen = "n2r1rk1/1p6/5p1p/3p4/P2P1N2/3q4/1PN4K/1R1B4 w - - 2 21"
    events = [lift("d5", 1), lift("f4", 1.9), place("d5", 3.9), lift("d3", 5.5), lift("d1", 7.5),
              lift("c2", 7.56), place("c2", 7.67), place("d1", 8.6), press("black", 9.3), lift("h2", 9.6),
              place("h3", 10.3), press("white", 10.9)]
    assert moves_made(fen, events) == ["Nxd5", "Qxd1", "Kh3"]


def test_a_quick_recapture_on_the_square_of_a_capture_placed_first_or_itself_quick() -> None:
    """The bounce a quick capture landed with is no quick recapture, but a second bounce there is, and so is
    one after a capture placed first (its landing was no bounce)."""
    fen = "4k3/6p1/5p2/8/6N1/8/8/4K3 w - - 0 1"
    recapture = [lift("g7", 4), lift("f6", 4.5), place("f6", 4.6), lift("e1", 6), place("d1", 7)]
    placed_first = [lift("f6", 1), place("f6", 2), lift("g4", 2.2)]
    quick = [lift("g4", 1), lift("f6", 1.9), place("f6", 2.0)]
    assert moves_made(fen, [*placed_first, *recapture]) == ["Nxf6+", "gxf6", "Kd1"]
    assert moves_made(fen, [*quick, *recapture]) == ["Nxf6+", "gxf6", "Kd1"]


# ---------------------------------------------------------------- a piece set down across two squares


def test_a_capturer_set_down_touching_a_square_it_could_also_go_to() -> None:
    """Found failing (a seventh generator, which scans a simulated board): Qxd5 shown, then the queen,
    set down off-centre, also lit d4 for 80 ms. With d4 empty again at the clock, the board shows Qxd5, not
    Qd4 with the queen in hand."""
    events = [lift("d5", 1.0), lift("d1", 1.5), place("d5", 2.0), place("d4", 2.0005), lift("d4", 2.08),
              press("white", 3.0)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_a_capture_quicker_than_a_bounce_set_down_touching_another_square() -> None:
    """Found failing (the same generator): the knight off and the queen down within 0.1 s (a bounce by
    the spec's table), the queen also lighting d4 as it landed. At the clock, with d4 empty again, that
    is the quick capture."""
    events = [lift("d1", 1.0), lift("d5", 1.5), place("d5", 1.6), place("d4", 1.6005), lift("d4", 1.7),
              press("white", 2.5)]
    assert sans(TWO_VICTIMS, events) == ["Qxd5"]


def test_a_capturer_set_down_across_its_victims_square_on_a_board_that_identifies_pieces() -> None:
    """Found failing (the same generator, DGT): the rook from f1 lights f6 as it comes down, and the board
    reports it replacing the black rook on f7 in one message (decoded as the rook's lift and the white
    rook's place at one instant). That is Rxf7 on its way, not Black lifting its rook."""
    fen = "5r1k/5r2/8/8/8/8/8/5RK1 w - - 0 1"
    events = [lift("f1", 1.0), place("f6", 1.5, "R"), lift("f7", 1.505), place("f7", 1.505, "R"),
              lift("f6", 2.1), press("white", 3.0)]
    assert sans(fen, events) == ["Rxf7"]


def test_a_knock_of_the_other_sides_piece_during_a_slide_does_not_end_the_move() -> None:
    """Found failing (the seventh outside generator's stress mode): the queen slides d1-f3-h5 and knocks
    Black's d7 pawn on the way, back 0.11 s later with the slide's reports between. The lift made Qf3 final,
    and Qh5 then read as a second white move. A lift and place of one square within a bounce is nothing, so
    the move is open again; whether the queen left f3 before or after the knock, named by the board or not."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    reply = [lift("b8", 12), place("c6", 12.5)]
    slides = [
        [lift("d1", 10), place("f3", 10.2), lift("d7", 10.22), lift("f3", 10.25), place("g4", 10.3),
         place("d7", 10.33), lift("g4", 10.35), place("h5", 10.4)],
        [lift("d1", 10), place("f3", 10.2), lift("f3", 10.4), lift("d7", 10.42), place("h5", 10.5),
         place("d7", 10.55)],
        [lift("d1", 10), place("f3", 10.2, "Q"), lift("d7", 10.22), lift("f3", 10.25), place("h5", 10.3, "Q"),
         place("d7", 10.33, "p")],
    ]
    for slide in slides:
        assert moves_made(fen, [*slide, press("white", 11), *reply]) == ["Qh5", "Nc6"]
        assert moves_made(fen, [*slide, *reply]) == ["Qh5", "Nc6"]
    touched = [*slides[0][:5], place("d7", 10.6)]  # back later than a bounce: Black touched it, Qf3 stands
    assert moves_made(fen, [*touched, lift("g4", 10.7), place("f3", 10.8)]) == ["Qf3"]


def test_two_neighbours_knocked_as_a_landing_is_reported_before_its_lift_are_no_moves() -> None:
    """Found failing (tools/fuzz_knocks.py, seed 8002809): Rh3-h2, h2 reported 0.19 s before h3's lift, and
    the hand brushes the bishop on g1 and Black's queen on g2, each back within a bounce. h2 filled as g1
    emptied read as Bh2, g2's lift as Black's reply, and g1 refilled as Qg1: two moves made, and the board
    at rest (g1 and g2 full, h3 empty) then read as misplaced. Moves since the press whose squares all came
    back within a bounce were knocks: they are taken back for the rook move the board shows."""
    fen = "3k1b1r/p1ppn1p1/B3Pn2/7p/2NPb3/PP5R/4KPq1/NR4B1 w - - 2 27"
    events = [place("h2", 1.613), lift("g1", 1.678), lift("g2", 1.778), lift("h3", 1.804), place("g1", 1.811),
              place("g2", 1.883), press("white", 2.517), lift("e7", 4.025), place("g6", 5.585)]
    assert moves_made(fen, events) == ["Rh2", "Ng6"]


def test_knocks_read_as_a_capture_and_a_reply_still_open_are_no_moves() -> None:
    """Found failing (tools/fuzz_knocks.py, seed 10005013): ...dxc3 victim first, c3 reported 0.08 s before
    d4's lift, and the hand brushes Black's pawn on b4 and White's on b3, each back within a bounce. b4's
    lift and c3's place read as ...bxc3, b3's lift and b4's refill as White's b4 begun, still open; the board
    at rest then read as misplaced and the press made b4. The open move's square came back within a bounce
    too: it is a knock like the others, taken back with them for the capture the board shows."""
    fen = "n1n1r2r/p2b3k/2pp4/1Q1P3p/1p1pPppP/1PB2P2/P1B1R1KP/N1N1R3 b - - 1 27"
    events = [lift("c3", 0.430), lift("b4", 0.533), lift("b3", 0.576), place("b4", 0.652), place("c3", 0.767),
              place("b3", 0.793), lift("d4", 0.848), press("black", 2.256), lift("e2", 2.715),
              place("f2", 3.830)]
    assert moves_made(fen, events) == ["dxc3", "Rf2"]


def test_a_capture_own_piece_first_set_down_short_and_slid_on_reported_ahead_of_its_lift() -> None:
    """Found failing (the eighty-seventh generator, DGT boards): ...Rxa5 own piece first, the victim taken
    off, the rook set down on a6 and slid on to a5, a5 reported 0.48 s after a6 and 0.05 s before a6
    emptied. The victim's lift, held while the rook was in hand, was read as White's reply begun and a5's
    place as that pawn put back: Ra6 made final and the board lost. A place on the victim's square named as
    Black's rook, before the rook leaves, waits for the next event; a6 emptying within a scan is the slide.
    (Not named, the place is read as the pawn put back: docs/recognizer.md, Known limits.)"""
    fen = "1nk1brn1/r1p2p2/7Q/PpP4p/7q/2b2p2/P2PNR2/1NK1BB2 b - - 1 23"
    events = [lift("a7", 176.575), lift("a5", 177.788), place("a6", 177.987, "r"), place("a5", 178.468, "r"),
              lift("a6", 178.52)]
    assert moves_made(fen, events) == ["Rxa5"]
    assert moves_made(fen, [*events, lift("e2", 180), place("d4", 181)]) == ["Rxa5", "Nd4"]
    put_back = [lift("a7", 176.575), lift("a5", 177.788), place("a6", 177.987), place("a5", 178.468)]
    assert moves_made(fen, [*put_back, lift("e2", 180), place("d4", 181)]) == ["Ra6", "Nd4"]

def test_a_piece_that_could_retake_wobbles_as_the_capturer_lands() -> None:
    """Found failing (a wobble fuzz after the seventh generator's misses): Qxd5 with Black's e6 pawn (or d8
    queen), which could retake on d5, lifted while the queen is in hand and back 0.1 s later, after the
    queen landed. The landing with e6 empty read as Qxd5 and exd5 made at once; but one landing on d5 is the
    queen's alone, so the wobble is nothing and Black's move is still to come."""
    fen = "r1bqkbnr/pp3ppp/2n1p3/3p4/2P1P3/8/PP3PPP/RNBQKBNR w KQkq - 0 1"
    reply = [lift("c6", 3.0), place("e5", 3.5)]
    for neighbour in ("e6", "d8"):
        wobble = [lift(neighbour, 1.11), place("d5", 1.2), place(neighbour, 1.21)]
        for capture in ([lift("d5", 1.0), lift("d1", 1.1)], [lift("d1", 1.0), lift("d5", 1.1)]):
            assert moves_made(fen, [*capture, *wobble, *reply]) == ["Qxd5", "Ne5"]
            assert moves_made(fen, [*capture, *wobble, press("white", 2), *reply]) == ["Qxd5", "Ne5"]


def test_of_several_pieces_lifted_that_one_piece_could_take_the_victim_is_where_it_landed() -> None:
    """Found failing (the same fuzz): a piece the capturer could take, touched or knocked while the victim
    is off, read as the victim because it comes first in square order. A square filled again while the
    capturer still stood on its origin, or lifted and filled again within a bounce, is not where it landed."""
    fen = "nr1kbnrb/p3pppp/1p6/2pp4/P1P1P1PP/8/1P1P1P2/NRQKBNRB b KQkq - 0 5"  # d5 takes c4 or e4
    put_back_first = [lift("c4", 0.86), lift("e4", 1), place("c4", 1.05), lift("d5", 1.35), place("e4", 1.7)]
    assert moves_made(fen, [*put_back_first, lift("c1", 3), place("c3", 3.5)]) == ["dxe4", "Qc3"]
    fen = "qb1rn1br/pk1npppp/2p3B1/1p1p4/2PP3P/8/PP1NPPP1/Q1KRN1BR w - - 0 7"  # c4 takes d5 or b5
    knocked = [lift("c4", 1.0), lift("d5", 1.35), lift("b5", 1.64), place("d5", 1.7), place("b5", 1.81)]
    assert moves_made(fen, [*knocked, press("white", 2), lift("a7", 3), place("a6", 3.5)]) == ["cxd5", "a6"]


def test_a_knock_of_the_movers_piece_ended_while_the_other_sides_lift_is_undecided() -> None:
    """Found failing (a knock fuzz over `human_game`): the rook slides g1-g4, is picked up again, and takes
    g5 victim first; between the victim's lift and the rook's landing, White's own f6 knight, knocked 0.2 s
    before, is put back. That place came next after the victim's lift, so it made Rg4 final with the rook in
    hand. A knock put back decides nothing: the event after it does."""
    fen = "b2r1r2/3p1nkp/2pb1Np1/Pn2p1p1/p1P1P3/7K/BB1P1P1P/2NR1QR1 w - - 2 23"
    slide = [lift("g1", 1.81), place("g4", 3.56), lift("g4", 3.96), lift("f6", 5.06), lift("g5", 5.25),
             place("f6", 5.26), place("g5", 6.06)]
    reply = [lift("d8", 8.21), place("e8", 9.19)]
    assert moves_made(fen, [*slide, press("white", 7.13), *reply]) == ["Rxg5", "Rde8"]
    assert moves_made(fen, [*slide, *reply]) == ["Rxg5", "Rde8"]


def test_a_knock_of_the_pieces_neighbour_as_the_next_move_is_placed_before_its_lift() -> None:
    """Found failing (the same fuzz): Black's bishop on d7 knocked 0.13 s, the king's arrival on c8 reported
    between, then the king's lift from d8 (placed before its lift). The bishop's lift and the place made Bc8
    appear; its origin filled again within a bounce says it never left, so the king's lift replaces it."""
    fen = "r2k3N/p2b4/7p/Pp6/3p4/2NP1PBP/1P1P1K2/2RBR3 b - - 1 30"
    events = [lift("d7", 2.74), place("c8", 2.84), place("d7", 2.87), lift("d8", 2.88), press("black", 3.34),
              place("c2", 3.88), lift("c1", 4.0)]
    assert moves_made(fen, events) == ["Kc8", "Rc2"]


def test_a_knock_reopens_a_slide_whose_victim_was_lifted_meanwhile() -> None:
    """Found failing (the same fuzz): Black's rook slides d2-e2, is picked up again, White's d3 bishop is
    knocked, and the f2 rook lifted as the victim. The knock made Re2 final; put back, the move is open again
    with everything in hand then lifted, so the rook landing on f2 is the capture."""
    fen = "b1n1q2r/p4ppk/n3p2p/1pb5/P2QPPPP/1pPB4/3r1R2/BN3R1K b - - 6 21"
    slide = [lift("d2", 5.04), place("e2", 5.86), lift("e2", 7.8), lift("d3", 8.79), lift("f2", 8.91),
             place("d3", 8.92), place("f2", 10.85)]
    assert moves_made(fen, [*slide, press("black", 11.76), place("c4", 12.46), lift("c3", 12.67)]) == [
        "Rxf2", "c4"]


def test_a_knock_as_a_slide_placed_before_its_lift_lands() -> None:
    """Found failing (a white-box review): e2-e3-e4, each arrival reported just before the lift it follows,
    with Black's d7 pawn knocked as e4 lands (lifted 0.04 s before, back 0.03 s after). The lift made e3
    final, and the landing on e4 then showed an illegal board. The knock put back is nothing: e3 is open
    again, with its pawn still reported there, and the lift from e3 shows e4."""
    slide = [place("e3", 1.5), lift("e2", 1.61), lift("d7", 1.756), place("e4", 1.795), place("d7", 1.827),
             lift("e3", 1.965)]
    reply = [lift("c7", 5.3), place("c5", 6.1)]
    assert moves_made(chess.STARTING_FEN, [*slide, press("white", 3.8), *reply]) == ["e4", "c5"]
    assert moves_made(chess.STARTING_FEN, [*slide, *reply]) == ["e4", "c5"]


def test_a_knock_that_looked_like_the_other_sides_move_during_a_slide_placed_first() -> None:
    """Found failing (`tools/fuzz_knocks.py` once slides placed before their lift were made): Black's rook
    slides f8-f7-f5, each arrival reported before its departure, and White's f4 pawn is knocked as f5 is
    reached. The lift made Rf7 final and the landing on f5 showed f4-f5; the pawn back within a bounce voids
    that, and Rf7 is open again, so the lift from f7 shows Rf5."""
    fen = "5rk1/8/8/8/5P2/8/8/6K1 b - - 0 1"
    for named in (None, "r"):
        slide = [place("f7", 1.54), lift("f8", 1.64), lift("f4", 3.51), place("f5", 3.54, named),
                 place("f4", 3.56), lift("f7", 3.57)]
        reply = [lift("g1", 5.3), place("h2", 6.1)]
        assert moves_made(fen, [*slide, press("black", 4.5), *reply]) == ["Rf5", "Kh2"]
        assert moves_made(fen, [*slide, *reply]) == ["Rf5", "Kh2"]


def test_a_piece_that_could_make_the_same_capture_knocked_as_the_capturer_leaves() -> None:
    """Found failing (the same fuzz): Nxd4, victim first and the knight's landing reported before its lift,
    with White's e3 pawn, which could also take d4, knocked just after the landing. Its lift read as exd4
    placed first; back within a bounce, it never left, so the knight that did leave made the capture."""
    fen = "4k3/8/8/8/3p4/4P3/4N3/4K3 w - - 0 1"
    capture = [lift("d4", 1.5), place("d4", 1.9), lift("e3", 2.08), lift("e2", 2.18), place("e3", 2.29)]
    reply = [lift("e8", 5.0), place("d7", 5.8)]
    assert moves_made(fen, [*capture, press("white", 4.1), *reply]) == ["Nxd4", "Kd7"]
    assert moves_made(fen, [*capture, *reply]) == ["Nxd4", "Kd7"]


def test_a_reply_placed_before_its_lift_and_picked_up_at_once_is_a_change_of_mind() -> None:
    """From the seventy-first generator's mixed set, the control of a change tried and left (Known limits):
    Rxf8 victim first, its landing bouncing; Black's queen reported on g4 before its lift from e2, which
    the rook could also reach, picked up again 0.32 s after it landed and set down on d3. Read as Rg4 then
    Qxg4 own piece first, the rook's capture was lost: taken up that soon, the queen changed its mind."""
    fen = "2kr1n2/7p/1p1pp3/n7/5R2/2P3PP/P2Pq3/Q1B3K1 w - - 0 17"
    capture = [lift("f8", 1.0), lift("f4", 1.6), place("f8", 2.148), lift("f8", 2.395), place("f8", 2.516)]
    reply = [place("g4", 2.966), lift("e2", 3.107), lift("g4", 3.29), place("d3", 4.687)]
    assert moves_made(fen, [*capture, *reply]) == ["Rxf8", "Qd3"]


@pytest.mark.parametrize("reply_lifted", [2.2, 2.4, 2.611])
def test_a_knock_back_just_after_the_landing_is_no_capture_when_the_reply_landed_before_it(
        reply_lifted: float) -> None:
    """Found failing (the sixty-eighth generator's timing copies; the sixty-sixth's Known limit): e4 with
    White's d4 pawn knocked as the pawn lands (off 0.11 s, back 21 ms after the landing), the queen's reply
    lifted within half a second. Read as exd4 swept quicker than a bounce, the e4 landing was the reply
    Qe4 placed before its lift: a reply set down before the capture it answers landed. A swept capture's
    reply lands after it; a genuine one still reads."""
    fen = "k7/8/8/4p3/3P1Q2/8/8/K7 b - - 0 1"
    knock = [lift("e5", 1.0), lift("d4", 2.006), place("e4", 2.117), place("d4", 2.138)]
    reply = [lift("f4", reply_lifted), lift("e4", 3.371), place("e4", 4.086)]
    assert moves_made(fen, [*knock, *reply]) == ["e4", "Qxe4+"]
    swept = [lift("e5", 1.0), lift("d4", 2.0), place("d4", 2.1)]
    assert moves_made(fen, [*swept, place("e4", 2.3), lift("f4", reply_lifted + 0.15)]) == ["exd4", "Qe4+"]


def test_a_knock_never_reopens_a_castling_or_a_move_whose_piece_was_taken() -> None:
    """Found failing (a white-box review's knock corpus): White's pawn, knocked as dxc3 is made placed first,
    made Black's O-O final and, back within a bounce, reopened it: the test for castling looked at the
    position after it. And on a DGT board, Black's rook reported replacing the bishop on e2 (Rxe2 placed
    first) with Black's other rook knocked: that knock reopened Be2 as if the bishop still stood there."""
    fen = "b1qr2kr/1ppN1pp1/4p3/p7/6pP/P1n2P2/1P1PP3/BNQR1BKR b KQkq - 0 10"  # O-O: king stays on g8
    castling = [lift("g8", 1.0), lift("h8", 2.3), place("f8", 3.1), place("g8", 4.9)]
    capture = [lift("c3", 6.6), place("c3", 8.85), lift("h4", 9.03), lift("d2", 9.11), place("h4", 9.13)]
    reply = [lift("c7", 12.4), place("c6", 14.7), press("black", 15.1)]
    assert sans(fen, [*castling, *capture, press("white", 10.6), *reply]) == ["O-O", "dxc3", "c6"]
    fen = "6k1/8/B1P5/P7/1P1Prr1b/8/8/6K1 w - - 1 33"
    bishop = [lift("a6", 1.5), place("e2", 2.6, "B")]
    rook = [lift("e2", 3.04), place("e2", 3.04, "r"), lift("f4", 3.2), lift("e4", 3.26),
            place("f4", 3.33, "r")]
    reply = [press("black", 3.8), lift("b4", 4.7), place("b5", 5.4)]
    assert moves_made(fen, [*bishop, *rook, *reply]) == ["Be2", "Rxe2", "b5"]


def test_a_knock_as_a_capture_placed_before_its_lift_lands() -> None:
    """Found failing (the same review): Nxc7, victim first, the knight's arrival reported before its lift,
    with White's b1 rook knocked around the landing. The board was illegal while b1 was off, and putting it
    right started the evidence afresh, forgetting the victim's lift; the knight's lift then read as a piece in
    hand, and the moves came out of order at the next press. A knock put back is nothing: the evidence
    before it stands."""
    fen = "r5kb/p1N1p1pp/n6n/3p4/1P1P4/P5PP/2P2K2/1RB4Q b - - 0 19"
    capture = [lift("c7", 1.43), lift("b1", 3.23), place("c7", 3.296), place("b1", 3.381), lift("a6", 3.521)]
    rest = [lift("h1", 6.58), lift("d5", 6.98), place("d5", 7.68), lift("g8", 8.54), place("f8", 10.62)]
    assert moves_made(fen, [*capture, press("black", 5.22), *rest, press("black", 12.1)]) == [
        "Nxc7", "Qxd5+", "Kf8"]
    assert moves_made(fen, [*capture, *rest]) == ["Nxc7", "Qxd5+", "Kf8"]


def test_a_bounce_of_a_capturer_placed_before_its_lift_is_no_bounce_of_its_victim() -> None:
    """Found failing (a fresh seed of the sixty-sixth generator): Bxa6, victim first, the bishop's landing
    reported 0.25 s before its lift and bouncing once in between. The bounce was taken as the victim's own
    (a knock of a piece that never left), so the bishop seemed still in hand; the reply's pawn, set down
    across b5 and c5, then read as Bb5 c5. A bounce is nothing: the victim's lift before it stands."""
    fen = "rnbqkbnr/1p1ppppp/p1p5/8/8/3BP3/PPPP1PPP/RNBQK1NR w KQkq - 0 3"
    capture = [lift("a6", 9.0), place("a6", 9.54), lift("a6", 9.585), place("a6", 9.685), lift("d3", 9.79)]
    reply = [lift("c6", 11.0), place("b5", 12.4), place("c5", 12.58), lift("b5", 12.64)]
    assert moves_made(fen, [*capture, *reply, lift("g1", 14), place("f3", 14.6)]) == ["Bxa6", "c5", "Nf3"]
    knocked = [lift("a6", 9.0), place("a6", 9.1), lift("d3", 9.2)]  # the victim only knocked: a bishop move
    bishop = [place("b5", 10.0), lift("c6", 11.0), place("c5", 11.6)]
    assert moves_made(fen, [*knocked, *bishop]) == ["Bb5", "c5"]


def test_a_clock_pressed_with_the_next_move_under_way_makes_no_moves() -> None:
    """Found failing (the eighth outside generator, blitz and sessions): Black's clock pressed late, with
    White's cxb5 under way (both pieces in hand), or pressed again, read as Black's move that had to be on
    the board, and made two invented moves that left that occupancy (cxd5 bxa4). A press shows no moves from
    the board while a move of the side to move is caught halfway; nor does a press made before the piece
    lands (Bxf2+, with bishop and victim in hand)."""
    fen = "rnbqkbnr/p1pppppp/8/1p6/P1P5/8/1P1PPPPP/RNBQKBNR b KQkq c3 0 2"
    reply = [lift("c8", 2.6), place("b7", 3.0)]
    capture = [lift("c4", 1.4), lift("b5", 1.48), press("black", 1.57), place("b5", 1.85)]
    assert moves_made(fen, [lift("d7", 1), place("d5", 1.3), *capture, press("white", 2.05), *reply]) == [
        "d5", "cxb5", "Bb7"]
    assert moves_made(fen, [lift("d7", 1), place("d5", 1.3), press("black", 1.35), *capture, *reply]) == [
        "d5", "cxb5", "Bb7"]
    fen = "nrb1knqr/pp1p1ppp/4p3/2p5/5P1b/2P4P/PP1PPQP1/NRBBKN1R b KQkq - 2 4"
    early = [lift("h4", 16.4), lift("f2", 16.53), press("black", 16.75), place("f2", 16.97)]
    recapture = [lift("e1", 17.57), lift("f2", 17.87), place("f2", 18.23), press("white", 18.43)]
    assert moves_made(fen, [*early, *recapture]) == ["Bxf2+", "Kxf2"]


def test_a_castling_right_after_the_pieces_were_set_up_from_a_misplaced_board() -> None:
    """Found failing (the eighth outside generator's sessions): the first snapshot lacked h7, then h7 was put
    on, then White castled king and rook in hand together (position 115: Kf1 and Rg1 swap). The evidence
    still counted pieces from the 31 of the misplaced board, so the two in hand never showed together, and
    both sides' castlings read as nothing. The board back in the game's position starts evidence afresh."""
    start = chess.Board.from_chess960_pos(115)
    missing_h7 = BoardSnapshot(occupied=start.occupied & ~chess.BB_H7, t=0)
    castlings = [lift("f1", 1), lift("g1", 1.4), place("f1", 2), place("g1", 2.5), press("white", 3),
                 lift("f8", 4), lift("g8", 4.5), place("f8", 5), place("g8", 5.5), press("black", 6)]
    events = [missing_h7, place("h7", 0.5), *castlings, lift("a2", 7), place("a3", 7.5)]
    assert moves_made(start.fen(), events) == ["O-O", "O-O", "a3"]


def test_a_snapshot_taken_with_a_piece_in_hand_changes_nothing() -> None:
    """Found failing (the ninth outside generator, DGT): a host asks for a board dump about 0.25 s after the
    last field update, so dumps arrive with a piece in hand. One that showed just what the updates had
    said was read as a misplaced board: the move's evidence was dropped, and the capture or castling
    completed afterwards was never read."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    board = chess.Board(fen)
    shown = board.occupied & ~chess.BB_D5
    named = {square: piece for square, piece in board.piece_map().items() if square != chess.D5}
    for dump in (BoardSnapshot(occupied=shown, t=1.35), BoardSnapshot(occupied=shown, pieces=named, t=1.35)):
        assert moves_made(fen, [lift("d5", 1), dump, lift("e4", 2), place("d5", 2.5)]) == ["exd5"]
        assert moves_made(fen, [lift("d5", 1), dump, lift("e4", 2), place("d5", 2.5, "P")]) == ["exd5"]
    start = chess.Board.from_chess960_pos(592)  # king f1, rook g1: O-O swaps them
    dump = BoardSnapshot(occupied=start.occupied & ~chess.BB_F1, t=1.3)
    castling = [lift("f1", 1), dump, lift("g1", 1.6), place("g1", 2), place("f1", 2.4)]
    assert moves_made(start.fen(), castling) == ["O-O"]


def test_a_snapshot_shows_a_move_caught_halfway_whose_reports_were_lost() -> None:
    """Found failing (the ninth outside generator, DGT with bytes lost on the link): the update of the victim
    leaving d5 was lost, and the dump the host then asked for showed d5 empty. It was read as a misplaced
    board, and the capture completed afterwards was never read. A dump that shows a move caught halfway is
    read as the reports lost, lifts first; one that no move explains is still misplaced."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    board = chess.Board(fen)
    shown = board.occupied & ~chess.BB_D5
    named = {square: piece for square, piece in board.piece_map().items() if square != chess.D5}
    for dump in (BoardSnapshot(occupied=shown, t=1.35), BoardSnapshot(occupied=shown, pieces=named, t=1.35)):
        assert moves_made(fen, [dump, lift("e4", 2), place("d5", 2.5)]) == ["exd5"]
        assert moves_made(fen, [dump, lift("e4", 2), place("d5", 2.5), press("white", 3)]) == ["exd5"]
    misplaced = BoardSnapshot(occupied=board.occupied & ~chess.BB_H7)
    assert [report.kind for report in Recognizer(chess.Board(fen)).feed(misplaced)] == ["illegal"]


def test_a_king_the_board_names_on_its_castling_square_shows_the_castling() -> None:
    """Found failing (the same generator): position 308's king f1 and rook g1 swap (O-O); the update of the
    rook leaving g1 was lost, so the two never showed in hand together, and the castling read as the king
    and the rook only touched. The board names the rook on f1 and the king on g1: that is the castling."""
    start = chess.Board.from_chess960_pos(308)
    king, rook = start.piece_at(chess.F1), start.piece_at(chess.G1)
    pieces = start.piece_map()
    del pieces[chess.G1]
    pieces[chess.F1] = rook
    dump = BoardSnapshot(occupied=start.occupied & ~chess.BB_G1, pieces=pieces, t=4.3)
    events = [lift("f1", 2.5), place("f1", 4, rook.symbol()), dump, place("g1", 5, king.symbol()),
              press("white", 6)]
    assert moves_made(start.fen(), events) == ["O-O"]


def test_a_promotion_that_could_take_two_pieces_takes_the_one_its_piece_was_named_on() -> None:
    """Found failing (`tools/fuzz_knocks.py`): bxc8=R, the rook on a8 knocked as the hand passed (back 0.15 s
    later) and c8's rook lifted; the board named the white rook landing on c8. With two victims lifted the
    promotion's piece was chosen first, a queen on the first square in order (a8); the square comes first
    now, where the board named the piece that landed."""
    fen = "rbbr3n/pPpppk2/7p/8/3P2p1/P5P1/RP2Pq1P/2BKRNQN w - - 0 12"
    events = [lift("b7", 0.58), lift("a8", 2.24), lift("c8", 2.35), place("a8", 2.4), place("c8", 4.3, "R"),
              place("e5", 5.3), lift("e7", 5.6)]
    assert moves_made(fen, events) == ["bxc8=R", "e5"]


def test_after_a_link_drop_a_snapshot_like_the_last_reading_is_read_afresh() -> None:
    """Found failing (the eighth outside generator's sessions): Black lifted the h5 bishop, the link dropped,
    and Bxe2 was made meanwhile. Presence alone shows the same squares as the bishop in hand; after a
    link drop the snapshot is a resync, and the move it shows is made."""
    fen = "rnk2nr1/6p1/pPpp3p/7b/3R4/6p1/3KP3/8 b kq - 1 25"
    board = chess.Board(fen)
    dropped = [lift("h5", 1), LinkChanged(up=False, t=2), LinkChanged(up=True, t=6),
               BoardSnapshot(occupied=board.occupied & ~chess.BB_H5, t=6.2)]
    recognizer = Recognizer(chess.Board(fen, chess960=True))
    for event in dropped:
        recognizer.feed(event)
    assert recognizer.open_move == board.parse_san("Bxe2")
    assert moves_made(fen, [*dropped, lift("d4", 8), place("f4", 9), press("white", 9.5)]) == ["Bxe2", "Rf4"]


def test_a_live_snapshot_away_from_the_events_is_read_as_the_reports_lost() -> None:
    """Found failing (the ninth outside generator, everything at once): with the link up, a dump showed
    what the field updates had missed. Nd4xc2 with the knight's lift lost: the dump fits Nxb3 cxb3 too, and
    that line was made. exd5 with the victim set down on a6 (its place lost): the dump was called misplaced
    and dropped the lifts seen, so the capture never read. While the link stays up, a dump away from what
    the sensors showed is read as the reports lost; the first one, and one after a reconnect, as before."""
    fen = "r1q2kbr/pppp2pp/5b2/2P5/3n1Q2/PP5P/2P3P1/1N1BNK1R b Kkq - 0 11"
    board = chess.Board(fen)
    named = board.piece_map()
    at_start = BoardSnapshot(occupied=board.occupied, pieces=dict(named), t=0.5)
    del named[chess.D4], named[chess.C2]
    lost_lift = BoardSnapshot(occupied=board.occupied & ~chess.BB_D4 & ~chess.BB_C2, pieces=named, t=1.7)
    events = [at_start, lift("c2", 1.4), lost_lift, place("c2", 2.7, "n"), press("black", 3.5)]
    assert moves_made(fen, events) == ["Nxc2"]
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
    board = chess.Board(fen)
    set_aside = board.occupied & ~chess.BB_E4 & ~chess.BB_D5 | chess.BB_A6
    events = [BoardSnapshot(occupied=board.occupied, t=0.5), lift("e4", 1), lift("d5", 2),
              BoardSnapshot(occupied=set_aside, t=3), place("d5", 4, "P"), lift("a6", 5), press("white", 6)]
    assert moves_made(fen, events) == ["exd5"]


def test_a_board_turned_round_is_detected_when_its_set_up_is_complete() -> None:
    """Found failing (the tenth outside generator, DGT): the host's first dump showed an empty board, then
    the pieces were reported one by one, turned round. Detection ended with the first event, so the game
    read as misplaced. The way round is now decided once the pieces identified agree with the start one
    way only: when a dump shows them, or when the last piece of the set-up lands."""
    start = chess.Board()
    turned = {63 - square: piece for square, piece in start.piece_map().items()}

    def turned_event(kind, name: str, t: float, piece: str | None = None):
        return kind(chess.square_name(63 - chess.parse_square(name)), t, *([piece] if piece else []))

    set_up = [place(chess.square_name(square), 0.1 + i / 10, piece.symbol())
              for i, (square, piece) in enumerate(sorted(turned.items()))]
    moves = [turned_event(lift, "e2", 5), turned_event(place, "e4", 5.5, "P"),
             turned_event(lift, "e7", 6), turned_event(place, "e5", 6.5, "p"),
             turned_event(lift, "g1", 7), turned_event(place, "f3", 7.5, "N"), press("white", 8)]
    for first_dump in ([BoardSnapshot(occupied=0)], []):
        assert moves_made(start.fen(), [*first_dump, *set_up, *moves]) == ["e4", "e5", "Nf3"]


def _turned_name(name: str) -> str:
    return chess.square_name(63 - chess.parse_square(name))


def _dump(pieces: dict[chess.Square, chess.Piece], t: float) -> BoardSnapshot:
    return BoardSnapshot(occupied=sum(chess.BB_SQUARES[square] for square in pieces), pieces=pieces, t=t)


def test_a_board_turned_round_is_detected_from_a_first_dump_with_a_piece_wrong() -> None:
    """Found failing (the sixtieth outside generator, boards turned round): a first dump with a spare
    queen in the middle, a black pawn misplaced on the connector's half, or two pieces swapped agrees with
    the start neither way round exactly, so the board was read straight; fixing the piece then left a board
    read as misplaced (the pawn even read as 1.e3), and the game was lost. Nearly every piece of a dump
    agreeing with the start one way round, hardly any the other, now decides it."""
    start = chess.Board()
    turned = {63 - square: piece for square, piece in start.piece_map().items()}
    queen, pawn = chess.Piece.from_symbol("Q"), chess.Piece.from_symbol("p")
    spare = {**turned, chess.E5: queen}
    misplaced = {**{square: piece for square, piece in turned.items() if square != chess.E2}, chess.E3: pawn}
    swapped = {**turned, chess.G8: turned[chess.F8], chess.F8: turned[chess.G8]}
    fixes = {
        "spare": (spare, [lift("e5", 1)]),
        "misplaced": (misplaced, [lift("e3", 1), place("e2", 1.5, "p")]),
        "misplaced, unnamed": (misplaced, [lift("e3", 1), place("e2", 1.5)]),
        "swapped": (swapped, [lift("g8", 1), lift("f8", 1.3), place("g8", 1.6, "N"), place("f8", 1.9, "B")]),
    }
    moves = [lift(_turned_name("e2"), 5), place(_turned_name("e4"), 5.5, "P"),
             lift(_turned_name("e7"), 6), place(_turned_name("e5"), 6.5, "p")]
    for kind, (first, fix) in fixes.items():
        assert moves_made(start.fen(), [_dump(first, 0.1), *fix, *moves]) == ["e4", "e5"], kind
    straight_spare = {**start.piece_map(), chess.E4: queen}
    assert moves_made(start.fen(), [_dump(straight_spare, 0.1), lift("e4", 1), lift("e2", 5),
                                    place("e4", 5.5, "P")]) == ["e4"]


def test_a_new_game_set_up_the_other_way_round_is_read_that_way() -> None:
    """Found failing (the same generator): players who change colours turn the board round. The way round
    was decided once, before the first game's first move, so the next game, set up turned, read as
    misplaced. A new game's set-up with nearly every piece named on the other colour's half turns it."""
    start = chess.Board()
    turned = {63 - square: piece for square, piece in start.piece_map().items()}
    first = [_dump(turned, 0.1), lift(_turned_name("e2"), 1), place(_turned_name("e4"), 1.5, "P"),
             lift(_turned_name("e7"), 2), place(_turned_name("e5"), 2.5, "p")]
    on_board = set(turned) - {chess.D7, chess.D2} | {chess.D5, chess.D4}  # 1.e4 e5 turned round
    clear = [lift(chess.square_name(square), 3 + i / 20) for i, square in enumerate(sorted(on_board))]
    set_up = [place(chess.square_name(square), 6 + i / 20, piece.symbol())
              for i, (square, piece) in enumerate(sorted(start.piece_map().items()))]
    second = [lift("d2", 10), place("d4", 10.5, "P"), lift("d7", 11), place("d5", 11.5, "p")]
    recognizer = Recognizer(start)
    for event in [*first, *clear, *set_up, *second]:
        recognizer.feed(event)
    recognizer.finish()
    games = [[move.uci() for move in game.mainline_moves()] for game in recognizer.games()]
    assert games == [["e2e4", "e7e5"], ["d2d4", "d7d5"]]


# the capture, its position, its events, the square its piece goes back to, the move made instead, the reply
DUMP_MID_TAKEBACK = {
    "cxb8=Q": ("1r6/2P3k1/8/8/8/8/8/K7 w - - 0 1", [lift("c7", 1), lift("b8", 2), place("b8", 3)], "c7",
               [press("promote_n", 8.1), lift("c7", 9.1), place("c8", 10.1)], ("g7", "g6"), ["c8=N", "Kg6"]),
    "Rxb8+": ("1r4k1/8/8/8/8/8/8/1R4K1 w - - 0 1", [lift("b8", 1), lift("b1", 2), place("b8", 3)], "b1",
              [lift("b1", 9.1), place("b2", 10.1)], ("g8", "g7"), ["Rb2", "Kg7"]),
}


@pytest.mark.parametrize("capture_san", sorted(DUMP_MID_TAKEBACK))
def test_a_dump_in_the_middle_of_a_takeback_changes_nothing(capture_san: str) -> None:
    """Found failing (the fifty-eighth outside generator, promotions): cxb8=Q taken back, the queen lifted
    and the rook put back while the pawn was still in hand, shows the occupancy after the capture, and a
    presence dump then (or a board sending its last snapshot again) was read as the board at rest in the
    game's position: what the hands had done was forgotten, and the pawn put back on c7 read as misplaced.
    A dump that shows only what the sensors showed already now changes nothing."""
    fen, capture, origin, instead, (king_from, king_to), expected = DUMP_MID_TAKEBACK[capture_san]
    board = chess.Board(fen)
    board.push_san(capture_san)
    dump = BoardSnapshot(occupied=board.occupied, t=6.4)
    taken_back = [lift("b8", 5.1), place("b8", 6.1), dump, place(origin, 7.1)]
    reply = [press("white", 10.7), lift(king_from, 11.7), place(king_to, 12.7)]
    assert moves_made(fen, [*capture, press("white", 3.6), *taken_back, *instead, *reply]) == expected


def test_a_promotion_button_pressed_while_a_quick_capture_waits_to_be_read_is_the_replys() -> None:
    """Found failing (a generator fitted to the samples, with wider timings): Nxd3 with the victim's square
    filled again 0.2 s after its lift reads as a bounce until White's move shows it; White then pressed
    promote_n between f7's lift and f8's place. Reading the capture late counted the press as spent on it,
    and the pawn became a queen."""
    fen = "7k/5P2/8/8/8/3P4/8/K3n3 b - - 0 1"
    events = [lift("e1", 1), lift("d3", 2), place("d3", 2.2), lift("f7", 4), press("promote_n", 5),
              place("f8", 6), lift("h8", 7), place("g8", 8)]
    assert moves_made(fen, events) == ["Nxd3", "f8=N", "Kg8"]


def test_a_piece_the_board_names_wrongly_for_good_does_not_block_the_move_presence_shows() -> None:
    """Found failing (a misread fuzz: one kind of piece named as another every time it lands, as a worn
    piece does): e2-e4 reported as a bishop landing on e4, and Bf1-c4 reported as a knight. No move
    explains the name, so it was read as nothing and the game stopped there. The name now only rules a
    move out when it is the piece that stood on the square (a victim put back, a touch)."""
    start = chess.STARTING_FEN
    events = [lift("e2", 1), place("e4", 1.5, "B"), press("white", 2), lift("e7", 3), place("e5", 3.5, "p"),
              press("black", 4), lift("f1", 5), place("c4", 5.5, "N"), press("white", 6)]
    assert moves_made(start, events) == ["e4", "e5", "Bc4"]
    victim_back = [lift("e2", 1), place("e4", 1.5, "P"), lift("d7", 3), place("d5", 3.5, "p"), lift("d5", 5),
                   lift("e4", 5.5), place("d5", 6, "p"), place("e4", 6.5, "P")]
    assert moves_made(start, victim_back) == ["e4", "d5"]


def test_a_promotion_button_that_changed_nothing_leaves_the_next_promotion_its_own_button() -> None:
    """Found failing (an outside generator of FEN starts): a8=Q with promote_q pressed after the place (or a8
    named a knight and promote_n pressed), no clock, then g1 and promote_r after its place. The first press,
    repeating the open promotion's piece, was kept as spare for the next promotion; it then chose g1's piece
    and made Black's own press spare in turn, so g1 became a queen (or a knight) and not the rook pressed."""
    fen = "8/P2k4/8/8/8/7K/6p1/8 w - - 0 1"
    black = [lift("g2", 4), place("g1", 5), press("promote_r", 6), press("black", 7)]
    repeated = [lift("a7", 1), place("a8", 2), press("promote_q", 3), *black]
    assert sans(fen, repeated) == ["a8=Q", "g1=R"]
    named = [lift("a7", 1), place("a8", 2, "N"), press("promote_n", 3), *black]
    assert sans(fen, named) == ["a8=N", "g1=R"]


def test_a_double_step_corrected_to_a_single_step_then_taken_is_no_en_passant_placed_first() -> None:
    """Found failing (an outside generator of FEN starts): d2-d4 corrected to d2-d3 (lift d4, place d3), then
    Black's cxd3, own pawn first, its lift a second after the correction. Read as d4 and an en passant
    capture whose pawn landed on d3 a second before it left c4, then d3 touched. A board's scan shows a
    place before its lift only for a moment; with a lift that late, the next lift taking the corrected
    pawn says the correction stands. A lift at once is the en passant capture placed first."""
    fen = "4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1"
    events = [lift("d2", 1), place("d4", 2), lift("d4", 3), place("d3", 3.5), lift("c4", 4.5),
              lift("d3", 6.5), place("d3", 8)]
    assert moves_made(fen, events) == ["d3", "cxd3"]
    placed_first = [*events[:4], lift("c4", 3.7), lift("d3", 6.5), place("d3", 8)]
    assert moves_made(fen, placed_first) == ["d4", "cxd3"]


def test_a_first_capture_named_like_the_start_turned_round_is_no_turned_board() -> None:
    """Found failing (an outside enumerator of event orders): from 1.e4 d5 as the start, exd5 victim first
    with the pawn's place (named P) reported just before its lift. The place completed the start's occupancy
    and the one piece named agreed with the start turned round (e4 holds a P), so the board read as turned
    round and no move was read. A set-up turned round names every piece it places."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    events = [lift("d5", 1.8), place("d5", 2.6, "P"), lift("e4", 2.7), press("white", 3.5)]
    assert moves_made(fen, events) == ["exd5"]


def test_a_promotion_button_after_a_capture_that_was_read_again_is_kept_for_the_reply() -> None:
    """Found failing (two outside generators: other boards' raw bytes, and enumerated event orders): Qxg5,
    queen lifted first, then promote_r, then Black's a1 placed before a2's lift. The place first read as the
    queen moving on to a1; a2's lift brought Qxg5 back, shown anew after the press, so the press counted as
    made before White's move and was dropped, and a1 became a queen."""
    fen = "8/7k/1p4p1/1P4p1/8/7K/p2R4/6Q1 w - - 0 50"
    events = [lift("g1", 0.5), lift("g5", 1), place("g5", 1.5), press("promote_r", 2), place("a1", 2.5),
              lift("a2", 3)]
    assert moves_made(fen, events) == ["Qxg5", "a1=R"]


def test_a_capture_placed_first_is_read_before_the_reply_retakes() -> None:
    """Found failing (an outside enumerator of event orders): Rc8xc2 victim first, the rook's place reported
    0.06 s before its lift, then Bb1xc2 the same way. The first capture waited to be read (it also looks like
    a touch and the rook in hand), so White's lift of c2 and place there read as the rook landing, and Bxc2
    vanished. A lift that quick after the place is the board's scan: the capture is shown at once, open."""
    fen = "1br1n1k1/3p1p2/1Q2p3/p6P/5n1P/3P4/PPP2P2/BBR1K2N b - - 0 13"
    events = [lift("c2", 1.8), place("c2", 2.6), lift("c8", 2.66), lift("c2", 3.66), place("c2", 4.66),
              lift("b1", 4.86), press("white", 5.66)]
    assert moves_made(fen, events) == ["Rxc2", "Bxc2"]
    touched = [lift("c2", 1.8), place("c2", 2.6), lift("c8", 3.1), place("c6", 4), press("black", 5)]
    assert moves_made(fen, touched) == ["Rc6"]  # a hand's lift after a touch: no capture


def test_a_castling_whose_king_was_placed_first_then_touched_stays_a_castling() -> None:
    """Found failing (an outside enumerator of event orders): O-O with the king's place on g1 reported before
    its lift from f1, then the rook h1-f1, then the king touched. The king placed first never showed king and
    rook in hand together, so once the touch had put the king back, Rg1 (the same squares) replaced the
    castling. A touch of one piece leaves the castling shown again as it was."""
    fen = "4rrk1/ppp2p2/8/6p1/8/7P/1PPP1PP1/2B1RK1R w HE - 1 3"
    events = [place("g1", 1.8), lift("f1", 1.87), lift("h1", 2.67), place("f1", 3.47), lift("g1", 4.27),
              place("g1", 5.07)]
    assert moves_made(fen, events) == ["O-O"]


def test_a_capture_placed_first_by_a_rook_that_may_castle_is_no_castling_half() -> None:
    """Found failing (an outside enumerator of event orders): Rf8xf2 victim first, the rook's place reported
    0.2 s before its lift, then White's transposition castling. The rook's lift looked like half of Black's
    castling and waited; the clock then made the capture with the evidence of White's castling gone."""
    fen = "2rk1r2/ppppp2p/8/8/8/8/1PPPPPPP/2RK1R2 b FCfc - 0 1"
    events = [lift("f2", 2.373), place("f2", 3.898), lift("f8", 4.112), lift("d1", 6.246), lift("c1", 6.847),
              place("c1", 8.17), place("d1", 9.793), press("white", 10.437)]
    assert moves_made(fen, events) == ["Rxf2", "O-O-O"]


def test_a_capture_set_down_across_two_squares_then_the_other_side_begins() -> None:
    """Found failing (an outside generator of slides and touches): exd5 own piece first, the pawn brushing e5
    as it was set down (place e5 0.24 s later, lift e5 0.16 s after), then Nf6 with no clock press. The brush
    read as e4-e5 (d5 only touched); Black's lift made it final and the board went illegal. As at the clock,
    the other side's lift now finds the piece never landed on e5 and the capture seen before it made."""
    events = [lift("e2", 1), place("e4", 2), press("white", 2.5), lift("d7", 3.5), place("d5", 4.5),
              press("black", 5), lift("e4", 6), lift("d5", 7), place("d5", 7.5), place("e5", 7.74),
              lift("e5", 7.9), lift("g8", 9.6), place("f6", 10.6), lift("g1", 14), place("f3", 15)]
    assert moves_made(chess.STARTING_FEN, events) == ["e4", "d5", "exd5", "Nf6", "Nf3"]


def test_a_line_caught_up_stops_where_the_promotion_chosen_leaves_no_legal_next_move() -> None:
    """Found crashing (the nineteenth corpus, in replay's second reading): dxc1 with the victim's lift never
    reported, then a7-a8 and White's clock. The clock's catch-up found the line dxc1 a8; made with the
    default queen, dxc1=Q gives check and a8 has no legal promotion left. The board shows a8 was played, so
    the promotion was to a piece that gives no check."""
    start = "4nr1k/P6P/8/R1r1pp2/P2p3b/8/2Bp2n1/1bQ2K2 b - - 0 31"
    events = [lift("d2", 1), place("c1", 3), lift("a7", 8), place("a8", 9), press("white", 10)]
    made = moves_made(start, events)
    assert made in (["dxc1=B", "a8=Q"], ["dxc1=N", "a8=Q"])


def test_a_capture_whose_victim_square_never_showed_empty_is_made_at_the_movers_clock() -> None:
    """Found missing (the nineteenth corpus): exd5 on a presence board that scanned too slowly to see d5
    empty shows only e4 lifted; the mover's clock says the move is on the board, and exd5 is the only capture
    that explains it. With two victims in reach the board cannot tell which was taken, and nothing is made."""
    opening = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4)]
    made = moves_made(chess.STARTING_FEN, [*opening, lift("e4", 5), press("white", 7)])
    assert made == ["e4", "d5", "exd5"]
    two_victims = [*opening, lift("b1", 5), place("c3", 6), lift("f7", 7), place("f5", 8)]
    assert moves_made(chess.STARTING_FEN, [*two_victims, lift("e4", 9), press("white", 11)]) == [
        "e4", "d5", "Nc3", "f5"]


def test_a_clock_pressed_with_the_piece_still_in_hand_waits_for_it_to_land() -> None:
    """The mover's clock with its piece in hand looks like a capture no scan saw, until the piece lands:
    then the press came early, and the move is where it landed."""
    opening = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4)]
    early = [*opening, lift("e4", 5), press("white", 6), place("e5", 7), lift("c7", 8), place("c6", 9)]
    assert moves_made(chess.STARTING_FEN, early) == ["e4", "d5", "e5", "c6"]
    unseen = [*opening, lift("e4", 5), press("white", 6), lift("c7", 8), place("c6", 9)]
    assert moves_made(chess.STARTING_FEN, unseen) == ["e4", "d5", "exd5", "c6"]


# ---------------------------------------------------------------- a hand brushing two pieces


def test_two_pieces_a_hand_brushed_crossed_are_nothing() -> None:
    """Found failing (an outside generator): exd5 still open, then the hand brushes the pawns on g7 and f5,
    crossed (lift g7, lift f5, g7 back, f5 back, each within a bounce). The f5 pawn's lift and return read
    as the e-pawn taking it instead: exf5. Both are back, so both were knocks."""
    start = "rnbqkbnr/ppp1p1pp/8/3p1p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
    exd5 = [lift("d5", 1.0), lift("e4", 2.5), place("d5", 4.0)]
    brush = [lift("g7", 4.85), lift("f5", 4.88), place("g7", 4.93), place("f5", 4.95)]
    assert moves_made(start, [*exd5, *brush, lift("g8", 6.95), place("f6", 8.45)]) == ["exd5", "Nf6"]


def test_two_pieces_brushed_before_a_capture_made_capturer_first() -> None:
    """Found failing (the same generator): the white pawns c4 and d2 brushed, then dxe4 made capturer first
    read as dxc4."""
    start = "rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 2"
    brush = [lift("c4", 1.0), lift("d2", 1.04), place("c4", 1.1), place("d2", 1.13)]
    assert sans(start, [*brush, lift("d5", 1.93), lift("e4", 2.33), place("e4", 3.03)]) == ["dxe4"]


def test_a_brushed_piece_the_mover_could_take_is_no_capture_quicker_than_a_bounce() -> None:
    """Found failing (fuzz_knocks with two knocks): the queen and its victim in hand, the hand brushes c4
    and c5 crossed. That read as Qxc5 and bxc4, two captures each quicker than a bounce."""
    start = "2qrbk2/p3pp1p/n3n1p1/1pp5/1QP1pPP1/2b1P2P/3P2RK/N2RBB2 w - - 5 25"
    brush = [lift("c4", 2.529), lift("c5", 2.656), place("c4", 2.711), place("c5", 2.799)]
    events = [lift("b4", 1.094), lift("b5", 1.662), *brush, place("b5", 3.462), press("white", 4.484)]
    assert sans(start, events) == ["Qxb5"]


def test_a_piece_of_the_other_kind_set_down_quickly_is_no_knock() -> None:
    """A board that names pieces: the knight lands on b2 0.2 s after the bishop left it. That is Nxb2, not
    the bishop knocked, even with the knight lifted between."""
    start = "4k3/8/8/8/2n5/8/1B6/4K3 b - - 0 1"
    events = [lift("c4", 1.0), lift("b2", 1.8), place("b2", 2.0, "n")]
    assert sans(start, events) == ["Nxb2"]


# ---------------------------------------------------------------- castling on a board that names pieces


def test_king_and_rook_named_back_on_their_own_squares_are_no_transposition() -> None:
    """Found failing (an outside generator of DGT captures): king f1 and rook g1 may castle O-O by swapping.
    Both lifted and put back where they stood, the board naming each: item 9 read a transposition castling,
    which the names rule out. Swapped, the names show the castling."""
    start = "4k3/pppppppp/8/8/8/8/PPPPPPPP/5KR1 w G - 0 1"
    both = [lift("f1", 1), lift("g1", 2)]
    assert sans(start, [*both, place("f1", 3, "K"), place("g1", 4, "R"), lift("h2", 7), place("h3", 8)]) == [
        "h3"]
    assert sans(start, [*both, place("f1", 3, "R"), place("g1", 4, "K"), press("white", 5)]) == ["O-O"]
    assert sans(start, [*both, place("f1", 3), place("g1", 4), press("white", 5)]) == ["O-O"]  # presence only


def test_a_rook_named_on_the_kings_castling_square_is_a_rook_move() -> None:
    """Found failing (a review against the spec): king f1 and rook h1 both lifted, the rook set on g1 and the
    king back on f1, each named. That is Rg1 with the king touched, not O-O."""
    start = "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1"
    both = [lift("f1", 2), lift("h1", 2.4)]
    assert sans(start, [*both, place("g1", 2.9, "R"), place("f1", 3.4, "K"), press("white", 3.8)]) == ["Rg1"]


def test_a_castling_king_or_rook_the_board_names_wrongly_is_still_the_castling() -> None:
    """Found failing (an outside generator of boards that name pieces, worn pieces): the king's step e1-c1
    that can only be O-O-O named a bishop, or O-O's king named a queen or its rook a knight: no piece of those
    names was lifted or stands there, so the names are misreads. They ruled the castling out, and the game
    stopped there. A name that a piece lifted could have still rules it out (the test above)."""
    assert sans("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", [lift("e1", 1), place("c1", 2, "B")]) == ["O-O-O"]
    standard = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    both = [lift("e1", 1), lift("h1", 1.6)]
    assert sans(standard, [*both, place("f1", 2.4, "R"), place("g1", 3.1, "Q")]) == ["O-O"]
    assert sans(standard, [*both, place("f1", 2.4, "N"), place("g1", 3.1, "K")]) == ["O-O"]


def test_a_capture_placed_first_then_a_move_and_a_late_lift_taking_it() -> None:
    """Found failing (an outside event generator, blitz): b4 placed before its lift, the pawn lifted and set
    back (1.4 s), a5-a4 with the a5 lift 0.18 s after, then Nc5 lifted, the pawn on a4 lifted, the knight
    set on a4. Read as axb4 (the b4 lift its victim, the pawn placed on b4 before a5's lift) and Na4 placed
    before its lift, the knight then lifted again, however late c5 was lifted. A lift later than a board's
    scan ends no move placed first: a touch, a pawn move and a capture own piece first. Lifted within a
    scan of a4's place (an outside enumerator's case), it is both moves placed first, and a4 a touch."""
    fen = "4k3/8/8/p1N5/8/8/1P6/4K3 w - - 0 1"
    made = [place("b4", 10.989), lift("b2", 11.237), lift("b4", 11.738), place("b4", 13.097),
            lift("a5", 13.274), place("a4", 13.621)]
    for lifted in (14.2, 15):
        assert moves_made(fen, [*made, lift("c5", lifted), lift("a4", 15.68), place("a4", 16.155)]) == [
            "b4", "a4", "Nxa4"]
    quick = [*made, lift("c5", 13.8), lift("a4", 15.68), place("a4", 16.155)]
    assert moves_made(fen, quick) == ["b4", "axb4", "Na4"]


def test_moves_the_board_shows_at_once_are_made_in_the_order_their_pieces_left() -> None:
    """Found failing (an outside generator of fast play): exd5 with the victim's square refilled at once
    (the capture placed first), e4 lifted 1.3 s later, too late for that; then c6 and Nc3. The clock's
    catch-up found the three moves, but made them as Nc3, c6, exd5: any order shows the same squares.
    Of such lines the one whose pieces left in its order is the one played. Likewise two pawns lifted
    together and set down before a knight moves."""
    start = chess.STARTING_FEN
    opening = [lift("e2", 1), place("e4", 1.5), lift("d7", 2), place("d5", 2.5)]
    events = [*opening, lift("d5", 3), place("d5", 3.01), lift("e4", 4.31), lift("c7", 6.81),
              place("c6", 7.31), lift("b1", 8.31), place("c3", 8.81)]
    assert moves_made(start, events) == ["e4", "d5", "exd5", "c6", "Nc3"]
    together = [lift("e2", 1), lift("e7", 1.2), place("e4", 1.6), place("e5", 1.8), lift("g1", 3),
                place("f3", 3.5)]
    assert moves_made(start, together) == ["e4", "e5", "Nf3"]


def test_a_quick_transposition_castling_with_crossed_hands_is_castling() -> None:
    """Found failing (an outside generator of fast play): king d8 and rook c8 castle O-O-O onto each other's
    squares, lifted and set down crossed 0.12 s apart (rook, king, c8, d8). Read as a hand brushing two pieces
    (each back within a bounce), and the rook's lift as one knocked back that made Ng3 open again. Item 9:
    king and rook off together and back on the castling squares, even their own, is castling."""
    fen = chess.Board.from_chess960_pos(264).fen()
    events = [lift("f1", 1.0), place("g3", 1.4), lift("c8", 1.8), lift("d8", 1.92), place("c8", 2.04),
              place("d8", 2.16)]
    assert moves_made(fen, events) == ["Ng3", "O-O-O"]
    assert moves_made(fen, [*events, lift("e2", 3), place("e4", 3.5)]) == ["Ng3", "O-O-O", "e4"]


# ---------------------------------------------------------------- pieces slid and set down across squares


def test_a_capture_slid_onto_its_victims_square_while_still_showing_on_the_square_before() -> None:
    """Found failing (an outside generator of sensor physics): Qxd2 own piece first, the queen slid d4, d3,
    d2, each square reporting it before the last let go. With the victim off, the queen on d4 and d3 made
    the board misplaced for 40 ms; the queen landing on d2 then read as the victim knocked back there, and
    the game went on from Qd3. The victim left before the board was misplaced: no knock on that board."""
    fen = "4k3/8/8/3q4/8/8/3P4/4K3 b - - 0 1"
    slide = [lift("d5", 1.0), lift("d2", 1.1), place("d4", 1.2), place("d3", 1.25), lift("d4", 1.29),
             place("d2", 1.34), lift("d3", 1.39)]
    assert moves_made(fen, [*slide, lift("d2", 3.0), lift("e1", 3.3), place("d2", 3.6)]) == ["Qxd2+", "Kxd2"]


def test_a_capture_set_down_across_the_victims_square_and_the_next_is_the_capture() -> None:
    """Found failing: Rxa8 own piece first, the rook set down across a8 and a7 (a7 full for 0.18 s). A7
    filling with a8 full read as the rook only touching the victim, Ra7; the queen that then takes on a8
    could also take a rook on a7, which read as its victim-first reply. A piece lifted that soon after it
    landed was set down across two squares: the hand that lifts a victim comes later."""
    fen = "rq4k1/8/R7/8/8/8/8/6K1 w - - 0 1"
    events = [lift("a6", 1.0), lift("a8", 1.3), place("a8", 1.9), place("a7", 2.0), lift("a7", 2.18),
              lift("b8", 5.0), lift("a8", 5.35), place("a7", 5.51), place("a8", 5.63), lift("a7", 5.73)]
    assert moves_made(fen, events) == ["Rxa8", "Qxa8"]



def test_a_knight_slid_over_squares_it_cannot_stop_on_then_pushing_its_victim_off() -> None:
    """Found failing (DGT, naming pieces): Nf5xe7 slid over f6 and f7, each a misplaced board for a moment,
    then pushing the pawn off e7 (the knight named there 7 ms after the pawn left). The knight read as the
    pawn knocked back on a misplaced board; the capture was never made and the game was lost. A piece named
    as another is no knock."""
    fen = "qrbbn1kr/ppp1p2n/7p/3p1N2/6pP/1BP5/PP1PPPP1/QRB1NRK1 w kq - 2 7"
    events = [lift("f5", 1), place("f6", 1.067, "N"), lift("f6", 1.143), place("f7", 1.164, "N"),
              lift("f7", 1.267), lift("e7", 1.267), place("e7", 1.274, "N"), lift("e7", 2.813),
              lift("d8", 3.689), place("e7", 5.122, "b"), lift("b3", 5.826), lift("d5", 5.922),
              place("c4", 6.013, "B"), place("d5", 6.181, "B"), lift("c4", 6.181), lift("c8", 9.064),
              place("d7", 9.271, "b"), place("e5", 9.271, "b"), lift("d7", 9.271), place("e6", 9.271, "b"),
              lift("e5", 9.271)]
    assert moves_made(fen, events) == ["Nxe7+", "Bxe7", "Bxd5+", "Be6"]


def test_a_push_capture_after_a_board_misplaced_for_a_flicker() -> None:
    """Found failing: Qxe3 pushing the victim off (lift and place at once), then the sleeve brushing e4 and
    a4, the a4 pawn set down across b5 for 40 ms: a misplaced board. Reported, it stayed misplaced, so
    Rxb6 with the rook set down across b7 read as Rb7, and the game was lost. A board misplaced for less
    than a bounce that then shows the game with pieces in hand is a move going on."""
    fen = "1r1nr3/5p1k/1P1pP1pb/6Pp/P3P3/Q3q3/5B1P/6KB w - - 1 29"
    events = [lift("a3", 1), lift("e3", 1.686), place("e3", 1.686), lift("e4", 2.01), place("e4", 2.195),
              lift("a4", 2.228), place("b5", 2.246), place("a4", 2.27), lift("b5", 2.289), lift("b8", 4.238),
              lift("b6", 5.828), place("b7", 5.99), place("b6", 6.037), lift("b7", 6.112), lift("e3", 7.294),
              lift("b6", 8.657), place("b6", 8.657)]
    assert moves_made(fen, events) == ["Qxe3", "Rxb6", "Qxb6"]


def test_a_knock_back_while_the_other_sides_move_goes_on_does_not_reopen_the_last_move() -> None:
    """Found failing (blitz, no clock): after Kxf1, Black's d6 pawn knocked (0.14 s) as the d7 knight left,
    set down across c6 on its way to take on b8. The pawn back reopened Kxf1 as if Black had not begun,
    with the knight in hand; White's next move then read as part of it. With another of its pieces in hand,
    and the mover's all down, the other side's move goes on."""
    fen = "nBqbk3/2pnppR1/3p4/pp6/8/3PQP2/PPP1P1p1/NR1BKN2 b Q - 0 11"
    events = [lift("f1", 1), lift("g2", 1.074), place("f1", 1.247), lift("f1", 1.386), lift("e1", 1.419),
              place("f1", 1.569), lift("d6", 1.63), lift("d7", 1.675), place("c6", 1.688), place("d6", 1.766),
              lift("c6", 1.825), lift("b8", 1.859), place("b8", 1.861), lift("e3", 1.94), place("d2", 2.023),
              lift("e7", 2.151), place("e5", 2.257), lift("d6", 2.394), place("d6", 2.573), lift("d2", 2.65)]
    assert moves_made(fen, events) == ["gxf1=Q+", "Kxf1", "Nxb8", "Qd2", "e5"]


def test_a_move_changed_before_the_clock_is_no_capture_read_from_the_square_it_left() -> None:
    """Found failing: g7-g5 changed to g6, then White's h5 pawn lifted before Black's clock press. The
    pawn on g6 read as the en passant reply placed 1.5 s before its lift; White's h6 then went astray.
    g5 was empty when g6 filled, and a capture is placed that early before its lift on no board: g6 is
    Black's pawn, changed there."""
    fen = "4k3/6p1/8/7P/8/8/8/4K3 b - - 0 1"
    events = [lift("g7", 1.0), place("g5", 1.5), lift("g5", 2.2), place("g6", 2.6), lift("h5", 4.1),
              press("black", 4.3), place("h6", 4.5), press("white", 4.8)]
    assert moves_made(fen, events) == ["g6", "h6"]


def test_an_illegal_try_after_a_capture_victim_first_does_not_rewrite_that_capture() -> None:
    """Found failing: Rxh3+ victim first (no clock), White's f4 pawn bouncing while the rook was in hand;
    White, in check, then set that pawn down on e4. The board read as Rxf4, quicker than a bounce, followed
    by Be4. The victim on h3 was off for seconds: that capture was made, and e4 is an illegal try."""
    fen = "3k4/8/8/3N1p2/1P3P1r/5BKP/8/8 b - - 1 57"
    events = [lift("h3", 1), lift("h4", 2.065), lift("f4", 2.478), place("f4", 2.541), place("h3", 4.064),
              lift("f4", 7.399), place("e4", 8.66), lift("e4", 9.708), place("f4", 10.158), lift("g3", 11.29),
              lift("h3", 12.444), place("h3", 13.312)]
    assert moves_made(fen, events) == ["Rxh3+", "Kxh3"]


def test_en_passant_placed_first_while_the_double_step_still_stands() -> None:
    """Found failing (the thirteenth generator, after last session's rule above): b2-b4 unpressed, then
    Black set the taking pawn on b3 first, lifted b4 and, 3.8 s after b3 filled, c4; Bg2 and b2 followed
    with no clock. The place came long before its lift, so b3 read as White's b4 changed there, and the
    board went wrong. But b4 still stood when b3 filled: one pawn is not on both, so b3 was Black's."""
    fen = "bknr1nrb/p1pp2p1/1q2p3/P4P2/2p2PRp/4P3/1PNP3P/BRQK1N1B w Q - 3 13"
    events = [lift("b2", 228.846), place("b4", 229.868), place("b3", 231.99), lift("b4", 234.111),
              lift("c4", 235.837), lift("h1", 237.607), place("g2", 239.037), lift("b3", 245.048),
              place("b2", 248.294), press("black", 249.425)]
    assert moves_made(fen, events) == ["b4", "cxb3", "Bg2", "b2"]


def test_en_passant_placed_first_then_the_next_move_before_the_clock() -> None:
    """Found failing (the thirteenth generator): c7-c5 placed before its lift, then en passant victim
    first, the taking pawn set on c6 a second before b5 was lifted; Black's f5 tried and put back, then
    Rb8 and Black's clock, White's never pressed. Read as c5 changed to c6 and White's pawn still in hand,
    the board went wrong; at the press it read bxa6 (a6, touched before, never emptied). The line
    through the c5 the hands made first explains every square as well: it is the game."""
    fen = "3k2br/1rp2pp1/n2p2n1/1P5p/2P2P1b/1P2Q3/RK2P1PP/3B3R b - - 0 21"
    events = [lift("a6", 1.0), place("a6", 1.6), place("c5", 3.247), lift("c7", 3.523), lift("c5", 8.405),
              place("c6", 10.084), lift("b5", 11.136), lift("g2", 14.29), place("g2", 14.32),
              lift("f7", 15.863), place("f5", 17.016), lift("f5", 21.646), place("f7", 22.954),
              lift("b7", 26.99), place("b8", 28.819), press("black", 30.048)]
    assert moves_made(fen, events) == ["c5", "bxc6", "Rb8"]


def test_en_passant_placed_first_then_the_movers_next_piece_lifted() -> None:
    """Found failing (the thirteenth generator): b7-b5, then en passant victim first, the taking pawn set
    on b6 4.2 s before a5 was lifted, and Black's king lifted next, no clock between. Read as b5 changed
    to b6 with White's pawn in hand, the king's lift could not be explained (a pawn on a5 takes nothing on
    c7); the en passant explains it."""
    fen = "rb1nnq1r/1pk4p/3p1pN1/P7/P1p3PP/2P1Pb2/1N1P4/RBK2QBR b KQ - 2 12"
    events = [lift("b7", 1.0), place("b5", 8.89), lift("b5", 16.139), place("b6", 19.254), lift("a5", 23.453),
              lift("c7", 28.332), place("b7", 33.839), press("black", 34.842)]
    assert moves_made(fen, events) == ["b5", "axb6+", "Kb7"]


def test_en_passant_victim_first_pressed_at_once_is_no_move_changed_and_taken_back() -> None:
    """Found reporting a takeback (the fourteenth generator): h7-h5, then en passant victim first, the
    taking pawn set on h6 1.9 s before g5 was lifted and White's clock pressed at once. Read as h5
    changed to h6 with White's pawn in hand, the press put it right by taking h6 back, a takeback no
    one made. White's clock says White's move is down: the en passant is read at once."""
    recognizer = Recognizer(chess.Board("4k2r/5R1p/8/2p3P1/2P1b3/8/5R2/6K1 b - - 0 25", chess960=True))
    events = [lift("h7", 1.0), place("h5", 3.044), lift("h5", 5.147), place("h6", 6.338), lift("g5", 8.276),
              press("white", 8.9), lift("h6", 9.836), lift("h8", 10.986), place("h6", 13.014)]
    reports = [r for e in events for r in recognizer.feed(e)] + recognizer.finish()
    assert [(r.kind, r.san) for r in reports] == [("move", "h5"), ("move", "gxh6"), ("move", "Rxh6")]


def test_en_passant_victim_first_then_the_movers_next_move_placed_first() -> None:
    """Found failing (a timing sweep, no clock): h7-h5 placed first, then en passant victim first, the taking
    pawn set on h6 4.2 s before g5 was lifted, and Black's Bd8 placed before its lift. Read as h5 changed to
    h6 with White's pawn in hand, the bishop landing where no pawn goes was unexplained and the board was
    lost; the en passant explains it."""
    fen = "r3k1nr/ppp1b2p/2nqp3/3p1pP1/6bP/1P2K3/P1PPP1P1/RNBQ1BNR b kq - 0 10"
    events = [place("h5", 1.499), lift("h7", 4.922), lift("h5", 10.013), place("h6", 12.94),
              lift("g5", 17.163), place("d8", 19.232), lift("e7", 22.384), lift("c2", 24.17),
              place("c4", 26.629), lift("g4", 29.345), lift("e2", 31.172), place("e2", 33.703)]
    assert moves_made(fen, events) == ["h5", "gxh6", "Bd8", "c4", "Bxe2"]


def test_en_passant_placed_long_before_its_lift_then_taken_back_at_once() -> None:
    """Found failing (the property test, takebacks): b2-b4 unpressed, en passant victim first with the taking
    pawn set on b3 1.2 s before a4 was lifted (read as b4 changed to b3, then a4 taking it), then taken back
    at once: b3's pawn back on a4 and White's pawn on b4. No legal move explains that board from b3; it is
    the position after b4, so b3 is taken back, b4 made, and the en passant made again reads as one."""
    fen = "5rkn/nrp1qpp1/2bp1b2/2P1p2p/p3P3/3P1BP1/1PN2P1P/2RQ1NKR w K - 2 26"
    events = [place("b4", 1.048), lift("b2", 1.302), lift("g1", 2.229), place("g1", 2.260), lift("b4", 3.075),
              place("b2", 3.568), place("b3", 5.136), lift("b2", 5.382), place("b4", 6.326, "P"),
              lift("b3", 6.365), lift("b4", 7.987), place("b3", 8.809), lift("a4", 10.039),
              lift("b3", 11.020), place("a4", 11.396), place("b4", 13.169), lift("b4", 15.012),
              place("b3", 16.399), lift("a4", 17.041), lift("d1", 17.360), place("e2", 19.192, "Q"),
              lift("e7", 20.136), place("e8", 21.118, "q")]
    assert moves_made(fen, events) == ["b4", "axb3", "Qe2", "Qe8"]



def test_clock_pressed_with_the_capturer_in_hand_then_the_victim_taken_off_and_a_knight_chosen() -> None:
    """Found failing (an outside generator of clock misuse): b7 lifted, White's clock pressed at once, then
    a8's rook taken off, the pawn set there and the knight's button pressed. The lift of a8 had made the
    capture the press seemed to end (a queen, by default) as if Black had lifted the new piece; the lift of
    a capture's square is either side's, and the pawn landing there says it was the victim's."""
    events = [lift("b7", 1.0), press("white", 2.0), lift("a8", 3.0), place("a8", 4.0),
              press("promote_n", 5.0), lift("e8", 6.0), place("d7", 7.0), press("black", 8.0)]
    assert moves_made("r3k3/1P5p/8/8/8/8/7P/4K3 w - - 0 1", events) == ["bxa8=N", "Kd7"]


def test_clock_pressed_twice_early_around_a_capture_then_a_king_step() -> None:
    """Found failing (clock misuse): Black's clock pressed with the f4 pawn in hand, the e3 queen then taken
    and pressed again; White's king lifted and White's clock pressed before it landed on e2. The first lift
    of e3 made fxe3 at once and left the board read wrongly, so the king was read taking on e3."""
    events = [lift("f4", 1.0), press("black", 2.0), lift("e3", 3.0), place("e3", 4.0), press("black", 5.0),
              lift("f2", 6.0), press("white", 7.0), place("e2", 8.0), lift("e8", 9.0), place("d7", 10.0),
              press("black", 11.0)]
    assert moves_made("4k3/7p/8/8/5p2/4Q3/5K1P/8 b - - 0 1", events) == ["fxe3+", "Ke2", "Kd7"]


def test_a_capture_no_scan_showed_then_retaken_victim_first_without_a_press() -> None:
    """exd5 made between two scans (d5 never showed empty) and White's clock pressed; Black then lifts the
    pawn on d5, lifts the queen and sets it there, no press: the lift of d5 waits for the next event, the
    queen's lift, which makes exd5, and Qxd5 follows."""
    events = [lift("e2", 1.0), place("e4", 2.0), press("white", 3.0), lift("d7", 4.0), place("d5", 5.0),
              press("black", 6.0), lift("e4", 7.0), press("white", 8.0), lift("d5", 9.0), lift("d8", 10.0),
              place("d5", 11.0)]
    assert moves_made(chess.STARTING_FEN, events) == ["e4", "d5", "exd5", "Qxd5"]


def test_a_king_stepped_into_check_and_pressed_is_no_castling_whose_rook_never_left() -> None:
    """Found failing (an outside generator of illegal tries): the king steps g1-f1 into the bishop's line
    and White's clock is pressed, Black replies. At the end of input a line of three moves explained the
    occupancy (O-O, Ke7, Kh1), though h1's rook never left its square; a line must move only pieces the
    hands lifted."""
    events = [lift("g1", 1.0), place("f1", 2.0), press("white", 3.0), lift("e8", 4.0), place("e7", 5.0)]
    recognizer = Recognizer(chess.Board("4k3/8/8/8/2b5/8/8/6KR w H - 0 1", chess960=True))
    reports = [report for event in events for report in recognizer.feed(event)] + recognizer.finish()
    assert not [report for report in reports if report.kind == "move"]
    assert recognizer.mode is Mode.ILLEGAL


def test_a_capture_out_of_turn_put_back_capturer_first_is_no_capture() -> None:
    """Found failing (illegal tries): White to move, Black's d5 pawn takes on e4 out of turn (victim first),
    then is put back on d5 before White's pawn returns to e4. Its lift from e4 and place on d5 read as exd5;
    the pawn set on e4 then had waited for Black's reply placed first (Nf6-e4) for good. The next event, a
    white piece lifted, says the capture was only undone."""
    events = [lift("e2", 1.0), place("e4", 1.5), lift("d7", 3.0), place("d5", 3.5), lift("b1", 5.0),
              place("c3", 5.5), lift("g8", 7.0), place("f6", 7.5),
              lift("e4", 9.0), lift("d5", 9.6), place("e4", 10.3), lift("e4", 12.0), place("d5", 12.8),
              place("e4", 13.5), lift("g1", 15.0), place("f3", 15.6), lift("e7", 17.0), place("e6", 17.6)]
    assert moves_made(chess.STARTING_FEN, events) == ["e4", "d5", "Nc3", "Nf6", "Nf3", "e6"]


def test_a_capture_out_of_turn_put_back_capturer_first_where_no_reply_lands() -> None:
    """The same with the clock pressed and no black piece able to reach e4: the board shows the game again,
    so the capture its pieces were read as is retracted at once."""
    events = [lift("e2", 1.0), place("e4", 2.0), press("white", 2.5), lift("d7", 3.0), place("d5", 4.0),
              press("black", 4.5), lift("e4", 5.0), lift("d5", 6.0), place("e4", 7.0), lift("e4", 8.0),
              place("d5", 9.0), place("e4", 10.0), lift("g1", 11.0), place("f3", 12.0), press("white", 12.5),
              lift("g8", 13.0), place("f6", 14.0)]
    assert moves_made(chess.STARTING_FEN, events) == ["e4", "d5", "Nf3", "Nf6"]


def test_an_illegal_castling_with_both_pieces_in_hand_is_reported_once_both_land() -> None:
    """Found by an outside generator of illegal tries: castling out of check, king and rook in hand
    together, was reported illegal as the king landed, with the rook still in hand; the spec judges the
    board once it settles. Put back, the king's step that follows is read."""
    events = [lift("e1", 1.0), lift("h1", 2.0), place("g1", 3.0), place("f1", 4.0), lift("g1", 5.0),
              lift("f1", 6.0), place("h1", 7.0), place("e1", 8.0), lift("e1", 9.0), place("d1", 10.0)]
    recognizer = Recognizer(chess.Board("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", chess960=True))
    reports = [report for event in events for report in recognizer.feed(event)] + recognizer.finish()
    illegal = [report for report in reports if report.kind == "illegal"]
    assert [report.t for report in illegal] == [4.0]
    assert (illegal[0].to_empty, illegal[0].to_fill) == ({chess.F1, chess.G1}, {chess.E1, chess.H1})
    assert [report.kind for report in reports][-2:] == ["restored", "move"]


TAKEN_UP_EARLY = [
    # the mover's clock pressed with its king in hand; each king then lifted before the other landed
    ("8/7k/8/2p3p1/p5P1/8/K7/8 b - - 3 49",
     [lift("h7", 1.07), lift("a2", 1.53), press("black", 1.71), place("g7", 1.8), lift("g7", 2.03),
      place("a3", 2.11), place("h7", 2.73), press("black", 3.11)], ["Kg7", "Ka3", "Kh7"]),
    # White's king could take the bishop lifted early; it steps to h1 instead
    ("3Q4/6k1/6P1/8/R4b2/5P2/8/4R1K1 b - - 0 32",
     [lift("f4", 1.07), lift("g1", 1.54), place("h2", 1.71), press("black", 1.78), lift("h2", 2.15),
      press("white", 2.27), place("h1", 2.33), press("black", 2.72), place("g1", 2.86)],
     ["Bh2+", "Kh1", "Bg1"]),
    # White's clock pressed with the king in hand, which a capture no scan showed (Kxg5) would explain too
    ("2rbkrb1/ppp1pp1p/5n2/3p2p1/2n2K2/5P2/P1PPP1PP/NqRBR2Q w kq - 0 10",
     [lift("f4", 1.06), press("white", 1.37), lift("b1", 1.52), place("g3", 1.57), lift("c2", 1.95),
      place("c2", 2.41), lift("c2", 2.58), press("black", 2.67), lift("d1", 2.73), place("c2", 3.1)],
     ["Kg3", "Qxc2", "Bxc2"]),
    # a slide d6-d4-d3: the rook picked up again from d4 when White's knight was taken up (from a forty-ninth
    # generator)
    ("2krbb2/3p4/3r3n/BQ2Ppp1/7p/8/6PP/2K2BN1 w - - 0 24",
     [lift("b5", 1.0), place("b6", 1.63), lift("d6", 2.76), place("d4", 3.17), lift("d4", 3.33),
      lift("g1", 3.97), place("d3", 4.39), place("e2", 4.88)], ["Qb6", "Rd3", "Ne2"]),
    # the queen that could take f7 lands on g6, on the way there, and stays: White's next piece taken up
    # says so (the forty-ninth again)
    ("bbrq2rn/1ppn1p1p/2k5/4p1pQ/p2p4/P1PPP3/1P3PPP/BBR1KNRN w K - 4 10",
     [lift("h5", 1.0), lift("f7", 1.509), place("g6", 1.651), lift("h2", 1.892), place("f6", 2.153),
      lift("c6", 2.447), place("h4", 2.614)], ["Qg6+", "f6", "h4"]),
    # O-O with king and rook in hand together, the king on g1 when Black's pawn was taken up (the forty-ninth)
    ("rbq1bknr/1ppppppp/p1n5/8/4P3/8/PPPPNPPP/RBQNBK1R w KQkq - 0 3",
     [lift("f1", 1.05), lift("h1", 1.19), place("g1", 1.51), lift("h7", 2.0), place("f1", 2.15),
      press("white", 2.48), press("black", 2.61), lift("b2", 2.89), place("h6", 3.39), place("b3", 3.71)],
     ["O-O", "h6", "b3"]),
    # Black's clock pressed with the knight in hand, which Nxf4 in one scan would explain; White's rook taken
    # up, and h4 a landing of either the knight or the rook after that capture: the rook's landing next says
    # the knight's
    ("r1nqk1br/pp2p1pp/5pn1/b1pp3P/P3PPB1/1P6/2PPN1P1/RQ2KNBR b kq - 6 10",
     [lift("g6", 1.0), press("black", 1.9), lift("h1", 3.8), place("h4", 4.4), place("h3", 6.2)],
     ["Nh4", "Rh3"]),
    # a slide f4-e5-d6-c7: the bishop picked up again from d6 when Black's knight, which could take it there,
    # was taken up; the bishop's landing further on says the slide went on (the forty-ninth)
    ("2k4B/R4n2/1p4r1/1p6/2p2Bp1/2P5/3Q4/5K1N w - - 5 43",
     [lift("f4", 1.07), place("e5", 1.16), lift("e5", 1.29), place("d6", 1.45), lift("d6", 1.55),
      lift("f7", 1.62), place("c7", 2.02), press("white", 2.21), place("d6", 2.37)], ["Bc7", "Nd6"]),
    # the same lifts, then the knight lands on d6: the bishop stayed there and was taken, victim first
    ("2k4B/R4n2/1p4r1/1p6/2p2Bp1/2P5/3Q4/5K1N w - - 5 43",
     [lift("f4", 1.07), place("e5", 1.16), lift("e5", 1.29), place("d6", 1.45), lift("d6", 2.55),
      lift("f7", 2.62), place("d6", 3.02), press("black", 3.21)], ["Bd6", "Nxd6"]),
]


@pytest.mark.parametrize(("fen", "events", "expected"), TAKEN_UP_EARLY)
def test_the_other_side_s_piece_taken_up_before_the_mover_s_lands_is_read_after_that_landing(
    fen: str, events: list, expected: list[str]
) -> None:
    """Found failing (an outside generator of bullet games, 139 of 1,312 left after the last fix): the other
    side lifted its next piece while the mover's was still in hand. With two pieces up the mover's landing
    was no move, and a chain of such overlaps lost the game. The lift now waits until the mover's piece
    lands, and a piece the mover could have taken is its victim only if the mover lands there (or on the
    way there, and goes on)."""
    assert moves_made(fen, events) == expected


PRESSED_MID_SLIDE = [
    # a bishop slid a1-b2-c3-d4-e5-f6-g7, White's clock pressed while it was up from f6
    ("b1r2rkn/4p2p/p2q2p1/2pp3n/p1P1pb2/1P1P2N1/2N1P1PP/B1RQR1K1 w - - 1 18",
     [lift("a1", 1.06), place("b2", 1.25), lift("b2", 1.32), place("c3", 1.45), lift("c3", 1.61),
      place("d4", 1.75), lift("d4", 2.0), place("e5", 2.15), lift("e5", 2.39), place("f6", 2.56),
      lift("f6", 2.81), press("white", 2.85), place("g7", 2.98), lift("g6", 4.72), place("g5", 5.19)],
     ["Bg7", "g5"]),
    # a bishop slid g8-f7-e6-d5, Black's clock pressed while it was up from e6, then White's bishop taken up
    # before Black's landed
    ("rkrnqnbb/ppppp1pp/5p2/8/7P/2P5/PP1PPPP1/RKRNQNBB b KQkq - 0 2",
     [lift("g8", 1.0), place("f7", 1.11), lift("f7", 1.21), place("e6", 1.33), lift("e6", 1.52),
      press("black", 1.54), lift("g1", 1.56), place("d5", 2.15), press("white", 2.22), place("h2", 2.29)],
     ["Bd5", "Bh2"]),
]


@pytest.mark.parametrize(("fen", "events", "expected"), PRESSED_MID_SLIDE)
def test_the_mover_s_clock_pressed_mid_slide_makes_the_landing_final(
    fen: str, events: list, expected: list[str]
) -> None:
    """Found failing (an outside generator of bullet games, 235 of 394 misses): a clock pressed while the
    sliding piece was up made the square it had paused on final, and its landing an illegal board. The press
    now waits for the piece to land."""
    assert moves_made(fen, events) == expected


def test_a_late_clock_after_a_slide_leaves_the_slide_and_the_reply_begun() -> None:
    """Found failing (the forty-ninth generator): a rook slid b1-c1-d1, Black took up its knight and White
    pressed late. The press took Rbd1 back for Rc1, Nd1 and Rcxd1, a line the board shows with the knight
    still in hand too. A press that comes with the other side's move under way leaves the last move."""
    fen = "r1b2rk1/1pQ3n1/3p4/4pp2/3P4/p3nN1K/PB1R4/1R5B w - - 0 23"
    events = [lift("b1", 1.06), place("c1", 1.15), lift("c1", 1.21), place("d1", 1.29, "R"), lift("e3", 2.84),
              press("white", 2.88), place("f1", 3.74), press("black", 4.05)]
    assert moves_made(fen, events) == ["Rbd1", "Nf1"]


AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


@pytest.mark.parametrize("landing", [0.06, 0.0])
def test_a_capture_own_piece_first_passing_over_a_square_its_piece_could_reach_is_the_capture(
        landing: float) -> None:
    """Found failing (an outside generator of clumsy hands): e4 and d5 lifted, the pawn shown on e5 for a
    flicker (or the lift from e5 and the place on d5 in one DGT scan), then set on d5. The lift of d5 had
    made e5 final, and d5 filled again within a bounce read as that pawn knocked and put back, e5 open with
    its pawn in hand; the board at rest shows exd5. A neighbour knocked after the move landed is still
    nothing (the control)."""
    slid = [lift("e4", 1.0), lift("d5", 1.4), place("e5", 1.8), lift("e5", 1.86), place("d5", 1.86 + landing),
            press("white", 2.5)]
    assert moves_made(AFTER_E4_D5, slid) == ["exd5"]
    knocked_after = [lift("e4", 1.0), place("e5", 1.4), lift("d5", 1.5), lift("e5", 1.6), place("d5", 1.7),
                     place("e5", 2.0), press("white", 2.5)]
    assert moves_made(AFTER_E4_D5, knocked_after) == ["e5"]


def test_a_piece_knocked_onto_a_square_the_move_in_hand_could_end_on_and_put_back_is_no_move() -> None:
    """Found failing (an outside generator of clumsy hands): the bishop in hand, Black's d5 pawn knocked onto
    c4 and put back 1.3 s later, then the bishop set on b5. The pawn landing on c4 read as Bc4, its lift
    from d5 as Black's reply begun; the bishop's landing on b5 was then illegal for good. The board at rest
    shows Bb5+ from the position before, the pawn's squares lifted and filled round the landing. A second
    move of the bishop after Black began (the control) is still illegal."""
    knocked_off = [lift("f1", 3.0), lift("d5", 3.5), place("c4", 3.8), lift("c4", 4.6), place("d5", 5.1),
                   place("b5", 5.6)]
    assert moves_made(AFTER_E4_D5, knocked_off) == ["Bb5+"]
    moved_twice = [lift("f1", 3.0), place("c4", 3.8), lift("d5", 4.6), place("d5", 5.1), lift("c4", 5.3),
                   place("b5", 5.6)]
    recognizer = Recognizer(chess.Board(AFTER_E4_D5))
    for event in moved_twice:
        recognizer.feed(event)
    assert [chess.Board(AFTER_E4_D5).san(move) for move in recognizer.board.move_stack] == ["Bc4"]
    assert recognizer.mode is Mode.ILLEGAL


def test_a_promotion_button_stays_with_the_pawn_when_its_promotion_becomes_a_capture() -> None:
    """Found failing (an outside generator of clumsy hands): the knight's button, then c7 and the rook on b8
    lifted, the pawn set on c8 and then on b8. Read at first as c8=N with the rook's lift as Black's reply,
    the capture found at rest took a queen: the press went with the move first read."""
    events = [press("promote_n", 1.0), lift("c7", 1.5), lift("b8", 2.0), place("c8", 2.5), lift("c8", 4.0),
              place("b8", 4.5)]
    assert moves_made("1r1rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", events) == ["cxb8=N"]


def test_a_knight_slid_through_the_square_the_open_capture_left_is_no_recapture_there() -> None:
    """Found failing (a fourth clone of the judges' corpus): ...Bxb4 unpressed, then the knight slid e6-e7-f8,
    each square reported before the one behind it emptied. e7 filled read as the capture put back; at rest,
    Bf8 Nxf8 shows the board as well as Bxb4 Nf8, and was taken: a recapture on f8, where one piece only
    was ever set down."""
    fen = "bnr1k1qr/pp2bp1p/4N3/4p3/1PpP2p1/3P3P/P1N1P2R/B1Rn1KQ1 b Q - 0 14"
    events = [lift("e7", 1.0), lift("b4", 1.977), place("b4", 3.066), place("e7", 4.761), lift("e6", 4.897),
              place("f8", 5.031), lift("e7", 5.184)]
    assert moves_made(fen, events) == ["Bxb4", "Nf8"]


def test_a_capturer_waiting_by_its_victim_on_a_square_it_cannot_stop_on_takes_it() -> None:
    """Found failing (the sixty-fourth outside generator): the rook slides a1-a4 and on, across two squares,
    to b5, where it cannot go; the pawn on a6 is lifted and the rook set down there. The victim's lift made
    Ra4 final, the last legal square passed. A piece standing where it cannot stop is still moving; the
    other side's move is still read when the rook goes back to a4 instead."""
    fen = "4k3/8/p7/8/8/8/8/R3K3 w - - 0 1"
    events = [lift("a1", 1), place("a4", 1.5), place("b5", 1.8), lift("a4", 1.88), lift("a6", 2.08),
              lift("b5", 2.38)]
    assert moves_made(fen, [*events, place("a6", 2.68)]) == ["Rxa6"]
    assert moves_made(fen, [*events, place("a4", 2.6), place("a5", 3.9), lift("e1", 4), place("d2", 5)]) == [
        "Ra4", "a5", "Kd2"]


def test_a_reply_slid_across_the_square_a_change_of_mind_could_reach_takes_the_move_first_read() -> None:
    """Found failing (the sixty-fourth outside generator): Nd2, then Black's knight takes it victim first,
    slid from c4 across c3 (filled 30 ms before c4 empties, emptied 0.1 s after d2 fills). c3 read as
    White's change of mind, Nc3, and the knight's landing as Nd2. Lifted that soon, c3 was the slide's;
    the same c3 lifted a second later, or its piece landing next where it can go, is White's knight."""
    fen = "4k3/p7/8/8/2n5/8/P7/1N2K3 w - - 0 1"
    events = [lift("b1", 1.0), place("d2", 1.8), lift("d2", 3.8), place("c3", 4.4), lift("c4", 4.43),
              place("d2", 4.73)]
    straddled = [lift("c3", 4.83), press("black", 5.5), lift("a2", 7), place("a3", 7.5)]
    assert moves_made(fen, [*events, *straddled]) == ["Nd2", "Nxd2", "a3"]
    assert moves_made(fen, [*events, lift("c3", 5.8), place("b5", 6.5)]) == ["Nc3", "Nd2", "Nb5"]
    assert moves_made(fen, [*events, lift("c3", 4.83), place("b5", 5.5)]) == ["Nc3", "Nd2", "Nb5"]


def test_a_reply_slid_across_a_square_a_change_of_mind_could_reach_leaves_the_move_first_read() -> None:
    """Found failing (a fourth clone of the judges' corpus, 8x rare habits): ...Qxa6 unpressed, then White's
    knight slid f3-g4-h4, g4 filled 90 ms before f3 empties and emptied 80 ms after h4 fills. g4 read as
    Black's change of mind, Qg4 with the rook on a6 only touched; lifted a second later, it is."""
    fen = "2q1k3/8/R7/8/8/5N2/8/4K3 b - - 0 1"
    events = [lift("a6", 1), lift("c8", 2), place("a6", 2.5), place("g4", 8.0), lift("f3", 8.09),
              place("h4", 8.27)]
    assert moves_made(fen, [*events, lift("g4", 8.35), press("white", 9.2)]) == ["Qxa6", "Nh4"]
    assert moves_made(fen, [*events, press("white", 9.2), lift("g4", 10.3), place("d7", 11)]) == [
        "Qg4", "Nh4", "Qd7"]


def test_a_reply_slid_over_the_square_a_capture_left_is_no_capture_put_back() -> None:
    """Found failing (a fourth clone of the judges' corpus, 4x rare habits): ...Nxf4 victim first,
    unpressed, then White's knight slid d5-e6-f6 over the corner of its leg, e6 filled 0.13 s before d5
    empties. The board then showed the position before the capture, read as the capture put back; the end
    of the move put the three moves in the order only the board allowed: Kh8 first, Nf6, Nxf4."""
    fen = "6k1/5ppp/4n3/3N4/5R2/8/5PPP/6K1 b - - 0 1"
    events = [lift("f4", 1), lift("e6", 2), place("f4", 3), place("e6", 5.0), lift("d5", 5.126),
              place("f6", 5.23), lift("e6", 5.41), lift("g8", 7.29), place("h8", 8.09), press("black", 8.82)]
    assert moves_made(fen, events) == ["Nxf4", "Nf6+", "Kh8"]


def test_a_reply_taken_up_while_an_en_passant_is_in_hand_on_a_snapshot_board_is_made_after_it() -> None:
    """From the forty-ninth outside generator (bullet, hands overlapping, a board that sends only
    snapshots): ...g5 and White's en passant fxg6 shown only once both were on the board, Black's king
    already taken up for its next move. No single move explains the board; the two moves, one of each side,
    whose pieces were both lifted since it last showed the game, are made, the second still open. A review
    thought that reading redundant; without it, this reads fxg5 and g6."""
    fen = "5k2/2n3pp/4P3/pp2bP1P/b4P2/P1p1N3/2P3P1/NB2BRK1 b - - 0 25"
    records = [
        {"t": 74.54, "board": ".....x....x....x....x...xx..xxxxx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 75.593, "board": ".....x....x....x....x...xx..xx.xx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 76.23, "board": ".....x....x....x....x...xx..x..xx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 76.459, "board": "..........x....x....x...xx..x..xx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 76.944, "board": "..........x....x....x.x.xx..x..xx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 77.172, "button": "white"},
        {"t": 77.379, "board": "....x.....x....x....x.x.xx..x..xx....x..x.x.x.....x...x.xx..xxx."},
        {"t": 78.251, "board": "....x.....x....x....x.x.xx..x..xx.......x.x.x.....x...x.xx..xxx."},
        {"t": 78.875, "board": "....x.....x....x....x.x.xx..xx.xx.......x.x.x.....x...x.xx..xxx."},
        {"t": 79.431, "button": "white"},
    ]
    events = [parse_record(record, line).event for line, record in enumerate(records, start=2)]
    assert moves_made(fen, events) == ["g5", "fxg6", "Ke8", "f5"]


@pytest.mark.parametrize("reply", [
    [lift("f8", 4.8), place("f6", 5.6)],
    [lift("f8", 4.8), place("f7", 5.02), lift("f7", 5.2), place("f6", 5.25)],  # the queen slid over f7
    [place("f6", 5.0), lift("f8", 5.18), press("black", 6.0)],  # the queen set down before its lift
])
def test_a_neighbour_knocked_as_a_move_lands_is_no_capture_when_the_reply_takes_the_piece_victim_first(
        reply: list[SquareEvent]) -> None:
    """Found failing (a white-box hunt at the edges of the hindsight rules): Bf6 unpressed, the hand brushing
    e7's pawn as the bishop lands (e7 lifted 33 ms before, back 29 ms after). Black then takes the bishop
    victim first. The bishop's lift from f6 showed Bxe7, the pawn's return read as the bishop landing there
    1.9 s before it left f6; the reply's landing on f6 then read as a quiet Qf6 (set down first: Bf6 shown
    again, then Bxe7 taken back as the earlier move its reply explains). A piece on two squares that long
    is two pieces: the knocked pawn was back on e7, and the move was Bf6."""
    fen = "4kq2/ppppp1pp/8/6B1/8/8/PPPPPPPP/4K3 w - - 0 1"
    events = [lift("g5", 1.0), lift("e7", 2.074), place("f6", 2.107), place("e7", 2.136), lift("f6", 4.0)]
    assert moves_made(fen, [*events, *reply]) == ["Bf6", "Qxf6"]
    assert moves_made(fen, [*events, place("h4", 4.8)]) == ["Bh4"]  # the bishop moved on: a correction


@pytest.mark.parametrize("behind_left", [2.9, 4.9])
def test_a_slide_set_down_across_two_squares_for_seconds_ends_where_set_down(behind_left: float) -> None:
    """The control of the test above, from our own corpus tool: a rook slid b1-b5, each square reported
    before the one behind it empties, the last one behind (b4) emptying seconds later, as a piece set down
    across two squares does, with the other side's lift. No knock filled b5: the rook stood on both."""
    fen = "3rk3/8/8/8/8/8/8/1R2K3 w - - 0 1"
    events = [place("b2", 1.0), lift("b1", 1.2), place("b3", 1.3), lift("b2", 1.4), place("b4", 1.5),
              lift("b3", 1.6), place("b5", 1.7), lift("b4", behind_left), lift("d8", behind_left),
              place("d5", behind_left + 1.1)]
    assert moves_made(fen, events) == ["Rb5", "Rd5"]


SWAP = "rbbnnkrq/pppppppp/8/8/8/8/PPPPPPPP/RBBNNKRQ w KQkq - 0 1"  # king f1, rook g1: they swap squares
PAST = "3k4/pppppppp/8/8/8/8/PPPPPPPP/1R1K4 w B - 0 1"  # king d1, rook b1: the rook onto d1, the king past it


@pytest.mark.parametrize(("fen", "king", "rook", "king_to", "castling", "flicker"), [
    (SWAP, "f1", "g1", "g1", "O-O", 0.069), (SWAP, "f1", "g1", "g1", "O-O", 0.12),
    (PAST, "d1", "b1", "c1", "O-O-O", 0.09)])
def test_a_castling_rook_set_down_first_is_castling_when_its_sensor_flickers_as_it_leaves(
        fen: str, king: str, rook: str, king_to: str, castling: str, flicker: float) -> None:
    """Found failing (a white-box hunt at the edges of the hindsight rules): the king in hand, the rook slid
    onto the king's square 0.155 s before its own square emptied, that square flickering full again for a
    moment as it left. The last of its lifts came over a scan after the landing, so the landing read as the
    king put back and the castling as touches: nothing, or Rc1. A bounce is evidence of nothing: the rook
    left at its first lift."""
    left, flickered = 2.305, 2.305 + flicker
    events = [lift(king, 1.0), place(king, 2.15), lift(rook, left), place(rook, flickered),
              lift(rook, flickered + 0.088), place(king_to, 2.8), press("white", 4.0)]
    assert moves_made(fen, events) == [castling]
    without = [*events[:3], *events[-2:]]
    assert moves_made(fen, without) == [castling]


@pytest.mark.parametrize("named", [True, False])
def test_a_castling_king_set_down_first_is_castling_with_a_piece_of_the_other_side_knocked_as_the_rook_lands(
        named: bool) -> None:
    """Found failing (a white-box hunt where two rules meet): Black's rook lifted from h8, the king's landing
    on g8 reported 0.1 s before its lift from f8 (the board's scan order), and White's rook on h7 knocked
    off as the hand set the rook down on f8 (back 0.12 s later). The knock's lift, with the king still in
    hand, made Rg8 final as the other side's move begun. A landing that shows a castling, the other side's
    piece back, is the mover's hand still busy: the event after it decides."""
    fen = "nbbqrk1r/ppppppbR/7n/8/8/1N3N2/PPPPPPP1/1BBQRK2 b kq - 3 12"
    board = chess.Board(fen)
    king, rook, knocked = ("k", "r", "R") if named else (None, None, None)
    first = BoardSnapshot(occupied=board.occupied, pieces=board.piece_map() if named else {}, t=0.0)
    events = [first, lift("h8", 1.0), place("g8", 1.581, king), lift("f8", 1.677), lift("h7", 2.105),
              place("f8", 2.192, rook), place("h7", 2.225, knocked), press("black", 3.1)]
    assert moves_made(fen, events) == ["O-O"]


@pytest.mark.parametrize(("fen", "before", "vacated", "after", "made"), [
    ("rnnbbkr1/1ppppp1p/6p1/p7/1PP1PP2/8/Pq1P2PP/RNNBBKRQ b KQkq - 0 4", [lift("d7", 1.0)], ["d7"],
     [place("d6", 4.7)], ["d6"]),  # not d5, O-O (unseen), dxe4
    ("rnbqkbnr/ppp3pp/4p3/3p1p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4", [lift("e4", 1.0)], ["e4"],
     [lift("d5", 3.2), place("d5", 3.8)], ["exd5"]),  # not exf5: the pawn could take either
    ("rnbqkbNr/8/P7/2p1p2p/p1PPpP2/8/3B4/RN1QKBqR b Q f3 0 17", [], ["e4", "f4"], [place("f3", 4.4)],
     ["exf3"]),  # an en passant's two pieces up, not e3 fxe5 exd2+
    ("nbqrbkrn/p1pp1p1p/4p3/4P1P1/2P2P2/8/pP1P2P1/NBQRBKRN b KQkq - 0 7", [], ["b1"],
     [lift("a2", 3.6), place("b1", 5.4), press("promote_n", 5.85)], ["axb1=N"]),  # a victim taken first
])
def test_a_reconnect_snapshot_with_a_move_under_way_lets_it_finish(
        fen: str, before: list[SquareEvent], vacated: list[str], after: list[SquareEvent], made: list[str],
) -> None:
    """Found failing (a white-box hunt where two rules meet): the link dropped with a move under way, and
    the snapshot after it showed only that move's squares empty. It was read as moves made meanwhile (a
    pawn's step, a castling no sensor sees, the pawn's capture; or the capture of the other victim), and
    the move finished live was lost. Such a snapshot is the move caught halfway, unless one capture alone
    explains it (the test of the eighth generator's Bxe2 above)."""
    board = chess.Board(fen, chess960=True)
    shown = board.occupied & ~chess.SquareSet(chess.parse_square(name) for name in vacated).mask
    dropped = [LinkChanged(up=False, t=1.2), LinkChanged(up=True, t=2.8)]
    assert moves_made(fen, [*before, *dropped, BoardSnapshot(occupied=shown, t=3.0), *after]) == made


@pytest.mark.parametrize("seen", ["king lifted before the drop", "the snapshot shows the rook in hand"])
@pytest.mark.parametrize("told_by", ["the mover's clock", "the other side's move"])
def test_a_castling_by_swapping_king_and_rook_whose_middle_the_link_lost(seen: str, told_by: str) -> None:
    """Found failing (a fresh seed of the white-box hunt where two rules meet): O-O with king and rook
    swapping squares, the link down while both were in hand. On a presence board the snapshot after it
    shows one of the two squares empty, then that square is filled: the board is as before the move. The
    clock pressed (or the other side's move made next) says a move was made, and only the castling leaves
    the board so. It was read as a touch; the other side's move then as out of turn, and the game lost."""
    board = chess.Board(SWAP, chess960=True)
    before = [lift("f1", 1.0)] if seen == "king lifted before the drop" else []
    empty = chess.F1 if before else chess.G1  # the king is on g1, the rook still in hand
    dropped = [LinkChanged(up=False, t=1.2), LinkChanged(up=True, t=2.8),
               BoardSnapshot(occupied=board.occupied & ~chess.BB_SQUARES[empty], t=3.0)]
    after = [place(chess.square_name(empty), 3.5)]
    told = [press("white", 4.0)] if told_by == "the mover's clock" else []
    reply = [lift("a7", 5.0), place("a6", 5.5), lift("a2", 7.0), place("a3", 7.5)]
    assert moves_made(SWAP, [*before, *dropped, *after, *told, *reply]) == ["O-O", "a6", "a3"]


def test_a_touch_across_a_link_drop_then_a_move_is_that_move() -> None:
    """The control of the test above: the king of a swap castling touched across a link drop, then a pawn
    moved and the clock pressed. The pawn's move is the move; and with no drop, a touch and a press are no
    castling (the spec's castling by swapping needs both pieces seen off the board)."""
    board = chess.Board(SWAP, chess960=True)
    dropped = [LinkChanged(up=False, t=1.2), LinkChanged(up=True, t=2.8),
               BoardSnapshot(occupied=board.occupied & ~chess.BB_SQUARES[chess.F1], t=3.0)]
    touch = [lift("f1", 1.0), *dropped, place("f1", 3.5)]
    assert moves_made(SWAP, [*touch, lift("b2", 4), place("b3", 4.5), press("white", 5)]) == ["b3"]
    assert moves_made(SWAP, [lift("f1", 1.0), place("f1", 3.5), press("white", 4.0)]) == []


def test_a_reconnect_snapshot_naming_pieces_on_unchanged_squares_shows_the_castlings_made_meanwhile() -> None:
    """The control of the test above, from the regression lanes (an outside generator's sessions): both
    sides castled by swapping king and rook while the link was down. The occupancy is the game's, as with a
    move caught halfway, but the snapshot names each king on its rook's square: the two castlings."""
    board = chess.Board(SWAP, chess960=True)
    pieces = board.piece_map()
    for king, rook in ((chess.F1, chess.G1), (chess.F8, chess.G8)):
        pieces[king], pieces[rook] = pieces[rook], pieces[king]
    dropped = [LinkChanged(up=False, t=1.0), LinkChanged(up=True, t=5.0)]
    snapshot = BoardSnapshot(occupied=board.occupied, pieces=pieces, t=5.1)
    assert moves_made(SWAP, [*dropped, snapshot, lift("a2", 6), place("a3", 7), press("white", 8)]) == [
        "O-O", "O-O", "a3"]


def test_of_two_victims_a_capture_placed_before_its_lift_took_the_one_whose_square_filled_last() -> None:
    """Found failing (the seventy-fifth generator, aimed at the tie-breaks): exf5 victim first, d5's pawn
    lifted and put back while f5's was off, then the pawn's landing on f5 reported 0.15 s before e4 emptied.
    Both captures leave that occupancy, and the one whose victim was lifted last (d5) was taken. The
    capturer's landing, reported just before its lift, is the last square filled: the touched piece was
    back before it. So too the other way round, and with the touch put back 0.9 s before e4 emptied."""
    fen = "rnbqkbnr/ppp1p1pp/8/3p1p2/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq d6 0 3"
    lands_f5 = [place("f5", 16.5), lift("e4", 16.65)]
    assert moves_made(fen, [lift("f5", 14), lift("d5", 14.6), place("d5", 15.3), *lands_f5,
                            press("white", 17.3)]) == ["exf5"]
    assert moves_made(fen, [lift("f5", 14), lift("d5", 15), place("d5", 15.75), *lands_f5]) == ["exf5"]
    lands_d5 = [place("d5", 16.5), lift("e4", 16.65)]
    assert moves_made(fen, [lift("d5", 14), lift("f5", 14.6), place("f5", 15.3), *lands_d5,
                            press("white", 17.3)]) == ["exd5"]


def test_a_touch_after_a_castling_is_forgotten_for_the_king_step_that_leaves_the_same_squares() -> None:
    """Found failing (`tools/fuzz_recognizer.py`, seed 155892): O-O with king e1 and rook g1, the rook's
    landing on f1 reported 0.14 s before g1 emptied, so the board first showed Kf1, then the castling.
    White touched a2; Black lifted the queen and a2 again. The touch had been forgotten for the castling
    (the board showed it again), not for Kf1, which leaves the same squares: a2 still counted as lifted
    there, so Qxa2 placed first answered Kf1 only, and Kf1 was taken for the move. A touch ended proves
    nothing for either."""
    fen = "4k3/8/q7/8/8/3P4/P7/4K1R1 w G - 0 1"
    castles = [lift("e1", 10), place("f1", 11.9), lift("g1", 12.04), place("g1", 13.4)]
    touch = [lift("a2", 14.6), place("a2", 16.6)]
    reply = [lift("a6", 17.0), lift("a2", 17.9), place("a2", 19.1), place("b7", 20.8)]
    assert moves_made(fen, [*castles, *touch, *reply]) == ["O-O", "Qb7"]
    assert moves_made(fen, [*castles, *reply]) == ["O-O", "Qb7"]


def test_a_clock_pressed_with_the_piece_in_hand_after_a_touch_waits_for_where_it_lands() -> None:
    """Found failing (the seventy-eighth generator, beginners): after 1.e4 d5, White touches d5's pawn and
    puts it back, lifts the e-pawn and presses the clock with it still in hand, then sets it on e5. At the
    press the board shows exd5 placed before its lift as well, and the capture was made: 2.exd5 from a pawn
    that went to e5. The press now waits for the next event, as it did when the touch was a bounce: the
    piece landing where it can go says the press came early; the other side's lift makes the capture."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
    touch_then_lift = [lift("d5", 7), place("d5", 8), lift("e4", 9), press("white", 10)]
    assert moves_made(fen, [*touch_then_lift, place("e5", 11)]) == ["e5"]
    reply = [lift("g8", 13), place("f6", 14)]
    assert moves_made(fen, [*touch_then_lift, place("e5", 11), *reply]) == ["e5", "Nf6"]
    captures = [lift("d5", 7), place("d5", 8), lift("e4", 8.2), press("white", 9)]  # placed before its lift
    assert moves_made(fen, [*captures, lift("g8", 11), place("f6", 12)]) == ["exd5", "Nf6"]
    assert moves_made(fen, captures) == ["exd5"]


def test_a_press_with_the_piece_in_hand_long_after_a_touch_makes_no_capture_of_the_touched_piece() -> None:
    """Found failing (the eightieth generator, the clock at every moment): after 1.e4 d5 2.a3 f5, White
    touches f5's pawn, lifts the e-pawn 4 s later, presses the clock with it in hand, then takes d5 own
    piece first. At the press the board showed exf5 placed before its lift, held until the next event, and
    the lift of d5 made it: 3.exf5. A landing that long before the capturer left is no capture's (a place
    comes at most `CAPTURE_PLACED_FIRST_SECONDS` before its lift): f5 was touched, the pawn is in hand."""
    fen = "rnbqkbnr/ppp1p1pp/8/3p1p2/4P3/P7/1PPP1PPP/RNBQKBNR w KQkq f6 0 3"
    pressed_in_hand = [lift("f5", 13.5), place("f5", 14), lift("e4", 18), press("white", 18.6)]
    assert moves_made(fen, [*pressed_in_hand, lift("d5", 19.2), place("d5", 19.8)]) == ["exd5"]
    assert moves_made(fen, [*pressed_in_hand, place("e5", 19.8)]) == ["e5"]
    placed_first = [lift("f5", 13.5), place("f5", 14), lift("e4", 14.2), press("white", 15)]
    assert moves_made(fen, [*placed_first, lift("g8", 16), place("f6", 17)]) == ["exf5", "Nf6"]


def test_a_reply_slid_over_the_square_a_change_of_mind_was_read_on_ends_as_that_square_empties() -> None:
    """Found failing (`tools/fuzz_recognizer.py`, seed 417690): Black takes the knight on f5 victim first
    with the bishop (check), then White slides the rook g1-g4 to block, g2's place reported before g1's lift
    and g2's lift after g4's place. At g2's place the board showed the bishop gone to g2 instead, the knight
    only touched; g1's lift made Bg2+ final, and the rook's landing on g4, blocked, left the board misplaced.
    Play went on past the next press, so no catching up found the game again. As g2 empties the board shows
    Bxf5+ and Rg4: that line is made, Bg2+ taken back. The same slide reported in order reads the same."""
    fen = "k7/8/8/5N2/4b3/7K/8/6R1 b - - 0 1"
    capture = [lift("f5", 4.1), lift("e4", 8.8), place("f5", 9.4)]
    play_on = [lift("a8", 14), place("b8", 15), lift("h3", 17), place("h2", 18), press("white", 18.5),
               lift("b8", 20), place("c8", 21)]
    game = ["Bxf5+", "Rg4", "Kb8", "Kh2", "Kc8"]
    slid = [place("g2", 11.3), lift("g1", 11.5), place("g4", 12.7), lift("g2", 12.9)]
    assert moves_made(fen, [*capture, *slid, *play_on]) == game
    in_order = [lift("g1", 11.0), place("g2", 11.3), place("g4", 12.7), lift("g2", 12.9)]
    assert moves_made(fen, [*capture, *in_order, *play_on]) == game


def test_the_other_sides_lift_after_a_capture_placed_first_is_not_held_as_taken_up_early() -> None:
    """Found failing (the eighty-first generator, a second clone of a judges' corpus): Black takes h5's pawn
    victim first, the bishop's place on h5 reported 0.46 s before g4's lift, and White answers Bg2-h3. The
    capture was not yet shown (a place is shown as the capture at its lift only within a scan), so White's
    lift of g2 was held as the other side's piece taken up early, and Black's bishop, thought in hand, was
    set on h3. A capture placed first within `CAPTURE_PLACED_FIRST_SECONDS` is on the board: the lift is
    White's reply, and Black's next move follows it."""
    fen = "1r1nkb1r/4pppq/1N6/2p4P/np4b1/1NP2P2/PP1PP1BP/1RB2RK1 b hb - 1 15"
    capture = [lift("h5", 1.0), place("h5", 1.256), lift("g4", 1.716)]
    reply = [lift("g2", 2.957), place("h3", 4.718), lift("h8", 6.0), place("g8", 7.0)]
    assert moves_made(fen, [*capture, *reply]) == ["Bxh5", "Bh3", "Rg8"]


def test_a_scan_that_catches_a_move_landing_and_the_reply_begun_reads_the_move_first() -> None:
    """Found failing (the eighty-second generator, a board that sends only snapshots, scans 1.5 s apart and
    more): one scan shows Black's a7-a6 made and White's king already lifted to castle. Its changes were read
    lifts first, so the king's lift came while Black's pawn was in hand, a6's landing was never Black's move,
    and the board was lost from there. The side to move's changes are read first now, the other side's
    after: a6, then the castling, and the scans after it (each side castling a transposition, a move of
    each in one scan) read on."""
    boards = ["brnbnkrqpppppppp................................PPPPPPPPBRNBNKRQ",
              "brnbnkrqpppppppp..........................P.....PP.PPPPPBRNBNKRQ",
              "brnbnkrq.pppppppp.........................P.....PP.PPPPPBRNBN.RQ",
              "brnbnr.q.pppppppp.........................P.....PP.PPPPPBRNBNRKQ",
              "brnbnrkq.pppppppp.........................PP....PP..PPPPBRNBNRKQ",
              "brnbnrkq.pppp.ppp....p....................PPP...PP...PPPBRNBNRKQ"]
    events = [BoardSnapshot.from_text(board, t=1.5 * t) for t, board in enumerate(boards)]
    start = chess.Board.from_chess960_pos(465).fen()
    assert moves_made(start, events) == ["c3", "a6", "O-O", "O-O", "d3", "f6", "e3"]


def test_a_capture_made_between_two_scans_is_read_once_a_scan_shows_the_reply() -> None:
    """Found failing (the ninetieth generator, boards that send only snapshots of occupancy): exd5 made
    between two scans, so the scans show e4 empty and d5 never empty, as if the pawn were still in hand.
    Black's knight then left g8 and landed on f6, which read as misplaced and lost the game from there. A
    scan that shows the other side's reply made while the mover's piece seems in hand makes the only
    capture that piece can make, then the reply: here with d5 still an open move when the pawn left (its
    lift made d5 final only at the next scan), and from the position before it too."""
    boards = ["xxxxxxxxxxxxxxxx................................xxxxxxxxxxxxxxxx",
              "xxxxxxxxxxxxxxxx................................xxxx.xxxxxxxxxxx",
              "xxxxxxxxxxxxxxxx....................x...........xxxx.xxxxxxxxxxx",
              "xxxxxxxxxxx.xxxx....................x...........xxxx.xxxxxxxxxxx",
              "xxxxxxxxxxx.xxxx...........x........x...........xxxx.xxxxxxxxxxx",
              "xxxxxxxxxxx.xxxx...........x....................xxxx.xxxxxxxxxxx",
              "xxxxxx.xxxx.xxxx...........x....................xxxx.xxxxxxxxxxx",
              "xxxxxx.xxxx.xxxx.....x.....x....................xxxx.xxxxxxxxxxx",
              "xxxxxx.xxxx.xxxx.....x.....x....................xx.x.xxxxxxxxxxx",
              "xxxxxx.xxxx.xxxx.....x.....x......x.............xx.x.xxxxxxxxxxx",
              "xxxxxx.xxxx..xxx.....x.....x......x.............xx.x.xxxxxxxxxxx",
              "xxxxxx.xxxx..xxx....xx.....x......x.............xx.x.xxxxxxxxxxx"]
    events = [BoardSnapshot.from_text(board, t=1.0 * t) for t, board in enumerate(boards)]
    assert moves_made(chess.STARTING_FEN, events) == ["e4", "d5", "exd5", "Nf6", "c4", "e6"]
    after_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert moves_made(after_d5, events[4:]) == ["exd5", "Nf6", "c4", "e6"]
    # the knight's lift alone proves nothing: the pawn may still land (bullet, the reply taken up early)
    landed = ["xxxxxx.xxxx.xxxx...........xx...................xxxx.xxxxxxxxxxx",
              "xxxxxx.xxxx.xxxx.....x.....xx...................xxxx.xxxxxxxxxxx"]
    pawn_lands = [*events[4:7], *(BoardSnapshot.from_text(board, t=7.0 + t)
                                  for t, board in enumerate(landed))]
    assert moves_made(after_d5, pawn_lands) == ["e5", "Nf6"]


def test_a_capture_between_two_scans_whose_reply_took_its_victim_off_a_scan_earlier() -> None:
    """Found failing (the ninetieth generator, boards that send only snapshots of occupancy): 34. e8=Q+
    Bxe8, the bishop's capture made between two scans (c6 empty, e8 never), then White's gxh3 victim first:
    one scan shows h3 empty, the next h3 full and g2 empty. h3's lift read as Black's, the bishop still in
    hand; the scan with the reply made then made Bxe8, but h3's lift was forgotten with the evidence before
    it, and g2's pawn landing there read as nothing. What is in hand when such a capture is made was
    lifted: gxh3 is read."""
    boards = [".x.......x..xx..xxx.........x.....x..xx.......xx.x.x..x..xx...x.",
              ".x.......x...x..xxx.........x.....x..xx.......xx.x.x..x..xx...x.",
              ".x..x....x...x..xxx.........x.....x..xx.......xx.x.x..x..xx...x.",
              ".x..x....x...x..xx..........x.....x..xx.......xx.x.x..x..xx...x.",
              ".x..x....x...x..xx..........x.....x..xx.......x..x.x..x..xx...x.",
              ".x..x....x...x..xx..........x.....x..xx.......xx.x.x.....xx...x."]
    times = (0.0, 1.183, 2.862, 6.535, 14.56, 15.211)
    events = [BoardSnapshot.from_text(board, t=t) for t, board in zip(times, boards, strict=True)]
    fen = "1r6/1p2Pk2/pPb5/4P3/2P2pp1/6br/1N1P2P1/1RR3K1 w - - 0 34"
    assert moves_made(fen, events) == ["e8=Q+", "Bxe8", "gxh3"]

def test_captures_answered_by_captures_between_scans_then_a_reply() -> None:
    """Found failing (the ninety-fourth generator, the edges of this session's rules): on a board that sends
    only snapshots of occupancy, 23... Rxg4 24. Bxg4, each capture made between two scans (g8 empty, then
    d1, g4 never), then Black's Be7 and White's Be6. The bishop's lift was held as taken up early while the
    rook seemed in hand, so no reading was found and the game was lost. The scan with e7 filled shows the
    two captures and the reply: a line of captures between scans, each the only one its piece can make,
    then a reply, is read, with the lift held early among the pieces in hand."""
    boards = ["...x..xx...x.x...xxx.x..xx..x........xx....xx...x..x.x.x.x.xx...",
              "...x...x...x.x...xxx.x..xx..x........xx....xx...x..x.x.x.x.xx...",
              "...x...x...x.x...xxx.x..xx..x........xx....xx...x..x.x.x.x..x...",
              ".......x...x.x...xxx.x..xx..x........xx....xx...x..x.x.x.x..x...",
              ".......x...xxx...xxx.x..xx..x........xx....xx...x..x.x.x.x..x...",
              ".......x...xxx...xxx.x..xx..x........x.....xx...x..x.x.x.x..x...",
              ".......x...xxx...xxxxx..xx..x........x.....xx...x..x.x.x.x..x..."]
    times = (0.0, 1.0, 2.823, 5.926, 6.348, 8.174, 8.684)
    events = [BoardSnapshot.from_text(board, t=t) for t, board in zip(times, boards, strict=True)]
    fen = "3b2rk/3n1b2/1pnp1p2/pP2p3/5QR1/3PP3/P2N1K1P/1N1BR3 b - - 2 23"
    assert moves_made(fen, events) == ["Rxg4", "Bxg4", "Be7", "Be6"]

def test_a_capture_quicker_than_a_bounce_is_the_game_s_last_when_its_piece_never_lands() -> None:
    """Found failing (the eighty-ninth generator, long games to the end): Rxc8# own piece first, the rook
    set down 0.06 s after c8 emptied (a bounce by timing), then Black's king lifted to be laid down, and
    the input ends. The rook was still in hand, so the mate was lost and the result unknown; so was a
    capture like it when the pieces were then set up for a new game. A capture the board showed at rest,
    its piece read as in hand, is made when the input ends or the pieces are set up again, unless a move
    or the game's position was shown since (the piece put back: a touch)."""
    fen = "R1b4k/5p1r/1NP4Q/1P1P3p/4p3/1nP5/4PPPP/4KB1R w K - 2 28"
    events = [lift("a8", 1.0), lift("c8", 1.169), place("c8", 1.231), lift("h8", 5.0)]
    assert moves_made(fen, events) == ["Rxc8#"]
    assert moves_made(fen, [*events[:3], place("a8", 2.0), lift("h8", 5.0)]) == []
    start = [lift("e2", 1), place("e4", 2), lift("d7", 3), place("d5", 4)]
    fast = [lift("e4", 5), lift("d5", 6), place("d5", 6.08), lift("g8", 9)]
    assert moves_made(chess.STARTING_FEN, [*start, *fast]) == ["e4", "d5", "exd5"]
    recognizer = Recognizer(chess.Board(chess960=True))
    cleared = [lift(name, 10 + index / 10) for index, name in enumerate(("d5", "b1", "g8", "b8"))]
    set_up = [place(name, 20 + index / 10) for index, name in enumerate(("b1", "g8", "b8", "d7", "e2"))]
    for event in [*start, *fast[:3], *cleared, *set_up, lift("e2", 30), place("e4", 31)]:
        recognizer.feed(event)
    recognizer.finish()
    first, second = recognizer.games()
    assert [str(move) for move in first.mainline_moves()] == ["e2e4", "d7d5", "e4d5"]
    assert [str(move) for move in second.mainline_moves()] == ["e2e4"]


def test_a_castling_that_swaps_king_and_rook_within_one_scan_of_a_board_that_names_pieces() -> None:
    """Found failing (the ninetieth generator, snapshots with piece letters): position 203, O-O-O swaps the
    king on d1 and the rook on c1, all between two scans. The snapshot shows the same occupancy with K and R
    named the other way round; the rook's name on d1 was taken for a misread (no legal move lands a rook
    there), and the castling was read only later, after the other moves: 1. e4 e5 2. O-O-O. A king or rook
    named where a castling puts it may come there."""
    boards = ["qnrkbnrbpppppppp................................PPPPPPPPQNRKBNRB",
              "qnrkbnrbpppppppp................................PPPPPPPPQNKRBNRB",
              "qnrkbnrbpppp.ppp............p...................PPPPPPPPQNKRBNRB",
              "qnrkbnrbpppp.ppp............p.......P...........PPPP.PPPQNKRBNRB"]
    events = [BoardSnapshot.from_text(board, t=3.0 * t) for t, board in enumerate(boards)]
    start = chess.Board.from_chess960_pos(203).fen()
    assert moves_made(start, events) == ["O-O-O", "e5", "e4"]


def test_a_mating_square_left_for_another_reported_before_the_piece_leaves_it() -> None:
    """Found failing (the ninety-second generator, rough hands): ...Qa3 would mate, the queen set down there
    and, a second later, moved on to d6, d6 reported 0.2 s before a3 emptied. The place came longer after
    the mate's landing than a scan, so it read as a piece of the next set-up: the mate made and the game
    over. A place where the open move's piece could have gone from its origin is that piece moving on."""
    fen = "n2nk2r/p1bp1ppb/q3p3/7p/6P1/2N2P2/P1PPP2P/NBKR1QBR b h - 0 10"
    moved_on = [lift("a6", 1.0), place("a3", 2.0), place("d6", 3.0), lift("a3", 3.2)]
    assert moves_made(fen, moved_on) == ["Qd6"]
    # a piece moved after it, set down where the queen could not have gone, is no part of the game
    assert moves_made(fen, [*moved_on[:2], lift("h8", 2.5), place("h7", 3.0)]) == ["Qa3#"]

