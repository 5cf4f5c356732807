"""The capture format: a reader that keeps what it can and names bad lines, a writer that flushes."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import chess
import pytest

from eboard960.capture import CaptureWriter, read_capture
from eboard960.errors import CaptureError
from eboard960.events import BoardSnapshot, ButtonPressed, LinkChanged, PieceLifted, PiecePlaced

HEADER = {"capture": 1, "board": "events", "start": 518}


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_writer_appends_flushes_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    events = [
        BoardSnapshot.from_board(chess.Board(), t=0.0),
        PieceLifted(square=chess.E2, t=1.0),
        PiecePlaced(square=chess.E4, piece=chess.Piece.from_symbol("P"), t=2.0),
        ButtonPressed(button="white", t=2.5),
        LinkChanged(up=False, t=3.0),
    ]
    writer = CaptureWriter(path, board="events", start=518, white="Ann")
    for event in events:
        writer.event(event)
        # flushed: another reader sees every record at once, before close
        assert len(path.read_text().splitlines()) == 1 + events.index(event) + 1
    writer.rx(4.0, b"\x8e\x00\x05")
    writer.close()
    CaptureWriter(path, board="events", start=518).close()  # reopening appends, no second header
    capture = read_capture(path)
    assert capture.header.extra["white"] == "Ann"
    assert [r.event for r in capture.records[:5]] == events
    assert capture.records[5].data == b"\x8e\x00\x05"
    assert capture.problems == [] and capture.cut_off is None


def test_cut_off_last_line_is_ignored_with_everything_before_kept(tmp_path: Path) -> None:
    path = write(tmp_path / "c.jsonl", [json.dumps(HEADER), '{"t": 1, "lift": "e2"}'])
    with path.open("a") as handle:
        handle.write('{"t": 2, "pla')
    capture = read_capture(path)
    assert len(capture.records) == 1
    assert capture.cut_off.startswith("line 3:")


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_file_saved_with_a_byte_order_mark_and_crlf_line_ends_reads_as_written(
    tmp_path: Path, suffix: str
) -> None:
    """What an editor on Windows leaves of a capture someone opened and saved."""
    text = "\ufeff" + "".join(
        line + "\r\n" for line in [json.dumps(HEADER), '{"t": 1, "lift": "e2"}', '{"t": 2, "place": "e4"}']
    )
    data = text.encode()
    (path := tmp_path / f"c{suffix}").write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    capture = read_capture(path)
    assert capture.header.board == "events"
    assert capture.header.start.board_fen() == chess.Board.from_chess960_pos(518).board_fen()
    assert [r.event for r in capture.records] == [
        PieceLifted(square=chess.E2, t=1.0),
        PiecePlaced(square=chess.E4, t=2.0),
    ]
    assert capture.problems == [] and capture.cut_off is None


def test_bad_records_are_named_by_line_and_the_rest_is_kept(tmp_path: Path) -> None:
    lines = [
        json.dumps(HEADER),
        '{"t": 1, "lift": "e2"}',
        '{"t": 2, "lift": "z9"}',
        'not json',
        '{"t": 3, "button": "sideways"}',
        '{"t": 0.5, "place": "e4"}',
        '{"lift": "d2"}',
        '{"t": 5, "lift": "d2", "place": "d4"}',
    ]
    capture = read_capture(write(tmp_path / "c.jsonl", lines))
    assert capture.problems == [
        "line 3: unknown square 'z9'",
        "line 4: not valid JSON",
        "line 5: unknown button 'sideways'",
        "line 6: time goes backwards (0.5 after 1.0)",
        "line 7: record has no numeric time 't'",
        "line 8: record needs exactly one of rx, tx, lift, place, board, button, link, note",
    ]
    assert [r.line for r in capture.records] == [2, 6]


@pytest.mark.parametrize("button", ['["white"]', '{"white": 1}', "5", "null"])
def test_a_button_that_is_no_name_is_one_malformed_record(tmp_path: Path, button: str) -> None:
    """A list or an object where a button's name belongs is named by its line, not a crash."""
    lines = [json.dumps(HEADER), '{"t": 1, "lift": "e2"}', f'{{"t": 2, "button": {button}}}',
             '{"t": 3, "place": "e4"}']
    capture = read_capture(write(tmp_path / "c.jsonl", lines))
    assert capture.problems == [f"line 3: unknown button {json.loads(button)!r}"]
    assert [r.line for r in capture.records] == [2, 4]


