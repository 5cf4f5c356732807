"""The emulated board's typed commands, and its cable: what a person types, what the board sends."""

from __future__ import annotations

import asyncio

import chess
import pytest

from eboard960.commands import EnableUpdates, RequestBoard
from eboard960.errors import TransportError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.play.errors import PlayError
from eboard960.play.virtual import Command, VirtualBoard, parse_command
from eboard960.protocols.dgt import DgtCodec


def italian() -> chess.Board:
    board = chess.Board(chess960=True)
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"):
        board.push_san(san)
    return board


@pytest.mark.parametrize("typed", ["O-O", "0-0", "e1h1", "e1g1", "Kg1"])
def test_castling_typed_every_way(typed: str) -> None:
    board = italian()
    if typed == "Kg1":
        with pytest.raises(PlayError, match="Kg1 is not legal here"):
            parse_command(typed, board)
        return
    assert parse_command(typed, board) == Command(action="move", move=chess.Move.from_uci("e1h1"))


@pytest.mark.parametrize(("typed", "expected"), [
    ("lift e1", Command(action="lift", square=chess.E1)),
    ("place g1", Command(action="place", square=chess.G1)),
    ("place e8 q", Command(action="place", square=chess.E8, piece=chess.Piece.from_symbol("q"))),
    ("  press ", Command(action="press")),
    ("quit", Command(action="quit")),
    ("resign", Command(action="resign")),
    ("Resign Black", Command(action="resign", side=chess.BLACK)),
    ("resign white", Command(action="resign", side=chess.WHITE)),
    ("draw", Command(action="draw")),
    ("d3", Command(action="move", move=chess.Move.from_uci("d2d3"))),
])
def test_commands(typed: str, expected: Command) -> None:
    assert parse_command(typed, italian()) == expected


@pytest.mark.parametrize(("typed", "message"), [
    ("", "empty command"),
    ("Qxf7", "Qxf7 is not legal here (White to move)"),
    ("e2e5", "e2e5 is not legal here (White to move)"),
    ("hello", "'hello' is neither a move nor a command"),
    ("lift", "'lift' needs a square, e.g. 'lift e2'"),
    ("lift z9", "'lift' needs a square"),
    ("place e4 X", "'X' is not a piece letter"),
    ("lift e2 e4", "too many words for 'lift'"),
    ("Nc3 now", "cannot read 'Nc3 now'"),
    ("resign red", "'resign' takes no more than the side"),
    ("draw please", "cannot read 'draw please'"),
])
def test_mistakes_say_what_is_wrong(typed: str, message: str) -> None:
    with pytest.raises(PlayError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_command(typed, italian())


def test_ambiguous_san_asks_for_the_file() -> None:
    board = chess.Board("4k3/8/8/8/R6R/8/8/4K3 w - - 0 1", chess960=True)
    with pytest.raises(PlayError, match="Rd4 is ambiguous here"):
        parse_command("Rd4", board)
    assert parse_command("Rad4", board).move == chess.Move.from_uci("a4d4")


def test_the_cable_carries_dgt_bytes_both_ways_and_can_be_switched_off() -> None:
    async def scenario() -> list[object]:
        virtual = VirtualBoard(466)
        link, codec = virtual.link, DgtCodec()
        await link.open()
        await link.write(codec.send(EnableUpdates()) + codec.send(RequestBoard()))
        events = codec.receive_data(await link.read())
        virtual.act(PieceLifted(square=chess.C2))
        virtual.act(PiecePlaced(square=chess.C3))
        while len(events) < 3:
            events += codec.receive_data(await link.read())
        await link.close()
        with pytest.raises(TransportError, match="switched off"):
            await link.read()
        with pytest.raises(TransportError, match="not connected"):
            await link.write(b"\x42")
        return events

    events = asyncio.run(scenario())
    assert events[0] == BoardSnapshot.from_board(chess.Board.from_chess960_pos(466))
    assert [type(e).__name__ for e in events[1:]] == ["PieceLifted", "PiecePlaced"]
    assert events[2].square == chess.C3 and events[2].piece == chess.Piece.from_symbol("P")
