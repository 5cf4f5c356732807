import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from eboard960.clock.machine import ClockMachine, Mode
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import TimeControl
from eboard960.clock.tui import TerminalClock, big, clock_text, render
from eboard960.methods import METHODS
from eboard960.position import StartPosition

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.mark.parametrize(
    ("ms", "text"),
    [(5_400_000, "1:30:00"), (3_599_999, "59:59"), (20_000, "0:20"), (19_999, "19.9"),
     (0, "0.0"), (305_500, "5:05")],
)
def test_clock_text(ms, text):
    assert clock_text(ms) == text


def test_block_font_rows_line_up():
    rows = big("1:23:45.6")
    assert len(rows) == 5 and len({len(row) for row in rows}) == 1
    assert rows[0].startswith("  █")


class FakeTime:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_keys_drive_the_machine_and_the_screen_shows_it():
    fake = FakeTime()
    machine = ClockMachine(TimeControl.parse("5+3"), special=SpecialTimer())
    terminal = TerminalClock(machine, now=fake)
    terminal.key("d")
    terminal.key("d")
    assert terminal.status.startswith("draw #2: position ")
    shown = machine.shown
    terminal.key("c")
    terminal.key("z")  # refused: white moves first
    assert "white moves first" in terminal.status
    terminal.key("m")
    fake.now += 12.5
    terminal.key("z")
    screen = "\n".join(terminal.screen())
    assert "BLACK <- to move" in screen and "moves 1" in screen
    assert f"Position {shown.number}" in screen and shown.rank in screen and "(locked)" in screen
    assert "\n".join(big("4:50")) in "\n".join(line[:40].rstrip() for line in terminal.screen())
    terminal.key("q")
    assert terminal.done


def test_render_shows_flags_and_time_odds():
    machine = ClockMachine(TimeControl.parse("1"), TimeControl.parse("2"))
    machine.press("black", 0.0)
    lines = render(machine, 61.0)
    assert "1 vs 2" in lines[0]
    assert "FLAG" in lines[2] and "<- to move" in lines[2]
    machine.press("white", 61.0)
    assert machine.reading(61.0).to_move == chess.BLACK


def test_dgt960_numbers_on_screen():
    machine = ClockMachine(TimeControl.parse("5"), special=SpecialTimer(
        exclude=range(1, 960), dgt960_numbers=True))
    machine.press("draw", 0.0)
    assert machine.shown == StartPosition.from_number(0)
    assert any(line.startswith("Position 960 ") for line in render(machine, 0.0))


# ----- the real thing, in tmux ----------------------------------------------------------


