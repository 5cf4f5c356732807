"""LED feedback from recognizer reports, and its effect on an emulated board's LEDs."""

from __future__ import annotations

import asyncio

import chess

from eboard960.ble.emulated import open_emulated
from eboard960.castling import castling_squares
from eboard960.choreography import move_events
from eboard960.commands import SetLeds
from eboard960.leds import DARK, leds_for, leds_for_all
from eboard960.protocols import codec_for
from eboard960.recognizer import (
    DrawClaimable,
    IllegalPosition,
    MoveProvisional,
    MoveRecognized,
    PositionRestored,
    Recognizer,
)
from eboard960.recognizer.reports import Line

SQ = chess.parse_square


def _lit(*names: str) -> SetLeds:
    return SetLeds(squares=frozenset(SQ(name) for name in names))


def test_a_move_lights_its_two_squares() -> None:
    line, move = Line(chess.Board()), chess.Move.from_uci("g1f3")
    report = MoveRecognized(move=move, ply=1, line=line, index=line.append(move))
    assert report.san == "Nf3"
    assert leds_for(report) == _lit("g1", "f3")


def test_a_chess960_castling_lights_king_and_rook_from_and_to() -> None:
    # King on g1, rooks on b1 and h1: a-side castling takes the king to c1 and the rook to d1.
    board = chess.Board("6k1/8/8/8/8/8/8/1R4KR w BH - 0 1", chess960=True)
    castling = board.parse_san("O-O-O")
    assert castling_squares(castling) == (SQ("g1"), SQ("c1"), SQ("b1"), SQ("d1"))
    line = Line(board)
    report = MoveRecognized(move=castling, ply=1, line=line, index=line.append(castling))
    assert report.san == "O-O-O"
    assert leds_for(report) == _lit("g1", "c1", "b1", "d1")


def test_a_half_done_castling_shows_the_rook_and_where_it_goes() -> None:
    provisional = MoveProvisional(
        move=chess.Move.from_uci("b1c1"),
        before=chess.Board("4k3/8/8/8/8/8/8/RK6 w A - 0 1", chess960=True),
        castling=chess.Move.from_uci("b1a1"),
    )
    assert leds_for(provisional) == _lit("a1", "d1")


def test_an_illegal_position_shows_what_to_fix_and_recovery_goes_dark() -> None:
    illegal = IllegalPosition(to_empty=frozenset({SQ("e5")}), to_fill=frozenset({SQ("e7")}))
    assert leds_for(illegal) == _lit("e5", "e7")
    assert leds_for(PositionRestored()) == DARK
    assert leds_for(DrawClaimable(reason="threefold repetition")) is None


def test_batches_drop_repeated_pictures() -> None:
    restored = [PositionRestored(), PositionRestored()]
    assert leds_for_all(restored) == [DARK]


def test_the_recognizers_reports_drive_the_emulated_pegasus_leds() -> None:
    async def scenario() -> None:
        emulated = await open_emulated("pegasus", 518)
        codec = codec_for("pegasus")
        recognizer = Recognizer(518)
        board = chess.Board()
        shown: list[SetLeds] = []
        for san in ("e4", "e5", "Nf3"):
            move = board.parse_san(san)
            for event in move_events(board, move):
                for command in leds_for_all(recognizer.feed(event)):
                    shown.append(command)
                    await emulated.transport.write(codec.send(command))
            board.push(move)
        for command in leds_for_all(recognizer.finish()):
            shown.append(command)
            await emulated.transport.write(codec.send(command))
        # A round trip makes sure the board has taken every write.
        await emulated.transport.write(b"M")
        await asyncio.wait_for(emulated.transport.read(), 2)
        assert shown[-1] == _lit("g1", "f3")
        assert emulated.model.lit == {SQ("g1"), SQ("f3")}
        await emulated.close()

    asyncio.run(scenario())
