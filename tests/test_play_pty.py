"""End to end on the real serial path: the emulated DGT board and its DGT 3000 behind a pty,
pyserial, the Board joiner, the play session (recognizer + clock), the journal and the runner.

The clock presses are the emulated clock's lever, reaching the session as DGT
clock messages over the wire. Half-way through, the cable is pulled and a
move is made while it is out; the status says so, and the board's dump after
reconnecting brings the move in.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import chess
import chess.pgn
import pytest
from pty_socket import Socket

from eboard960.board import Backoff, Board
from eboard960.capture import CaptureWriter, read_capture
from eboard960.clock.timecontrol import parse_time_controls
from eboard960.commands import EnableUpdates, RequestBoard
from eboard960.emulators.dgt import ClockModel, DgtFirmware
from eboard960.events import ButtonPressed
from eboard960.play.demo import DEMO_START, demo_board, demo_moves
from eboard960.play.journal import Journal, replay_into
from eboard960.play.runner import Runner
from eboard960.play.session import PlaySession
from eboard960.play.view import PlainDisplay
from eboard960.protocols.dgt import DgtCodec, RequestClockTimes
from eboard960.replay import decoded, replay_capture
from eboard960.transport.serial import SerialTransport

CONTROL = "5+3,3+2"  # time odds: the two sides' times differ, so a mirrored clock face shows
PULL_AFTER = 11  # plies played before the cable is pulled
MOVETEXT = ("1. c3 a6 2. e3 c6 3. Bxa6 bxa6 4. O-O c5 5. f4 f6 6. Kf2 Bxg2 7. Ne2 Bxf1 "
            "8. Kg3 Nb6 9. Qxf1 Nc6 10. h4 O-O-O 11. Kg4 h5+ 12. Kf5 Qh7# 0-1")


@pytest.mark.parametrize("white_side", ["left", "right"])
def test_full_chess960_game_over_a_pty_with_clock_presses_pulled_cable_and_exact_pgn(
        white_side: str, tmp_path: Path) -> None:
    """With White's side of the clock on the right, the lever and the times shown are mirrored."""
    journal_path = tmp_path / "pty.jsonl"
    out = io.StringIO()
    statuses: list[str] = []

    async def scenario() -> PlaySession:
        model = DgtFirmware(DEMO_START, clock=ClockModel("3000", white_side=white_side))
        socket = Socket(model)
        await socket.plug()
        journal = Journal(CaptureWriter(journal_path, board="dgt", start=DEMO_START, time=CONTROL,
                                        codec={"white_side": white_side}))
        board = Board(lambda: DgtCodec(white_side=white_side), lambda: SerialTransport(socket.path()),
                      capture=journal,
                      hello=(EnableUpdates(), RequestBoard(), RequestClockTimes()),
                      backoff=Backoff(initial=0.05, maximum=0.2))
        session = PlaySession(DEMO_START, controls=parse_time_controls(CONTROL))
        display = PlainDisplay(out)
        runner = Runner(session, board, display, journal=journal, white_side=white_side)
        rec = session.recognizer

        def record_status(view: object) -> None:
            statuses.append(view.status)
            PlainDisplay.show(display, view)

        display.show = record_status  # type: ignore[method-assign]

        async def drive(runner: Runner) -> None:
            await runner.ready()
            await runner.until(lambda: runner.received["ClockTimes"] > 0, what="the clock's times")
            game = demo_board()
            for ply, move in enumerate(demo_moves()):
                mover = chess.COLOR_NAMES[game.turn]
                if ply == PULL_AFTER:
                    await socket.pull()
                    await runner.until(lambda: not board.connected, what="the link to drop")
                    assert session.status(runner.now()) == "board disconnected — reconnecting"
                    model.play_move(game, move)  # made while the cable is out: nobody hears it
                    times = runner.received["ClockTimes"]
                    await socket.plug()
                    await runner.until(lambda t=times: runner.received["ClockTimes"] > t,
                                       what="the resync")
                else:
                    socket.send(model.play_move(game, move))
                await runner.until(lambda m=move: rec.open_move == m, what=f"the board to show {move}")
                socket.send(model.press(mover))
                await runner.until(lambda n=ply + 1: len(rec.board.move_stack) == n,
                                   what=f"the press after {move}")
                game.push(move)
            # mate paused the session's clock: the DGT 3000 shows its times, stopped
            reading = session.clock.reading(int(runner.now() * 1000))
            shown = (-(-reading.white_ms // 1000), -(-reading.black_ms // 1000))
            if white_side == "right":
                shown = shown[::-1]
            await runner.until(lambda: model.clock.paused and (model.clock.left, model.clock.right) == shown,
                               what="the clock to show the session's times")

        await asyncio.wait_for(runner.run(drive), 30)
        await socket.pull()
        journal.close()
        return session

    session = asyncio.run(scenario())
    exporter = chess.pgn.StringExporter(headers=False, comments=False, columns=None)
    game = session.pgn()
    assert game.accept(exporter) == MOVETEXT
    assert all(node.clock() is not None for node in game.mainline())
    assert "board disconnected — reconnecting" in statuses
    assert (tmp_path / "pty.jsonl.pgn").read_text() == str(game) + "\n"
    # the journal holds the wire: replay gives the game, and a fresh session rebuilds the clocks
    capture = read_capture(journal_path)
    assert sum(r.kind == "link" for r in capture.records) == 4  # up, down, up, down
    assert not any(r.kind == "button" for r in capture.records)  # every press came over the wire
    presses = [event.button for _, event in decoded(capture, []) if isinstance(event, ButtonPressed)]
    assert presses == [chess.COLOR_NAMES[ply % 2 == 0] for ply in range(len(demo_moves()))]
    assert list(replay_capture(capture).games[0].mainline_moves()) == demo_moves()
    rebuilt = PlaySession(DEMO_START, controls=parse_time_controls(CONTROL))
    replay_into(rebuilt, capture)
    assert str(rebuilt.pgn()) == str(game)


def test_chesslink_over_a_pty_with_auto_press_and_leds(tmp_path: Path) -> None:
    """A board without a clock: each move is pressed for the mover once it has stood 0.05 s."""
    from eboard960.emulators.chesslink import ChessLinkFirmware
    from eboard960.leds import move_squares
    from eboard960.protocols import codec_for

    journal_path = tmp_path / "chesslink.jsonl"

    async def scenario() -> tuple[PlaySession, list[frozenset[int]]]:
        model = ChessLinkFirmware(DEMO_START)
        socket = Socket(model)
        await socket.plug()
        journal = Journal(CaptureWriter(journal_path, board="chesslink", start=DEMO_START))
        board = Board(lambda: codec_for("chesslink"),
                      lambda: SerialTransport(socket.path(), protocol="chesslink"), capture=journal)
        session = PlaySession(DEMO_START, controls=parse_time_controls("3+2"), settle=0.05)
        runner = Runner(session, board, PlainDisplay(io.StringIO()), journal=journal)
        rec, lit = session.recognizer, []

        async def drive(runner: Runner) -> None:
            await runner.ready()
            game = demo_board()
            for ply, move in enumerate(demo_moves()):
                squares = move_squares(move, game.san(move))
                socket.send(model.play_move(game, move))
                game.push(move)
                await runner.until(lambda n=ply + 1: len(rec.board.move_stack) == n,
                                   what=f"the auto-press after {move}")
                # a square between two lit squares shares all its corner LEDs with them
                await runner.until(lambda s=squares: s <= model.lit_squares(), what="the LEDs")
                lit.append(model.lit_squares())

        await asyncio.wait_for(runner.run(drive), 30)
        await socket.pull()
        journal.close()
        return session, lit

    session, lit = asyncio.run(scenario())
    exporter = chess.pgn.StringExporter(headers=False, comments=False, columns=None)
    assert session.pgn().accept(exporter) == MOVETEXT
    assert lit[0] == {chess.C2, chess.C3}
    assert lit[6] == {chess.E1, chess.F1, chess.G1}  # O-O: king e1-g1, rook g1-f1
    assert lit[19] == {chess.B8, chess.C8, chess.D8, chess.E8}  # O-O-O
    capture = read_capture(journal_path)
    presses = [r for r in capture.records if r.kind == "button"]
    assert len(presses) == len(demo_moves())  # every move pressed by the program, and journaled
    assert list(replay_capture(capture).games[0].mainline_moves()) == demo_moves()
