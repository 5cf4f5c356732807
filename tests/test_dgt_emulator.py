"""The DGT firmware model in memory, against the DGT codec: every answer, modes, clock, faults."""

from __future__ import annotations

import chess
import pytest
from game_helpers import castling_game, view

from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.dgt import ClockModel, DgtFirmware, Faults, ScenarioError
from eboard960.events import BoardSnapshot, ButtonPressed, PieceLifted, PiecePlaced
from eboard960.protocols import dgt
from eboard960.protocols.dgt import DgtCodec
from eboard960.protocols.dgt_clock import (
    ClockAck,
    ClockBeep,
    ClockSegments,
    ClockSetAndRun,
    ClockText,
    ClockTimes,
    ClockVersionRequest,
)


class Host:
    """A codec talking to a model in memory."""

    def __init__(self, model: DgtFirmware, **settings: object) -> None:
        self.model = model
        self.codec = DgtCodec(**settings)
        self.events: list[object] = []

    def send(self, *commands: object) -> list[object]:
        got: list[object] = []
        for command in commands:
            got += self.codec.receive_data(self.model.feed(self.codec.send(command)))
        self.events += got
        return got

    def hear(self, data: bytes) -> list[object]:
        got = self.codec.receive_data(data + self.model.flush())
        self.events += got
        return got


def test_answers_every_request() -> None:
    host = Host(DgtFirmware(start=0, clock=ClockModel("3000")))
    got = host.send(
        RequestBoard(), dgt.RequestSerialNumber(), dgt.RequestLongSerialNumber(),
        dgt.RequestBusAddress(), dgt.RequestTrademark(), dgt.RequestVersion(),
        dgt.RequestHardwareVersion(), dgt.RequestBattery(), dgt.RequestEeMoves(),
        dgt.RequestClockTimes(),
    )
    assert [type(e) for e in got] == [
        BoardSnapshot, dgt.SerialNumber, dgt.LongSerialNumber, dgt.BusAddress, dgt.Trademark,
        dgt.Version, dgt.HardwareVersion, dgt.Battery, dgt.EeMoves, ClockTimes,
    ]
    assert got[0] == BoardSnapshot.from_board(chess.Board.from_chess960_pos(0))
    assert got[3].address == 960 and got[7].percent == 100
    assert got[8].data[:4] == b"\x7f\x7f\x7f\x6a" and got[8].data[-1] == 0x6B
    assert got[9].connected


def test_no_clock_means_times_flagged_not_connected_and_clock_commands_ignored() -> None:
    host = Host(DgtFirmware())
    host.send(EnableUpdates())
    assert host.send(ClockVersionRequest()) == []
    (times,) = host.send(dgt.RequestClockTimes())
    assert not times.connected


def test_bootloader_and_unknown_bytes_are_ignored() -> None:
    model = DgtFirmware()
    assert model.feed(b"\x4e\x4a\x7f\x50") == b""


def test_field_updates_only_in_an_update_mode() -> None:
    model = DgtFirmware()
    host = Host(model)
    host.send(RequestBoard())
    assert model.lift(chess.E2) == b""  # idle: the board says nothing
    host.send(EnableUpdates())
    assert host.hear(model.place(chess.E4)) == [
        PiecePlaced(square=chess.E4, piece=chess.Piece.from_symbol("P"))
    ]
    host.send(dgt.Reset())
    assert model.lift(chess.E4) == b""


@pytest.mark.parametrize(("start", "seed"), [(0, 1), (518, 2), (959, 5), (466, 4)])
def test_a_castling_chess960_game_reaches_the_host_exactly(start: int, seed: int) -> None:
    moves = castling_game(start, 60, seed)
    board = chess.Board.from_chess960_pos(start)
    model = DgtFirmware(start=start)
    host = Host(model)
    host.send(EnableUpdates(), RequestBoard())
    castled = 0
    for move in moves:
        castled += board.is_castling(move)
        host.hear(model.play_move(board, move))
        board.push(move)
        assert view(host.events) == board.piece_map()
    assert castled >= 1


