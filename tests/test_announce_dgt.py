import asyncio
import contextlib
import math
import os
import signal
import subprocess
import sys

import chess
import pytest

from eboard960.board import Board
from eboard960.clock.announce import KING_SEGMENTS, dgt_screen_commands, dgt_screens
from eboard960.clock.dgt import DgtClockLink, command_text, serve_dgt_clock
from eboard960.clock.events import MoveCompleted, PositionConfirmed, PositionShown
from eboard960.clock.machine import ClockMachine, Mode
from eboard960.clock.special import SpecialTimer
from eboard960.clock.timecontrol import TimeControl
from eboard960.clock.tui import describe
from eboard960.commands import EnableUpdates
from eboard960.emulators.dgt import ClockModel, DgtFirmware
from eboard960.emulators.pty import PtyRunner
from eboard960.errors import ClockError
from eboard960.position import StartPosition
from eboard960.protocols.dgt import DgtCodec
from eboard960.protocols.dgt_clock import (
    SEGMENTS,
    ClockBeep,
    ClockButtonRequest,
    ClockEnd,
    ClockIcons,
    ClockSegments,
    ClockSetAndRun,
    ClockText,
    ClockVersionRequest,
)
from eboard960.transport.serial import SerialTransport


def test_screens_fit_each_clock():
    position = StartPosition.from_rank("BRNNKBRQ")
    assert dgt_screens(position, 466, "3000") == ["pos 466", "BRNNKBRQ"]
    assert dgt_screens(position, 7, "xl") == ["pos  7", "brnn  ", "  kbrq"]
    for kind, width in (("3000", 8), ("xl", 6)):
        for n in (0, 9, 99, 960):
            assert all(len(s) <= width for s in dgt_screens(position, n, kind))
    with pytest.raises(ClockError, match="'3000' or an 'xl'"):
        dgt_screens(position, 1, "dgt2010")


def test_xl_draws_the_king_with_its_own_segments():
    (_, _, right) = dgt_screen_commands(StartPosition.from_rank("BRNNKBRQ"), 466, "xl")
    assert isinstance(right, ClockSegments)
    assert right.segments == (0, 0, KING_SEGMENTS, SEGMENTS["b"], SEGMENTS["r"], SEGMENTS["q"])


class Rig:
    """Our codec and link on the host side, B's emulated board with a clock on the other."""

    def __init__(self, kind="3000", control="5+3", **special):
        self.firmware = DgtFirmware(clock=ClockModel(kind))
        self.codec = DgtCodec()
        self.machine = ClockMachine(TimeControl.parse(control), special=SpecialTimer(**special))
        self.link = DgtClockLink(self.machine, kind=kind)
        self.t = 0.0
        self.events = []
        self.board_says(self.firmware.feed(self.codec.send(EnableUpdates())))

    def board_says(self, data):
        self.events += self.link.receive(self.codec.receive_data(data, self.t), self.t)

    def pump(self):
        """Send queued clock commands one at a time, each after the previous ack."""
        for _ in range(20):
            commands = self.link.outgoing(self.t)
            if not commands:
                return
            for command in commands:
                self.board_says(self.firmware.feed(self.codec.send(command)))

    def press(self, button):
        self.board_says(self.firmware.press(button))
        self.pump()

    def wait(self, seconds):
        self.t += seconds
        self.board_says(self.firmware.tick(self.t))
        self.events += self.link.tick(self.t)
        self.pump()


def test_dgt_3000_draws_shows_confirms_and_plays():
    rig = Rig(exclude={518})
    clock = rig.firmware.clock
    rig.press("back")  # the 3000's leftmost button draws
    shown = [e for e in rig.events if isinstance(e, PositionShown)]
    assert len(shown) == 1 and shown[0].number != 518
    position = shown[0].position
    assert clock.display == f"pos {position.number}"
    rig.wait(1.6)
    assert clock.display == position.rank
    rig.wait(1.6)
    assert clock.display == f"pos {position.number}"
    rig.press("back")  # redraw
    assert len([e for e in rig.events if isinstance(e, PositionShown)]) == 2
    redrawn = rig.machine.shown
    rig.press("confirm")
    assert PositionConfirmed(position=redrawn, t=rig.t) in rig.events
    assert clock.display is None  # back to the times
    assert (clock.left, clock.right, clock.paused) == (300.0, 300.0, True)
    rig.press("pause")  # the run button starts white's clock
    assert rig.machine.state is Mode.RUNNING
    assert clock.left_running and not clock.paused
    rig.wait(4.25)
    rig.press("white")  # the lever
    moves = [e for e in rig.events if isinstance(e, MoveCompleted)]
    assert moves[-1].remaining_ms == 300_000 - 4_250 + 3_000
    assert clock.left == math.ceil(298_750 / 1000) and clock.right_running
    rig.wait(2.0)
    rig.press("black")
    assert rig.machine.reading(rig.t).black_ms == 301_000
    assert rig.machine.clock.moves(0) == 1 and rig.link.problems == []


def test_buttons_in_the_wrong_mode_are_reported_not_fatal():
    rig = Rig()
    rig.press("confirm")  # a plain clock, armed
    rig.press("plus")
    assert rig.link.problems == [
        "plus: the clock is armed without a position; no position can be chosen now"]
    assert rig.machine.state is Mode.READY


