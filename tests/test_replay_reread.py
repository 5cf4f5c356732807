"""Replay's second reading: a capture whose board the first reading lost for good while play went on is
read again with one sensor slip undone, and keeps every move."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import chess
import chess.pgn
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.capture import read_capture
from eboard960.choreography import human_game, random_game
from eboard960.cli import main
from eboard960.events import PieceLifted, PiecePlaced, SquareEvent
from eboard960.reread import read, reread

RUY_LOPEZ = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]


def records(spec: str) -> list[dict]:
    """'Le2 Pe4 Bw ...' (lift, place, clock button) as capture records a second apart; '~' puts the next
    one 0.1 s after the last."""
    out, t = [], 0.0
    for token in spec.split():
        if token == "~":
            t -= 0.9
            continue
        t += 1.0
        kind, value = {"L": "lift", "P": "place", "B": "button"}[token[0]], token[1:]
        out.append({"t": round(t, 3), kind: {"w": "white", "b": "black"}.get(value, value)})
    return out


def events(spec: str) -> list[tuple[int, SquareEvent]]:
    kinds = {"lift": PieceLifted, "place": PiecePlaced}
    return [(line, next(kinds[k](square=chess.parse_square(v), t=r["t"]) for k, v in r.items() if k in kinds))
            for line, r in enumerate(records(spec), start=2) if "button" not in r]


def replay(tmp_path: Path, spec: str, capsys) -> tuple[int, list[str], str]:
    path = tmp_path / "game.jsonl"
    lines = [{"capture": 1, "board": "events", "start": 518}, *records(spec)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    game = chess.pgn.read_game(io.StringIO(captured.out))
    return status, [move.uci() for move in game.mainline_moves()], captured.err


PHANTOM = "Le2 Pe4 Le7 Pe5 Lg1 Pf3 Ph5 Lb8 Pc6 Lf1 Pb5 La7 Pa6 Lb5 Pa4 Lg8 Pf6"


def test_a_report_no_piece_made_is_left_out_and_the_game_after_it_kept(tmp_path: Path, capsys) -> None:
    items = events(PHANTOM)
    first = read(chess.Board(), items, 20)
    assert first.lost_at is not None and first.recognizer.board.move_stack == [
        chess.Move.from_uci(uci) for uci in RUY_LOPEZ[:3]]  # h5 filled by no hand: the rest is lost

    status, moves, err = replay(tmp_path, PHANTOM, capsys)
    assert moves == RUY_LOPEZ
    assert status == 0
    assert err == (f"eboard960 replay: {tmp_path / 'game.jsonl'}: warning: line 9: the board was lost here "
                   "for good; read again with the report of line 8 left out, which follows it to the end "
                   "(5 more plies)\n")


SWAPPED = "Le2 Pe4 Ld7 Pd5 Le4 Pd5 ~ Ld5 Lg8 Pf6 Lg1 Pf3 Lb8 Pc6 Lb1 Pc3"  # exd5 lands before its victim left


def test_two_reports_close_together_are_taken_the_other_way_round(tmp_path: Path, capsys) -> None:
    first = read(chess.Board(), events(SWAPPED), 18)
    assert len(first.recognizer.board.move_stack) == 2 and first.lost_at is not None

    status, moves, err = replay(tmp_path, SWAPPED, capsys)
    assert moves == ["e2e4", "d7d5", "e4d5", "g8f6", "g1f3", "b8c6", "b1c3"]
    assert status == 0
    assert "read again with the two reports of lines 7 and 8 taken the other way round" in err


def test_with_takebacks_off_a_second_reading_undoes_no_move_made(tmp_path: Path, capsys) -> None:
    """Found failing (an outside generator of takebacks): 2.Nf3 with the clock pressed, the knight put back on
    g1, then 2.Nc3 Nc6. With takebacks off that is a board to put right; a second reading left out the
    knight's place (or the press), and Nf3 vanished as if taken back. Now the moves made stay."""
    path = tmp_path / "game.jsonl"
    spec = "Le2 Pe4 Bw Le7 Pe5 Bb Lg1 Pf3 Bw Lf3 Pg1 Lb1 Pc3 Bw Lb8 Pc6 Bb"
    lines = [{"capture": 1, "board": "events", "start": 518}, *records(spec)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status = main(["replay", "--no-takebacks", str(path)])
    captured = capsys.readouterr()
    game = chess.pgn.read_game(io.StringIO(captured.out))
    assert [move.uci() for move in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert status == 1 and "no legal move explains" in captured.err and "read again" not in captured.err
    assert replay(tmp_path, spec, capsys)[1] == ["e2e4", "e7e5", "b1c3", "b8c6"]  # takebacks on: taken back


def test_a_king_laid_down_to_resign_is_not_read_again(tmp_path: Path, capsys) -> None:
    """A board unexplained only by its last report lost no moves: the first reading and its problem stand."""
    status, moves, err = replay(tmp_path, "Le2 Pe4 Le7 Pe5 Le1 Pe3", capsys)
    assert moves == ["e2e4", "e7e5"]
    assert status == 1
    assert "warning" not in err and "no legal move explains: empty e3; fill e1" in err


def test_a_second_reading_is_kept_only_if_it_follows_the_board_to_the_end(tmp_path: Path) -> None:
    """Two pieces that vanish for good are no slip: no single report undone explains the rest."""
    spec = "Le2 Pe4 Le7 Pe5 Lg1 Pf3 Lb8 Lc7 Lf1 Pb5 La7 Pa6 Lb5 Pa4 Lg8 Pf6 Ld2 Pd3"
    items = events(spec)
    first = read(chess.Board(), items, 20)
    assert first.lost_at is not None
    assert reread(chess.Board(), items, 20, first) is None


def test_the_samples_need_no_second_reading() -> None:
    samples = Path(__file__).resolve().parents[2] / "shared" / "samples"
    for path in sorted(samples.glob("game_*.jsonl*")):
        capture = read_capture(path)
        items = [(record.line, record.event) for record in capture.records if record.event is not None]
        assert read(capture.header.start, items, capture.records[-1].line).lost_at is None, path.name


def test_a_castling_cut_off_by_the_end_of_the_recording_is_not_completed(tmp_path: Path, capsys) -> None:
    """King and rook lifted, the rook down, then the recording stops: leaving out the king's lift would read
    a rook move, but a move cut off by the end of the recording lost nothing to read again."""
    spec = "Le2 Pe4 Bw Le7 Pe5 Bb Lg1 Pf3 Bw Lb8 Pc6 Bb Lf1 Pc4 Bw Lg8 Pf6 Bb Le1 Lh1 Pf1"
    status, moves, err = replay(tmp_path, spec, capsys)
    assert moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
    assert status == 1
    assert "warning" not in err and "ends away from the game" in err


@settings(max_examples=8, deadline=None)
@given(number=st.integers(0, 959), seed=st.integers(0, 2**32 - 1))
def test_a_recording_stopped_at_any_moment_is_not_read_again(number: int, seed: int) -> None:
    """However a recording of a game the recognizer follows ends (a crash, a kill, a castling half made),
    no second reading completes a move the recording cut off."""
    rng = random.Random(seed)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(start, rng, max_plies=30)
    items = list(enumerate(human_game(start, moves, rng, noise_rate=0.2, clock_rate=0.5), start=2))
    for cut in range(1, len(items) + 1):
        first = read(start, items[:cut], cut + 1)
        assert reread(start, items[:cut], cut + 1, first) is None, f"cut after line {cut + 1}"
    assert read(start, items, len(items) + 2).recognizer.board.move_stack == moves


def _quiet_game(plies: int, seed: int) -> str:
    """A long game of moves that neither end it nor repeat a position, as 'L.. P..' (victims lifted first)."""
    rng, board, spec = random.Random(seed), chess.Board(), []
    while len(board.move_stack) < plies:
        plain = [m for m in board.legal_moves
                 if not (board.is_castling(m) or board.is_en_passant(m) or m.promotion)]
        move = rng.choice(plain)
        victim = f"L{chess.square_name(move.to_square)} " if board.piece_at(move.to_square) else ""
        board.push(move)
        if board.is_game_over() or board.is_repetition(2):
            board.pop()
            continue
        spec.append(f"{victim}L{chess.square_name(move.from_square)} P{chess.square_name(move.to_square)}")
    return " ".join(spec)


def test_a_game_lost_after_a_long_one_is_read_again(tmp_path: Path, capsys) -> None:
    """Found crashing (the eighth outside generator): a second reading copies the reader, and the games it
    archived were copied node by node, too deep for Python's stack after a game of 200 plies."""
    path = tmp_path / "session.jsonl"
    first_game = records(_quiet_game(220, seed=7))
    set_up = {"t": first_game[-1]["t"] + 1, "board": "x" * 16 + "." * 32 + "x" * 16}
    second_game = [{**r, "t": r["t"] + set_up["t"]} for r in records(PHANTOM)]
    lines = [{"capture": 1, "board": "events", "start": 518}, *first_game, set_up, *second_game]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    pgn = io.StringIO(captured.out)
    games = [chess.pgn.read_game(pgn), chess.pgn.read_game(pgn)]
    assert [len(list(game.mainline_moves())) for game in games] == [220, len(RUY_LOPEZ)]
    assert status == 0 and "read again with the report of line" in captured.err



def test_a_castling_without_the_right_at_the_end_is_no_slip(tmp_path: Path, capsys) -> None:
    """Found failing (a review against the spec): White, without castling rights, castles O-O anyway and
    presses the clock. A second reading left out the rook's lift and read Kf1, the rook's landing on g1
    an extra piece nobody reported. A piece where no legal move lands is now reported at once, so no
    reading explains the board and the problem stands."""
    path = tmp_path / "game.jsonl"
    header = {"capture": 1, "board": "events", "start": "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w kq - 0 1"}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *records("Le1 Lh1 Pf1 Pg1 Bw")]))
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    assert list(chess.pgn.read_game(io.StringIO(captured.out)).mainline_moves()) == []
    assert status == 1
    assert "warning" not in captured.err
    assert "no legal move explains: empty f1, g1; fill e1, h1" in captured.err


