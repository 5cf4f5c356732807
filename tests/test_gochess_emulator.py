"""The GoChess firmware model and the codec talking in memory."""

from __future__ import annotations

import chess
import pytest
from test_chessnut_ble import START, expected_moves
from test_chessnut_emulator import play_in_memory

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.gochess import GoChessFirmware
from eboard960.emulators.notifying import NotificationFaults
from eboard960.errors import ProtocolError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import gochess as gc


def ask(model: GoChessFirmware, codec: gc.GoChessCodec, command: object) -> list:
    return codec.receive_data(model.feed(codec.send(command)))


def test_request_board_gives_the_occupancy() -> None:
    model, codec = GoChessFirmware(position=959), gc.GoChessCodec()
    expected = chess.Board.from_chess960_pos(959).occupied
    assert ask(model, codec, RequestBoard()) == [BoardSnapshot(occupied=expected)]


def test_lifts_and_places_are_reported_at_once() -> None:
    model, codec = GoChessFirmware(), gc.GoChessCodec()
    assert codec.receive_data(model.lift(chess.G8) + model.place(chess.F6)) == [
        PieceLifted(square=chess.G8),
        PiecePlaced(square=chess.F6),
    ]


def test_the_interrupt_mask_silences_squares() -> None:
    model, codec = GoChessFirmware(), gc.GoChessCodec()
    ask(model, codec, gc.InterruptMask(squares=chess.BB_RANK_2))
    assert codec.receive_data(model.lift(chess.G1)) == []
    assert codec.receive_data(model.lift(chess.E2)) == [PieceLifted(square=chess.E2)]
    ask(model, codec, EnableUpdates())
    assert codec.receive_data(model.place(chess.G1)) == [PiecePlaced(square=chess.G1)]


@pytest.mark.parametrize(
    ("command", "event"),
    [
        (gc.RequestBattery(), gc.BatteryPercent(percent=55)),
        (gc.RequestBatteryMillivolts(), gc.BatteryMillivolts(millivolts=3811)),
        (gc.RequestCurrent(), gc.CurrentMicroamps(microamps=1500)),
        (gc.RequestCharging(), gc.Charging(charging=True)),
    ],
)
def test_power_replies(command: object, event: object) -> None:
    model = GoChessFirmware(battery_percent=55, battery_mv=3811, current_ua=1500, charging=True)
    assert ask(model, gc.GoChessCodec(), command) == [event]


@pytest.mark.parametrize(("model", "version"), [("xr", 4), ("mini", 3), ("lite", 3)])
def test_version_tells_the_models_apart(model: str, version: int) -> None:
    firmware = GoChessFirmware(model=model)
    assert ask(firmware, gc.GoChessCodec(), gc.RequestVersion()) == [gc.FirmwareVersion(version=version)]


def test_leds_single_colour_and_groups() -> None:
    model, codec = GoChessFirmware(), gc.GoChessCodec(led_rgb=(9, 8, 7))
    ask(model, codec, SetLeds(squares=frozenset({chess.E2, chess.E4})))
    assert model.leds == {chess.E2: (9, 8, 7), chess.E4: (9, 8, 7)}
    ask(model, codec, gc.LedsColour(squares=frozenset({chess.A1}), rgb=(1, 2, 3), overwrite=False))
    assert set(model.leds) == {chess.E2, chess.E4, chess.A1}
    groups = ((frozenset({chess.D7, chess.H8}), (255, 0, 0)), (frozenset({chess.A1}), (0, 0, 255)))
    ask(model, codec, gc.LedGroups(groups=groups))
    assert model.leds == {chess.D7: (255, 0, 0), chess.H8: (255, 0, 0), chess.A1: (0, 0, 255)}
    ask(model, codec, SetLeds())
    assert model.leds == {}


def test_led_settings() -> None:
    model, codec = GoChessFirmware(), gc.GoChessCodec()
    ask(model, codec, gc.LedFollowsSensor(on=True))
    ask(model, codec, gc.LedMode(mode=2))
    ask(model, codec, gc.LedPattern(code=0x38))
    assert model.led_follows_sensor and model.led_mode == 2 and model.led_pattern == 0x38


def test_the_xr_border() -> None:
    model, codec = GoChessFirmware(model="xr"), gc.GoChessCodec()
    assert codec.receive_data(model.border_place("left", 10)) == [
        gc.BorderEvent(side="left", slot=10, down=True)
    ]
    codec.receive_data(model.border_place("top", 1))
    assert ask(model, codec, gc.RequestBorder()) == [gc.BorderState(top=1, bottom=0, left=512, right=0)]
    assert codec.receive_data(model.border_lift("top", 1)) == [gc.BorderEvent(side="top", slot=1, down=False)]


def test_only_the_xr_has_a_border() -> None:
    with pytest.raises(ProtocolError, match="only the GoChess XR"):
        GoChessFirmware(model="mini").border_place("left", 1)
    assert GoChessFirmware(model="mini").feed(bytes([0x22])) == b""


def test_a_dropped_event_is_repaired_by_the_next_board_request() -> None:
    model = GoChessFirmware(faults=NotificationFaults(drop=1.0))
    codec = gc.GoChessCodec()
    assert model.lift(chess.E2) == b""
    model.faults = NotificationFaults()
    assert ask(model, codec, RequestBoard()) == [
        BoardSnapshot(occupied=chess.Board().occupied & ~chess.BB_E2)
    ]


def test_bounce_reads_as_place_lift_place() -> None:
    model, codec = GoChessFirmware(faults=NotificationFaults(bounce=1.0)), gc.GoChessCodec()
    model.lift(chess.E2)
    assert codec.receive_data(model.place(chess.E4)) == [
        PiecePlaced(square=chess.E4),
        PieceLifted(square=chess.E4),
        PiecePlaced(square=chess.E4),
    ]


def test_a_whole_game_in_memory_gives_the_exact_pgn() -> None:
    assert play_in_memory("gochess", GoChessFirmware(START)) == expected_moves()


def test_a_whole_game_with_garbage_and_bounce() -> None:
    faults = NotificationFaults(garbage=0.1, bounce=0.1, seed=1)
    assert play_in_memory("gochess", GoChessFirmware(START, faults=faults)) == expected_moves()
