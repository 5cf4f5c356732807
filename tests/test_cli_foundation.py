"""The draw, position and methods commands, called through eboard960.cli.main."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eboard960.cli import main
from eboard960.draw import draw


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_user_error(capsys, argv, command, words):
    status, _out, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith(f"eboard960 {command}: ") and err.count("\n") == 1
    assert words in err
    assert "Traceback" not in err


def test_draw_with_a_seed_is_the_library_draw(capsys):
    status, out, _ = run(capsys, "draw", "--seed", "7", "--format", "json")
    assert status == 0
    data = json.loads(out)
    expected = draw(seed="7")
    assert data["number"] == expected.number and data["rank"] == expected.rank
    assert data["xfen"] == expected.xfen() and data["shredder_fen"] == expected.shredder_fen()


def test_draw_text_with_exclusions(capsys):
    status, out, _ = run(capsys, "draw", "--exclude", "0-958", "--board", "ascii")
    assert status == 0
    assert out.splitlines()[0] == "position 959 (DGT960 959, Fritz 9 928): RKRNNQBB"
    assert "1 R K R N N Q B B" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["draw", "--exclude", "0-959"], "excludes all 960"),
        (["draw", "--exclude", "12,x"], "bad position number or range 'x'"),
        (["draw", "--exclude", "900-1000"], "out of range"),
        (["draw", "--exclude", "²"], "bad position number or range '²'"),  # a digit to isdigit()
        (["draw", "--exclude", "1-²"], "bad position number or range '1-²'"),
    ],
)
def test_draw_errors(capsys, argv, words):
    assert_user_error(capsys, argv, "draw", words)


def test_position_518(capsys):
    status, out, _ = run(capsys, "position", "518")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "position 518 (DGT960 518, Fritz 9 359): RNBQKBNR"
    assert lines[1] == "X-FEN     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert lines[2].endswith("RNBQKBNR w HAha - 0 1") and lines[3].startswith("FRC-FEN")


def test_position_conversions(capsys):
    status, out, _ = run(capsys, "position", "RNBQKBNR", "--fritz")
    assert (status, out) == (0, "359\n")
    status, out, _ = run(capsys, "position", "bbqnnrkr", "--dgt960")
    assert (status, out) == (0, "960\n")
    status, out, _ = run(capsys, "position", "960", "--dgt960", "--format", "json")
    assert json.loads(out)["rank"] == "BBQNNRKR"
    status, out, _ = run(capsys, "position", "359", "--fritz", "--format", "json")
    assert json.loads(out)["number"] == 518
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    status, out, _ = run(capsys, "position", fen, "--board", "unicode")
    assert out.startswith("position 518") and "1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["position", "960"], "position number 960 is out of range 0..959"),
        (["position", "0", "--dgt960"], "DGT960 number 0 is out of range 1..960"),
        (["position", "961", "--fritz"], "Fritz 9 number 961 is out of range"),
        (["position", "RNBQKBNX"], "bad back rank 'RNBQKBNX'"),
        (["position", "RBNBKQNR"], "same colour"),
        (["position", "KRBQNBNR"], "not between the rooks"),
        (["position", "XYZ"], "neither a number"),
        (["position", "²"], "'²': write a position number with the digits 0-9"),
        (["position", "١٢"], "with the digits 0-9"),  # Arabic-Indic 12: int() would take it
        (["position", "--", "--5"], "bad back rank '--5'"),
        (["position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP"], "bad FEN"),
        (["position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"],
         "not a Chess960 start position"),
    ],
)
def test_position_errors(capsys, argv, words):
    assert_user_error(capsys, argv, "position", words)


def test_methods_list(capsys):
    status, out, _ = run(capsys, "methods")
    assert status == 0
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:]}
    assert rows["bodlaender-die"] == "yes" and rows["northam-two-coins"] == "no"
    assert len(rows) == 17


def test_methods_analyze_reproduces_and_checks_the_seed_figures(capsys):
    status, out, _ = run(capsys, "methods", "analyze")
    assert status == 0
    assert "bodlaender-die           yes         960        1       0.0000  67/10 = 6.7000" in out
    assert "OK    three coins: 5 14/15 tosses on average" in out
    assert "WRONG the optimised die uses 6.2 rolls on average [seed 000]: " \
        "enumeration gives 88/15 = 5.8667" in out
    assert "WRONG horizontal symmetry with the king between the rooks: 16 positions" in out
    assert "OK    Rovida's die: the king on b1 with probability 1/6" in out
    assert out.count("WRONG") == 2


def test_methods_analyze_one(capsys):
    status, out, _ = run(capsys, "methods", "analyze", "bodlaender-die")
    assert status == 0
    assert "king   a 0/80 b 9/80 c 14/80 d 17/80 e 17/80 f 14/80 g 9/80 h 0/80" in out
    assert "rooks  a 30/80 b 21/80 c 16/80 d 13/80 e 13/80 f 16/80 g 21/80 h 30/80" in out
    status, out, _ = run(capsys, "methods", "analyze", "rovida-die")
    assert "king   a 0/80 b 1/6" in out


def test_methods_roll_with_values(capsys):
    status, out, _ = run(capsys, "methods", "roll", "bodlaender-die", "5", "2", "3", "3", "2", "3")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].endswith(": 5 -> 5: roll again")
    assert "position 518 (DGT960 518, Fritz 9 359): RNBQKBNR" in out


def test_methods_roll_eight_cards_as_dealt_then_the_bishops_card(capsys):
    status, out, _ = run(capsys, "methods", "roll", "eight-cards", *"316245781")
    assert status == 0
    assert ": 8 -> bishops on one colour: draw a card" in out
    assert ": 1 -> bishop from a1 to b1" in out and "): RBBNQKNR\n" in out


def test_methods_roll_coins_and_json(capsys):
    status, out, _ = run(capsys, "methods", "roll", "single-coin", *"THTTHHHHTT",
                         "--format", "json")
    assert status == 0 and json.loads(out)["rank"] == "BRKQNNRB"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["methods", "roll", "bodlaender-die", "2", "3", "7"], "a d6 cannot give '7'"),
        (["methods", "roll", "bodlaender-die", "2", "3"], "ran out of values; next is d6 for the queen"),
        (["methods", "roll", "polyhedral-d4-d4-d6-d10", "1", "1", "1", "1", "1"], "1 value(s) left over"),
        (["methods", "roll", "no-such-method"], "unknown method 'no-such-method'"),
        (["methods", "roll", "eight-cards", *"3162457"], "ran out of values; next is card for h1"),
        (["methods", "roll", "eight-cards", *"31624578"], "ran out of values; next is card drawn from all"),
        (["methods", "roll", "eight-cards", *"123456785"], "1 value(s) left over"),
        (["methods", "analyze", "nope"], "unknown method 'nope'"),
    ],
)
def test_methods_errors(capsys, argv, words):
    assert_user_error(capsys, argv, "methods", words)


def test_methods_roll_prompts_on_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n9\n3\n3\n2\n3\n"))
    status, out, _ = run(capsys, "methods", "roll", "bodlaender-die")
    assert status == 0
    assert "d6 for the dark-square bishop (5 or 6: roll again): " in out
    assert "a d6 cannot give '9' here" in out and "try again" in out
    assert "position 518" in out


def test_methods_roll_refuses_a_typed_value_that_is_not_utf8_and_goes_on(capsys, monkeypatch):
    """Where the locale reads standard input strictly (en_US.UTF-8), such a byte was a traceback."""
    typed = io.TextIOWrapper(io.BytesIO(b"\xe9\n2\n3\n3\n2\n3\n"), encoding="utf-8", errors="strict")
    monkeypatch.setattr("sys.stdin", typed)
    status, out, _ = run(capsys, "methods", "roll", "bodlaender-die")
    assert status == 0
    assert "a d6 cannot give '\ufffd' here" in out and "try again" in out
    assert "position 518" in out


def test_methods_roll_stdin_ending_early(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n"))
    assert_user_error(capsys, ["methods", "roll", "bodlaender-die"], "methods",
                      "input ended before the position was complete")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("command", ["draw", "replay", "methods"])
def test_output_to_a_full_disk_is_one_line_naming_it(tmp_path: Path, command: str) -> None:
    """Output redirected to a full disk: what could not be written is said in one line, no traceback."""
    capture = tmp_path / "game.jsonl"
    capture.write_text('{"capture": 1, "board": "events", "start": 518}\n{"t": 1, "lift": "e2"}\n'
                       '{"t": 2, "place": "e4"}\n')
    argv = {"draw": ["draw"], "replay": ["replay", str(capture)], "methods": ["methods", "list"]}[command]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "eboard960", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == f"eboard960 {command}: cannot write standard output: No space left on device\n"