SET_UP = "Lf6 Pg8 La4 Pf1 La6 Pa7 Lc6 Pb8 Lf3 Pg1 Le5 Pe7 Le4 Pe2 Lh5 Ld2 Pd4 Ld7 Pd5"  # after PHANTOM


def test_a_game_lost_while_the_clock_went_on_and_then_set_up_again_is_read_again(tmp_path: Path,
                                                                                  capsys) -> None:
    """Found silent (the seventy-sixth generator, replay's second reading): a board lost while the clock went
    on, then the pieces set up again for a new game. The capture ends on a game it follows, and the moves
    made on the lost board went missing with no word. That board is lost as much as one lost to the end:
    it is read again with the slip undone (Nf6, not pressed, is put back as the set-up begins)."""
    pressed = PHANTOM.replace("Pc6", "Pc6 Bb").replace("Pb5", "Pb5 Bw")
    status, moves, err = replay(tmp_path, f"{pressed} {SET_UP}", capsys)
    assert moves == RUY_LOPEZ[:7] and status == 0
    assert err == (f"eboard960 replay: {tmp_path / 'game.jsonl'}: warning: line 9: the board was lost here "
                   "for good; read again with the report of line 8 left out, which follows it to the end "
                   "(4 more plies)\n")


def test_a_game_lost_for_good_and_then_set_up_again_is_named_in_a_warning(tmp_path: Path, capsys) -> None:
    """An illegal move played on (Bc1-g5 through the d2 pawn), which no slip undone explains, then the pieces
    set up again: a warning names the moves that are not recorded. A game abandoned and set up again with no
    press between warns of nothing."""
    illegal = "Le2 Pe4 Bw Le7 Pe5 Bb Lg1 Pf3 Bw Lb8 Pc6 Bb Lc1 Pg5 Bw Lg8 Pf6 Bb Lf1 Pc4 Bw"
    set_up = "Le4 Pe2 Lc4 Pf1 Lg5 Pc1 Lf6 Pg8 Lc6 Pb8 Lf3 Pg1 Le5 Pe7 Ld2 Pd4 Ld7 Pd5"
    status, moves, err = replay(tmp_path, f"{illegal} {set_up}", capsys)
    assert moves == ["e2e4", "e7e5", "g1f3", "b8c6"] and status == 0
    assert err == (f"eboard960 replay: {tmp_path / 'game.jsonl'}: warning: line 15: the board showed a "
                   "position no legal move explains from here, with the clock going on, until the new game "
                   "set up at line 36; moves made on it meanwhile are not recorded\n")
    status, moves, err = replay(tmp_path, f"{PHANTOM} {SET_UP}", capsys)
    assert moves == RUY_LOPEZ[:3] and status == 0 and err == ""


