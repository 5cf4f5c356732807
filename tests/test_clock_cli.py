import pytest
from import_probe import IO_MODULES, io_loaded_by

from eboard960.cli import main


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--time", "5x3"], "'5x3' is not a time control"),
        (["--time", "5+3", "--black-time", "zero"], "'zero' is not a time control"),
        (["--exclude", "0-959"], "excludes all 960"),
        (["--exclude", "961"], "out of range"),
        (["--exclude", "²"], "bad position number or range '²'"),
        (["--dice", "rovida-die"], "dice entry takes only uniform methods"),
        (["--dice", "no-such"], "unknown method 'no-such'"),
        (["--dice", "bodlaender-die", "--dgt", "/dev/eboard960-none"], "--dice needs the terminal clock"),
        ([], "needs a terminal"),  # pytest's stdin is not a tty
    ],
)
def test_clock_command_mistakes_are_one_line(capsys, argv, fragment):
    assert main(["clock", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eboard960 clock: ") and fragment in err and err.count("\n") == 1


def test_a_control_with_no_increment_written_5_plus_0_is_accepted(capsys):
    """`--time 5+0` gets past the time control: the next check is that pytest's stdin is no terminal."""
    assert main(["clock", "--time", "5+0", "--black-time", "3+0"]) == 2
    err = capsys.readouterr().err
    assert err == "eboard960 clock: the terminal clock needs a terminal (stdin is not a tty)\n"


def test_pure_clock_layers_load_no_io_library():
    pure = ("machine", "special", "day", "announce", "dgt", "events")
    loaded = io_loaded_by(*(f"eboard960.clock.{name}" for name in pure), watch=(*IO_MODULES, "termios"))
    assert loaded == []
