"""`eboard960 play` as a user runs it: the README's demo, the keyboard, one-line errors."""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from eboard960.capture import read_capture
from eboard960.cli import main
from eboard960.events import PieceLifted, PiecePlaced
from eboard960.play.demo import DEMO_START, demo_board, demo_moves
from eboard960.protocols.dgt import DgtCodec
from eboard960.replay import replay_capture

ROOT = Path(__file__).resolve().parents[1]
DEMO_MOVETEXT = ("1. c3 a6 2. e3 c6 3. Bxa6 bxa6 4. O-O c5 5. f4 f6 6. Kf2 Bxg2 7. Ne2 Bxf1 "
                 "8. Kg3 Nb6 9. Qxf1 Nc6 10. h4 O-O-O 11. Kg4 h5+ 12. Kf5 Qh7# 0-1")


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "src"), "XDG_DATA_HOME": str(tmp_path / "data")}


def _lines_until(process: subprocess.Popen[str], wanted: str, deadline: float) -> list[str]:
    """stdout lines up to and including the first that starts with `wanted`, or fail at `deadline`."""
    lines: list[str] = []
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    while time.monotonic() < deadline:
        if not selector.select(timeout=deadline - time.monotonic()):
            break
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith(wanted):
            return lines
    pytest.fail(f"no line starting {wanted!r} in time; got {lines}")


def test_readme_command_shows_a_recognised_move_within_ten_seconds(tmp_path: Path) -> None:
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "eboard960", "play", "--demo"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=_env(tmp_path))
    try:
        lines = _lines_until(process, "move 1. c3", started + 10)
        assert any(line.startswith("journal: ") for line in lines)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0, err
    assert DEMO_MOVETEXT in out
    assert "game over: 0-1 (checkmate)" in out
    journals = list((tmp_path / "data" / "eboard960" / "games").glob("play-*.jsonl"))
    assert len(journals) == 1
    assert (journals[0].parent / (journals[0].name + ".pgn")).read_text().strip().endswith(DEMO_MOVETEXT)


def test_demo_journal_holds_dgt_bytes_castling_the_eboard_way(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "demo.jsonl"
    assert main(["play", "--demo", "--fast", "--record", str(journal)]) == 0
    assert DEMO_MOVETEXT in capsys.readouterr().out
    capture = read_capture(journal)
    assert capture.header.board == "dgt" and capture.header.start == demo_board()
    result = replay_capture(capture)
    assert result.ok, result.problems
    assert list(result.games[0].mainline_moves()) == demo_moves()
    codec, steps = DgtCodec(), []
    for record in capture.records:
        if record.kind == "rx":
            steps += [(type(e).__name__[5:], chess.square_name(e.square))
                      for e in codec.receive_data(record.data) if isinstance(e, PieceLifted | PiecePlaced)]
    white_castles = steps.index(("Lifted", "e1"))
    assert steps[white_castles:white_castles + 4] == [
        ("Lifted", "e1"), ("Lifted", "g1"), ("Placed", "f1"), ("Placed", "g1")]
    black_castles = steps.index(("Lifted", "e8"))
    assert steps[black_castles:black_castles + 4] == [
        ("Lifted", "e8"), ("Lifted", "b8"), ("Placed", "d8"), ("Placed", "c8")]
    assert (tmp_path / "demo.jsonl.pgn").read_text().strip().endswith(DEMO_MOVETEXT)


def test_a_closed_stdout_ends_the_demo_quietly_with_the_journal_and_pgn_saved(tmp_path: Path) -> None:
    """`play --demo | head`: the reader goes away mid-game; exit 141 as for SIGPIPE, no traceback."""
    journal = tmp_path / "headed.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "eboard960", "play", "--demo", "--pace", "0.02", "--record", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    try:
        _lines_until(process, "move 2. ", time.monotonic() + 10)
        process.stdout.close()  # as `head` does once it has its lines
        err = process.stderr.read()
        process.wait(timeout=20)
    finally:
        process.kill()
        process.wait()
    assert (process.returncode, err) == (141, "")
    played = list(replay_capture(read_capture(journal)).games[0].mainline_moves())
    assert 0 < len(played) < len(demo_moves())  # cut short mid-game, every move kept
    pgn = (tmp_path / "headed.jsonl.pgn").read_text()
    assert demo_board().variation_san(played) in pgn


def test_keyboard_drives_the_emulated_board(tmp_path: Path) -> None:
    journal = tmp_path / "typed.jsonl"
    typed = "e4\nfoo\nlift e7\nplace e5\npress\nNf3\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "eboard960", "play", "--position", "518", "--time", "5+3",
         "--record", str(journal)],
        input=typed, capture_output=True, text=True, env=_env(tmp_path), timeout=30)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "move 1. e4" in out and "move 1... e5" in out and "move 2. Nf3" in out
    assert "? 'foo' is neither a move nor a command" in out
    assert "1. e4 { [%clk 0:05:0" in out and "2. Nf3" in out
    result = replay_capture(read_capture(journal))
    assert [m.uci() for m in result.games[0].mainline_moves()] == ["e2e4", "e7e5", "g1f3"]


