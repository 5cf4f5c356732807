"""The Chessnut firmware model and the codec talking in memory."""

from __future__ import annotations

import chess
import pytest
from test_chessnut_ble import SQUARE_EVENTS, START, expected_moves, game, moves_of

from eboard960.choreography import game_events
from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.chessnut import ChessnutFirmware
from eboard960.emulators.notifying import NotificationFaults, NotifyingFirmware
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import chessnut as cn
from eboard960.protocols import codec_for
from eboard960.recognizer import Recognizer


def connect(model: ChessnutFirmware, codec: cn.ChessnutCodec) -> list:
    """What a host does on connect: ask for the board; the answer is the resync snapshot."""
    return codec.receive_data(model.feed(codec.send(RequestBoard())))


def test_enable_gives_an_ack_and_the_whole_position() -> None:
    model, codec = ChessnutFirmware(position=0), cn.ChessnutCodec()
    assert connect(model, codec) == [
        cn.Ack(ok=True),
        BoardSnapshot.from_board(chess.Board.from_chess960_pos(0)),
    ]
    assert model.reporting


def test_nothing_is_reported_before_reporting_is_enabled() -> None:
    model = ChessnutFirmware()
    assert model.lift(chess.E2) == b""
    assert model.tick() == b""


def test_lift_and_place_report_the_piece() -> None:
    model, codec = ChessnutFirmware(), cn.ChessnutCodec()
    connect(model, codec)
    assert codec.receive_data(model.lift(chess.G1)) == [PieceLifted(square=chess.G1)]
    assert codec.receive_data(model.place(chess.F3)) == [
        PiecePlaced(square=chess.F3, piece=chess.Piece.from_symbol("N"))
    ]


def test_the_periodic_repeat_carries_no_events() -> None:
    model, codec = ChessnutFirmware(), cn.ChessnutCodec()
    connect(model, codec)
    for _ in range(5):
        assert codec.receive_data(model.tick()) == []
    assert model.uptime == pytest.approx(1.0)


def test_leds_are_lit_as_asked() -> None:
    model, codec = ChessnutFirmware(), cn.ChessnutCodec()
    squares = frozenset({chess.E2, chess.E4, chess.A8})
    assert codec.receive_data(model.feed(codec.send(SetLeds(squares=squares)))) == [cn.Ack(ok=True)]
    assert model.leds == squares
    model.feed(codec.send(SetLeds()))
    assert model.leds == frozenset()


@pytest.mark.parametrize("layout", ["official", "picochess"])
@pytest.mark.parametrize("charging", [True, False])
def test_battery_reply_reads_back_in_the_same_layout(layout: str, charging: bool) -> None:
    model = ChessnutFirmware(battery_percent=64, charging=charging, battery=layout)
    codec = cn.ChessnutCodec(battery=layout)
    assert codec.receive_data(model.feed(codec.send(cn.RequestBattery()))) == [
        cn.Battery(percent=64, charging=charging)
    ]


def test_identity_replies() -> None:
    model, codec = ChessnutFirmware(name="Chessnut Pro"), cn.ChessnutCodec()
    ask = [cn.RequestFirmware(chip="ble"), cn.RequestFirmware(chip="mcu"), cn.RequestName()]
    replies = [codec.receive_data(model.feed(codec.send(c))) for c in ask]
    assert replies == [
        [cn.FirmwareVersion(chip="ble", text=model.firmware[0])],
        [cn.FirmwareVersion(chip="mcu", text=model.firmware[1])],
        [cn.DeviceName(name="Chessnut Pro")],
    ]
    assert codec.receive_data(model.feed(codec.send(cn.RequestStoredGames()))) == [cn.StoredGames(count=0)]


def test_beeps_are_recorded_and_upload_mode_stops_reporting() -> None:
    model, codec = ChessnutFirmware(), cn.ChessnutCodec()
    connect(model, codec)
    assert model.feed(codec.send(cn.Beep(frequency_hz=880, duration_ms=300))) == b""
    assert model.beeps == [(880, 300)]
    model.feed(codec.send(cn.UploadMode()))
    assert model.lift(chess.E2) == b""
    assert codec.receive_data(model.feed(codec.send(EnableUpdates())))[1:] == [PieceLifted(square=chess.E2)]