def test_a_value_megabytes_long_is_quoted_by_its_ends(tmp_path: Path) -> None:
    """A garbled line's value goes into a one-line message: its ends, not megabytes of it."""
    huge = "y" * 1_000_000
    lines = [json.dumps(HEADER), json.dumps({"t": 1, "lift": huge}), json.dumps({"t": 2, "button": huge}),
             json.dumps({"t": 3, "rx": huge}), json.dumps({"t": 4, "place": "e4", "piece": huge}),
             '{"t": 5, "lift": "e2"}']
    capture = read_capture(write(tmp_path / "c.jsonl", lines))
    assert [r.line for r in capture.records] == [6]
    assert len(capture.problems) == 4 and all(len(problem) < 120 for problem in capture.problems)
    first = capture.problems[0]
    assert first.startswith("line 2: unknown square 'yyy") and first.endswith("yy'")
    for start in (huge, {"start": huge}):
        header = {**HEADER, "start": start}
        with pytest.raises(CaptureError) as error:
            read_capture(write(tmp_path / "h.jsonl", [json.dumps(header)]))
        assert len(str(error.value)) < 150


@pytest.mark.parametrize("bad", ["NaN", "1e400", "-Infinity"])
def test_a_time_that_is_no_finite_number_is_one_malformed_record(tmp_path: Path, bad: str) -> None:
    """One bad time gives one message; the lines after it are judged against the last good time."""
    lines = [json.dumps(HEADER), '{"t": 1, "lift": "e2"}', f'{{"t": {bad}, "place": "e3"}}',
             '{"t": 2, "place": "e4"}', '{"t": 3, "lift": "e7"}']
    capture = read_capture(write(tmp_path / "c.jsonl", lines))
    assert capture.problems == [f"line 3: time 't' must be a finite number, not {float(bad)}"]
    assert [r.line for r in capture.records] == [2, 4, 5]


def test_a_time_too_large_for_a_float_is_one_malformed_record(tmp_path: Path) -> None:
    """JSON integers have no bound: a 400-digit time is named by its line, not a crash."""
    lines = [json.dumps(HEADER), '{"t": 1, "lift": "e2"}', '{"t": 1' + "0" * 400 + ', "place": "e3"}',
             '{"t": 2, "place": "e4"}']
    capture = read_capture(write(tmp_path / "c.jsonl", lines))
    assert capture.problems == ["line 3: time 't' is too large to be a number of seconds"]
    assert [r.line for r in capture.records] == [2, 4]


