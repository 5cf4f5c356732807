"""The terminal view: the pure rendering, plain lines on a pipe, and a real terminal (a pty)."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import chess

from eboard960.clock.timecontrol import parse_time_controls
from eboard960.events import BoardSnapshot, LinkChanged, PieceLifted, PiecePlaced
from eboard960.play.session import PlaySession
from eboard960.play.view import PlainDisplay, ScreenDisplay, render

ROOT = Path(__file__).resolve().parents[1]


def started(number: int, control: str | None = "15+10") -> PlaySession:
    session = PlaySession(number, controls=parse_time_controls(control) if control else None)
    session.feed(BoardSnapshot.from_board(chess.Board.from_chess960_pos(number), t=0.0))
    return session


def test_render_shows_board_clocks_last_move_and_status() -> None:
    session = started(466)
    session.feed(PieceLifted(square=chess.C2, t=1.0))
    session.feed(PiecePlaced(square=chess.C3, t=1.0))
    session.press(chess.WHITE, 4.0)
    lines = render(session.view(6.5), said=["move 1. c3"])
    screen = "\n".join(lines)
    assert lines[0] == "eboard960 play  position 466 (BRNNKBRQ)  15+10"
    assert lines[2].startswith("8 ♝ ♜ ♞ ♞ ♚ ♝ ♜ ♛")
    assert lines[8].startswith("2 ♙ ♙ · ♙ ♙ ♙ ♙ ♙")
    assert lines[7].startswith("3 · · ♙ · · · · ·")
    assert "◀ black    14:57  Black" in screen  # 2.5 s of black's time gone
    assert "  white    15:06  White" in screen  # 4 s used, 10 s added
    assert "last move: c3" in screen
    assert "» Black to move" in screen
    assert lines[-2:] == ["1. c3", "move 1. c3"]


def test_render_without_a_clock_and_before_set_up() -> None:
    session = PlaySession(0)
    session.feed(LinkChanged(up=True, t=0.0))
    lines = render(session.view(0.0))
    assert "» set up position 0" in lines
    assert "◀ white    --:--  White" in "\n".join(lines)


def test_an_illegal_position_crosses_the_squares_to_empty() -> None:
    session = started(518, control=None)
    session.feed(PieceLifted(square=chess.E2, t=1.0))
    session.feed(PiecePlaced(square=chess.E5, t=1.0))
    lines = render(session.view(1.0))
    assert lines[5].startswith("5 · · · · × · · ·")
    assert lines[8].startswith("2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙")  # e2: the pawn that goes back there
    assert "» illegal: empty e5; fill e2" in lines


def test_plain_display_prints_each_status_change_once_and_no_escape_codes() -> None:
    out = io.StringIO()
    display = PlainDisplay(out)
    session = started(518, control=None)
    for t in (1.0, 2.0):
        display.show(session.view(t))
    session.feed(PieceLifted(square=chess.E2, t=3.0))
    session.feed(PiecePlaced(square=chess.E5, t=3.0))
    display.show(session.view(3.0))
    display.say("illegal: empty e5; fill e2")
    assert out.getvalue() == ("status: White to move\nstatus: illegal: empty e5; fill e2\n"
                              "illegal: empty e5; fill e2\n")


def test_screen_display_redraws_in_place_and_keeps_the_typed_line() -> None:
    out = io.StringIO()
    display = ScreenDisplay(out)
    session = started(518, control=None)
    display.show(session.view(1.0))
    display.typing("e2e")
    frames = out.getvalue().split("\x1b[H\x1b[2J")
    assert len(frames) == 3  # nothing before the first frame, then two frames
    assert frames[1].endswith("> ") and frames[2].endswith("> e2e")


def _read_until(master: int, wanted: bytes, timeout: float = 10.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError(f"no {wanted!r} on the terminal; saw {seen[-400:]!r}")
        seen += os.read(master, 65536)
    return seen


def test_on_a_terminal_the_screen_redraws_and_typed_moves_play(tmp_path: Path) -> None:
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-m", "eboard960", "play", "--position", "518", "--time", "5+3",
         "--record", str(tmp_path / "tty.jsonl")],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env)
    try:
        screen = _read_until(master, "» White to move".encode())
        assert b"\x1b[H\x1b[2J" in screen and "♔".encode() in screen
        os.write(master, b"e4")
        _read_until(master, b"> e4")  # typed keys are shown in the prompt, not echoed raw
        os.write(master, b"\r")
        _read_until(master, b"move 1. e4")
        os.write(master, b"quit\r")
        assert process.wait(timeout=10) == 0, process.stderr.read()
    finally:
        process.kill()
        process.wait()
        after = termios.tcgetattr(slave)
        os.close(master)
        os.close(slave)
    assert after[3] & termios.ECHO and after[3] & termios.ICANON  # the terminal is given back
    assert after[3] == before[3]
