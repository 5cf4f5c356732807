"""`eboard960 replay`: the shared samples, PGN output, the event stream, and bad input."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import chess.pgn
import pytest

from eboard960.cli import main
from eboard960.cli import replay as replay_cli

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
sample_files = sorted(SAMPLES.glob("*.jsonl*")) if SAMPLES.is_dir() else []


def moves_of(pgn_text: str) -> list[chess.Move]:
    import io

    return list(chess.pgn.read_game(io.StringIO(pgn_text)).mainline_moves())


@pytest.mark.skipif(not sample_files, reason="the shared samples are not beside this checkout")
@pytest.mark.parametrize("path", sample_files, ids=lambda p: p.name)
def test_every_shared_sample_replays_to_its_expected_game(path: Path, capsys) -> None:
    status = main(["replay", str(path)])
    out = capsys.readouterr().out
    expected = (SAMPLES / (path.name.split(".")[0] + ".expected.pgn")).read_text()
    assert moves_of(out) == moves_of(expected)
    assert status == 0


def capture_file(tmp_path: Path, records: list[dict], start=518) -> Path:
    path = tmp_path / "game.jsonl"
    lines = [{"capture": 1, "board": "events", "start": start, "white": "W"}, *records]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_pgn_has_chess960_headers_and_the_capture_names(tmp_path: Path, capsys) -> None:
    path = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}], start=0)
    assert main(["replay", str(path)]) == 0
    game = chess.pgn.read_game(__import__("io").StringIO(capsys.readouterr().out))
    assert game.headers["Variant"] == "Chess960"
    assert game.headers["FEN"].startswith("bbqnnrkr")
    assert game.headers["White"] == "W"


def test_pgn_tags_escape_quotes_and_backslashes_in_the_capture_names(tmp_path: Path, capsys) -> None:
    """Found by an outside generator of FEN starts: `[Black "C:\\dir\\"]` ended the tag early for a reader
    that follows the PGN standard, where a quote or a backslash in a tag is escaped with a backslash."""
    path = tmp_path / "names.jsonl"
    header = {"capture": 1, "board": "events", "start": 518, "white": 'Ann "the rook" Lee',
              "black": "C:\\dir\\", "event": "line one\nline two"}
    path.write_text(json.dumps(header) + "\n" + json.dumps({"t": 1, "lift": "e2"}) + "\n"
                    + json.dumps({"t": 2, "place": "e4"}) + "\n")
    assert main(["replay", str(path)]) == 0
    tags = [line for line in capsys.readouterr().out.splitlines() if line.startswith("[")]
    assert '[White "Ann \\"the rook\\" Lee"]' in tags
    assert '[Black "C:\\\\dir\\\\"]' in tags
    assert '[Event "line one line two"]' in tags


def test_events_mode_prints_the_recognizers_reports(tmp_path: Path, capsys) -> None:
    path = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e5"},
                                   {"t": 3, "lift": "e5"}, {"t": 4, "place": "e4"}])
    assert main(["replay", "--events", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "game.jsonl:3\tt=2.000\tillegal: empty e5; fill e2",
        "game.jsonl:5\tt=4.000\trestored",
        "game.jsonl:5\tt=4.000\tmove e4 (e2e4) ply 1",
    ]


def test_a_malformed_line_is_named_and_every_move_is_still_printed(tmp_path: Path, capsys) -> None:
    path = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"},
                                   {"t": 3, "lift": "q9"}, {"t": 4, "lift": "e7"}, {"t": 5, "place": "e5"}])
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4", "e7e5"]
    assert "line 4: unknown square 'q9'" in captured.err
    assert "Traceback" not in captured.err


def test_an_infinite_time_is_one_error_and_every_move_is_still_printed(tmp_path: Path, capsys) -> None:
    path = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}, {"t": 3, "note": "x"},
                                   {"t": 4, "lift": "e7"}, {"t": 5, "place": "e5"}])
    path.write_text(path.read_text().replace('"t": 3', '"t": 1e400'))
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"eboard960 replay: {path}: line 4: time 't' must be a finite number, not inf\n"
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4", "e7e5"]


def test_a_place_on_an_occupied_square_is_named_and_skipped(tmp_path: Path, capsys) -> None:
    """The capture format: a sensor inconsistency, reported and skipped; the moves around it are kept."""
    path = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}, {"t": 3, "place": "e4"},
                                   {"t": 4, "lift": "e7"}, {"t": 5, "place": "e5"}])
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"eboard960 replay: {path}: line 4: a place on e4, which holds a piece already: "
                            "a sensor inconsistency, skipped\n")
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4", "e7e5"]


def test_a_place_on_an_occupied_square_held_for_the_next_event_is_named_with_its_own_line(
        tmp_path: Path, capsys) -> None:
    """Found crashing replay (a fresh seed of the sixty-sixth generator): dxc2 with the pawn in hand at
    Black's press, White's rook taken up early, and the place on c2 (the victim never reported lifted)
    held until the next event says whose it was. The place is skipped when that event is fed: it is still
    named with its own line, and the replay goes on."""
    fen = "1nrbqrk1/1pp2p2/4p3/6PB/QP1n4/N2p4/P1P2KPP/2R3NR b - - 1 13"
    path = capture_file(tmp_path, [{"t": 76.623, "lift": "d3"}, {"t": 79.184, "button": "black"},
                                   {"t": 79.411, "lift": "c1"}, {"t": 80.259, "place": "c2"},
                                   {"t": 82.247, "lift": "d4"}], start=fen)
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"eboard960 replay: {path}: line 5: a place on c2, which holds a piece already: "
                            "a sensor inconsistency, skipped\n")
    assert [m.uci() for m in moves_of(captured.out)][:2] == ["d3c2", "c1c2"]


def test_a_fault_in_eboard960_on_one_capture_costs_no_other(tmp_path: Path, capsys, monkeypatch) -> None:
    """A bug met on one capture of many (an assertion, say) is named in one line with where it happened,
    and the other captures are still written: a batch is not lost to one file."""
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}]).rename(good)
    capture_file(tmp_path, [{"t": 1, "lift": "d2"}, {"t": 2, "place": "d4"}], start=519).rename(bad)
    real, faulty_start = replay_cli.replay_capture, chess.Board.from_chess960_pos(519).fen()

    def faulty(capture, **options):
        assert capture.header.start.fen() != faulty_start, "a fault"
        return real(capture, **options)

    monkeypatch.setattr(replay_cli, "replay_capture", faulty)
    assert main(["replay", "--out", str(tmp_path / "pgn"), str(bad), str(good)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"eboard960 replay: {bad}: internal error (AssertionError at test_replay_cli.py:")
    assert err.count("\n") == 1
    assert not (tmp_path / "pgn" / "bad.pgn").exists()
    assert [m.uci() for m in moves_of((tmp_path / "pgn" / "good.pgn").read_text())] == ["e2e4"]


def test_a_board_that_ends_pieces_away_from_the_game_is_named(tmp_path: Path, capsys) -> None:
    """Pieces read as in hand for good mean moves never seen: not a silent exit 0. One piece lifted as the
    recording stopped is no problem."""
    moves = [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}]
    one_lifted = capture_file(tmp_path, [*moves, {"t": 3, "lift": "d7"}])
    assert main(["replay", str(one_lifted)]) == 0
    assert capsys.readouterr().err == ""
    away = capture_file(tmp_path, [*moves, {"t": 3, "lift": "d7"}, {"t": 4, "lift": "c7"}])
    assert main(["replay", str(away)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4"]
    assert "line 5: the board ends away from the game, moves may be missing: fill c7, d7" in captured.err


def test_a_missing_header_or_file_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 1, "lift": "e2"}\n')
    assert main(["replay", str(bad), str(tmp_path / "missing.jsonl")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert "no capture header" in err[0] and "cannot read" in err[1]


def test_out_dir_writes_one_pgn_per_capture(tmp_path: Path) -> None:
    first = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}])
    second = tmp_path / "other.jsonl"
    shutil.copy(first, second)
    out = tmp_path / "pgn"
    assert main(["replay", "--out", str(out), str(first), str(second)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["game.pgn", "other.pgn"]
    assert [m.uci() for m in moves_of((out / "other.pgn").read_text())] == ["e2e4"]


def test_events_and_out_together_are_a_usage_error(tmp_path: Path, capsys) -> None:
    """--events printed on standard output and left --out an empty directory, with no word."""
    game = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}])
    out = tmp_path / "pgn"
    with pytest.raises(SystemExit) as exit_:
        main(["replay", "--events", "--out", str(out), str(game)])
    assert exit_.value.code == 2 and not out.exists()
    assert "argument --out: not allowed with argument --events" in capsys.readouterr().err


def test_an_out_dir_that_cannot_be_made_or_written_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    game = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}])
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")
    assert main(["replay", "--out", str(a_file), str(game)]) == 2
    assert capsys.readouterr().err == f"eboard960 replay: --out {a_file} is a file, not a directory\n"
    assert a_file.read_text() == "keep me"
    assert main(["replay", "--out", str(a_file / "pgn"), str(game)]) == 2
    err = capsys.readouterr().err
    assert err == f"eboard960 replay: cannot create --out {a_file / 'pgn'}: Not a directory\n"
    out = tmp_path / "pgn"
    (out / "game.pgn").mkdir(parents=True)
    other = tmp_path / "other.jsonl"
    shutil.copy(game, other)
    assert main(["replay", "--out", str(out), str(game), str(other)]) == 1
    err = capsys.readouterr().err
    assert err == f"eboard960 replay: {game}: cannot write {out / 'game.pgn'}: Is a directory\n"
    assert [m.uci() for m in moves_of((out / "other.pgn").read_text())] == ["e2e4"]


def test_captures_with_the_same_name_get_distinct_pgn_names(tmp_path: Path, capsys) -> None:
    """d1/x and d2/x write x.pgn and x-2.pgn, in the order given; a generated name skips an input's own."""
    paths = []
    for folder, square in [("d1", "e4"), ("d2", "e3"), ("d3", "d4")]:
        (tmp_path / folder).mkdir()
        path = capture_file(tmp_path / folder, [{"t": 1, "lift": square[0] + "2"}, {"t": 2, "place": square}])
        paths.append(path.rename(path.with_name("x.jsonl")))
    paths.append(paths[2].rename(tmp_path / "x-2.jsonl"))
    del paths[2]
    out = tmp_path / "pgn"
    assert main(["replay", "--out", str(out), *map(str, paths)]) == 0
    written = {p.name: [m.uci() for m in moves_of(p.read_text())] for p in out.iterdir()}
    assert written == {"x.pgn": ["e2e4"], "x-3.pgn": ["e2e3"], "x-2.pgn": ["d2d4"]}
    err = capsys.readouterr().err
    assert err == f"eboard960 replay: {paths[1]}: written as x-3.pgn, another capture has the same name\n"


