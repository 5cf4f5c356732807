"""The Square Off firmware model and the codec talking in memory."""

from __future__ import annotations

import chess
import pytest
from test_chessnut_ble import START, expected_moves
from test_chessnut_emulator import play_in_memory

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.notifying import NotificationFaults
from eboard960.emulators.squareoff import SquareOffFirmware
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import squareoff as so


def ask(model: SquareOffFirmware, codec: so.SquareOffCodec, command: object) -> list:
    return codec.receive_data(model.feed(codec.send(command)))


def test_request_board_gives_the_occupancy() -> None:
    model, codec = SquareOffFirmware(position=1), so.SquareOffCodec()
    expected = chess.Board.from_chess960_pos(1).occupied
    assert ask(model, codec, RequestBoard()) == [BoardSnapshot(occupied=expected)]


def test_events_start_with_a_new_game() -> None:
    model, codec = SquareOffFirmware(), so.SquareOffCodec()
    assert model.lift(chess.E2) == b""
    model.place(chess.E2)
    assert ask(model, codec, EnableUpdates()) == [so.GameStarted()]
    assert codec.receive_data(model.lift(chess.E2) + model.place(chess.E4)) == [
        PieceLifted(square=chess.E2),
        PiecePlaced(square=chess.E4),
    ]


def test_the_neo_does_not_answer_a_new_game() -> None:
    model = SquareOffFirmware(model="neo")
    assert model.feed(b"14#1*") == b""
    assert model.game_started


@pytest.mark.parametrize(
    ("model", "event"),
    [("pro", so.BatteryVoltage(volts=3.95)), ("neo", so.BatteryReport(value="87"))],
)
def test_battery(model: str, event: object) -> None:
    assert ask(SquareOffFirmware(model=model), so.SquareOffCodec(), so.RequestBattery()) == [event]


def test_mac_address() -> None:
    assert ask(SquareOffFirmware(mac="c0:ff:ee:00:00:01"), so.SquareOffCodec(), so.RequestMac()) == [
        so.MacAddress(address="C0:FF:EE:00:00:01")
    ]


def test_leds_status_and_announcements() -> None:
    model, codec = SquareOffFirmware(), so.SquareOffCodec(line_ending="\r\n")
    ask(model, codec, SetLeds(squares=frozenset({chess.E2, chess.E4})))
    assert model.leds == {chess.E2, chess.E4}
    ask(model, codec, SetLeds())
    assert model.leds == frozenset()
    ask(model, codec, so.StatusLed(colour="blue"))
    assert model.status_led == "ISB"
    for what in ("check", "draw"):
        ask(model, codec, so.Announce(what=what))
    assert model.announcements == ["ck", "dw"]
    ask(model, codec, so.ExpectOccupancy(occupied=chess.BB_RANK_1))
    assert model.expected == chess.BB_RANK_1
    assert ask(model, codec, so.GameStartNotice()) == []


def test_commands_cut_across_writes_are_answered_once_whole() -> None:
    model = SquareOffFirmware()
    assert model.feed(b"30") == b""
    assert model.feed(b"#R") == b""
    assert model.feed(b"*\r\n1#*") == so.message("30", so.occupancy_text(model.occupied)) + (
        so.message("1", model.mac)
    )


def test_an_unknown_model_is_refused() -> None:
    with pytest.raises(ProtocolError, match="'pro' or 'neo'"):
        SquareOffFirmware(model="kingdom")


def test_garbage_from_the_board_does_not_hide_the_next_event() -> None:
    model = SquareOffFirmware(faults=NotificationFaults(garbage=1.0, seed=5))
    sent: list[bytes] = []
    model.notify = sent.append
    model.feed(b"14#1*")
    model.lift(chess.D2)
    codec = so.SquareOffCodec()
    events = [e for i, chunk in enumerate(sent) for e in codec.receive_data(chunk, t=float(i))]
    assert [e for e in events if isinstance(e, PieceLifted)] == [
        PieceLifted(square=chess.D2, t=float(len(sent) - 1))
    ]


def test_a_whole_game_in_memory_gives_the_exact_pgn() -> None:
    assert play_in_memory("squareoff", SquareOffFirmware(START)) == expected_moves()


def test_a_whole_game_with_garbage_split_notifications_and_bounce() -> None:
    faults = NotificationFaults(garbage=0.1, split=0.3, bounce=0.1, seed=1)
    assert play_in_memory("squareoff", SquareOffFirmware(START, faults=faults)) == expected_moves()