def test_a_capture_where_the_piece_is_replaced_reads_as_lift_then_place() -> None:
    model, codec = ChessnutFirmware(position=chess.Board("4k3/8/8/3p4/4P3/8/8/4K3")), cn.ChessnutCodec()
    connect(model, codec)
    # The board skips the victim's empty state: the pawn is pushed off d5 by the capturer.
    codec.receive_data(model.lift(chess.E4))
    assert codec.receive_data(model.place(chess.D5)) == [
        PieceLifted(square=chess.D5),
        PiecePlaced(square=chess.D5, piece=chess.Piece.from_symbol("P")),
    ]


def test_bounce_reads_as_place_lift_place() -> None:
    model = ChessnutFirmware(faults=NotificationFaults(bounce=1.0))
    codec = cn.ChessnutCodec()
    connect(model, codec)
    codec.receive_data(model.lift(chess.E2))
    pawn = chess.Piece.from_symbol("P")
    assert codec.receive_data(model.place(chess.E4)) == [
        PiecePlaced(square=chess.E4, piece=pawn),
        PieceLifted(square=chess.E4),
        PiecePlaced(square=chess.E4, piece=pawn),
    ]


def test_split_notifications_reach_the_sink_apart_and_decode_whole() -> None:
    model = ChessnutFirmware(faults=NotificationFaults(split=1.0, seed=3))
    sent: list[bytes] = []
    model.notify = sent.append
    codec = cn.ChessnutCodec()
    assert model.feed(codec.send(RequestBoard())) == b""
    assert len(sent) == 4  # the ack and the position, each cut in two
    events = [e for chunk in sent for e in codec.receive_data(chunk)]
    assert events == [cn.Ack(ok=True), BoardSnapshot.from_board(chess.Board())]


def test_faults_repeat_with_the_seed() -> None:
    faults = NotificationFaults(garbage=0.3, split=0.3, drop=0.2, bounce=0.3, seed=11)
    runs = []
    for _ in range(2):
        model = ChessnutFirmware(faults=faults)
        model.feed(cn.ENABLE_REPORTING)
        runs.append([model.lift(chess.E2) + model.place(chess.E4) for _ in range(3)])
    assert runs[0] == runs[1]


def test_a_resync_after_dropped_frames_restores_the_board() -> None:
    model = ChessnutFirmware(faults=NotificationFaults(drop=1.0))
    codec = cn.ChessnutCodec()
    model.feed(cn.ENABLE_REPORTING)
    assert model.lift(chess.E2) + model.place(chess.E4) == b""  # all lost
    model.faults = NotificationFaults()
    assert codec.receive_data(model.feed(codec.send(RequestBoard())))[-1] == (
        BoardSnapshot.from_board(model_board(model))
    )


def model_board(model: ChessnutFirmware) -> chess.BaseBoard:
    board = chess.BaseBoard.empty()
    board.set_piece_map(model.pieces)
    return board


def play_in_memory(board_name: str, model: NotifyingFirmware) -> list[str]:
    """The game of `test_chessnut_ble` made on `model` by hand, read by codec and recognizer.

    Notifications caused by one action arrive a millisecond apart, actions a
    second apart, as a person plays: a garbage notification injected by a
    fault is then followed by the good one in the same burst.
    """
    start, moves = game()
    sent: list[bytes] = []
    model.notify = sent.append
    codec = codec_for(board_name)
    recognizer = Recognizer(start)

    def deliver(t: float) -> None:
        for index, payload in enumerate(sent):
            for event in codec.receive_data(payload, t + index * 0.001):
                if isinstance(event, SQUARE_EVENTS):
                    recognizer.feed(event)
        sent.clear()

    for command in (EnableUpdates(), RequestBoard()):
        model.feed(codec.send(command))
        deliver(0.0)
    for second, step in enumerate(game_events(start, moves), start=1):
        model.apply(step)
        deliver(float(second))
    recognizer.finish(10_000.0)
    return moves_of(recognizer.pgn())


def test_a_whole_game_in_memory_gives_the_exact_pgn() -> None:
    assert play_in_memory("chessnut", ChessnutFirmware(START)) == expected_moves()


def test_a_whole_game_with_garbage_split_notifications_and_bounce() -> None:
    faults = NotificationFaults(garbage=0.1, split=0.3, bounce=0.1, seed=1)
    assert play_in_memory("chessnut", ChessnutFirmware(START, faults=faults)) == expected_moves()


def test_an_unknown_battery_layout_is_refused() -> None:
    with pytest.raises(cn.ChessnutError, match="battery layout"):
        ChessnutFirmware(battery="guess")  # type: ignore[arg-type]
