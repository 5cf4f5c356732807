"""Scanning: advertisements of emulated boards matched to profiles, and the `scan` command."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eboard960.ble.bumble_backend import VirtualRadio, bumble_stack
from eboard960.ble.emulated import start_peripheral
from eboard960.ble.peripheral import BoardPeripheral
from eboard960.ble.profiles import PROFILES, identify
from eboard960.ble.scan import find_board, scan, transport_for
from eboard960.ble.transport import BleTransport
from eboard960.cli import main
from eboard960.emulators.pegasus import PegasusFirmware
from eboard960.errors import TransportError

SRC = Path(__file__).parent.parent / "src"


def test_every_board_is_found_with_its_type_and_strangers_are_not() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        for board in PROFILES:
            await start_peripheral(radio, board)
        # A Nordic UART device that is no chessboard: same service, unknown name.
        stranger = BoardPeripheral(radio, PROFILES["pegasus"], PegasusFirmware(), name="Thermo 3000")
        await stranger.start()
        found = await scan(0.1, stack=bumble_stack(await radio.central()))
        assert sorted(board.board for board in found) == sorted(PROFILES)
        assert "Thermo 3000" not in {board.name for board in found}
        chesslink = next(board for board in found if board.board == "chesslink")
        transport = BleTransport(
            chesslink.device, PROFILES["chesslink"], stack=bumble_stack(await radio.central())
        )
        await transport.open()
        assert transport.is_open
        await transport.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("name", "services", "expected"),
    [
        ("DGT_PEGASUS_1234", [], "pegasus"),
        ("dgt_pegasus", [], "pegasus"),
        ("GoChessXR_0A1B2C", [], "gochess"),
        ("Square Off Neo - 3F2", [], "squareoff"),
        ("Smart Chess", [], "chessnut"),
        (None, ["49535343-fe7d-4ae5-8fa9-9fafd205e455"], "chesslink"),
        (None, ["1b7e8261-2877-41c3-b46e-cf057c562023"], "chessnut"),
        (None, ["6e400001-b5a3-f393-e0a9-e50e24dcca9e"], None),
        ("Headphones", [], None),
    ],
)
def test_identify_by_name_then_by_a_board_only_service(
    name: str | None, services: list[str], expected: str | None
) -> None:
    profile = identify(name, services)
    assert (profile.board if profile else None) == expected


def test_scan_command_lists_emulated_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--timeout", "0.1", "--emulated", "pegasus", "--emulated", "gochess"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Equal signal strength: listed by address, i.e. in the order they were switched on.
    assert [line.split()[0] for line in lines] == ["pegasus", "gochess"]
    assert any("DGT_PEGASUS_EMU" in line for line in lines)


@pytest.mark.parametrize("timeout", ["-1", "0", "601"])
def test_scan_command_rejects_a_bad_timeout(timeout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--timeout", timeout]) == 2
    assert capsys.readouterr().err.strip() == (
        f"eboard960 scan: --timeout must be more than 0 and at most 600 seconds, not {float(timeout):g}"
    )


@pytest.mark.skipif(sys.platform != "linux", reason="hides BlueZ's D-Bus socket; Linux only")
def test_scan_without_an_adapter_is_one_line_and_exit_2() -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/eboard960-no-bluez",
    }
    result = subprocess.run(
        [sys.executable, "-m", "eboard960", "scan", "--timeout", "0.2"],
        env=env, capture_output=True, text=True, timeout=30, check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("eboard960 scan: no usable Bluetooth adapter")
    assert result.stderr.count("\n") == 1


def test_find_board_by_type_or_address_and_connect_to_it() -> None:
    async def scenario() -> None:
        radio = VirtualRadio()
        pegasus = await start_peripheral(radio, "pegasus")
        await start_peripheral(radio, "gochess")
        stack = bumble_stack(await radio.central())
        found = await find_board("pegasus", timeout=0.1, stack=stack)
        assert (found.board, found.address) == ("pegasus", pegasus.address)
        assert (await find_board(address=pegasus.address.lower(), timeout=0.1, stack=stack)) == found
        transport = transport_for(found, stack=stack)
        await transport.open()
        assert transport.profile.board == "pegasus"
        await transport.close()
        with pytest.raises(TransportError, match=r"no chessnut found within 0\.1 s"):
            await find_board("chessnut", timeout=0.1, stack=stack)
        with pytest.raises(TransportError, match="not a Bluetooth LE board"):
            await find_board("dgt", timeout=0.1, stack=stack)

    asyncio.run(scenario())