def test_the_recognizer_reads_a_whole_emulated_game() -> None:
    recognizer = pytest.importorskip("eboard960.recognizer")
    start, moves = 0, castling_game(0, 50, 7)
    model = DgtFirmware(start=start)
    host = Host(model)
    host.send(EnableUpdates(), RequestBoard())
    host.hear(model.play_game(chess.Board.from_chess960_pos(start), moves))
    rec = recognizer.Recognizer(start)
    for event in host.events:
        if isinstance(event, PieceLifted | PiecePlaced | BoardSnapshot):
            rec.feed(event)
    rec.finish()
    assert rec.board.move_stack == moves


def _castling_game_heard(model: DgtFirmware, seed: int) -> tuple[Host, chess.Board]:
    """A 40-ply castling game from position 100 made on `model`, with a host listening to every byte."""
    host = Host(model)
    host.send(EnableUpdates(), RequestBoard())
    board = chess.Board.from_chess960_pos(100)
    for move in castling_game(100, 40, seed):
        host.hear(model.play_move(board, move))
        board.push(move)
    host.hear(b"")
    return host, board


@pytest.mark.parametrize("seed", range(4))
def test_faults_spoil_the_wire_but_not_the_picture(seed: int) -> None:
    """Garbage, split messages and bounces cost nothing; a cut message (below) costs its change."""
    model = DgtFirmware(start=100, faults=Faults(garbage=0.3, split=0.3, bounce=0.2, seed=seed))
    host, board = _castling_game_heard(model, seed)
    assert view(host.events) == board.piece_map()
    assert any(isinstance(e, dgt.Discarded) for e in host.events)


def test_a_cut_message_loses_its_tail_and_so_its_change() -> None:
    model, clean = DgtFirmware(faults=Faults(cut=1.0)), DgtFirmware()
    host, clean_host = Host(model), Host(clean)
    host.send(EnableUpdates())
    clean_host.send(EnableUpdates())
    out, whole = model.lift(chess.E2), clean.lift(chess.E2)
    assert whole.startswith(out) and len(out) < len(whole)
    assert host.hear(out) == []  # the head waits for a tail that never comes


@pytest.mark.parametrize("seed", range(2))
def test_cut_messages_lose_changes_that_a_dump_repairs(seed: int) -> None:
    """A cut field update is a change the host never hears of: the next message resyncs, a dump repairs."""
    model = DgtFirmware(start=100, faults=Faults(garbage=0.3, split=0.3, cut=0.2, seed=seed))
    host, board = _castling_game_heard(model, seed)
    assert any(isinstance(e, dgt.Discarded) for e in host.events)
    assert view(host.events) != board.piece_map()
    host.send(RequestBoard())
    assert view(host.events) == board.piece_map()


def test_dropped_messages_are_repaired_by_a_dump() -> None:
    model = DgtFirmware(start=200, faults=Faults(drop=0.5, seed=1))
    host = Host(model)
    host.send(EnableUpdates(), RequestBoard())
    board = chess.Board.from_chess960_pos(200)
    for move in castling_game(200, 20, 5):
        host.hear(model.play_move(board, move))
        board.push(move)
    assert view(host.events) != board.piece_map()
    host.send(RequestBoard())
    assert view(host.events) == board.piece_map()


def test_leds_follow_set_leds() -> None:
    model = DgtFirmware()
    host = Host(model)
    host.send(SetLeds(squares=frozenset({chess.E2, chess.E4})))
    assert model.lit_squares() == {chess.E2, chess.E4}
    host.send(SetLeds(squares=frozenset({chess.A1})))
    assert model.lit_squares() == {chess.A1}
    host.send(SetLeds())
    assert model.lit_squares() == frozenset()


def test_dgt3000_text_times_buttons_and_lever() -> None:
    clock = ClockModel("3000")
    model = DgtFirmware(clock=clock)
    host = Host(model)
    host.send(dgt.SetUpdateMode(mode=dgt.UpdateMode.NICE))
    (ack,) = host.send(ClockText(text="518 RNBQ", beep=3))
    assert isinstance(ack, ClockAck) and ack.command == 0x01 and not ack.error  # a display ack
    assert clock.display == "518 RNBQ"
    host.send(ClockSetAndRun(left=300, right=300, left_running=True))
    got = host.hear(model.tick(2.5))
    assert got == [ClockTimes(left=297, right=300, running=True, left_to_move=True)]
    assert host.hear(model.tick(2.6)) == []  # update-nice: nothing new to say
    pressed = [e for e in host.hear(model.press("white")) if isinstance(e, ButtonPressed)]
    assert pressed == [ButtonPressed(button="white")]
    assert clock.right_running and not clock.left_running
    host.hear(model.tick(4.5))
    assert int(clock.right) == 298
    for name in ("back", "minus", "pause", "plus", "confirm"):
        got = host.hear(model.press(name))
        assert got[-1] == ButtonPressed(button=name)
    host.send(ClockBeep(units=4))
    assert clock.beeps == [4]


