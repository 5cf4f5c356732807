"""The ChessLink firmware model, driven through the real codec in memory."""

from __future__ import annotations

import chess
import pytest
from game_helpers import GAME_960

from eboard960.choreography import castling_orders
from eboard960.commands import EnableUpdates, RequestBoard, SetLeds
from eboard960.emulators.chesslink import ChessLinkFirmware, Faults, ScenarioError
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols import chesslink as cl
from eboard960.recognizer import Recognizer


def talk(model: ChessLinkFirmware, codec: cl.ChessLinkCodec, command: object) -> list[object]:
    return codec.receive_data(model.feed(codec.send(command)))


def connected(**kwargs) -> tuple[ChessLinkFirmware, cl.ChessLinkCodec]:
    model, codec = ChessLinkFirmware(**kwargs), cl.ChessLinkCodec()
    talk(model, codec, RequestBoard())
    return model, codec


class HostView:
    """What a host knows of the board from the events the codec gives it, and its game."""

    def __init__(self, start: int = 518) -> None:
        self.pieces: dict[chess.Square, chess.Piece] = {}
        self.recognizer = Recognizer(start)

    def take(self, events: list[object]) -> None:
        for event in events:
            if isinstance(event, (BoardSnapshot, PieceLifted, PiecePlaced)):
                self.recognizer.feed(event)
            if isinstance(event, BoardSnapshot):
                self.pieces = dict(event.pieces)
            elif isinstance(event, PieceLifted):
                self.pieces.pop(event.square)
            elif isinstance(event, PiecePlaced):
                assert event.square not in self.pieces
                self.pieces[event.square] = event.piece


# --- Commands -------------------------------------------------------------------------------


def test_version_and_status_are_answered() -> None:
    model, codec = ChessLinkFirmware(959, version=(2, 7)), cl.ChessLinkCodec()
    assert talk(model, codec, cl.RequestVersion()) == [cl.VersionReported(major=2, minor=7)]
    (snapshot,) = talk(model, codec, RequestBoard())
    assert snapshot.pieces == chess.Board.from_chess960_pos(959).piece_map()


def test_leds_are_set_and_cleared() -> None:
    model, codec = connected()
    squares = frozenset({chess.E2, chess.E5, chess.A8})
    assert talk(model, codec, SetLeds(squares=squares)) == [cl.LedsSet()]
    assert model.lit_squares() == squares
    assert talk(model, codec, SetLeds()) == [cl.LedsCleared()]
    assert model.lit_squares() == frozenset()


def test_registers_are_written_and_read_back() -> None:
    model, codec = connected()
    assert talk(model, codec, cl.WriteRegister(address=0x10, value=0xAB)) == [
        cl.RegisterWritten(address=0x10, value=0xAB)
    ]
    assert talk(model, codec, cl.ReadRegister(address=0x10)) == [cl.RegisterRead(address=0x10, value=0xAB)]
    # a scan time below the minimum becomes the default 20
    assert talk(model, codec, cl.WriteRegister.scan_time(3)) == [cl.RegisterWritten(address=1, value=20)]
    assert talk(model, codec, EnableUpdates()) == [cl.RegisterWritten(address=2, value=3)]
    assert model.auto_report is cl.AutoReport.ON_CHANGE


def test_reset_is_silent_clears_leds_keeps_eeprom_and_deafens_for_three_seconds() -> None:
    model, codec = connected()
    talk(model, codec, SetLeds(squares=frozenset({chess.D4})))
    talk(model, codec, cl.WriteRegister(address=0x20, value=7))
    assert talk(model, codec, cl.ResetBoard()) == []
    assert model.lit_squares() == frozenset()
    assert talk(model, codec, cl.RequestVersion()) == []
    model.advance(3.1)
    assert talk(model, codec, cl.ReadRegister(address=0x20)) == [cl.RegisterRead(address=0x20, value=7)]


def test_frames_with_bad_parity_or_check_are_ignored() -> None:
    model = ChessLinkFirmware()
    good = cl.encode_frame("V")
    assert model.feed(bytes([good[0] & 0x7F]) + good[1:]) == b""  # 'V' sent without parity
    assert model.feed(good[:-1] + bytes([cl.with_parity(ord("7"))])) == b""  # wrong check
    assert model.feed(b"\x00junk" + good) != b""
    assert model.commands_seen == ["V"]


