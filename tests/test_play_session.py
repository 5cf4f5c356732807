"""The pure game session: clock presses and [%clk], statuses in words, the engine's turn, journal replay."""

from __future__ import annotations

import dataclasses
import random

import chess
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from eboard960.capture import CaptureWriter, read_capture
from eboard960.choreography import human_game, move_events, random_game
from eboard960.clock.timecontrol import parse_time_controls
from eboard960.commands import SetLeds
from eboard960.events import BoardSnapshot, ButtonPressed, LinkChanged, PieceLifted, PiecePlaced
from eboard960.play.demo import DEMO_START, demo_board, demo_moves
from eboard960.play.journal import replay_into
from eboard960.play.session import (
    EngineTurn,
    GameChanged,
    JournalEvent,
    JournalNote,
    PlaySession,
    Said,
)
from eboard960.recognizer import Recognizer


def at(event: object, t: float) -> object:
    return dataclasses.replace(event, t=t)


def set_up(session: PlaySession, board: chess.Board, t: float = 0.0) -> list[object]:
    return session.feed(BoardSnapshot.from_board(board, t=t))


def play(session: PlaySession, board: chess.Board, move: chess.Move, t: float) -> list[object]:
    """Make `move` on the board at time `t` (all hand movements at once)."""
    effects = []
    for step in move_events(board, move):
        effects += session.feed(at(step, t))
    board.push(move)
    return effects


def test_demo_game_with_clock_gives_exact_pgn_and_clock_comments() -> None:
    # 1 minute + 1 s: every ply takes 2 s, so white shows 60 - 2k + k = 60 - k s after move k
    session = PlaySession(DEMO_START, controls=parse_time_controls("1+1"))
    board = demo_board()
    set_up(session, board)
    t = 0.0
    for move in demo_moves():
        t += 2.0
        mover = board.turn
        play(session, board, move, t)
        effects = session.press(mover, t)
        assert any(isinstance(e, JournalEvent) for e in effects)
        assert any(isinstance(e, GameChanged) for e in effects)
    pgn = str(session.pgn())
    assert "1. c3 { [%clk 0:00:59] } 1... a6 { [%clk 0:00:59] } 2. e3 { [%clk 0:00:58] }" in pgn
    assert "4. O-O { [%clk 0:00:56] }" in pgn
    assert "10... O-O-O { [%clk 0:00:50] }" in pgn
    assert "12... Qh7# { [%clk 0:00:48] } 0-1" in pgn
    assert '[Variant "Chess960"]' in pgn and '[TimeControl "60+1"]' in pgn
    assert session.status(t) == "game over: 0-1 (checkmate)"


def test_a_move_committed_by_the_other_side_moving_also_switches_the_clock() -> None:
    session = PlaySession(518, controls=parse_time_controls("5"))
    board = chess.Board()
    set_up(session, board)
    play(session, board, chess.Move.from_uci("e2e4"), 3.0)
    effects = session.feed(PieceLifted(square=chess.E7, t=10.0))  # black moves without pressing
    effects += session.feed(PiecePlaced(square=chess.E5, t=11.0))
    assert [e.text for e in effects if isinstance(e, Said)] == ["move 1. e4"]
    (note,) = [e for e in effects if isinstance(e, JournalNote)]
    assert note.t in (10.0, 11.0)  # when the recognizer committed e4
    assert note.text == f"clock {300_000 - round(note.t * 1000)} 300000"
    assert session.view(12.5).black_ms == 300_000 - round((12.5 - note.t) * 1000)


def test_statuses_in_words() -> None:
    session = PlaySession(518)
    assert session.status(0) == "connecting to the board"
    session.feed(LinkChanged(up=True, t=0))
    assert session.status(0) == "set up position 518"
    wrong = chess.Board()
    wrong.remove_piece_at(chess.D1)
    set_up(session, wrong)
    assert session.status(0) == "set up position 518: fill d1"
    session.feed(PiecePlaced(square=chess.D1, piece=chess.Piece.from_symbol("Q"), t=1))
    assert session.set_up and session.status(1) == "White to move"
    session.feed(LinkChanged(up=False, t=2))
    assert session.status(2) == "board disconnected — reconnecting"
    session.feed(LinkChanged(up=True, t=3))
    session.feed(PieceLifted(square=chess.E2, t=4))
    session.feed(PiecePlaced(square=chess.E5, t=4))
    assert session.status(4) == "illegal: empty e5; fill e2"
    session.feed(PieceLifted(square=chess.E5, t=5))
    session.feed(PiecePlaced(square=chess.E4, t=5))
    assert session.status(5) == "White played e4: press the clock"