def test_json_nested_too_deeply_is_not_valid_json_and_the_rest_is_kept(tmp_path: Path) -> None:
    """100,000 brackets exhaust the JSON parser's recursion: a bad line, or a cut-off last one."""
    deep = "[" * 100_000 + "]" * 100_000
    path = write(tmp_path / "c.jsonl", [json.dumps(HEADER), deep, '{"t": 2, "lift": "e2"}'])
    with path.open("a") as handle:
        handle.write("[" * 100_000)
    capture = read_capture(path)
    assert capture.problems == ["line 2: not valid JSON"]
    assert [r.line for r in capture.records] == [3]
    assert capture.cut_off is not None and capture.cut_off.startswith("line 4:")
    with pytest.raises(CaptureError, match="line 1: no capture header"):
        read_capture(write(tmp_path / "h.jsonl", [deep]))


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('{"t": 0, "lift": "e2"}', "line 1: no capture header"),
        ('{"capture": 2, "board": "dgt", "start": 518}', "line 1: capture format version 2"),
        ('{"capture": 1, "board": "dgt"}', "line 1: the header has no 'start'"),
        ('{"capture": 1, "board": "dgt", "start": 960}', "line 1: start position 960 is outside 0..959"),
        ('{"capture": 1, "board": "dgt", "start": "nonsense"}', "line 1: start is not a valid FEN"),
        ('{"capture": 1, "board": "dgt", "start": "\u00b2"}', "line 1: start is not a valid FEN"),
        # FENs python-chess reads but no game can reach (an outside generator of FEN starts)
        ('{"capture": 1, "board": "dgt", "start": "8/8/8/8/8/8/8/8 w - - 0 1"}',
         r"line 1: start is not a position a game can reach \(no white king, no black king, empty\)"),
        ('{"capture": 1, "board": "dgt", "start": "4k3/8/8/8/8/8/8/K3K3 w - - 0 1"}',
         r"line 1: start is not a position a game can reach \(too many kings\)"),
        ('{"capture": 1, "board": "dgt", "start": "4k3/8/8/8/8/8/8/K3R3 w - - 0 1"}',
         r"line 1: start is not a position a game can reach \(opposite check\)"),
    ],
)
def test_bad_headers_get_one_line_errors(tmp_path: Path, header: str, message: str) -> None:
    with pytest.raises(CaptureError, match=message):
        read_capture(write(tmp_path / "c.jsonl", [header]))


def test_gzip_captures_read_and_a_truncated_gzip_keeps_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl.gz"
    records = [HEADER] + [{"t": i, "note": "x" * 50} for i in range(200)]
    text = "".join(json.dumps(obj) + "\n" for obj in records)
    data = gzip.compress(text.encode())
    path.write_bytes(data)
    assert len(read_capture(path).records) == 200
    path.write_bytes(data[: len(data) // 2])
    capture = read_capture(path)
    assert 0 < len(capture.records) < 200


def crashed_member(text: str) -> bytes:
    """What a gzip writer leaves when its process dies: a member flushed after each write, never finished."""
    buffer = io.BytesIO()
    member = gzip.GzipFile(fileobj=buffer, mode="wb")
    member.write(text.encode())
    member.flush()  # what CaptureWriter does after every record
    left = buffer.getvalue()
    member.close()
    return left


def test_a_gzip_journal_resumed_after_a_crash_mid_record_keeps_every_complete_line(tmp_path: Path) -> None:
    """The resumed session's member follows the unfinished one; the cut record is its own line, ignored."""
    path = tmp_path / "game.jsonl.gz"
    path.write_bytes(crashed_member(json.dumps(HEADER) + '\n{"t": 1, "lift": "e2"}\n{"t": 2, "pla'))
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2]
    assert capture.cut_off == "line 3: last line cut off (a crash mid-write?); ignored"
    with CaptureWriter(path, board="events", start=518) as writer:
        writer.event(PiecePlaced(square=chess.E4, t=3.0))
        writer.event(PieceLifted(square=chess.E7, t=4.0))
    capture = read_capture(path)
    assert [(r.line, r.t) for r in capture.records] == [(2, 1.0), (4, 3.0), (5, 4.0)]
    assert capture.problems == []
    assert capture.cut_off == "line 3: cut off (a crash mid-write?); ignored"


def test_a_gzip_journal_cut_between_records_resumes_without_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl.gz"
    path.write_bytes(crashed_member(json.dumps(HEADER) + '\n{"t": 1, "lift": "e2"}\n'))
    with CaptureWriter(path, board="events", start=518) as writer:
        writer.event(PiecePlaced(square=chess.E4, t=3.0))
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2, 3]
    assert capture.problems == [] and capture.cut_off is None