def test_a_warning_starts_on_its_own_line_below_the_progress_bar(tmp_path: Path, capsys, monkeypatch) -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    cut = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}])
    cut.write_text(cut.read_text() + '{"t": 3, "lif')
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["replay", "--out", str(tmp_path / "pgn"), str(cut)]) == 0
    before, warning = terminal.text.split("eboard960 replay:", 1)
    assert before.endswith(("\r", "\n")) and "last line cut off" in warning



def test_a_binary_file_or_an_unknown_protocol_is_named_and_the_next_file_still_replays(
    tmp_path: Path, capsys
) -> None:
    binary = tmp_path / "photo.jsonl"
    binary.write_bytes(bytes(range(256)) * 4)
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"capture": 1, "board": "nosuch", "start": 518}\n{"t": 1, "rx": "00"}\n')
    good = capture_file(tmp_path, [{"t": 1, "lift": "e2"}, {"t": 2, "place": "e4"}])
    assert main(["replay", str(binary), str(unknown), str(good)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4"]
    errors = captured.err.splitlines()
    assert len(errors) == 2 and "Traceback" not in captured.err
    assert "photo.jsonl: line 1: no capture header" in errors[0]
    assert "unknown.jsonl: unknown board protocol 'nosuch'" in errors[1]


def test_raw_bytes_of_another_board_than_the_header_names_are_an_error_not_an_empty_game(
    tmp_path: Path, capsys
) -> None:
    right = tmp_path / "right.jsonl"
    _dgt_capture_with_presses(right, {})
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(right.read_text().replace('"board": "dgt"', '"board": "chessnut"', 1))
    assert main(["replay", str(right)]) == 0
    capsys.readouterr()
    assert main(["replay", str(wrong)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == []
    first_rx = next(number for number, line in enumerate(wrong.read_text().splitlines(), 1) if '"rx"' in line)
    assert captured.err.splitlines() == [
        f"eboard960 replay: {wrong}: line {first_rx}: no message in any of the raw bytes: they are not "
        "what a 'chessnut' board sends (is the header's board right?)"]


def _dgt_capture_with_presses(path: Path, codec: object) -> None:
    """A DGT capture of 1. e4 e5 2. Nf3 with White's side of the DGT 3000 on the right, each move
    followed by its player's press; `codec` is the header's codec settings."""
    from eboard960.capture import CaptureWriter
    from eboard960.emulators.dgt import ClockModel, DgtFirmware
    from eboard960.protocols import dgt

    model = DgtFirmware(518, clock=ClockModel("3000", white_side="right"))
    host = dgt.DgtCodec()
    board = chess.Board()
    t = 0.0
    with CaptureWriter(path, board="dgt", start=518, codec=codec) as writer:
        for command in (dgt.SetUpdateMode(mode=dgt.UpdateMode.NICE), dgt.RequestClockTimes()):
            writer.tx(t, host.send(command))
            writer.rx(t, model.feed(host.send(command)) + model.flush())
        for uci in ["e2e4", "e7e5", "g1f3"]:
            mover = chess.COLOR_NAMES[board.turn]
            move = chess.Move.from_uci(uci)
            for data in (model.play_move(board, move), model.press(mover)):
                t += 1.0
                writer.rx(t, data)
            board.push(move)


def test_the_headers_codec_settings_decode_the_clock_lever(tmp_path: Path) -> None:
    from eboard960.capture import read_capture
    from eboard960.events import ButtonPressed
    from eboard960.replay import decoded

    for codec, presses in [({"white_side": "right"}, ["white", "black", "white"]),
                           ({}, ["black", "white", "black"])]:  # read as if White sat on the left
        path = tmp_path / f"dgt{len(codec)}.jsonl"
        _dgt_capture_with_presses(path, codec)
        events = [event for _, event in decoded(read_capture(path), [])]
        assert [e.button for e in events if isinstance(e, ButtonPressed)] == presses


def test_unknown_codec_settings_are_named_and_the_bytes_still_replay(tmp_path: Path, capsys) -> None:
    path = tmp_path / "odd.jsonl"
    _dgt_capture_with_presses(path, {"white_side": "middle"})
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4", "e7e5", "g1f3"]
    assert "line 1: white_side must be 'left' or 'right', not 'middle'; the bytes are decoded" in captured.err
    path = tmp_path / "unknown.jsonl"
    _dgt_capture_with_presses(path, {"colour": "white"})
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert [m.uci() for m in moves_of(captured.out)] == ["e2e4", "e7e5", "g1f3"]
    assert captured.err.splitlines()[0].endswith(
        "line 1: the dgt codec has no setting colour "
        "(its settings: rotated, detect_rotation, white_side, update_mode); left out")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"capture": 1, "board": "dgt", "start": 518, "codec": 5}\n')
    assert main(["replay", str(bad)]) == 1
    assert "line 1: 'codec' must be an object of codec settings" in capsys.readouterr().err


@pytest.mark.parametrize(("board", "codec", "message"), [
    ("dgt", {"rotated": "no"}, "rotated must be true or false, not 'no'"),  # read as true before: rotated
    ("chesslink", {"updates": "x"}, "updates must be one of 0, 1, 2, 3, 4, 5, 6, 7, not 'x'"),
    ("chesslink", {"updates": [3]}, "updates must be one of 0, 1, 2, 3, 4, 5, 6, 7, not [3]"),
    ("pegasus", {"battery_full": "88"}, "battery_full must be a whole number, not '88'"),
    ("gochess", {"led_rgb": 5}, "led_rgb must be a list like [0, 255, 0], not 5"),
    ("chessnut", {"stale_after": None}, "stale_after must be a number, not None"),
])
def test_codec_settings_of_the_wrong_kind_are_named_and_the_defaults_used(
        tmp_path: Path, capsys, board: str, codec: dict[str, object], message: str) -> None:
    """A hand-edited header: a value of another kind than the setting's was a traceback, or misread."""
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps({"capture": 1, "board": board, "start": 518, "codec": codec}) + "\n")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"eboard960 replay: {path}: line 1: {message}; the bytes are decoded with the codec's defaults\n")


LONG = "x" * 10**6
SHOWN = f"'{'x' * 12}...{'x' * 13}'"  # how reprlib quotes it


@pytest.mark.parametrize(("board", "codec", "message"), [
    ("dgt", {"white_side": [LONG]}, f"white_side must be a string, not [{SHOWN}]"),
    ("dgt", {"white_side": LONG}, f"white_side must be 'left' or 'right', not {SHOWN}"),
    ("chesslink", {"order": LONG}, f"unknown ChessLink square order {SHOWN} (known: "),
    ("chessnut", {"battery": LONG}, f"unknown battery layout {SHOWN} (official or"),
])
def test_a_codec_setting_megabytes_long_is_quoted_by_its_ends(
        tmp_path: Path, capsys, board: str, codec: dict[str, object], message: str) -> None:
    """The message names the setting on one short line, not the megabyte the header holds."""
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"capture": 1, "board": board, "start": 518, "codec": codec}) + "\n")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"line 1: {message}" in err and len(err) < 300 and err.count("\n") == 1