def test_half_a_castling_asks_for_the_rook() -> None:
    session = PlaySession(518)
    board = chess.Board(chess960=True)
    set_up(session, board)
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"):
        play(session, board, chess.Move.from_uci(uci), 1)
        session.press(not board.turn, 1)
    session.feed(PieceLifted(square=chess.E1, t=2))
    effects = session.feed(PiecePlaced(square=chess.G1, t=2))  # the king's half of O-O
    assert SetLeds(squares=frozenset({chess.H1, chess.F1})) in effects
    assert session.status(2) == "castling: place the rook on f1"
    session.feed(PieceLifted(square=chess.H1, t=3))
    session.feed(PiecePlaced(square=chess.F1, t=3))
    session.press(chess.WHITE, 3)
    assert session.board.peek() == chess.Move.from_uci("e1h1")


def test_engine_turn_wrong_execution_and_auto_press() -> None:
    session = PlaySession(518, engine_side=chess.BLACK, settle=1.0)
    board = chess.Board(chess960=True)
    set_up(session, board)
    assert session.tick(0.5) == []  # white's turn: nothing to ask
    play(session, board, chess.Move.from_uci("e2e4"), 1.0)
    assert session.tick(1.5) == []  # not settled yet
    effects = session.tick(2.0)  # settled: pressed for white, then the engine is asked
    assert [e.text for e in effects if isinstance(e, Said)] == ["move 1. e4"]
    asked = [e for e in effects if isinstance(e, EngineTurn)]
    assert len(asked) == 1 and asked[0].board.fen() == board.fen()
    assert session.tick(2.1) == []  # asked once only
    assert session.status(2.1) == "engine thinking"
    assert session.press(chess.BLACK, 2.2) == [Said(t=2.2, text="the engine is still thinking")]
    effects = session.engine_moved(chess.Move.from_uci("e7e5"), 3.0)
    assert JournalNote(t=3.0, text="engine e7e5") in effects
    assert SetLeds(squares=frozenset({chess.E7, chess.E5})) in effects
    assert session.status(3) == "make the engine's move e5"
    # the player makes another move for the engine: not accepted, not auto-pressed
    play(session, board.copy(), chess.Move.from_uci("d7d5"), 4.0)
    assert session.status(4) == "illegal: make the engine's move e5 (empty d5, e7; fill d7, e5)"
    assert session.tick(9.0) == []
    refused = session.press(chess.BLACK, 9.0)
    assert refused == [Said(t=9.0, text="illegal: make the engine's move e5")]
    session.feed(PieceLifted(square=chess.D5, t=10))
    session.feed(PiecePlaced(square=chess.D7, t=10))
    play(session, board, chess.Move.from_uci("e7e5"), 11.0)
    effects = session.tick(12.0)
    assert JournalEvent(event=ButtonPressed(button="black", t=12.0)) in effects
    assert session.board.move_stack == [chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5")]
    assert session.status(12) == "White to move"


def test_an_illegal_engine_move_is_ignored() -> None:
    session = PlaySession(518, engine_side=chess.WHITE)
    set_up(session, chess.Board())
    effects = session.engine_moved(chess.Move.from_uci("e2e5"), 1.0)
    assert effects == [Said(t=1.0, text="the engine's move e2e5 is not legal here; ignored")]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), start=st.integers(0, 959))
