"""Which I/O libraries importing some of our modules pulls in, seen from a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

IO_MODULES = ("asyncio", "serial", "bleak", "bumble")


def io_loaded_by(*modules: str, watch: Iterable[str] = IO_MODULES) -> list[str]:
    """The `watch` modules present after importing `modules` (from this checkout's src/)."""
    code = f"import sys, {', '.join(modules)}; print(*sorted({set(watch)!r} & set(sys.modules)))"
    src = str(Path(__file__).parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, *sys.path])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()