def test_only_unknown_codec_settings_are_named_and_the_known_ones_kept(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mixed.jsonl"
    _dgt_capture_with_presses(path, {"white_side": "right", "foo": 1, "bar": 2})
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"eboard960 replay: {path}: line 1: the dgt codec has no setting bar, foo "
                            "(its settings: rotated, detect_rotation, white_side, update_mode); left out\n")
    from eboard960.capture import read_capture
    from eboard960.events import ButtonPressed
    from eboard960.replay import decoded

    events = [event for _, event in decoded(read_capture(path), [])]
    assert [e.button for e in events if isinstance(e, ButtonPressed)] == ["white", "black", "white"]


def test_a_dgt_session_whose_next_game_is_set_up_in_another_position(tmp_path: Path, capsys) -> None:
    """A DGT board names every piece, so the position the players set up for the next game is known."""
    from eboard960.capture import CaptureWriter
    from eboard960.commands import EnableUpdates, RequestBoard
    from eboard960.emulators.dgt import DgtFirmware
    from eboard960.protocols import dgt

    model, host = DgtFirmware(518), dgt.DgtCodec()
    first, second = chess.Board(), chess.Board.from_chess960_pos(959)  # RKRNNQBB
    back_ranks = list(chess.scan_forward(chess.BB_RANK_1 | chess.BB_RANK_8))
    path, t = tmp_path / "two_games.jsonl", 0.0
    with CaptureWriter(path, board="dgt", start=518) as writer:
        for command in (EnableUpdates(), RequestBoard()):
            writer.tx(t, host.send(command))
            writer.rx(t, model.feed(host.send(command)))
        for uci in ["e2e4", "e7e5"]:
            writer.rx(t := t + 1.0, model.play_move(first, chess.Move.from_uci(uci)))
            first.push_uci(uci)
        for square in back_ranks:  # the next game's set-up: the back ranks cleared, set up anew, pawns back
            writer.rx(t := t + 0.5, model.lift(square))
        for square in back_ranks:
            writer.rx(t := t + 0.5, model.place(square, second.piece_at(square)))
        for pawn, home in [(chess.E4, chess.E2), (chess.E5, chess.E7)]:
            writer.rx(t := t + 0.5, model.lift(pawn))
            writer.rx(t := t + 0.5, model.place(home))
        for uci in ["e1d3", "e8d6"]:
            writer.rx(t := t + 1.0, model.play_move(second, chess.Move.from_uci(uci)))
            second.push_uci(uci)
    assert main(["replay", str(path)]) == 0
    games, out = [], __import__("io").StringIO(capsys.readouterr().out)
    while (game := chess.pgn.read_game(out)) is not None:
        games.append(game)
    assert games[1].headers["FEN"] == chess.Board.from_chess960_pos(959).fen()
    moves = [[move.uci() for move in game.mainline_moves()] for game in games]
    assert moves == [["e2e4", "e7e5"], ["e1d3", "e8d6"]]