def test_journal_replay_rebuilds_game_and_clock(seed: int, start: int, tmp_path_factory) -> None:
    """Live: board events, board clock presses and auto-presses; replayed from the journal: the same."""
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(start)
    moves = random_game(board, rng, max_plies=30)
    events, t, replay_board = [BoardSnapshot.from_board(board, t=0.0)], 0.5, board.copy()
    for move in moves:  # a person's hands (gaps up to 2 s), sometimes a long think after the move
        steps = human_game(replay_board, [move], rng, clock_rate=0.4)
        events += [at(e, round(t + e.t, 3)) for e in steps]
        t = events[-1].t + (3.0 if rng.random() < 0.5 else 0.1)
        replay_board.push(move)
    path = tmp_path_factory.mktemp("journal") / "game.jsonl"
    live = PlaySession(start, controls=parse_time_controls("3+2"), settle=2.5)
    auto_presses = []
    with CaptureWriter(path, board="events", start=start) as journal:
        def carry(effects: list[object]) -> None:
            for effect in effects:
                if isinstance(effect, JournalEvent):
                    auto_presses.append(effect.event)
                    journal.event(effect.event)
                elif isinstance(effect, JournalNote):
                    journal.note(effect.t, effect.text)

        now = 0.0
        for event in events:
            while now + 0.1 < event.t:  # the runner ticks ten times a second
                now = round(now + 0.1, 3)
                carry(live.tick(now))
            journal.event(event)
            carry(live.feed(event))
            now = max(now, event.t)
        carry(live.resume_at(now))  # as after a crash: a move standing on the board is committed
    alone = Recognizer(start)  # the recognizer by itself, finishing as replay does
    for event in events:
        alone.feed(event)
    alone.finish()
    assume(alone.board.move_stack == moves)  # recognition itself is the recognizer's tests' business
    assert live.board.move_stack == moves
    assert auto_presses or len(moves) < 4
    capture = read_capture(path)
    replayed = PlaySession(start, controls=parse_time_controls("3+2"), settle=2.5)
    replay_into(replayed, capture)
    assert replayed.board.move_stack == live.board.move_stack
    assert str(replayed.pgn()) == str(live.pgn())
    end = int(now * 1000) + 1000
    assert replayed.clock.reading(end) == live.clock.reading(end)


def test_replayed_engine_note_restores_the_engine_move_without_asking_again(tmp_path) -> None:
    path = tmp_path / "engine.jsonl"
    live = PlaySession(518, engine_side=chess.BLACK)
    board = chess.Board(chess960=True)
    with CaptureWriter(path, board="events", start=518) as journal:
        def carry(effects: list[object]) -> None:
            for effect in effects:
                if isinstance(effect, JournalEvent):
                    journal.event(effect.event)
                elif isinstance(effect, JournalNote):
                    journal.note(effect.t, effect.text)

        for event in [BoardSnapshot.from_board(board, t=0.0),
                      *(at(step, 1.0) for step in move_events(board, chess.Move.from_uci("g1f3")))]:
            journal.event(event)
            carry(live.feed(event))
        carry(live.press(chess.WHITE, 2.0))
        assert [e for e in live.tick(2.1) if isinstance(e, EngineTurn)]
        carry(live.engine_moved(chess.Move.from_uci("g8f6"), 3.0))
    resumed = PlaySession(518, engine_side=chess.BLACK)
    replay_into(resumed, read_capture(path))
    assert resumed.engine_move == chess.Move.from_uci("g8f6")
    assert resumed.tick(5.0) == []
    assert resumed.status(5.0) == "make the engine's move Nf6"


def test_setting_the_pieces_up_again_starts_a_new_game_and_keeps_the_old_one() -> None:
    session = PlaySession(518, controls=parse_time_controls("3+2"))
    board = chess.Board(chess960=True)
    set_up(session, board)
    for index, uci in enumerate(("f2f3", "e7e5", "g2g4", "d8h4")):
        play(session, board, chess.Move.from_uci(uci), 1.0 + index)
        session.press(not board.turn, 1.5 + index)
    assert session.status(5) == "game over: 0-1 (checkmate)"
    effects = session.feed(BoardSnapshot.from_board(chess.Board(), t=20.0))
    assert Said(t=20.0, text="new game: White to move") in effects
    assert session.status(21) == "White to move" and session.board.move_stack == []
    assert session.view(21.0).white_ms == 179_000  # a fresh clock, started when the pieces stood
    play(session, chess.Board(chess960=True), chess.Move.from_uci("d2d4"), 22.0)
    session.press(chess.WHITE, 23.0)
    first, second = session.games()
    assert first.headers["Result"] == "0-1" and second.headers["Result"] == "*"
    # each move took 1 s after the 2 s increment: 3:00.5, then 3:01 and 3:01.5 / 3:02
    assert str(first).endswith("2. g4 { [%clk 0:03:01] } 2... Qh4# { [%clk 0:03:02] } 0-1")
    assert first.headers["Event"] == second.headers["Event"] == "eboard960 play"
    assert str(second).endswith("1. d4 { [%clk 0:02:59] } *")  # 3 s used, 2 s back
    assert session.pgn_text() == f"{first}\n\n{second}\n"


