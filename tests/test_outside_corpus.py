"""A regression lane kept in the repository: 1,271 captures from fifteen generators written apart from the
project, each replayed to its expected games (moves and results).

`clone_*` comes from the seventy-third (a clone of a judges' corpus: people with habits of their own, events
with and without piece names, raw DGT and raw Chessnut frames, castling-heavy and commit-trap sets);
`memory_*` from the seventy-fourth (long games, pieces shuffled back and forth, sessions of several games,
coarse, stalled and epoch clocks, the format's optional lines); `reread_*` from the seventy-sixth (sensor
slips that lose the board: two far apart in one game, or one in a game set up again afterwards, read right
only by replay's second reading); `reports_*` from the seventy-seventh (the habits behind other e-board
programs' bug reports); `beginner_*` from the seventy-eighth (touches, wrong squares, illegal tries, early
clocks, long hovers); `clone2_*` from the eighty-first (a second clone of a judges' corpus, castling-heavy,
captures placed before their lift); `scans_*` from the eighty-second (boards that send only snapshots, scans
up to 2 s apart, a move and the reply caught in one); `clone3_*` from the eighty-fourth (a third clone, half
raw DGT, stress and blitz-speed sets); `engine_*` from the eighty-fifth (Stockfish games by human hands);
`mismatch_*` from the eighty-sixth (illegal moves, misplaced pieces, takebacks, new games, endings, links
dropped with moves made meanwhile); `dgtreal_*` from the eighty-seventh (its own DGT encoder: polled dumps
mid-move, bytes split and garbled, boards turned round, captures slid onto their victim); `clone4_*` from
the eighty-eighth (a fourth clone, clocks rounded and tied, blitz hands); `endgame_*` from the eighty-ninth
(long games to every ending, the last capture quicker than a bounce, then the pieces cleared or set up
again); `polled_*` from the ninetieth (boards that send only snapshots, captures made between two scans, raw
ChessLink, Chessnut and Pegasus bytes); `untidy_*` from the ninety-first (changes of mind, adjustments,
overlapping hands). Every capture read exactly when it was added; the generators' whole runs are in
docs/recognizer.md."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import chess.pgn
import pytest

from eboard960.capture import read_capture
from eboard960.replay import replay_capture

ARCHIVE = Path(__file__).parent / "data" / "outside_corpus.tar.gz"
EXPECTED = ".expected.pgn"


def _names() -> list[str]:
    with tarfile.open(ARCHIVE) as archive:
        return sorted(name.removesuffix(EXPECTED) for name in archive.getnames() if name.endswith(EXPECTED))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside")
    with tarfile.open(ARCHIVE) as archive:
        archive.extractall(folder, filter="data")
    return folder


def _games(games: list[chess.pgn.Game]) -> list[tuple[list[str], str]]:
    """Each game's moves in SAN (an expected game of the standard start may be written without the Chess960
    variant, its castlings then king-two-squares in UCI) and its result."""
    return [(_sans(game), game.headers["Result"]) for game in games]


def _sans(game: chess.pgn.Game) -> list[str]:
    board, sans = game.board(), []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def _expected(path: Path) -> list[chess.pgn.Game]:
    text, games = io.StringIO(path.read_text(encoding="utf-8")), []
    while (game := chess.pgn.read_game(text)) is not None:
        games.append(game)
    return games


def test_the_lane_holds_every_generator() -> None:
    names = _names()
    assert len(names) == 1271
    assert {name.split("_")[0] for name in names} == {
        "beginner", "clone", "clone2", "clone3", "clone4", "dgtreal", "endgame", "engine", "memory",
        "mismatch", "polled", "reports", "reread", "scans", "untidy"}


@pytest.mark.parametrize("name", _names())
def test_a_capture_replays_to_its_expected_games(corpus: Path, name: str) -> None:
    capture = next(path for path in corpus.glob(f"{name}.jsonl*"))
    replay = replay_capture(read_capture(capture))
    assert _games(replay.games) == _games(_expected(corpus / f"{name}{EXPECTED}"))