def test_a_session_ending_with_the_board_set_up_again_prints_only_the_game_played(tmp_path: Path,
                                                                                  capsys) -> None:
    """The pieces set up for a next game that was never begun: no empty game after the one played."""
    steps = [("lift", "e2"), ("place", "e4"), ("lift", "e7"), ("place", "e5"), ("lift", "g1"),
             ("place", "f3"), ("lift", "b8"), ("place", "c6"), ("lift", "f3"), ("lift", "c6"), ("lift", "e4"),
             ("lift", "e5"), ("place", "g1"), ("place", "e7"), ("place", "b8"), ("place", "e2")]
    path = capture_file(tmp_path, [{"t": t, kind: square} for t, (kind, square) in enumerate(steps, 1)])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("[Event ") == 1
    assert [move.uci() for move in moves_of(out)] == ["e2e4", "e7e5", "g1f3", "b8c6"]


def test_an_illegal_move_pressed_at_the_end_keeps_the_moves_made(tmp_path: Path, capsys) -> None:
    """Found failing (an outside generator of illegal tries): the rook goes a1-b2 and White's clock is
    pressed as the recording ends. That press had counted as play going on after the board was lost, so
    the capture was read again without the place on b2, and the press ended an unseen Rxa5."""
    steps = [(1.0, "lift", "e1"), (1.6, "place", "d1"), (2.0, "button", "white"), (3.0, "lift", "e8"),
             (3.7, "place", "e7"), (4.0, "button", "black"), (5.0, "lift", "a1"), (5.8, "place", "b2"),
             (6.3, "button", "white")]
    path = capture_file(tmp_path, [{"t": t, kind: value} for t, kind, value in steps],
                        start="4k3/8/8/q7/8/8/8/R3K3 w - - 0 1")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert [move.uci() for move in moves_of(captured.out)] == ["e1d1", "e8e7"]
    assert "no legal move explains: empty b2; fill a1" in captured.err
    assert "read again" not in captured.err



