"""Games against real Stockfish on the emulated board: the player castles on each wing.

The engine cannot be made to castle, so the player (White, scripted) castles:
on the h-side in position 96 (BBQNRNKR: the knight leaves f1, then O-O with
the king staying on g1) and on the a-side in position 746 (RKNNBBQR: both
knights leave, then O-O-O). The engine's moves are made on the emulated
board by the test, as the player would, after the session shows them (and
the board's LEDs light them). In the first game one engine move is first
made wrongly, and put back.
"""

from __future__ import annotations

import asyncio
import io
import re
import shutil
import sys
from pathlib import Path

import chess
import chess.engine
import pytest

from eboard960.board import Board
from eboard960.capture import CaptureWriter, read_capture
from eboard960.cli import main
from eboard960.emulators.hand import hand_steps
from eboard960.errors import Eboard960Error
from eboard960.events import PieceLifted, PiecePlaced
from eboard960.play.engine import EngineOpponent, find_engine
from eboard960.play.journal import Journal
from eboard960.play.runner import Runner
from eboard960.play.session import PlaySession
from eboard960.play.view import PlainDisplay
from eboard960.play.virtual import VirtualBoard
from eboard960.protocols.dgt import DgtCodec
from eboard960.replay import replay_capture

pytestmark = pytest.mark.skipif(
    shutil.which("stockfish") is None and shutil.which("stockfish", path="/usr/games") is None,
    reason="Stockfish is not installed")

PLANS = {
    96: (chess.H1, ["f1e3", "f1g3"]),
    746: (chess.A1, ["c1b3", "c1d3", "d1e3", "d1c3"]),
}


def human_choice(board: chess.Board, rook: chess.Square, plan: list[str]) -> chess.Move:
    """Castle with `rook` when legal; else the plan's first legal move; else a pawn move."""
    for move in board.legal_moves:
        if board.is_castling(move) and move.to_square == rook:
            return move
    for uci in plan:
        move = chess.Move.from_uci(uci)
        if board.is_legal(move):
            return move
    return next(m for m in board.legal_moves if board.piece_type_at(m.from_square) == chess.PAWN)


def a_wrong_move(board: chess.Board, right: chess.Move) -> chess.Move:
    return next(m for m in board.legal_moves if m != right and not board.is_capture(m)
                and not board.is_castling(m) and not m.promotion)


async def engine_game(start: int, journal_path: Path, *, wrong_first: bool) -> tuple[PlaySession, list]:
    engine = await EngineOpponent.start(find_engine("stockfish"), limit=chess.engine.Limit(depth=2),
                                        options={"Threads": 1})
    virtual = VirtualBoard(start)
    journal = Journal(CaptureWriter(journal_path, board="dgt", start=start, engine="stockfish"))
    board = Board(DgtCodec, lambda: virtual.link, capture=journal)
    session = PlaySession(start, engine_side=chess.BLACK, settle=0.3)
    runner = Runner(session, board, PlainDisplay(io.StringIO()), journal=journal, virtual=virtual,
                    engine=engine)
    rook, plan = PLANS[start]
    seen: list[tuple[str, object]] = []

    async def drive(runner: Runner) -> None:
        await runner.ready()
        castled = False
        while not castled or session.board.turn == chess.BLACK:
            if session.board.turn == chess.WHITE:
                move = human_choice(session.board, rook, plan)
                castled = session.board.is_castling(move)
                await runner.make_move(move)
                continue
            await runner.until(lambda: session.engine_move is not None, what="the engine")
            move = session.engine_move
            seen.append(("leds", virtual.model.lit_squares()))
            seen.append(("status", session.status(runner.now())))
            if wrong_first and len(session.board.move_stack) == 1:
                wrong = a_wrong_move(session.board, move)
                for step in hand_steps(session.board, wrong):
                    await runner.act(step)
                seen.append(("wrong", session.status(runner.now())))
                await runner.act(PieceLifted(square=wrong.to_square))  # and put it back
                await runner.act(PiecePlaced(square=wrong.from_square))
            await runner.make_move(move)

    try:
        await asyncio.wait_for(runner.run(drive), 30)
    finally:
        await engine.close()
        journal.close()
    return session, seen