def test_typed_bytes_that_are_not_utf8_are_one_refused_line_and_the_rest_is_played(
        tmp_path: Path, capsys, monkeypatch) -> None:
    """A Latin-1 key (a terminal not in UTF-8) once swallowed every later line, even 'quit'."""
    read, write = os.pipe()
    os.write(write, b"e4\n\xe9\xff\ne5\nquit\n")
    os.close(write)
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r"))
    assert main(["play", "--position", "518", "--record", str(tmp_path / "g.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "move 1. e4" in out and "move 1... e5" in out
    assert "? '\ufffd\ufffd' is neither a move nor a command" in out


def test_standard_input_that_cannot_be_read_ends_the_emulated_game_with_one_line(tmp_path: Path) -> None:
    """nohup leaves standard input write-only: no traceback and no endless wait, the game is saved."""
    with open(os.devnull, "w") as write_only:  # as nohup opens it
        done = subprocess.run(
            [sys.executable, "-m", "eboard960", "play", "--position", "518",
             "--record", str(tmp_path / "g.jsonl")],
            stdin=write_only, capture_output=True, text=True, env=_env(tmp_path), timeout=30)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "? cannot read standard input (Bad file descriptor): typed commands are off" in done.stdout
    assert (tmp_path / "g.jsonl.pgn").exists()


def test_standard_input_closed_is_one_line_before_any_journal_on_the_emulated_board(tmp_path: Path) -> None:
    """`<&-`: nothing could move the emulated pieces, and the session waited forever; --demo needs none."""
    journal = tmp_path / "g.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "eboard960", "play", "--position", "518", "--record", str(journal)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=_env(tmp_path), timeout=30,
        preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and done.stderr == (
        "eboard960 play: the emulated board's pieces are moved by typed moves, and standard input is closed; "
        "use --demo, or a real board\n")
    assert not journal.exists()


def test_ctrl_c_says_where_the_game_is_saved_and_how_to_go_on(tmp_path: Path) -> None:
    journal = tmp_path / "interrupted.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "eboard960", "play", "--position", "518", "--record", str(journal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    try:
        process.stdin.write("e4\n")
        process.stdin.flush()
        _lines_until(process, "move 1. e4", time.monotonic() + 10)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert err == ""
    assert out.splitlines()[-1] == (f"interrupted: saved in {journal} and {journal}.pgn; "
                                    f"to go on: eboard960 play --resume {journal}")
    assert "1. e4" in (tmp_path / "interrupted.jsonl.pgn").read_text()


@pytest.mark.parametrize("source", ["file", "devnull"])
def test_moves_from_a_file_or_dev_null_are_read_as_from_a_pipe(source: str, tmp_path: Path) -> None:
    """epoll cannot watch a regular file or /dev/null; the input is read to its end all the same."""
    journal = tmp_path / "redirected.jsonl"
    moves = tmp_path / "moves.txt"
    moves.write_text("e4\ne5\n")
    with moves.open() as typed:
        done = subprocess.run(
            [sys.executable, "-m", "eboard960", "play", "--position", "518", "--record", str(journal)],
            stdin=typed if source == "file" else subprocess.DEVNULL, capture_output=True, text=True,
            env=_env(tmp_path), timeout=30)
    assert done.returncode == 0, done.stderr
    assert f"saved: {journal}.pgn" in done.stdout
    played = [m.uci() for m in replay_capture(read_capture(journal)).games[0].mainline_moves()]
    assert played == (["e2e4", "e7e5"] if source == "file" else [])


@pytest.mark.parametrize(("argv", "message"), [
    (["--position", "1000"], "--position must be 0..959, 'random' or 'day', not '1000'"),
    (["--position", "\u00b2"], "--position must be 0..959, 'random' or 'day', not '\u00b2'"),
    (["--position", "day"], "--position day needs --secret-file FILE"),
    (["--board", "dgt"], "--board dgt needs --port (e.g. /dev/ttyUSB0)"),
    (["--demo", "--engine", "stockfish"], "the demo plays both sides; leave out --engine"),
    (["--engine", "no-such-engine-960"], "no engine called 'no-such-engine-960' on PATH"),
    (["--time", "5+x"], "time control"),
    (["--resume", "missing.jsonl"], "cannot read missing.jsonl"),
    (["--demo", "--position", "3"], "the demo plays position 466; leave out --position"),
    (["--level", "3"], "--level and --engine-plays need --engine"),
    (["--port", "/dev/ttyUSB0"], "--port and --ble connect a real board; name it with --board"),
    (["--board", "dgt", "--ble", "DGT"], "--board dgt cannot be reached that way"),
    (["--demo", "--pace", "9"], "--pace must be between 0 and 5 seconds, not 9.0"),
    (["--demo", "--pace", "nan"], "--pace must be between 0 and 5 seconds, not nan"),
    (["--demo", "--board", "dgt", "--port", "/dev/null"], "--demo plays on the emulated board"),
    (["--board", "chesslink", "--port", "/dev/null", "--white-side", "right"],
     "--white-side is for a DGT clock; leave it out for other boards"),
    (["--board", "dgt", "--port", "ttyNONE960", "--time", "5+3"],
     "cannot open ttyNONE960: No such file or directory"),
    (["--board", "chesslink", "--port", "foo://x"], "cannot open foo://x: invalid URL, protocol 'foo'"),
    (["--board", "dgt", "--port", "socket://127.0.0.1:1"], "cannot open socket://127.0.0.1:1:"),
    (["--board", "pegasus", "--ble", "E4:5F:01:23:45:67"], "DGT Pegasus at E4:5F:01:23:45:67"),
])
def test_user_mistakes_are_one_line_errors(argv: list[str], message: str, tmp_path: Path, capsys,
                                           monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eboard960 play: ") and err.count("\n") == 1
    assert message in err
    assert not (tmp_path / "data").exists()  # no journal was started


def test_an_existing_journal_is_never_overwritten(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "game.jsonl"
    journal.write_text('{"capture": 1, "board": "dgt", "start": 466}\n')
    assert main(["play", "--demo", "--record", str(journal)]) == 2
    assert f"{journal} already exists; use --resume {journal}" in capsys.readouterr().err
    assert journal.read_text() == '{"capture": 1, "board": "dgt", "start": 466}\n'


def test_sessions_started_in_the_same_second_get_journals_of_their_own(tmp_path: Path, capsys,
                                                                        monkeypatch) -> None:
    """The default names of this second and the next few are taken: the session picks a free one."""
    import datetime

    games = tmp_path / "data" / "eboard960" / "games"
    games.mkdir(parents=True)
    now = datetime.datetime.now()
    taken = {f"play-{now + datetime.timedelta(seconds=s):%Y%m%d-%H%M%S}.jsonl" for s in range(5)}
    for name in taken:
        (games / name).write_text('{"capture": 1, "board": "dgt", "start": 466}\n')
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _typed_stdin(monkeypatch, "quit\n")
    assert main(["play", "--position", "518"]) == 0
    [journal] = {path.name for path in games.glob("play-*.jsonl")} - taken
    assert journal.endswith("-2.jsonl") and f"journal: {games / journal}" in capsys.readouterr().out
    assert read_capture(games / journal).header.start == chess.Board.from_chess960_pos(518)


def test_record_refuses_a_missing_directory(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "no" / "such" / "x.jsonl"
    assert main(["play", "--demo", "--fast", "--record", str(journal)]) == 2
    assert capsys.readouterr().err == (
        f"eboard960 play: {journal.parent} is not an existing directory; --record does not create one\n")
    assert not (tmp_path / "no").exists()


def test_an_existing_pgn_beside_a_new_journal_is_never_overwritten(tmp_path: Path, capsys) -> None:
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.jsonl.pgn"
    pgn.write_text("[Event \"kept\"]\n\n1. e4 *\n")
    assert main(["play", "--demo", "--fast", "--record", str(journal)]) == 2
    assert capsys.readouterr().err == (
        f"eboard960 play: {pgn} already exists; move it away or choose another journal name\n")
    assert pgn.read_text() == "[Event \"kept\"]\n\n1. e4 *\n" and not journal.exists()


def test_demo_start_is_position_466() -> None:
    assert demo_board().board_fen() == chess.Board.from_chess960_pos(DEMO_START).board_fen()
    assert demo_board().board_fen().split("/")[-1] == "BRNNKBRQ"


def _typed_stdin(monkeypatch, text: str) -> None:
    """Standard input as a pipe holding `text` (the keyboard driver reads a real descriptor)."""
    read, write = os.pipe()
    os.write(write, text.encode())
    os.close(write)
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r"))


def test_the_days_position_comes_from_the_secret(tmp_path: Path, capsys, monkeypatch) -> None:
    import datetime

    from eboard960.clock.day import day_position, write_new_secret

    secret = write_new_secret(tmp_path / "hall.secret")
    expected = day_position(secret, datetime.date.today(), 3)
    _typed_stdin(monkeypatch, "quit\n")
    journal = tmp_path / "day.jsonl"
    assert main(["play", "--position", "day", "--secret-file", str(tmp_path / "hall.secret"),
                 "--round", "3", "--record", str(journal)]) == 0
    assert f"status: set up position {expected}" in capsys.readouterr().out
    assert read_capture(journal).header.start == chess.Board.from_chess960_pos(expected)


def test_a_random_position_is_recorded_in_the_journal(tmp_path: Path, capsys, monkeypatch) -> None:
    _typed_stdin(monkeypatch, "quit\n")
    journal = tmp_path / "random.jsonl"
    assert main(["play", "--position", "random", "--record", str(journal)]) == 0
    number = int(capsys.readouterr().out.split("status: set up position ")[1].split()[0])
    assert read_capture(journal).header.start == chess.Board.from_chess960_pos(number)


def test_resume_refuses_a_journal_of_another_protocol(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "chesslink.jsonl"
    journal.write_text('{"capture": 1, "board": "chesslink", "start": 518}\n{"t": 0.5, "link": "up"}\n')
    assert main(["play", "--resume", str(journal)]) == 2
    assert f"{journal} holds chesslink bytes; resume it with --board chesslink" in capsys.readouterr().err


def test_resume_of_a_square_event_capture_points_to_replay(tmp_path: Path, capsys) -> None:
    """`--board events` is no board: the message must not advise it."""
    capture = tmp_path / "events.jsonl"
    capture.write_text('{"capture": 1, "board": "events", "start": 518}\n{"t": 3.9, "lift": "g2"}\n')
    assert main(["play", "--resume", str(capture)]) == 2
    err = capsys.readouterr().err
    assert err == (f"eboard960 play: {capture} cannot be resumed: it holds events records, "
                   f"not a board's bytes; for its PGN: eboard960 replay {capture}\n")
    assert main(["replay", str(capture)]) == 0  # the advice works


def test_typed_game_resumed_from_its_journal(tmp_path: Path, capsys, monkeypatch) -> None:
    journal = tmp_path / "typed.jsonl"
    _typed_stdin(monkeypatch, "e4\nc5\nNf3\nquit\n")
    assert main(["play", "--position", "518", "--time", "3+2", "--record", str(journal)]) == 0
    capsys.readouterr()
    _typed_stdin(monkeypatch, "d6\nquit\n")
    assert main(["play", "--resume", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "resumed: 3 moves restored: 1. e4 c5 2. Nf3" in out
    assert "move 2... d6" in out
    assert [m.uci() for m in replay_capture(read_capture(journal)).games[0].mainline_moves()] == [
        "e2e4", "c7c5", "g1f3", "d7d6"]


@pytest.mark.parametrize(("edit", "message"), [
    ({"time": 5}, "line 1: the header's 'time' cannot be 5"),  # AttributeError traceback before
    ({"time": "x"}, "line 1: 'x' is not a time control"),
    ({"engine": 5}, "line 1: the header's 'engine' cannot be 5"),  # TypeError traceback before
    ({"engine": "stockfish", "level": "x"}, "line 1: the header's 'level' cannot be 'x'"),
    ({"play_board": "nosuch"}, "line 1: the header's 'play_board' cannot be 'nosuch'"),  # "use --board dgt"
    ({"codec": {"white_side": 7}}, "line 1: the header's 'white_side' cannot be 7"),
    ({"engine": "stockfish", "level": "9" * 10**6},  # quoted whole before: a megabyte on one line
     f"line 1: the header's 'level' cannot be '{'9' * 27}...{'9' * 28}'\n"),
])
def test_a_journal_header_the_program_never_wrote_is_named_with_the_journal(
        tmp_path: Path, capsys, monkeypatch, edit: dict[str, object], message: str) -> None:
    journal = tmp_path / "edited.jsonl"
    _typed_stdin(monkeypatch, "e4\nquit\n")
    assert main(["play", "--position", "518", "--record", str(journal)]) == 0
    header, *records = journal.read_text().splitlines(keepends=True)
    journal.write_text(json.dumps({**json.loads(header), **edit}) + "\n" + "".join(records))
    kept = journal.read_text()
    capsys.readouterr()
    assert main(["play", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"eboard960 play: {journal}: {message}") and err.count("\n") == 1
    assert journal.read_text() == kept


def test_a_journal_with_no_header_is_named(tmp_path: Path, capsys) -> None:
    journal = tmp_path / "damaged.jsonl"
    journal.write_text("\x00\x00garbage\n")
    assert main(["play", "--resume", str(journal)]) == 2
    assert capsys.readouterr().err == f"eboard960 play: {journal}: line 1: no capture header (not JSON)\n"


def test_a_typed_resignation_ends_the_game_and_stays_ended_on_resume(tmp_path: Path, capsys,
                                                                       monkeypatch) -> None:
    journal = tmp_path / "resigned.jsonl"
    _typed_stdin(monkeypatch, "e4\ne5\nresign white\nNf3\nquit\n")
    assert main(["play", "--position", "518", "--time", "3+2", "--record", str(journal),
                 "--white-side", "right"]) == 0
    assert read_capture(journal).header.codec_settings == {"white_side": "right"}  # replay decodes alike
    out = capsys.readouterr().out
    assert "White resigns: 0-1" in out and "move 2. Nf3" not in out
    assert '[Termination "normal"]' in out and out.rstrip().endswith("0-1")
    _typed_stdin(monkeypatch, "quit\n")
    assert main(["play", "--resume", str(journal)]) == 0
    assert "game over: 0-1 (White resigns)" in capsys.readouterr().out