# d2 and a7 knocked, their places lost, each pawn moved later
TWO_KNOCKS = ("Le2 Pe4 Bw Le7 Pe5 Bb Lg1 Pf3 Bw Ld2 Lb8 Pc6 Bb Lf1 Pc4 Bw Lg8 Pf6 Bb Ld2 Pd3 Bw Lf8 Pc5 Bb "
              "Lb1 Pc3 Bw Ld7 Pd6 Bb Lc1 Pg5 Bw Lh7 Ph6 Bb La7 Lg5 Ph4 Bw Lg7 Pg5 Bb Lh4 Pg3 Bw La7 Pa6 Bb "
              "Lh2 Ph3 Bw Lc8 Pe6 Bb La2 Pa3 Bw")
TWO_KNOCKS_GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "b1c3", "d7d6", "c1g5",
                   "h7h6", "g5h4", "g7g5", "h4g3", "a7a6", "h2h3", "c8e6", "a2a3"]


def test_two_slips_far_apart_are_undone_one_after_the_other(tmp_path: Path, capsys) -> None:
    """Found failing (the seventy-sixth generator): with two slips far apart, undoing the first follows the
    board until the second, and no single slip undone follows it to the end. That reading is read on, and
    the second slip is looked for where it lost the board."""
    first = read(chess.Board(), events(TWO_KNOCKS), 60)
    assert first.lost_at is not None and len(first.recognizer.board.move_stack) == 3

    status, moves, err = replay(tmp_path, TWO_KNOCKS, capsys)
    assert moves == TWO_KNOCKS_GAME
    assert status == 0
    assert err == (f"eboard960 replay: {tmp_path / 'game.jsonl'}: warning: line 16: the board was lost here "
                   "for good; read again with the report of line 11 left out and, later, the report of line "
                   "39 left out, which follows it to the end (16 more plies)\n")