def test_update_mode_sends_times_every_second() -> None:
    model = DgtFirmware(clock=ClockModel("3000"))
    host = Host(model)
    host.send(dgt.SetUpdateMode(mode=dgt.UpdateMode.CLOCK))
    times = [e for t in (0.5, 1.2, 1.7, 2.1, 3.3) for e in host.hear(model.tick(t))]
    # the first tick, then one each new second (1.7 falls in the second already reported)
    assert len(times) == 4 and all(isinstance(e, ClockTimes) for e in times)


def test_acks_only_in_the_clock_update_modes() -> None:
    host = Host(DgtFirmware(clock=ClockModel("3000")))
    host.send(dgt.SetUpdateMode(mode=dgt.UpdateMode.BOARD))
    assert host.send(ClockVersionRequest()) == []


def test_xl_shows_segments_not_ascii_and_reports_version_1() -> None:
    clock = ClockModel("xl")
    host = Host(DgtFirmware(clock=clock))
    host.send(dgt.SetUpdateMode(mode=dgt.UpdateMode.NICE))
    assert host.send(ClockText(text="hello")) == []
    (ack,) = host.send(ClockSegments.from_text("518"))
    assert ack.command == 0x01 and clock.display == "518   "
    (version,) = host.send(ClockVersionRequest())
    assert version.version == (1, 0)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda m: m.lift(chess.E4), "nothing to lift on e4"),
        (lambda m: m.place(chess.E2), "e2 is already occupied"),
        (lambda m: m.press("white"), "no clock"),
        (lambda m: m.press("jump"), "no button called 'jump'"),
        (lambda m: DgtFirmware(start=960), "0..959"),
        (lambda m: ClockModel("xxl"), "'xxl'"),
    ],
)
def test_scenario_mistakes_are_scenario_errors(action, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        action(DgtFirmware())


def test_place_with_an_empty_hand_is_refused() -> None:
    model = DgtFirmware()
    model.lift(chess.E2)
    model.place(chess.E4)
    with pytest.raises(ScenarioError, match="no piece in hand"):
        model.place(chess.E5)


def test_the_move_log_records_power_up_pieces_moves_and_lever_presses() -> None:
    model = DgtFirmware(start=518, clock=ClockModel("3000"))
    host = Host(model)
    host.send(ClockSetAndRun(left=125, right=3723, left_running=True))
    model.play_move(chess.Board(), chess.Move.from_uci("g1f3"))
    model.press("white")
    (log,) = host.send(dgt.RequestEeMoves())
    records = log.records()
    assert records[:4] == [dgt.LogTag(name="nop")] * 3 + [dgt.LogTag(name="power_up")]
    pieces = [r for r in records[4:36] if isinstance(r, dgt.LogPiece)]
    assert {r.square for r in pieces} == set(chess.Board().piece_map())
    assert records[36:] == [
        dgt.LogPiece(square=chess.G1, code=0), dgt.LogPiece(square=chess.F3, code=3),
        dgt.LogClock(left=True, seconds=125), dgt.LogTag(name="eof"),
    ]


def test_a_log_record_cut_off_at_the_end_is_left_out() -> None:
    assert dgt.parse_log(bytes([0x6A, 0x41, 0x0C, 0x62, 0x15])) == [
        dgt.LogTag(name="power_up"), dgt.LogPiece(square=chess.E7, code=1),
    ]
    assert dgt.parse_log(bytes([0x79, 0x59, 0x59, 0x52, 0x3F])) == [
        dgt.LogClock(left=True, seconds=9 * 3600 + 59 * 60 + 59),
        dgt.LogPiece(square=chess.H1, code=2, quick=True),
    ]
