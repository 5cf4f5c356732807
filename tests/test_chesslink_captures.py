"""The recorded ChessLink captures decode back to the games they record."""

from __future__ import annotations

import io
from pathlib import Path

import chess
import chess.pgn
import pytest

from eboard960.capture import read_capture
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import codec_for
from eboard960.recognizer import Recognizer

CAPTURES = sorted((Path(__file__).parents[1] / "firmware_protocols/chesslink/captures").glob("*.jsonl"))


def expected_game(capture: Path) -> chess.pgn.Game:
    text = capture.with_name(capture.name.replace(".jsonl", ".expected.pgn")).read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    return game


def square_events(capture: Path) -> list[object]:
    recorded = read_capture(capture)
    assert recorded.problems == []
    assert recorded.header.board == "chesslink"
    codec = codec_for(recorded.header.board)
    events: list[object] = []
    for record in recorded.records:
        if record.kind == "rx":
            assert record.data is not None
            events += codec.receive_data(record.data, record.t)
    return [e for e in events if isinstance(e, (BoardSnapshot, PieceLifted, PiecePlaced))]


def test_there_are_captures() -> None:
    assert len(CAPTURES) >= 2


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.stem)
def test_capture_ends_on_the_final_position_of_its_game(capture: Path) -> None:
    pieces: dict[chess.Square, chess.Piece] = {}
    for event in square_events(capture):
        if isinstance(event, BoardSnapshot):
            pieces = dict(event.pieces)
        elif isinstance(event, PieceLifted):
            pieces.pop(event.square)
        else:
            assert event.piece is not None  # ChessLink identifies every piece
            pieces[event.square] = event.piece
    assert pieces == expected_game(capture).end().board().piece_map()


def movetext(game: chess.pgn.Game) -> str:
    return game.accept(chess.pgn.StringExporter(headers=False, comments=False))


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.stem)
def test_capture_replays_to_the_exact_game(capture: Path) -> None:
    recognizer = Recognizer(read_capture(capture).header.start)
    for event in square_events(capture):
        recognizer.feed(event)
    recognizer.finish()
    game, expected = recognizer.pgn(), expected_game(capture)
    assert movetext(game) == movetext(expected)
    assert game.headers.get("FEN") == expected.headers.get("FEN")
