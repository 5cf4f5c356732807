"""The ChessLink codec against the published vectors, and round trips through it."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import chess
import pytest

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import chesslink as cl
from eboard960.protocols import codec_for

VECTORS = json.loads((Path(__file__).parents[1] / "firmware_protocols/chesslink/vectors.json").read_text())


def strip(data: bytes) -> bytes:
    return bytes(b & 0x7F for b in data)


def build(spec: dict) -> object:
    fields = {k: v for k, v in spec.items() if k != "type"}
    return getattr(cl, spec["type"])(**fields)


@pytest.mark.parametrize("vector", VECTORS["host_frames"], ids=lambda v: v["text"])
def test_commands_encode_to_the_published_bytes(vector: dict) -> None:
    wire = cl.ChessLinkCodec().send(build(vector["command"]))
    assert wire.hex() == vector["wire"]
    assert strip(wire).decode() == vector["text"]


@pytest.mark.parametrize("vector", VECTORS["board_frames"], ids=lambda v: v["text"])
def test_replies_decode_to_their_events(vector: dict) -> None:
    events = cl.ChessLinkCodec().receive_data(bytes.fromhex(vector["wire"]), t=1.5)
    assert events == [build({**e, "t": 1.5}) for e in vector["events"]]


@pytest.mark.parametrize("vector", VECTORS["board_frames"], ids=lambda v: v["text"])
def test_replies_without_parity_bits_are_accepted_by_default(vector: dict) -> None:
    events = cl.ChessLinkCodec().receive_data(vector["text"].encode())
    assert [type(e).__name__ for e in events] == [e["type"] for e in vector["events"]]


def test_strict_parity_drops_a_frame_with_a_bad_parity_bit() -> None:
    good = bytes.fromhex(VECTORS["board_frames"][0]["wire"])
    bad = bytes([good[0] ^ 0x80]) + good[1:]
    codec = cl.ChessLinkCodec(strict_parity=True)
    assert codec.receive_data(bad) == []
    assert len(codec.receive_data(good)) == 1


@pytest.mark.parametrize("vector", VECTORS["statuses"], ids=lambda v: v["note"])
def test_status_frames_decode_to_snapshots(vector: dict) -> None:
    codec = cl.ChessLinkCodec(order=vector["order"])
    (snapshot,) = codec.receive_data(bytes.fromhex(vector["wire"]), t=2.0)
    assert snapshot == BoardSnapshot.from_text(vector["board"], t=2.0)
    board = chess.Board(None)
    board.set_piece_map(snapshot.pieces)
    assert cl.status_text(board.piece_map(), vector["order"]) == vector["text"][1:-2]


@pytest.mark.parametrize("vector", VECTORS["leds"], ids=lambda v: v["square"])
def test_led_geometry(vector: dict) -> None:
    assert sorted(cl.square_leds(chess.parse_square(vector["square"]))) == vector["leds"]


def test_set_leds_becomes_the_l_frame_of_the_vectors() -> None:
    (vector,) = VECTORS["led_frames"]
    squares = frozenset(chess.parse_square(s) for s in vector["squares"])
    wire = cl.ChessLinkCodec().send(SetLeds(squares=squares))
    assert wire.hex() == vector["wire"]
    assert len(wire) == 167


def test_every_led_belongs_to_a_square_and_the_turned_board_mirrors_it() -> None:
    lit = set()
    for square in chess.SQUARES:
        leds = cl.square_leds(square)
        assert cl.square_leds(63 - square, "a8-first") == leds
        lit.update(leds)
    assert lit == set(range(81))


def test_empty_set_leds_turns_everything_off() -> None:
    assert strip(cl.ChessLinkCodec().send(SetLeds())) == b"X58"


def test_led_pattern_ors_shared_corners() -> None:
    pattern = cl.LedPattern.for_squares({chess.E2: 0xF0, chess.E3: 0x0F})
    shared = set(cl.square_leds(chess.E2)) & set(cl.square_leds(chess.E3))
    assert len(shared) == 2
    assert all(pattern.patterns[led] == 0xFF for led in shared)
    assert sum(1 for p in pattern.patterns if p) == 6


def test_enable_updates_writes_the_auto_report_register() -> None:
    assert strip(cl.ChessLinkCodec().send(EnableUpdates())).startswith(b"W0203")
    codec = cl.ChessLinkCodec(updates=cl.AutoReport.STABLE_2)
    assert strip(codec.send(EnableUpdates())).startswith(b"W0204")


def test_status_changes_become_lifts_and_places_with_pieces() -> None:
    codec = cl.ChessLinkCodec()
    board = chess.Board.from_chess960_pos(0)
    codec.send(RequestBoard())
    first = codec.receive_data(cl.encode_frame("s", cl.status_text(board.piece_map())))
    assert isinstance(first[0], BoardSnapshot)
    board.remove_piece_at(chess.G2)
    assert codec.receive_data(cl.encode_frame("s", cl.status_text(board.piece_map())), 3.0) == [
        PieceLifted(square=chess.G2, t=3.0)
    ]
    # an unchanged status (auto-report after every scan) says nothing
    assert codec.receive_data(cl.encode_frame("s", cl.status_text(board.piece_map()))) == []
    board.set_piece_at(chess.G3, chess.Piece.from_symbol("P"))
    assert codec.receive_data(cl.encode_frame("s", cl.status_text(board.piece_map())), 4.0) == [
        PiecePlaced(square=chess.G3, piece=chess.Piece.from_symbol("P"), t=4.0)
    ]
    # a piece replaced by another between two scans reads as lift then place
    board.set_piece_at(chess.G3, chess.Piece.from_symbol("b"))
    events = codec.receive_data(cl.encode_frame("s", cl.status_text(board.piece_map())))
    assert events == [
        PieceLifted(square=chess.G3),
        PiecePlaced(square=chess.G3, piece=chess.Piece.from_symbol("b")),
    ]


def test_request_board_makes_the_next_status_a_resync() -> None:
    codec = cl.ChessLinkCodec()
    frame = cl.encode_frame("s", cl.status_text(chess.Board().piece_map()))
    codec.receive_data(frame)
    assert codec.receive_data(frame) == []
    codec.send(RequestBoard())
    assert isinstance(codec.receive_data(frame)[0], BoardSnapshot)


def test_a_status_pushed_before_a_reply_keeps_both_in_order() -> None:
    codec = cl.ChessLinkCodec()
    status = cl.encode_frame("s", cl.status_text(chess.Board().piece_map()))
    events = codec.receive_data(status + cl.encode_frame("v", "0203"), 5.0)
    assert [type(e) for e in events] == [BoardSnapshot, cl.VersionReported]
    assert events[1] == cl.VersionReported(major=2, minor=3, t=5.0)


def test_byte_by_byte_feeding_gives_the_same_events() -> None:
    stream = b"".join(bytes.fromhex(v["wire"]) for v in VECTORS["board_frames"])
    stream += bytes.fromhex(VECTORS["statuses"][2]["wire"])
    whole = cl.ChessLinkCodec().receive_data(stream)
    codec = cl.ChessLinkCodec()
    pieces = [e for i in range(len(stream)) for e in codec.receive_data(stream[i : i + 1])]
    assert pieces == whole
    assert len(whole) == len(VECTORS["board_frames"]) + 1


def test_garbage_letter_before_a_frame_does_not_hide_it() -> None:
    codec = cl.ChessLinkCodec()
    status = cl.encode_frame("s", cl.status_text(chess.Board().piece_map()))
    events = codec.receive_data(b"s" + b"RNB" + status + cl.encode_frame("x"))
    assert [type(e) for e in events] == [BoardSnapshot, cl.LedsCleared]
    assert codec.discarded == 4
    assert codec.buffered == 0


def test_wrong_check_value_is_skipped() -> None:
    codec = cl.ChessLinkCodec()
    assert codec.receive_data(b"v010078") == []
    assert codec.receive_data(b"x78") == [cl.LedsCleared()]


def test_codec_is_registered_and_constructible_without_arguments() -> None:
    assert isinstance(codec_for("chesslink"), cl.ChessLinkCodec)


@pytest.mark.parametrize(
    "make",
    [
        lambda: cl.WriteRegister(address=256, value=0),
        lambda: cl.WriteRegister(address=0, value=-1),
        lambda: cl.ReadRegister(address=300),
        lambda: cl.LedPattern(patterns=(0,) * 80),
        lambda: cl.LedPattern(patterns=(0,) * 80 + (256,)),
        lambda: cl.LedPattern.for_squares([64]),
        lambda: cl.ChessLinkCodec(order="a1-first"),
        lambda: cl.ChessLinkCodec().send(object()),
    ],
)
def test_misuse_raises_a_protocol_error_with_a_message(make) -> None:
    with pytest.raises(ProtocolError, match=r"\S"):
        make()


@pytest.mark.parametrize("module", ["eboard960.protocols.chesslink", "eboard960.emulators.chesslink"])
def test_pure_layers_import_no_io_library(module: str) -> None:
    source = Path(importlib.import_module(module).__file__).read_text()
    tree = ast.parse(source)
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    roots = {name.split(".")[0] for name in imported}
    assert roots.isdisjoint({"asyncio", "serial", "bleak", "bumble"})