def test_check_off_register_accepts_any_check_digits() -> None:
    model, codec = connected()
    talk(model, codec, cl.WriteRegister(address=0, value=1))
    typed = bytes(cl.with_parity(ord(c)) for c in "V00")
    assert codec.receive_data(model.feed(typed)) == [cl.VersionReported(major=1, minor=0)]


def test_unknown_letters_are_not_answered() -> None:
    model = ChessLinkFirmware()
    assert model.feed(cl.encode_frame("I")) == b""
    assert model.feed(cl.encode_frame("B", "01")) == b""


# --- Auto-reports ---------------------------------------------------------------------------


def test_board_waits_to_be_spoken_to() -> None:
    model = ChessLinkFirmware()
    assert model.advance(1.0) == b""
    assert model.lift(chess.E2) == b""
    model.feed(cl.encode_frame("V"))
    assert model.advance(1.0).count(b"s") >= 20


def test_every_scan_mode_reports_at_the_scan_rate() -> None:
    model, codec = connected()
    statuses = model.advance(1.0).count(cl.encode_frame("s", model.status())[:1])
    assert statuses == 24  # 1 s / 40.96 ms
    talk(model, codec, cl.WriteRegister.scan_time(255))
    assert model.advance(1.0).count(b"s") in (1, 2)


def test_off_mode_is_silent_but_answers_polls() -> None:
    model, codec = connected()
    talk(model, codec, cl.WriteRegister.auto_report(cl.AutoReport.OFF))
    assert model.lift(chess.E2) == b""
    assert model.advance(2.0) == b""
    assert codec.receive_data(model.feed(codec.send(cl.RequestStatus()))) == [PieceLifted(square=chess.E2)]


def test_timed_mode_reports_every_interval() -> None:
    model, codec = connected()
    talk(model, codec, cl.WriteRegister.auto_report(cl.AutoReport.TIMED))
    talk(model, codec, cl.WriteRegister.report_interval(61))  # 250 ms
    assert model.advance(1.01).count(b"s") == 4


def test_change_mode_reports_each_change_once() -> None:
    model, codec = connected()
    talk(model, codec, EnableUpdates())
    model.advance(0.5)  # the first scan after the mode change reports the board
    assert model.advance(1.0) == b""
    assert codec.receive_data(model.lift(chess.G1), 1.0) == [PieceLifted(square=chess.G1, t=1.0)]
    assert codec.receive_data(model.place(chess.F3)) == [
        PiecePlaced(square=chess.F3, piece=chess.Piece.from_symbol("N"))
    ]
    assert model.advance(1.0) == b""


def test_debounced_mode_hides_a_bounce_that_change_mode_shows() -> None:
    bouncy = Faults(bounce=1.0)
    fast, slow = connected(faults=bouncy), connected(faults=bouncy)
    talk(*fast, cl.WriteRegister.auto_report(cl.AutoReport.ON_CHANGE))
    talk(*slow, cl.WriteRegister.auto_report(cl.AutoReport.STABLE_3))
    for model, codec in (fast, slow):
        model.advance(0.5)
        codec.receive_data(model.lift(chess.E2))
    fast_events = fast[1].receive_data(fast[0].place(chess.E4))
    slow_events = slow[1].receive_data(slow[0].place(chess.E4))
    assert [type(e) for e in fast_events] == [PiecePlaced, PieceLifted, PiecePlaced]
    assert [type(e) for e in slow_events] == [PiecePlaced]


def test_turned_board_reports_the_other_square_order() -> None:
    model = ChessLinkFirmware(order="a8-first")
    codec = cl.ChessLinkCodec(order="a8-first")
    (snapshot,) = talk(model, codec, RequestBoard())
    assert snapshot.pieces == chess.Board().piece_map()
    (mirrored,) = talk(model, cl.ChessLinkCodec(), RequestBoard())
    assert mirrored.pieces[chess.D8] == chess.Piece.from_symbol("K")  # turned 180°


