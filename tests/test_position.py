"""StartPosition: validation, conversions, FEN flavours, rendering."""

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.errors import PositionError
from eboard960.position import StartPosition

numbers = st.integers(0, 959)


def test_standard_chess_is_518_in_every_form():
    p = StartPosition.from_rank("RNBQKBNR")
    assert p.number == 518 and p.dgt960_number == 518 and p.fritz_number == 359
    assert p.is_standard and str(p) == "RNBQKBNR"
    assert p.xfen() == p.frc_fen() == chess.STARTING_FEN
    assert p.shredder_fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"


def test_position_zero_and_its_dgt960_number():
    p = StartPosition.from_number(0)
    assert p.rank == "BBQNNRKR"
    assert p.dgt960_number == 960
    assert StartPosition.from_dgt960(960) == p
    assert p.shredder_fen().endswith(" w HFhf - 0 1")


def test_value_semantics():
    a, b = StartPosition.from_number(7), StartPosition.from_rank(StartPosition.from_number(7).rank)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.rank = "RNBQKBNR"


@pytest.mark.parametrize(
    ("rank", "problem"),
    [
        ("RNBQKBN", "8 letters"),
        ("RNBQKBNX", "8 letters"),
        ("RNBQKQNR", "exactly one K"),
        ("RBNBKQNR", "same colour"),
        ("KRBQNBNR", "not between the rooks"),
        ("RRBQNBNK", "not between the rooks"),
    ],
)
def test_bad_ranks_name_the_problem(rank, problem):
    with pytest.raises(PositionError, match=problem):
        StartPosition.from_rank(rank)


def test_a_rank_must_be_a_string():
    with pytest.raises(PositionError, match="8 letters"):
        StartPosition(518)


def test_from_rank_accepts_lower_case():
    assert StartPosition.from_rank(" bbqnnrkr ").number == 0


@pytest.mark.parametrize(
    ("fen", "problem"),
    [
        ("not a fen", "bad FEN"),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "not a Chess960 start"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "white to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1", "castling rights"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w KQkq - 0 1", "not a Chess960 start"),
    ],
)
def test_bad_fens_name_the_problem(fen, problem):
    with pytest.raises(PositionError, match=problem):
        StartPosition.from_fen(fen)


def test_parse_reads_number_rank_or_fen():
    assert StartPosition.parse("518").is_standard
    assert StartPosition.parse("rnbqkbnr").is_standard
    assert StartPosition.parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_standard
    with pytest.raises(PositionError, match="bad back rank"):
        StartPosition.parse("\u00b2")  # a digit to Python, not a number to int()


def test_renderings_show_the_board():
    p = StartPosition.from_number(0)
    assert p.ascii().splitlines()[0] == "8 b b q n n r k r"
    assert p.ascii().splitlines()[7] == "1 B B Q N N R K R"
    assert p.unicode().splitlines()[7] == "1 ♗ ♗ ♕ ♘ ♘ ♖ ♔ ♖"
    assert p.unicode().splitlines()[8] == "  a b c d e f g h"


@settings(max_examples=150)
@given(numbers)
def test_every_fen_flavour_reads_back(n):
    p = StartPosition.from_number(n)
    for fen in (p.xfen(), p.shredder_fen(), p.frc_fen(), p.xfen().split()[0]):
        assert StartPosition.from_fen(fen) == p


@settings(max_examples=150)
@given(numbers)
def test_number_round_trips_in_every_numbering(n):
    p = StartPosition.from_number(n)
    assert StartPosition.from_rank(p.rank) == p
    assert StartPosition.from_dgt960(p.dgt960_number) == p
    assert StartPosition.from_fritz(p.fritz_number) == p
    assert p.number == n


@settings(max_examples=100)
@given(numbers)
def test_board_is_the_python_chess_start_board(n):
    board = StartPosition.from_number(n).board()
    assert board.chess960 and board.chess960_pos() == n
    assert board.fen() == chess.Board.from_chess960_pos(n).fen()


@settings(max_examples=300)
@given(st.permutations("KQRRBBNN"))
def test_validation_agrees_with_python_chess(letters):
    rank = "".join(letters)
    fen = f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"
    legal = chess.Board(fen, chess960=True).chess960_pos() is not None
    if legal:
        assert StartPosition.from_rank(rank).rank == rank
    else:
        with pytest.raises(PositionError):
            StartPosition.from_rank(rank)


def test_the_toolkit_is_a_pure_layer():
    """Positions, numbering, draw, methods and analysis load no I/O stack."""
    import subprocess
    import sys

    code = (
        "import sys, eboard960.position, eboard960.numbering, eboard960.draw, "
        "eboard960.methods, eboard960.analysis; "
        "print(sorted(m for m in ('asyncio', 'serial', 'bleak', 'bumble') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