def test_the_session_and_the_view_are_pure() -> None:
    """No event loop, serial port or Bluetooth stack behind the game or its drawing."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, eboard960.play.session, eboard960.play.view, eboard960.play.demo; "
            "print(sorted(m for m in ('asyncio', 'serial', 'bleak', 'bumble') if m in sys.modules))")
    src = str(Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": src})
    assert done.stdout.strip() == "[]"


def test_a_takeback_gives_the_clock_back_to_the_side_to_move() -> None:
    session = PlaySession(518, controls=parse_time_controls("5"))
    board = chess.Board(chess960=True)
    set_up(session, board)
    play(session, board, chess.Move.from_uci("e2e4"), 2.0)
    session.press(chess.WHITE, 2.0)  # white used 2 s; black's clock runs
    session.feed(PieceLifted(square=chess.E4, t=5.0))  # e4 taken back after 3 s of black's time
    effects = session.feed(PiecePlaced(square=chess.E2, t=5.0))
    assert Said(t=5.0, text="takeback e4") in effects
    assert session.board.move_stack == [] and session.clock.to_move == chess.WHITE
    view = session.view(9.0)
    assert (view.white_ms, view.black_ms) == (298_000 - 4_000, 297_000)
    play(session, chess.Board(chess960=True), chess.Move.from_uci("d2d4"), 10.0)
    session.press(chess.WHITE, 10.0)
    assert "1. d4 { [%clk 0:04:53] }" in str(session.pgn())


def test_a_takeback_counts_no_phantom_moves_towards_a_stage() -> None:
    """A minute for two moves, then another minute: e4 taken back and d4 made is White's first move, so
    the second minute comes only with White's second move."""
    session = PlaySession(518, controls=parse_time_controls("1/2:1"))
    board = chess.Board(chess960=True)
    set_up(session, board)
    play(session, board.copy(), chess.Move.from_uci("e2e4"), 2.0)
    session.press(chess.WHITE, 2.0)
    session.feed(PieceLifted(square=chess.E4, t=3.0))
    session.feed(PiecePlaced(square=chess.E2, t=3.0))
    play(session, board.copy(), chess.Move.from_uci("d2d4"), 4.0)
    session.press(chess.WHITE, 4.0)
    assert (session.clock.moves(chess.WHITE), session.clock.moves(chess.BLACK)) == (1, 0)
    assert session.clock.remaining(chess.WHITE, 4_000) == 57_000  # 2 s on e4, 1 s on d4, no second minute
    assert session.clock.remaining(chess.BLACK, 4_000) == 59_000  # its second thinking while e4 stood