def test_a_capture_named_with_dots_keeps_them_in_its_pgn_name(tmp_path: Path) -> None:
    """Found by an outside generator: x_g0.5.jsonl was written as x_g0.pgn, which x_g0.7.jsonl also took.
    NAME.jsonl and NAME.jsonl.gz give NAME.pgn, dots in NAME kept."""
    paths = []
    for name, square in [("x_g0.5.jsonl", "e4"), ("x_g0.7.jsonl", "e3")]:
        path = capture_file(tmp_path, [{"t": 1, "lift": square[0] + "2"}, {"t": 2, "place": square}])
        paths.append(path.rename(tmp_path / name))
    gz = tmp_path / "game.2.jsonl.gz"
    with gzip.open(gz, "wt") as packed:
        packed.write(paths[0].read_text())
    out = tmp_path / "pgn"
    assert main(["replay", "--out", str(out), *map(str, paths), str(gz)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["game.2.pgn", "x_g0.5.pgn", "x_g0.7.pgn"]
    assert [m.uci() for m in moves_of((out / "x_g0.7.pgn").read_text())] == ["e2e3"]


def test_an_illegal_castling_at_the_end_does_not_rewrite_the_move_before_it(tmp_path: Path, capsys) -> None:
    """Found failing (an outside generator of illegal special moves): 17...Qe2+ pressed, then White castles
    out of check as the recording ends. Read again without the queen's place on e2, the press had made an
    unseen Qxe4 and the castling legal; with little play after the loss, a second reading may only add
    moves, not rewrite the ones made before it."""
    steps = [(1.0, "lift", "f3"), (2.0, "place", "e2"), (3.0, "button", "black"), (4.0, "lift", "e1"),
             (5.0, "lift", "h1"), (6.0, "place", "g1"), (7.0, "place", "f1"), (8.0, "button", "white")]
    path = capture_file(tmp_path, [{"t": t, kind: value} for t, kind, value in steps],
                        start="r6r/2pk1p1p/ppn3n1/1P1pP3/4P1bp/P2BbqPN/2PB1P2/RNQ1K2R b KQ - 0 17")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert [move.uci() for move in moves_of(captured.out)] == ["f3e2"]
    assert "no legal move explains: empty f1, g1; fill e1, h1" in captured.err
