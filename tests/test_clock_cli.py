import os
import subprocess
import sys

import pytest

from eboard960.cli import main


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--time", "5x3"], "'5x3' is not a time control"),
        (["--time", "5+3", "--black-time", "zero"], "'zero' is not a time control"),
        (["--exclude", "0-959"], "excludes all 960"),
        (["--exclude", "961"], "out of range"),
        (["--dice", "rovida-die"], "dice entry takes only uniform methods"),
        (["--dice", "no-such"], "unknown method 'no-such'"),
        ([], "needs a terminal"),  # pytest's stdin is not a tty
    ],
)
def test_clock_command_mistakes_are_one_line(capsys, argv, fragment):
    assert main(["clock", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eboard960 clock: ") and fragment in err and err.count("\n") == 1


def test_pure_clock_layers_load_no_io_library():
    code = (
        "import sys\n"
        "import eboard960.clock.machine, eboard960.clock.special, eboard960.clock.day\n"
        "import eboard960.clock.announce, eboard960.clock.dgt, eboard960.clock.events\n"
        "print(sorted({'asyncio', 'serial', 'bleak', 'bumble', 'termios'} & set(sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert out.stdout.strip() == "[]"
