"""The pure layers take values in and give events out: no event loop, no ports, no radios."""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE = [
    "eboard960.recognizer",
    "eboard960.capture",
    "eboard960.snapshots",
    "eboard960.choreography",
    "eboard960.events",
    "eboard960.commands",
]
IO_MODULES = ("asyncio", "serial", "bleak", "bumble")


@pytest.mark.parametrize("module", PURE)
def test_pure_module_imports_no_io(module: str) -> None:
    code = f"import sys, {module}; print(' '.join(m for m in {IO_MODULES!r} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == ""