def test_a_fallen_flag_ends_the_game_on_time_and_a_later_move_is_not_part_of_it(tmp_path) -> None:
    path = tmp_path / "flag.jsonl"
    live = PlaySession(518, controls=parse_time_controls("1"), settle=1.0)
    board = chess.Board(chess960=True)
    with CaptureWriter(path, board="events", start=518) as journal:
        def carry(effects: list[object]) -> list[object]:
            for effect in effects:
                if isinstance(effect, JournalEvent):
                    journal.event(effect.event)
                elif isinstance(effect, JournalNote):
                    journal.note(effect.t, effect.text)
            return effects

        def feed(event: object) -> list[object]:
            journal.event(event)
            return carry(live.feed(event))

        feed(BoardSnapshot.from_board(board, t=0.0))
        for step in move_events(board, chess.Move.from_uci("e2e4")):
            feed(at(step, 2.0))
        board.push(chess.Move.from_uci("e2e4"))
        carry(live.tick(3.5))  # the settled move is pressed for White: Black's minute runs from 3.5 s
        assert live.board.move_stack == [chess.Move.from_uci("e2e4")]
        assert [e for e in carry(live.tick(63.4)) if isinstance(e, Said)] == []
        said = [e.text for e in carry(live.tick(63.6)) if isinstance(e, Said)]
        assert said == ["Black's flag fell: 1-0 (time forfeit)"]
        for step in move_events(board, chess.Move.from_uci("e7e5")):  # too late: not recorded
            feed(at(step, 70.0))
        carry(live.tick(72.0))
    assert live.status(72.0) == "game over: 1-0 (time forfeit)"
    assert live.board.move_stack == [chess.Move.from_uci("e2e4")]
    game = live.pgn()
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "time forfeit"
    assert str(game).endswith("1. e4 { [%clk 0:00:56] } 1-0")  # pressed at 3.5 s
    replayed = PlaySession(518, controls=parse_time_controls("1"), settle=1.0)
    replay_into(replayed, read_capture(path))  # no ticks: the flag is found at the next event
    assert str(replayed.pgn()) == str(game)
    effects = live.feed(BoardSnapshot.from_board(chess.Board(), t=80.0))
    assert Said(t=80.0, text="new game: White to move") in effects
    first, second = live.games()
    assert first.headers["Result"] == "1-0" and second.headers["Result"] == "*"
    assert "Termination" not in second.headers


def test_a_promotion_button_that_undoes_the_default_queens_mate_lets_the_game_and_the_clock_go_on() -> None:
    start = chess.Board("k7/2P5/1K6/8/8/8/8/7R w - - 0 1", chess960=True)
    session = PlaySession(start, controls=parse_time_controls("1"))
    session.feed(BoardSnapshot.from_board(start, t=0.0))
    play(session, start.copy(), chess.Move.from_uci("c7c8"), 2.0)
    said = [e.text for e in session.press(chess.WHITE, 2.0) if isinstance(e, Said)]
    assert said == ["move 1. c8=Q#", "game over: 1-0 (checkmate)"]
    said = [e.text for e in session.feed(ButtonPressed(button="promote_n", t=3.0)) if isinstance(e, Said)]
    assert said == ["takeback c8=Q#", "move 1. c8=N"]
    assert session.status(4.0) != "game over: 1-0 (checkmate)" and session.clock.running
    assert session.clock.to_move == chess.BLACK
    after = chess.Board("k1N5/8/1K6/8/8/8/8/7R b - - 0 1", chess960=True)
    play(session, after, chess.Move.from_uci("a8b8"), 5.0)
    session.press(chess.BLACK, 5.0)
    assert session.board.move_stack == [chess.Move.from_uci("c7c8n"), chess.Move.from_uci("a8b8")]
    assert session.pgn().headers["Result"] == "*"
    resigned = PlaySession(start)
    resigned.feed(BoardSnapshot.from_board(start, t=0.0))
    play(resigned, start.copy(), chess.Move.from_uci("c7c8"), 2.0)
    resigned.press(chess.WHITE, 2.0)
    resigned.resign(chess.BLACK, 2.5)  # too late to resign a mate; the press may still make it a knight
    effects = resigned.feed(ButtonPressed(button="promote_n", t=3.0))
    assert [e.text for e in effects if isinstance(e, Said)] == ["takeback c8=Q#", "move 1. c8=N"]


def test_a_flag_falling_decides_a_promotion_button_either_side_may_have_meant() -> None:
    start = chess.Board("8/p1k1PN2/5R2/8/8/8/P1p3p1/6K1 w - - 0 40", chess960=True)
    session = PlaySession(start, controls=parse_time_controls("1"))
    session.feed(BoardSnapshot.from_board(start, t=0.0))
    play(session, start.copy(), chess.Move.from_uci("e7e8"), 2.0)
    session.press(chess.WHITE, 2.0)
    effects = session.feed(ButtonPressed(button="promote_b", t=3.0))
    assert not [e for e in effects if isinstance(e, Said)]  # Black may promote too: its next event tells
    said = [e.text for e in session.tick(70.0) if isinstance(e, Said)]
    assert said == ["takeback e8=Q", "move 1. e8=B", "Black's flag fell: 1-0 (time forfeit)"]
    assert session.board.move_stack == [chess.Move.from_uci("e7e8b")]