def test_a_slip_undone_is_kept_when_the_board_is_unexplained_only_where_play_stopped(tmp_path: Path,
                                                                                    capsys) -> None:
    """One knock's place lost early, and the game ending on an illegal move pressed as made: the reading with
    the knock undone follows the board to where play stopped, keeps every move, and the board at the end is
    named as a problem."""
    spec = TWO_KNOCKS.replace("La7 Lg5", "Lg5") + " Lh6 Ph5 Bb Ld3 Pd5 Bw"
    status, moves, err = replay(tmp_path, spec, capsys)
    assert moves == [*TWO_KNOCKS_GAME, "h6h5"]
    assert status == 1
    assert "read again with the report of line 11 left out, which follows it to where play stopped" in err
    assert "no legal move explains: empty d5; fill d3" in err


def test_an_illegal_move_pressed_and_played_on_is_not_read_again_as_a_capture(tmp_path: Path, capsys) -> None:
    """Found inventing moves (the seventy-ninth generator, false alarms of the second reading): 2.e4-e3
    pressed, then Black touched the king. A second reading left out the pawn's landing as if no piece had
    made it; the pawn, in hand for good, read as capturing d5 unseen: 2.exd5. A place right after a lift
    from another square is a hand's move, not a slip, and is never left out: the illegal move stands."""
    status, moves, err = replay(tmp_path, "Le2 Pe4 Bw Ld7 Pd5 Bb Le4 Pe3 Bw Le8 Pe8", capsys)
    assert moves == ["e2e4", "d7d5"]
    assert status == 1 and "warning" not in err and "no legal move explains: empty e3; fill e4" in err


