"""Random and mutated byte streams against the ChessLink codec."""

from __future__ import annotations

import itertools

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.emulators.chesslink import ChessLinkFirmware
from eboard960.events import BoardSnapshot
from eboard960.protocols import chesslink as cl

PIECES = st.sampled_from(sorted(cl.PIECE_LETTERS))
BYTE = st.integers(0, 255)


@st.composite
def board_frames(draw: st.DrawFn) -> tuple[bytes, str]:
    """A valid board frame (with or without parity bits) and its letter."""
    letter = draw(st.sampled_from(sorted(cl.BOARD_FRAMES)))
    shape = cl.BOARD_FRAMES[letter]
    if letter == "s":
        data = "".join(draw(st.lists(PIECES, min_size=64, max_size=64)))
    else:
        data = "".join(
            f"{b:02X}" for b in draw(st.lists(BYTE, min_size=shape.length // 2, max_size=shape.length // 2))
        )
    frame = cl.encode_frame(letter, data)
    if draw(st.booleans()):
        frame = bytes(b & 0x7F for b in frame)
    return frame, letter


def feed_in_chunks(codec: cl.ChessLinkCodec, data: bytes, cuts: list[int]) -> list[object]:
    events: list[object] = []
    edges = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    for start, end in itertools.pairwise(edges):
        events += codec.receive_data(data[start:end])
        assert codec.buffered < 67
    return events


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=400), cuts=st.lists(st.integers(0, 400), max_size=8))
def test_random_bytes_never_raise_and_never_pile_up(data: bytes, cuts: list[int]) -> None:
    codec = cl.ChessLinkCodec()
    feed_in_chunks(codec, data, cuts)  # any exception at all fails the test
    assert codec.buffered < 67


@settings(max_examples=150, deadline=None)
@given(
    frames=st.lists(board_frames(), min_size=1, max_size=6),
    garbage=st.lists(st.binary(max_size=30), min_size=6, max_size=6),
    cuts=st.lists(st.integers(0, 600), max_size=10),
)
def test_every_valid_frame_after_garbage_is_decoded(frames, garbage, cuts) -> None:
    """Each frame put in comes out, in order; garbage may by chance add frames of its own."""
    stream = b"".join(junk + frame for (frame, _), junk in zip(frames, garbage, strict=False))
    reader = cl.FrameReader(cl.BOARD_FRAMES)
    edges = sorted({0, len(stream), *(c % (len(stream) + 1) for c in cuts)})
    decoded = []
    for start, end in itertools.pairwise(edges):
        decoded += reader.feed(stream[start:end])
        assert reader.buffered < reader.max_frame
    remaining = iter(decoded)
    for frame, _letter in frames:
        text = bytes(b & 0x7F for b in frame).decode()
        assert (text[0], text[1:-2]) in remaining, text
    codec = cl.ChessLinkCodec()
    assert len(feed_in_chunks(codec, stream, cuts)) >= sum(1 for _, k in frames if k != "s")


@settings(max_examples=100, deadline=None)
@given(
    flips=st.lists(st.tuples(st.integers(0, 66), BYTE), min_size=1, max_size=4),
)
def test_mutated_status_never_raises_and_the_next_good_one_is_read(flips) -> None:
    board = chess.Board.from_chess960_pos(959)
    good = cl.encode_frame("s", cl.status_text(board.piece_map()))
    bad = bytearray(good)
    for index, value in flips:
        bad[index] = value
    codec = cl.ChessLinkCodec()
    codec.receive_data(bytes(bad))
    assert codec.buffered < 67
    codec.send(cl.RequestStatus())
    codec.receive_data(good)
    assert codec.last_snapshot is not None
    assert codec.last_snapshot.pieces == board.piece_map()


SQUARE_PIECES = st.dictionaries(
    st.sampled_from(chess.SQUARES), st.sampled_from([chess.Piece.from_symbol(c) for c in "KQRBNPkqrbnp"])
)


@settings(max_examples=100, deadline=None)
@given(pieces=SQUARE_PIECES, order=st.sampled_from(cl.SQUARE_ORDERS))
def test_any_board_round_trips_through_the_status_frame(pieces, order) -> None:
    board = chess.BaseBoard(None)
    board.set_piece_map(pieces)
    codec = cl.ChessLinkCodec(order=order)
    (snapshot,) = codec.receive_data(cl.encode_frame("s", cl.status_text(pieces, order)))
    assert snapshot == BoardSnapshot.from_board(board)


@settings(max_examples=100, deadline=None)
@given(
    patterns=st.lists(BYTE, min_size=81, max_size=81),
    slot=BYTE,
    address=BYTE,
    value=BYTE,
)
def test_commands_round_trip_through_the_firmware_model(patterns, slot, address, value) -> None:
    model, codec = ChessLinkFirmware(), cl.ChessLinkCodec()
    assert codec.receive_data(
        model.feed(codec.send(cl.LedPattern(patterns=tuple(patterns), slot_time=slot)))
    ) == [cl.LedsSet()]
    assert model.leds == tuple(patterns)
    assert model.led_slot_time == slot
    written = codec.receive_data(model.feed(codec.send(cl.WriteRegister(address=address, value=value))))
    read = codec.receive_data(model.feed(codec.send(cl.ReadRegister(address=address))))
    assert written[0].value == read[0].value == model.registers[address]
    if address != cl.REG_SCAN_TIME or value >= 15:
        assert read[0].value == value