@pytest.mark.parametrize(("start", "castling"), [(96, "O-O"), (746, "O-O-O")])
def test_player_castles_against_stockfish(start: int, castling: str, tmp_path: Path) -> None:
    journal_path = tmp_path / "engine.jsonl"
    session, seen = asyncio.run(engine_game(start, journal_path, wrong_first=start == 96))
    game = session.board
    replay = chess.Board.from_chess960_pos(start)
    sans = []
    for move in game.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    assert castling in sans[0::2]
    # every engine move was shown in words and lit on the board, then made; the journal notes each
    engine_moves = game.move_stack[1::2]
    statuses = [value for kind, value in seen if kind == "status"]
    lit = [value for kind, value in seen if kind == "leds"]
    assert statuses == [f"make the engine's move {san}" for san in sans[1::2]]
    assert lit == [{m.from_square, m.to_square} for m in engine_moves]
    capture = read_capture(journal_path)
    notes = [r.text for r in capture.records if r.kind == "note" and r.text.startswith("engine ")]
    assert notes == [f"engine {m.uci()}" for m in engine_moves]
    assert list(replay_capture(capture).games[0].mainline_moves()) == game.move_stack
    wrong = [value for kind, value in seen if kind == "wrong"]
    if start == 96:
        assert len(wrong) == 1
        assert wrong[0].startswith(f"illegal: make the engine's move {sans[1]} (empty ")


def test_level_out_of_range_is_a_clear_error() -> None:
    async def start() -> None:
        await EngineOpponent.start(find_engine("stockfish"), level=99)

    with pytest.raises(Eboard960Error, match=re.escape("--level must be 0..20 for this engine, not 99")):
        asyncio.run(start())


def test_a_program_that_never_answers_uci_is_a_clear_error_not_a_wait(tmp_path: Path, capsys,
                                                                     monkeypatch) -> None:
    """`--engine` naming a program that is no UCI engine (`cat`, an xboard-only engine) waited forever."""
    silent = tmp_path / "silent_engine"
    silent.write_text(f"#!{sys.executable}\nimport sys\nfor line in sys.stdin:\n    pass\n")
    silent.chmod(0o755)
    monkeypatch.setattr("eboard960.play.engine.START_TIMEOUT", 0.5)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["play", "--position", "518", "--engine", str(silent)]) == 2
    assert capsys.readouterr().err == (
        f"eboard960 play: {silent} did not answer as a UCI engine within 0.5 s\n")
    assert not (tmp_path / "data").exists()  # no journal was started


def test_a_skill_level_that_is_not_a_number_is_a_clear_error(tmp_path: Path) -> None:
    """An engine may declare "Skill Level" as a word (a combo or string option): --level cannot set it."""
    engine = tmp_path / "wordy_engine"
    engine.write_text(f"""#!{sys.executable}
import sys
for line in sys.stdin:
    if line.strip() == "uci":
        print("id name Wordy\\noption name Skill Level type combo default weak var weak var strong\\nuciok")
    elif line.strip() == "isready":
        print("readyok")
    elif line.strip() == "quit":
        break
    sys.stdout.flush()
""")
    engine.chmod(0o755)

    with pytest.raises(Eboard960Error, match="has a 'Skill Level' option that is not a number for --level"):
        asyncio.run(EngineOpponent.start(str(engine), level=3))


def test_engine_playing_white_moves_first_and_is_named_in_the_pgn(tmp_path: Path) -> None:
    async def scenario() -> tuple[PlaySession, list[chess.Move]]:
        engine = await EngineOpponent.start(find_engine("stockfish"), level=0,
                                            limit=chess.engine.Limit(depth=1))
        virtual = VirtualBoard(518)
        board = Board(DgtCodec, lambda: virtual.link)
        session = PlaySession(518, engine_side=chess.WHITE, settle=0.3, names=(engine.name, "Player"))
        runner = Runner(session, board, PlainDisplay(io.StringIO()), virtual=virtual, engine=engine)
        chosen: list[chess.Move] = []

        async def drive(runner: Runner) -> None:
            await runner.ready()
            for _ in range(2):
                await runner.until(lambda: session.engine_move is not None, what="the engine")
                chosen.append(session.engine_move)
                await runner.make_move(session.engine_move)
                reply = next(iter(session.board.legal_moves))
                await runner.make_move(reply)

        try:
            await asyncio.wait_for(runner.run(drive), 30)
        finally:
            await engine.close()
        return session, chosen

    session, chosen = asyncio.run(scenario())
    assert len(session.board.move_stack) == 4
    assert session.board.move_stack[0::2] == chosen  # white's moves are the engine's
    game = session.pgn()
    assert game.headers["White"].startswith("Stockfish") and game.headers["Black"] == "Player"