def test_a_set_up_short_of_a_piece_is_not_completed_by_a_second_reading(tmp_path: Path, capsys) -> None:
    """Found inventing a game (the seventy-ninth generator): pieces set up again with b2's pawn taken off,
    1.d4 d5 played on that board with the clock, then the pawn put back with the others. A second reading
    left out the pawn's lift, so the board reached the start at once and d4 d5 became a game; the pawn put
    back then landed on a full square. A reading whose later places land on full squares left out a real
    report: it is not kept, and the set-up played on is named instead."""
    spec = ("Le2 Pe4 Bw Le7 Pe5 Bb Le4 Le5 Lb2 Pe2 Pe7 Ld2 Pd4 Bw Ld7 Pd5 Bb Ld4 Ld5 Pd2 Pd7 Pb2 "
            "Lg1 Pf3 Bw Lg8 Pf6 Bb")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [
        {"capture": 1, "board": "events", "start": 518}, *records(spec)]))
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    pgn = io.StringIO(captured.out)
    games = []
    while (game := chess.pgn.read_game(pgn)) is not None:
        games.append([move.uci() for move in game.mainline_moves()])
    assert games == [["e2e4", "e7e5"], ["g1f3", "g8f6"]]
    assert status == 0 and "read again" not in captured.err


def test_a_place_skipped_only_because_the_second_reading_left_its_lift_out_is_no_problem(tmp_path: Path,
                                                                                       capsys) -> None:
    """Found failing (the eighty-fourth generator): Nxd3 victim first, the knight set down 0.14 s before it
    left f2, then White touches the rook on g4. The first reading lost the board at the touch; the second
    leaves the touch's lift out, which moves are right, and its place then lands on a square that holds a
    piece. That skip follows from the slip, not from the sensors: no problem is named, and replay succeeds."""
    timed = [
    (356.925, "lift", "d1"), (361.206, "place", "f2"), (363.802, "lift", "g2"), (365.052, "place", "g4"),
    (367.129, "place", "f6"), (367.172, "lift", "f5"), (369.115, "lift", "g1"), (369.878, "place", "f1"),
    (370.959, "lift", "d3"), (371.19, "place", "d3"), (371.326, "lift", "f2"), (373.948, "lift", "g4"),
    (374.48, "place", "g4"), (375.22, "lift", "b5"), (376.954, "place", "b3"), (377.705, "lift", "h2"),
    (379.077, "place", "g2"), (380.919, "lift", "g4"), (381.282, "place", "h4"), (381.856, "lift", "h4"),
    (385.626, "lift", "g2"), (385.828, "place", "e2"), (386.002, "lift", "e2"), (386.275, "place", "d2"),
    (386.438, "lift", "d2"), (386.573, "place", "b2")]
    lines = [{"capture": 1, "board": "events", "start": "8/8/p7/PQ2bk2/3p4/3Pp3/6Rr/3n2K1 b - - 5 42"},
             *({"t": t, kind: square} for t, kind, square in timed)]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    game = chess.pgn.read_game(io.StringIO(captured.out))
    assert game is not None
    sans = game.board().variation_san(list(game.mainline_moves()))
    assert sans.startswith("42...Nf2 43. Rg4 Kf6 44. Kf1 Nxd3 45. Qb3 Rg2 46. Rh4 Rb2")
    assert "read again with the report of line 13 left out" in captured.err
    assert "sensor inconsistency" not in captured.err
    assert status == 0