def test_junk_after_a_gzip_stream_is_skipped_with_a_warning_as_in_a_plain_file(tmp_path: Path) -> None:
    """Zeros a crash left at the end: every line is kept, the junk is named and skipped."""
    text = json.dumps(HEADER) + '\n{"t": 1, "lift": "e2"}\n'
    stream = gzip.compress(text.encode())
    path = tmp_path / "c.jsonl.gz"
    path.write_bytes(stream + bytes(512))
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2]
    end = len(stream) + 511
    assert capture.cut_off == f"bytes {len(stream)}..{end} are not gzip data (a crash?); skipped"
    plain = tmp_path / "c.jsonl"
    plain.write_bytes(text.encode() + bytes(512))
    assert read_capture(plain).cut_off == "line 3: last line cut off (a crash mid-write?); ignored"
    path.write_bytes(stream + bytes(512) + gzip.compress(b'{"t": 2, "place": "e4"}\n'))  # then resumed
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2, 3]
    assert capture.cut_off is not None and capture.cut_off.endswith("skipped")
    path.write_bytes(bytes(512))
    with pytest.raises(CaptureError, match="no readable gzip data"):
        read_capture(path)


def test_a_damaged_gzip_member_costs_only_what_lay_past_the_damage(tmp_path: Path) -> None:
    """A member cut mid-block, then another: the text before the cut and all of the next member are read."""
    records = [HEADER] + [{"t": i, "note": f"{i * 7919 % 1000}" * 9} for i in range(300)]
    first = gzip.compress("".join(json.dumps(obj) + "\n" for obj in records).encode())
    path = tmp_path / "c.jsonl.gz"
    path.write_bytes(first[: len(first) // 2] + gzip.compress(b'{"t": 500, "lift": "e2"}\n'))
    capture = read_capture(path)
    kept = len(capture.records) - 1
    assert 0 < kept < 300
    assert [r.t for r in capture.records] == [*range(kept), 500]
    assert capture.problems == []
    assert capture.cut_off == f"line {kept + 2}: cut off (a crash mid-write?); ignored"


@pytest.mark.parametrize("name", ["c.jsonl", "c.jsonl.gz"])
def test_the_writer_starts_on_a_line_of_its_own_after_a_last_line_without_newline(
    tmp_path: Path, name: str
) -> None:
    """A header typed without its newline (or compressed so), then a session appends to it."""
    path = tmp_path / name
    text = json.dumps(HEADER).encode()
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    with CaptureWriter(path, board="events", start=518) as writer:
        writer.event(PieceLifted(square=chess.E2, t=1.0))
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2]
    assert capture.problems == [] and capture.cut_off is None


def test_the_writer_does_not_join_its_first_record_to_a_line_a_crash_cut(tmp_path: Path) -> None:
    """Plain text has no member boundary: the cut line becomes a bad line, and the new records are kept."""
    path = write(tmp_path / "c.jsonl", [json.dumps(HEADER), '{"t": 1, "lift": "e2"}'])
    with path.open("a") as handle:
        handle.write('{"t": 2, "pla')
    with CaptureWriter(path, board="events", start=518) as writer:
        writer.event(PiecePlaced(square=chess.E4, t=3.0))
        writer.event(PieceLifted(square=chess.E7, t=4.0))
    capture = read_capture(path)
    assert [r.line for r in capture.records] == [2, 4, 5]
    assert capture.problems == ["line 3: not valid JSON"]


def test_start_accepts_xfen_and_shredder_fen(tmp_path: Path) -> None:
    for fen in ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"):
        header = json.dumps({**HEADER, "start": fen})
        capture = read_capture(write(tmp_path / "c.jsonl", [header]))
        assert capture.header.start.chess960_pos() == 0


def test_a_start_keeps_a_castling_right_with_no_rook_and_a_stale_en_passant_square_as_nothing(
        tmp_path: Path) -> None:
    """Neither changes a move, so the capture reads; the PGN's FEN leaves them out."""
    header = json.dumps({**HEADER, "start": "4k3/8/8/8/4P3/8/8/4K3 b KQ e6 0 30"})
    start = read_capture(write(tmp_path / "c.jsonl", [header])).header.start
    assert start.fen() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 30"