def test_scenario_mistakes_are_refused() -> None:
    model = ChessLinkFirmware()
    with pytest.raises(ScenarioError, match="nothing to lift on e4"):
        model.lift(chess.E4)
    with pytest.raises(ScenarioError, match="e2 is already occupied"):
        model.place(chess.E2)
    with pytest.raises(ScenarioError, match="no piece in hand"):
        model.place(chess.E4)
    with pytest.raises(ScenarioError, match=r"0\.\.959"):
        ChessLinkFirmware(960)
    with pytest.raises(ScenarioError, match="two bytes"):
        ChessLinkFirmware(version=(1, 256))


# --- Whole games with a spoiled link --------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "faults", "settle"),
    [
        (cl.AutoReport.ON_CHANGE, Faults(), 0.0),
        (cl.AutoReport.ON_CHANGE, Faults(garbage=0.3, split=0.3, seed=5), 0.0),
        (cl.AutoReport.EVERY_SCAN, Faults(garbage=0.2, split=0.3, drop=0.3, cut=0.2, seed=9), 0.3),
        (cl.AutoReport.STABLE_2, Faults(bounce=0.5, garbage=0.2, seed=1), 0.0),
    ],
)
def test_host_view_follows_a_chess960_game(mode, faults, settle) -> None:
    model, codec = connected(start=0, faults=faults)
    talk(model, codec, cl.WriteRegister.auto_report(mode))
    view = HostView(start=0)
    codec.send(RequestBoard())
    view.take(codec.receive_data(model.feed(cl.encode_frame("S"))))
    board = chess.Board.from_chess960_pos(0)
    for uci in GAME_960:
        move = board.parse_uci(uci)
        view.take(codec.receive_data(model.play_move(board, move) + model.advance(settle)))
        board.push(move)
        view.take(codec.receive_data(model.flush()))
        assert view.pieces == board.piece_map() == model.pieces, uci
    assert codec.buffered < 67
    view.recognizer.finish()
    assert view.recognizer.board.move_stack == board.move_stack


def test_play_move_makes_castling_the_eboard_way() -> None:
    board = chess.Board.from_chess960_pos(0)
    for uci in GAME_960[:25]:
        board.push_uci(uci)
    castling = board.parse_uci("g8f8")
    assert board.is_castling(castling)
    model, codec = connected(start=board)
    talk(model, codec, EnableUpdates())
    model.advance(0.5)
    events = codec.receive_data(model.play_move(board, castling))
    assert events == [
        PieceLifted(square=chess.G8),
        PieceLifted(square=chess.F8),
        PiecePlaced(square=chess.D8, piece=chess.Piece.from_symbol("r")),
        PiecePlaced(square=chess.C8, piece=chess.Piece.from_symbol("k")),
    ]


def test_play_game_leaves_board_and_model_at_the_final_position() -> None:
    model, codec = connected(start=0)
    talk(model, codec, EnableUpdates())
    board = chess.Board.from_chess960_pos(0)
    view = HostView()
    view.take(talk(model, codec, RequestBoard()))
    scratch = board.copy()
    moves = [scratch.push_uci(uci) for uci in GAME_960[:3]]
    view.take(codec.receive_data(model.play_game(board, moves)))
    assert len(board.move_stack) == 3
    assert model.board() == view_board(view.pieces) == chess.BaseBoard(board.board_fen())


def view_board(pieces: dict[chess.Square, chess.Piece]) -> chess.BaseBoard:
    board = chess.BaseBoard(None)
    board.set_piece_map(pieces)
    return board


@pytest.mark.parametrize("start", [0, 518, 959, 356])
def test_every_castling_order_puts_king_and_rook_right_without_piece_hints(start: int) -> None:
    """Choreography castling events carry no piece: the hand tells king from rook by target file."""
    board = chess.Board.from_chess960_pos(start)
    for square in chess.SquareSet(chess.BB_RANK_1 & ~(board.kings | board.rooks)):
        board.remove_piece_at(square)
    castlings = [m for m in board.legal_moves if board.is_castling(m)]
    assert castlings
    for castling in castlings:
        after = board.copy()
        after.push(castling)
        for order, steps in castling_orders(board, castling).items():
            model = ChessLinkFirmware(start=board)
            for step in steps:
                model.apply(PiecePlaced(square=step.square) if isinstance(step, PiecePlaced) else step)
            assert model.pieces == after.piece_map(), (start, castling, order)