def test_a_flag_is_a_draw_when_the_other_side_cannot_mate() -> None:
    start = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", chess960=True)
    session = PlaySession(start, controls=parse_time_controls("1"))
    session.feed(BoardSnapshot.from_board(start, t=0.0))
    said = [e.text for e in session.tick(60.5) if isinstance(e, Said)]
    assert said == ["White's flag fell: 1/2-1/2 (time forfeit)"]
    assert session.pgn().headers["Result"] == "1/2-1/2"


def test_a_resignation_keeps_the_move_standing_on_the_board_and_ends_the_game(tmp_path) -> None:
    path = tmp_path / "resign.jsonl"
    live = PlaySession(518, controls=parse_time_controls("5"))
    board = chess.Board(chess960=True)
    with CaptureWriter(path, board="events", start=518) as journal:
        def feed(event: object) -> list[object]:
            journal.event(event)
            return live.feed(event)

        feed(BoardSnapshot.from_board(board, t=0.0))
        for step in move_events(board, chess.Move.from_uci("e2e4")):
            feed(at(step, 2.0))
        board.push(chess.Move.from_uci("e2e4"))
        effects = live.resign(chess.BLACK, 5.0)  # e4 stands unpressed: it was made before Black resigned
        for effect in effects:
            if isinstance(effect, JournalNote):
                journal.note(effect.t, effect.text)
        for step in move_events(board, chess.Move.from_uci("e7e5")):  # after the end: not recorded
            feed(at(step, 8.0))
    assert [e.text for e in effects if isinstance(e, Said)] == ["move 1. e4", "Black resigns: 1-0"]
    assert live.status(9.0) == "game over: 1-0 (Black resigns)"
    assert live.board.move_stack == [chess.Move.from_uci("e2e4")]
    view = live.view(60.0)
    assert (view.white_ms, view.black_ms) == (295_000, 300_000)  # e4 final, and the clock stopped, at 5 s
    game = live.pgn()
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "normal"
    assert str(game).endswith("1. e4 { [%clk 0:04:55] } 1-0")
    replayed = PlaySession(518, controls=parse_time_controls("5"))
    replay_into(replayed, read_capture(path))
    assert str(replayed.pgn()) == str(game)
    assert replayed.status(9.0) == live.status(9.0)


def test_resign_means_the_player_facing_the_engine_and_a_draw_can_be_agreed() -> None:
    session = PlaySession(518, engine_side=chess.WHITE)
    set_up(session, chess.Board(chess960=True))
    said = [e.text for e in session.resign(None, 1.0) if isinstance(e, Said)]
    assert said == ["Black resigns: 1-0"]
    assert [e.text for e in session.agree_draw(2.0) if isinstance(e, Said)] == [
        "the game is already over: 1-0 (Black resigns)"
    ]
    two_players = PlaySession(518)
    assert [e.text for e in two_players.agree_draw(0.5) if isinstance(e, Said)] == [
        "no game to end yet: set up position 518"
    ]
    set_up(two_players, chess.Board(chess960=True), t=1.0)
    effects = two_players.agree_draw(3.0)
    assert JournalNote(t=3.0, text="draw agreed") in effects
    assert two_players.pgn().headers["Result"] == "1/2-1/2"
    board = chess.Board(chess960=True)
    play(two_players, board, chess.Move.from_uci("e2e4"), 4.0)
    two_players.press(chess.WHITE, 5.0)
    assert two_players.board.move_stack == []
    assert two_players.status(6.0) == "game over: 1/2-1/2 (draw agreed)"


def test_a_mate_standing_on_the_board_outranks_a_resignation_after_it() -> None:
    session = PlaySession(518)
    board = chess.Board(chess960=True)
    set_up(session, board)
    for t, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"], start=1):
        play(session, board, chess.Move.from_uci(uci), float(t))
    said = [e.text for e in session.resign(chess.WHITE, 6.0) if isinstance(e, Said)]
    assert said == ["move 2... Qh4#", "game over: 0-1 (checkmate)",
                    "the game is already over: 0-1 (checkmate)"]
    assert "Termination" not in session.pgn().headers
