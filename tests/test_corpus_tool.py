"""The independent corpus generator (tools/corpus.py) and its checker (tools/check_corpus.py).

The generator is only useful if what it writes is physically possible and in
the capture format; these tests check both, then replay a small corpus with
the real recognizer and ask for every game back.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import check_corpus
import corpus

from eboard960.capture import read_capture


def test_every_castling_order_offered_is_physically_possible() -> None:
    """Replays each offered order on every Chess960 start's castlings: never a place on a full square."""
    seen: set[str] = set()
    for number in range(0, 960, 7):
        board = chess.Board.from_chess960_pos(number)
        for square in list(board.piece_map()):
            kind = board.piece_type_at(square)
            if kind not in (chess.KING, chess.ROOK) and chess.square_rank(square) in (0, 7):
                board.remove_piece_at(square)
        for move in [m for m in board.legal_moves if board.is_castling(m)]:
            k0, k1, r0, r1 = corpus.castling_squares(move)
            for order in corpus.castling_orders(k0, k1, r0, r1):
                seen.add(order)
                rng = random.Random(order)
                occupied = set(board.piece_map())
                while True:
                    tags: list[str] = []
                    acts = corpus.castling_acts(rng, board, move, tags)
                    if tags[0].endswith(":" + order):
                        break
                for act in acts:
                    if act.kind == "lift":
                        assert act.square in occupied, (number, order)
                        occupied.remove(act.square)
                    else:
                        assert act.square not in occupied, (number, order, chess.square_name(act.square))
                        occupied.add(act.square)
                after = board.copy()
                after.push(move)
                assert occupied == set(after.piece_map()), (number, order)
    assert {"king_first", "rook_first", "king_only", "rook_only", "eboard_both_swapped"} <= seen


@pytest.mark.parametrize("dgt", [False, True])
def test_scripted_games_are_physically_possible(dgt: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every lift empties an occupied square, every place fills an empty one (DGT replaces a
    victim in one update), at most one piece more than the position shows (a place before its
    lift), and after each ply the board holds exactly the position after the move."""
    monkeypatch.setitem(corpus.PROBS, "link_drop", 0.05)
    monkeypatch.setitem(corpus.PROBS, "resync", 0.1)
    for seed in range(12):
        rng = random.Random(seed)
        start = chess.Board.from_chess960_pos(rng.randrange(960))
        moves = corpus.random_game(rng, start, 120)
        plies = corpus.script_game(rng, start, moves, corpus.Context(dgt=dgt, identify=False))
        board = start.copy()
        occupied = set(board.piece_map())
        for move, ply in zip(moves, plies, strict=True):
            for act in ply.acts:
                if act.kind == "lift":
                    assert act.square in occupied, (seed, ply.san, ply.tags)
                    occupied.remove(act.square)
                elif act.kind == "place":
                    assert act.square not in occupied, (seed, ply.san, ply.tags)
                    occupied.add(act.square)
                elif act.kind == "replace":
                    assert dgt and act.square in occupied, (seed, ply.san, ply.tags)
                elif act.kind == "snapshot":
                    occupied = set(chess.BaseBoard(act.text).piece_map())
                assert len(occupied) <= len(board.piece_map()) + 1, (seed, ply.san, ply.tags)
            board.push(move)
            assert occupied == set(board.piece_map()), (seed, ply.san, ply.tags)


def test_corpus_files_are_in_the_capture_format(tmp_path: Path) -> None:
    written = corpus.generate(tmp_path, 24, seed=11, dgt_fraction=0.5)
    assert any(g.dgt for g in written) and not all(g.dgt for g in written)
    for game in written:
        capture = read_capture(game.path)
        assert capture.problems == [], game.path.name
        times = [record.t for record in capture.records]
        assert times == sorted(times)
        assert capture.header.board == ("dgt" if game.dgt else "events")
        expected = check_corpus.expected_sans(
            game.path.with_name(check_corpus.stem_of(game.path) + ".expected.pgn"))
        assert len(expected) == game.plies


def test_same_seed_same_corpus(tmp_path: Path) -> None:
    corpus.generate(tmp_path / "a", 3, seed=5)
    corpus.generate(tmp_path / "b", 3, seed=5)
    for path in sorted((tmp_path / "a").iterdir()):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


def test_recognizer_replays_a_generated_corpus(tmp_path: Path) -> None:
    """Every game back, move for move (29/30 and 28/30 at earlier points of the recognizer)."""
    corpus.generate(tmp_path, 30, seed=1960)
    summary = check_corpus.check_dir(tmp_path)
    failures = [check_corpus.failure_report(o, 15) for o in summary.outcomes if not o.ok]
    assert summary.passed == summary.games == 30, "\n\n".join(failures)


def test_a_capture_without_an_expected_pgn_is_named_unchecked_and_the_rest_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = corpus.generate(tmp_path, 2, seed=3)
    orphan = written[0].path
    check_corpus.expected_path(orphan).unlink()
    assert check_corpus.main([str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (f"check_corpus: {orphan.name}: unchecked, "
                            f"no {check_corpus.stem_of(orphan)}.expected.pgn beside it\n")
    assert captured.out.startswith("games: 1/1 passed") and captured.out.endswith("; 1 unchecked\n")