def test_dgt_xl_shows_number_and_rank_halves():
    rig = Rig(kind="xl", exclude=set(range(960)) - {466})
    rig.press("plus")  # the emulated XL has no buttons; the host presses for it
    assert rig.firmware.clock.display is None
    rig.link.press("plus", rig.t)
    rig.pump()
    # The emulator reads segments back as text; "s" and "5" share a pattern, and our
    # seven-segment K is not in its letter table.
    assert rig.firmware.clock.display == "po5466"
    rig.wait(1.6)
    assert rig.firmware.clock.display == "brnn  "
    rig.wait(1.6)
    assert rig.firmware.clock.display == "  ?brq"


def test_unacknowledged_commands_are_resent_then_dropped():
    machine = ClockMachine(TimeControl.parse("5"))
    link = DgtClockLink(machine)
    link.press("draw", 0.0)
    (first,) = link.outgoing(0.0)
    assert isinstance(first, ClockText)
    assert link.outgoing(1.0) == []
    assert link.outgoing(2.0) == [first]
    assert link.outgoing(4.0) == [first]
    assert link.outgoing(6.0) == [first]
    assert link.outgoing(8.0) == []
    assert link.problems == [f"the DGT clock never acknowledged the text {first.text!r}"]


def test_every_clock_command_is_named_in_words_not_as_a_repr():
    commands = [ClockText(text="pos 921 ", beep=8), ClockSegments.from_text("brnn"), ClockEnd(),
                ClockSetAndRun(left=1, right=2), ClockIcons(), ClockBeep(units=2), ClockButtonRequest(),
                ClockVersionRequest()]
    texts = [command_text(command) for command in commands]
    assert texts[:2] == ["the text 'pos 921'", "the text 'brnn'"]
    assert len(set(texts)) == len(texts)
    assert not any("(" in text or "Clock" in text for text in texts)


def test_the_dgt_mode_names_the_clocks_buttons_not_the_terminals_keys():
    machine = ClockMachine(TimeControl.parse("5"))
    (confirmed,) = [e for e in machine.press("confirm", 0.0) if isinstance(e, PositionConfirmed)]
    assert describe(confirmed, on_dgt=True) == (
        "clock armed: black's side of the lever or play/pause starts white's clock")
    assert describe(confirmed) == "clock armed: black (m) or space starts white's clock"


def test_a_dgt_port_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "ttyACM9"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    argv = ["clock", "--dgt", str(missing), "--dgt-clock", "3000", "--special"]
    done = subprocess.run([sys.executable, "-m", "eboard960", *argv],
                          capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"eboard960 clock: cannot open {missing}: ")
    assert "No such file or directory" in done.stderr and done.stderr.count("\n") == 1


# ----- the real serial path: Board + SerialTransport + a pty + B's emulated board ---------


async def until(predicate, timeout=5.0):
    """Yield to the event loop until `predicate` holds (the pty's other end runs meanwhile)."""
    async def watch():
        while not predicate():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(watch(), timeout)


async def dgt_clock_over_a_pty():
    firmware = DgtFirmware(clock=ClockModel("3000"))
    clock = firmware.clock
    async with PtyRunner(firmware) as runner:
        machine = ClockMachine(TimeControl.parse("5+3"), special=SpecialTimer(exclude={518}))
        link = DgtClockLink(machine, screen_seconds=0.3)
        board = Board(DgtCodec, lambda: SerialTransport(runner.path, protocol="dgt"))
        reported = []
        async with board:
            serving = asyncio.create_task(
                serve_dgt_clock(link, board, reported.extend, special=True))
            await until(lambda: (clock.display or "").startswith("pos "))
            shown = machine.shown
            assert shown.number != 518 and clock.display == f"pos {shown.number}"
            await until(lambda: clock.display == shown.rank)
            runner.send(firmware.press("confirm"))
            await until(lambda: clock.display is None and clock.paused and clock.left == 300)
            assert machine.position == shown
            runner.send(firmware.press("pause"))
            await until(lambda: clock.left_running and not clock.paused)
            runner.send(firmware.press("black"))  # the lever stays: the host learns its place
            runner.send(firmware.press("white"))
            await until(lambda: machine.clock.moves(chess.WHITE) == 1)
            await until(lambda: clock.right_running and not clock.left_running)
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving
    assert link.problems == []
    assert [type(e) for e in reported].count(MoveCompleted) == 1


def test_dgt_clock_over_a_real_serial_pty():
    asyncio.run(dgt_clock_over_a_pty())


async def clock_command_over_a_pty():
    firmware = DgtFirmware(clock=ClockModel("3000"))
    clock = firmware.clock
    async with PtyRunner(firmware) as runner:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "eboard960", "clock", "--dgt", runner.path, "--special",
            "--time", "3+2", "--exclude", "0-958", stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env)
        try:
            await until(lambda: clock.display == "pos 959", timeout=10)
            runner.send(firmware.press("confirm"))
            await until(lambda: clock.display is None and clock.left == clock.right == 180)
        finally:
            process.send_signal(signal.SIGINT)
            out, err = await asyncio.wait_for(process.communicate(), 5)
    return process.returncode, out.decode(), err.decode()


def test_clock_command_drives_a_dgt_3000_over_a_pty():
    status, out, err = asyncio.run(clock_command_over_a_pty())
    assert status == 130, err
    assert "draw: position 959 " in out
    assert "locked: black's side of the lever or play/pause starts white's clock" in out
