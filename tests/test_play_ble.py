"""The play runner on a Bluetooth LE board: the emulated Pegasus through bleak and the Bumble stack.

The demo game is made on the emulated Pegasus by a person's hands (castling the
e-board way); the session commits each move by the clock press the program
makes; the Pegasus lights the last move; the journal holds the Pegasus bytes
and replays to the same game.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import chess
import chess.pgn

from eboard960.ble.emulated import open_emulated
from eboard960.board import Backoff, Board
from eboard960.capture import CaptureWriter, read_capture
from eboard960.leds import move_squares
from eboard960.play.demo import DEMO_START, demo_board, demo_moves
from eboard960.play.journal import Journal
from eboard960.play.runner import Runner
from eboard960.play.session import PlaySession
from eboard960.play.view import PlainDisplay
from eboard960.protocols import codec_for
from eboard960.replay import replay_capture


def test_demo_game_on_an_emulated_pegasus_with_leds(tmp_path: Path) -> None:
    journal_path = tmp_path / "pegasus.jsonl"
    lit: list[frozenset[chess.Square]] = []

    async def scenario() -> PlaySession:
        emulated = await open_emulated("pegasus", DEMO_START)
        journal = Journal(CaptureWriter(journal_path, board="pegasus", start=DEMO_START))
        board = Board(lambda: codec_for("pegasus"), lambda: emulated.transport, capture=journal,
                      backoff=Backoff(initial=0.01, maximum=0.05))
        session = PlaySession(DEMO_START)
        runner = Runner(session, board, PlainDisplay(io.StringIO()), journal=journal)
        rec = session.recognizer

        async def drive(runner: Runner) -> None:
            await runner.ready()
            game = demo_board()
            for ply, move in enumerate(demo_moves()):
                await emulated.move(game, move)
                await runner.until(lambda m=move: rec.open_move == m, what=f"the board to show {move}")
                runner.handle(session.press(game.turn, runner.now()))
                await runner.until(lambda n=ply + 1: len(rec.board.move_stack) == n, what="the press")
                san = game.san(move)
                squares = move_squares(move, san)
                game.push(move)
                await runner.until(lambda s=squares: emulated.model.lit == s, what=f"the LEDs of {san}")
                lit.append(emulated.model.lit)

        try:
            await asyncio.wait_for(runner.run(drive), 60)
        finally:
            await emulated.close()
            journal.close()
        return session

    session = asyncio.run(scenario())
    exporter = chess.pgn.StringExporter(headers=False, comments=False, columns=None)
    assert session.pgn().accept(exporter) == demo_board().variation_san(demo_moves()) + " 0-1"
    assert lit[6] == {chess.E1, chess.G1, chess.F1}  # O-O: the king lands on its rook's square
    assert lit[19] == {chess.E8, chess.C8, chess.B8, chess.D8}  # O-O-O
    assert lit[0] == {chess.C2, chess.C3}
    replayed = replay_capture(read_capture(journal_path))
    assert replayed.ok, replayed.problems
    assert list(replayed.games[0].mainline_moves()) == demo_moves()
