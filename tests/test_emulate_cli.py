"""`eboard960 emulate` as a user runs it: a process printing a pty path, pyserial on that path."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import chess
import pytest
import serial

from eboard960.cli import main
from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced
from eboard960.protocols.dgt import DgtCodec, RequestVersion, Version

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "eboard960", "emulate", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )


def _read_until(port: serial.Serial, codec: DgtCodec, done) -> list[object]:
    got: list[object] = []
    while not done(got):
        data = port.read(port.in_waiting or 1)
        assert data, f"the emulator went quiet; got {got}"
        got += codec.receive_data(data)
    return got


def test_emulated_dgt_board_plays_its_script_to_a_serial_host(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text("# Chess960 position 0: BBQNNRKR\nmove c2c4\nwait 0.05\nmove Nd6  # SAN\n")
    process = _start("dgt", "--position", "0", "--script", str(script), "--no-pace")
    try:
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/")
        with serial.Serial(path, 9600, timeout=5) as port:
            codec = DgtCodec()
            port.write(b"\x4b\x42")  # update-nice, then the board
            got = _read_until(port, codec, lambda g: sum(
                isinstance(e, PieceLifted | PiecePlaced) for e in g) == 4)
            port.write(codec.send(RequestVersion()))
            got += _read_until(port, codec, lambda g: any(isinstance(e, Version) for e in g))
        board = chess.Board.from_chess960_pos(0)
        assert got[0] == BoardSnapshot.from_board(board)
        moves = [e for e in got if isinstance(e, PieceLifted | PiecePlaced)]
        assert [(type(e).__name__, chess.square_name(e.square)) for e in moves] == [
            ("PieceLifted", "c2"), ("PiecePlaced", "c4"),
            ("PieceLifted", "e8"), ("PiecePlaced", "d6"),
        ]
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 0, err
    assert "script done" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "script", "message"),
    [
        (["dgt", "--position", "960"], None, "--position must be 0..959, not 960"),
        (["dgt"], "move e2e4\nmove e2e4\n", "script line 2: 'move e2e4'"),
        (["dgt"], "lift e9\n", "script line 1"),
        (["dgt"], "dance\n", "expected move/lift/place/press/wait"),
        (["dgt", "--script", "/nonexistent/script.txt"], None, "cannot read the script"),
        (["dgt"], b"move e2e4\n\xffmove e7e5\n", "script.txt: not UTF-8 text (byte 10)"),
        (["dgt"], "lift e2\nlift z9\n", "script line 2: 'lift z9': 'z9' is not a square (a1 to h8)"),
        (["dgt"], "\ufefflift e2\nlift z9\n", "script line 2: 'lift z9'"),  # a byte order mark is no text
        (["dgt"], "lift e2\nplace e4 X\n", "script line 2: 'place e4 X': 'X' is not a piece letter"),
        (["dgt"], "wait abc\n", "script line 1: 'wait abc': 'abc' is not a number of seconds"),
        (["dgt"], "wait nan\n", "script line 1: 'wait nan': wait takes 0 to 3600 seconds, not nan"),
        (["dgt"], "move e2e5\n", "'move e2e5': 'e2e5' is not a legal move here, in UCI or SAN"),
        (["dgt"], "press purple\n", "script line 1: 'press purple': 'purple' is not a button; "
                                     "the clock has white, black, back, minus, pause, plus, confirm"),
        (["dgt", "--clock", "none"], "press white\n", "script line 1: 'press white': this emulated board "
                                                     "has no clock, so no buttons to press"),
        (["chesslink"], "press white\n", "has no clock, so no buttons to press"),
        # what the pieces refuse is found before serving too: it used to stop the board under its host
        (["dgt"], "lift e2\nplace e2\nlift e5\n", "script line 3: nothing to lift on e5"),
        (["dgt"], "lift e2\nplace e4\nmove e2e4\n", "script line 3: nothing to lift on e2"),
        (["chesslink"], "lift e2\nplace e4\nplace e5\n", "script line 3: no piece in hand to place"),
    ],
)
def test_mistakes_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], script: str | bytes | None,
    message: str,
) -> None:
    if script is not None:
        path = tmp_path / "script.txt"
        path.write_bytes(script if isinstance(script, bytes) else script.encode())
        args = [*args, "--script", str(path)]
    assert main(["emulate", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eboard960 emulate: ") and message in err
    assert err.count("\n") == 1


def test_the_help_lists_every_script_command_and_the_buttons(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["emulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for command in ("'move e2e4'", "'lift e2'", "'place e4 Q'", "'press BUTTON'", "'wait 1.5'"):
        assert command in out
    assert "white, black, back, minus, pause, plus, confirm" in out and "module help" not in out


def test_every_button_the_script_accepts_is_one_the_emulated_clock_presses() -> None:
    from eboard960.cli.emulate import PRESSABLE, parse_script
    from eboard960.emulators.dgt import ClockModel, DgtFirmware

    steps = parse_script("".join(f"press {name}\n" for name in PRESSABLE), chess.Board())
    firmware = DgtFirmware(clock=ClockModel("3000"))
    for step in steps:
        firmware.press(step.button)


def test_emulated_chesslink_board_answers_at_7o1() -> None:
    from eboard960.protocols import chesslink

    process = _start("chesslink", "--position", "100", "--no-pace")
    try:
        path = process.stdout.readline().strip()
        with serial.Serial(path, 38400, bytesize=7, parity="O", timeout=5) as port:
            codec = chesslink.ChessLinkCodec()
            port.write(codec.send(chesslink.RequestVersion()))
            got = _read_until(port, codec, lambda g: any(
                isinstance(e, chesslink.VersionReported) for e in g))
        assert any(isinstance(e, chesslink.VersionReported) for e in got)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 0, err