class Tmux:
    def __init__(self, name):
        self.socket = ["tmux", "-L", name]

    def __call__(self, *args):
        return subprocess.run([*self.socket, *args], capture_output=True, text=True)

    def screen(self):
        return self("capture-pane", "-p").stdout

    def wait_for(self, text, timeout=4.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)  # waiting on another process's terminal, not on our own code
        raise AssertionError(f"{text!r} never appeared; screen:\n{self.screen()}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_terminal_clock_in_tmux(tmp_path):
    tmux = Tmux(f"eboard960-clock-{os.getpid()}")
    settings = tmp_path / "stty.txt"
    command = (f"PYTHONPATH={SRC} {sys.executable} -m eboard960 clock --special --time 1+2 "
               f"--exclude 518; stty -a > {settings}")
    assert tmux("new-session", "-d", "-x", "100", "-y", "30", command).returncode == 0
    try:
        tmux.wait_for("press c to confirm")
        assert "draw #1: position" in tmux.screen()
        tmux("send-keys", "d")
        screen = tmux.wait_for("draw #2: position")
        number = int(screen.split("draw #2: position ")[1].split()[0])
        assert number != 518
        tmux("send-keys", "c")
        tmux.wait_for("(locked)")
        tmux("send-keys", "m")
        tmux.wait_for("white's clock runs")
        for key, text in (("z", "white move 1"), ("m", "black move 1"), ("z", "white move 2")):
            tmux("send-keys", key)
            tmux.wait_for(text)
        tmux("send-keys", "Space")
        screen = tmux.wait_for("mode: paused")
        assert f"Position {number} " in screen
        assert "moves 2" in screen and "moves 1" in screen and "BLACK <- to move" in screen
        tmux("send-keys", "q")
        deadline = time.monotonic() + 4
        while tmux("has-session").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tmux("has-session").returncode != 0, "q did not end the clock"
        modes = settings.read_text().split()
        assert "icanon" in modes and "echo" in modes, "the terminal was not restored"
    finally:
        tmux("kill-server")


def test_dice_rolls_typed_on_the_keyboard():
    machine = ClockMachine(TimeControl.parse("5"), special=SpecialTimer())
    terminal = TerminalClock(machine, dice_method="polyhedral-d4-d4-d6-d10", now=FakeTime())
    terminal.key("x")
    assert terminal.status.startswith("dice: d4 for the light-square bishop")
    for char in "9\n":
        terminal.key(char)
    assert "roll 9 refused" in terminal.status
    for char in "2\n3\n5\r10\n":  # Enter may come as CR or LF; 10 is two keys
        terminal.key(char)
    assert machine.shown.number == 1 + 4 * 2 + 16 * 4 + 96 * 9
    assert "dice: position" in terminal.status


def test_dice_key_without_a_method_explains_itself():
    terminal = TerminalClock(ClockMachine(TimeControl.parse("5")), now=FakeTime())
    terminal.key("x")
    assert terminal.status == "dice entry needs --dice METHOD"


@pytest.mark.parametrize("method", sorted(name for name, m in METHODS.items() if m.uniform))
def test_every_value_of_every_method_can_be_typed_during_dice_entry(method):
    """Letters are rolls during entry (q is a queen card, b a file): none quits or goes back."""
    machine = ClockMachine(TimeControl.parse("5"), special=SpecialTimer())
    terminal = TerminalClock(machine, dice_method=method, now=FakeTime())
    terminal.key("x")
    ceremony = METHODS[method].run()  # the same ceremony beside the clock's, for its requests
    while machine.state is Mode.DICE:
        outcomes = ceremony.request.outcomes
        for value in dict.fromkeys(map(str, outcomes)):
            for char in value:
                terminal.key(char)
            assert terminal.status == f"roll: {value} (Enter to key it in)"
            for _ in value:
                terminal.key("\x7f")  # Backspace
        assert not terminal.done and machine.state is Mode.DICE
        for char in f"{outcomes[0]}\n":
            terminal.key(char)
        ceremony.feed(outcomes[0])
    assert machine.shown == ceremony.position and "dice: position" in terminal.status
    terminal.key("q")
    assert terminal.done


def test_b_and_q_are_rolls_during_dice_entry_and_esc_abandons_it():
    machine = ClockMachine(TimeControl.parse("5"), special=SpecialTimer())
    terminal = TerminalClock(machine, dice_method="northam-joint", now=FakeTime())
    terminal.key("x")
    for char in "b\n":
        terminal.key(char)
    assert "White's choice for the other bishop" in machine.special.dice_request
    terminal.key("\x1b")
    assert machine.state is Mode.SETUP and terminal.status == "position discarded"
    terminal.dice_method = "permutation-cards"
    for char in "xq\n":
        terminal.key(char)
    assert not terminal.done and machine.special.dice_request.startswith("card for b1")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_dice_entry_keys_in_tmux():
    """In a real terminal: b is a roll, an arrow key is no Esc, Esc abandons the entry, q then quits."""
    tmux = Tmux(f"eboard960-dice-{os.getpid()}")
    command = f"PYTHONPATH={SRC} {sys.executable} -m eboard960 clock --dice northam-joint"
    assert tmux("new-session", "-d", "-x", "100", "-y", "30", command).returncode == 0
    try:
        tmux.wait_for("no position yet")
        tmux("send-keys", "x")
        tmux.wait_for("Esc abandons the entry")
        tmux("send-keys", "b", "Enter")
        tmux.wait_for("White's choice for the other bishop")
        tmux("send-keys", "Up", "q")
        tmux.wait_for("roll: q (Enter to key it in)")
        tmux("send-keys", "Escape")
        tmux.wait_for("position discarded")
        tmux("send-keys", "q")
        deadline = time.monotonic() + 4
        while tmux("has-session").returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tmux("has-session").returncode != 0, "q did not end the clock after the entry"
    finally:
        tmux("kill-server")
