"""The capture format (JSON Lines, version 1): a session's bytes and events, and its crash-safe journal.

The reader keeps every complete line of a file whose last line was cut off
(of a gzip file, whose members a crash left unfinished) and reports each bad
line by number instead of giving up; the writer appends and flushes every
record, so whatever was written before a crash is there.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import reprlib
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import chess

from eboard960.errors import CaptureError
from eboard960.events import (
    BUTTONS,
    BoardSnapshot,
    ButtonPressed,
    LinkChanged,
    PieceLifted,
    PiecePlaced,
    SquareEvent,
)
from eboard960.numbering import is_decimal

FORMAT_VERSION = 1
PGN_HEADER_KEYS = ("white", "black", "event", "site", "round")
RECORD_KEYS = ("rx", "tx", "lift", "place", "board", "button", "link", "note")
RECORD_KINDS = frozenset(RECORD_KEYS)
QUOTED = reprlib.Repr()  # a value read from a file, as a message quotes it: its ends, not megabytes
QUOTED.maxstring = QUOTED.maxother = 60
_shown = QUOTED.repr
LONGEST_FEN = 100  # 64 squares, 7 slashes and the other fields take at most about 90 characters


@dataclass(frozen=True, slots=True, kw_only=True)
class CaptureHeader:
    """Line 1: which protocol the bytes are in, and the starting position."""

    board: str
    start: chess.Board
    created: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def codec_settings(self) -> dict[str, Any]:
        """The header's `codec` object: settings for the board's codec (a DGT clock's `white_side`)."""
        return self.extra.get("codec", {})

    def pgn_headers(self) -> dict[str, str]:
        """The header keys that become PGN tags, with PGN's capitalised names."""
        return {key.capitalize(): str(self.extra[key]) for key in PGN_HEADER_KEYS if key in self.extra}


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One record: raw bytes (`rx`/`tx`), a square event, or a note, with its line number."""

    line: int
    t: float
    kind: str
    data: bytes | None = None
    event: SquareEvent | None = None
    text: str | None = None


@dataclass(slots=True)
class Capture:
    """A whole capture read into memory, with every problem found on the way.

    `cut_off` warns of what a crash left and the reader ignored: a cut last line,
    and in a gzip file a line a damaged member cut short or bytes that are not gzip.
    """

    header: CaptureHeader
    records: list[Record]
    problems: list[str]
    cut_off: str | None = None


def parse_start(value: Any) -> chess.Board:
    """A capture's `start`: a Scharnagl number 0..959 or a FEN (X-FEN or Shredder-FEN)."""
    if isinstance(value, bool):
        raise CaptureError(f"start must be a position number or a FEN, not {_shown(value)}")
    if isinstance(value, int):
        if not 0 <= value <= 959:
            raise CaptureError(f"start position {value} is outside 0..959")
        return chess.Board.from_chess960_pos(value)
    if isinstance(value, str):
        if is_decimal(value.strip()):
            return parse_start(int(value))
        if len(value) > LONGEST_FEN:  # python-chess would quote it whole
            raise CaptureError(f"start is too long for a FEN: {_shown(value)}")
        try:
            board = chess.Board(value, chess960=True)
        except ValueError as error:
            raise CaptureError(f"start is not a valid FEN: {error}") from None
        # castling rights with no rook to castle with, or a stale en passant square, change no move
        impossible = board.status() & ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE)
        if impossible:
            problems = ", ".join(str(flag.name).lower().replace("_", " ")
                                 for flag in chess.Status if flag & impossible)
            raise CaptureError(f"start is not a position a game can reach ({problems}): {_shown(value)}")
        return board
    raise CaptureError(f"start must be a position number or a FEN, not {_shown(value)}")


SQUARES = {name: square for square, name in enumerate(chess.SQUARE_NAMES)}


def _square(value: Any, line: int) -> chess.Square:
    square = SQUARES.get(value) if isinstance(value, str) else None
    if square is None:
        raise CaptureError(f"line {line}: unknown square {_shown(value)}")
    return square


def _hex(value: Any, line: int) -> bytes:
    try:
        return bytes.fromhex(value)
    except (TypeError, ValueError):
        raise CaptureError(f"line {line}: {_shown(value)} is not a hex string") from None


def parse_record(obj: Any, line: int) -> Record:
    """One record line, already decoded from JSON; raises CaptureError naming the line."""
    if not isinstance(obj, dict):
        raise CaptureError(f"line {line}: a record must be a JSON object")
    t = obj.get("t")
    if t.__class__ not in (float, int):  # bool is an int, not a time
        raise CaptureError(f"line {line}: record has no numeric time 't'")
    try:
        t = float(t)
    except OverflowError:  # JSON's integers have no bound; a float's do (and such a number is not echoed)
        raise CaptureError(f"line {line}: time 't' is too large to be a number of seconds") from None
    if not math.isfinite(t):  # JSON's NaN, 1e400: malformed, so later lines are judged by the last good time
        raise CaptureError(f"line {line}: time 't' must be a finite number, not {t}")
    keys = [key for key in obj if key in RECORD_KINDS]
    if len(keys) != 1:
        raise CaptureError(f"line {line}: record needs exactly one of {', '.join(RECORD_KEYS)}")
    kind = keys[0]
    value = obj[kind]
    if kind in ("rx", "tx"):
        return Record(line=line, t=t, kind=kind, data=_hex(value, line))
    if kind == "lift":
        return Record(line=line, t=t, kind=kind, event=PieceLifted(square=_square(value, line), t=t))
    if kind == "place":
        piece = obj.get("piece")
        try:
            parsed = chess.Piece.from_symbol(piece) if piece is not None else None
        except (ValueError, TypeError, AttributeError):
            raise CaptureError(f"line {line}: {_shown(piece)} is not a FEN piece letter") from None
        event = PiecePlaced(square=_square(value, line), piece=parsed, t=t)
        return Record(line=line, t=t, kind=kind, event=event)
    if kind == "board":
        if not isinstance(value, str):
            raise CaptureError(f"line {line}: a board snapshot is a string of 64 characters")
        try:
            snapshot = BoardSnapshot.from_text(value, t)
        except CaptureError as error:
            raise CaptureError(f"line {line}: {error}") from None
        return Record(line=line, t=t, kind=kind, event=snapshot)
    if kind == "button":
        if not isinstance(value, str) or value not in BUTTONS:  # a list or an object cannot be looked up
            raise CaptureError(f"line {line}: unknown button {_shown(value)}")
        return Record(line=line, t=t, kind=kind, event=ButtonPressed(button=value, t=t))
    if kind == "link":
        if value not in ("up", "down"):
            raise CaptureError(f"line {line}: link must be 'up' or 'down', not {_shown(value)}")
        return Record(line=line, t=t, kind=kind, event=LinkChanged(up=value == "up", t=t))
    return Record(line=line, t=t, kind=kind, text=str(value))


def parse_header(obj: Any) -> CaptureHeader:
    if not isinstance(obj, dict) or "capture" not in obj:
        raise CaptureError("line 1: no capture header (expected {\"capture\": 1, ...})")
    if obj["capture"] != FORMAT_VERSION:
        raise CaptureError(f"line 1: capture format version {_shown(obj['capture'])} is not supported")
    for key in ("board", "start"):
        if key not in obj:
            raise CaptureError(f"line 1: the header has no {key!r}")
    if not isinstance(obj["board"], str):
        raise CaptureError("line 1: 'board' must name a protocol or be 'events'")
    if not isinstance(obj.get("codec", {}), dict):
        raise CaptureError("line 1: 'codec' must be an object of codec settings")
    try:
        start = parse_start(obj["start"])
    except CaptureError as error:
        raise CaptureError(f"line 1: {error}") from None
    extra = {k: v for k, v in obj.items() if k not in ("capture", "board", "start", "created")}
    return CaptureHeader(board=obj["board"], start=start, created=obj.get("created"), extra=extra)


def _json(text: str) -> Any:
    """`json.loads`, with nesting too deep for the parser counted as invalid JSON like any other."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


GZIP_MAGIC = b"\x1f\x8b\x08"  # how every gzip member starts (deflate is gzip's only method)
INFLATE_CHUNK = 1 << 14


def _text(path: Path) -> tuple[list[str], list[int], list[str]]:
    """The file's lines, the numbers of lines a damaged gzip member cut short, warnings on skipped bytes."""
    if path.suffix != ".gz":
        # utf-8-sig: a byte order mark, as editors on Windows write, is no part of the header;
        # bad bytes make bad lines
        with path.open(encoding="utf-8-sig", errors="replace", newline="\n") as handle:
            return list(handle), [], []
    text, cut, skipped = _gzip_text(path.read_bytes())
    if not text and skipped:
        raise CaptureError(f"{path.name}: no readable gzip data")
    return io.StringIO(text.decode("utf-8-sig", errors="replace"), newline="\n").readlines(), cut, skipped


def _gzip_text(data: bytes, *, followed: bool = False) -> tuple[bytes, list[int], list[str]]:
    """Gzip data read member by member: its text, the lines a damaged member cut, the bytes skipped.

    Every session appends a member, and a crash leaves its member unfinished (or
    junk, such as zeros, after it), so each member is read on its own and damage
    costs only what lay past it. A damaged member's unfinished last line ends where
    the member does (its number is returned: it was cut off), so the first record
    of the member after it starts a line of its own. `followed`: read the data as
    it will read once a writer has appended a member.
    """
    text = bytearray()
    cut: list[int] = []
    skipped: list[str] = []
    position = 0
    while position < len(data):
        out, stop, finished = _inflate(data, position, len(data))
        if finished:
            text += out
            position = stop
            continue
        following = data.find(GZIP_MAGIC, position + 1)
        following = len(data) if following < 0 else following
        if stop > following:  # the damage showed only inside the next member: this one ends where it begins
            out, stop, _ = _inflate(data, position, following)
        text += out
        first = stop if out else position
        if first < following:
            skipped.append(f"bytes {first}..{following - 1} are not gzip data (a crash?); skipped")
        if (following < len(data) or followed) and text and not text.endswith(b"\n"):
            text += b"\n"
            cut.append(text.count(b"\n"))
        position = following
    return bytes(text), cut, skipped


def _inflate(data: bytes, start: int, end: int) -> tuple[bytes, int, bool]:
    """Inflate the gzip member at `start`, reading no further than `end`.

    Returns its text up to the first bad byte, where its input stopped (the
    member's end, the bad byte, or `end`), and whether the member finished.
    """
    inflater = zlib.decompressobj(wbits=31)
    text = bytearray()
    position, step = start, INFLATE_CHUNK
    while position < end and not inflater.eof:
        chunk = data[position : min(position + step, end)]
        before = inflater.copy() if step > 1 else inflater
        try:
            text += inflater.decompress(chunk)
        except zlib.error:
            if step == 1:
                return bytes(text), position, False
            inflater, step = before, 1  # a call that fails gives no text: again, a byte at a time
            continue
        position += len(chunk)
    if inflater.eof:
        return bytes(text), position - len(inflater.unused_data), True
    return bytes(text), position, False


def read_capture(path: str | os.PathLike[str]) -> Capture:
    """Read a capture; bad records are listed in `problems`, what a crash cut off in `cut_off`."""
    path = Path(path)
    try:
        lines, cut, warnings = _text(path)
    except OSError as error:
        raise CaptureError(f"cannot read {path}: {error.strerror or error}") from None
    if not lines:
        raise CaptureError(f"{path.name} is empty: no capture header")
    if not lines[-1].endswith("\n"):
        cut.append(len(lines))
    ignored: set[int] = set()
    for number in cut:
        try:
            _json(lines[number - 1])  # a whole record that lost only its newline is kept
        except ValueError:
            ignored.add(number)
            which = "last line cut off" if number == len(lines) else "cut off"
            warnings.append(f"line {number}: {which} (a crash mid-write?); ignored")
    try:
        header = parse_header(None if 1 in ignored else _json(lines[0]))
    except ValueError:
        raise CaptureError("line 1: no capture header (not JSON)") from None
    records: list[Record] = []
    problems: list[str] = []
    last_t = float("-inf")
    for number, text in enumerate(lines[1:], start=2):
        if number in ignored or not text.strip():
            continue
        try:
            record = parse_record(json.loads(text), number)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply for the parser
            problems.append(f"line {number}: not valid JSON")
            continue
        except CaptureError as error:
            problems.append(str(error))
            continue
        if record.t < last_t:
            problems.append(f"line {number}: time goes backwards ({record.t} after {last_t})")
        last_t = max(last_t, record.t)
        records.append(record)
    return Capture(header=header, records=records, problems=problems, cut_off="; ".join(warnings) or None)


class CaptureWriter:
    """Appends records to a capture and flushes each one: the game's crash-safe journal.

    Opening an existing file appends to it (a resumed session), on a line of its
    own after a cut one; a new file gets the header first. `fsync=True` also
    survives a power cut, at a cost per record.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        board: str,
        start: int | str,
        created: str | None = None,
        fsync: bool = False,
        **headers: Any,
    ) -> None:
        self.path = Path(path)
        self._fsync = fsync
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        opener = gzip.open if self.path.suffix == ".gz" else open
        ends_mid_line = not fresh and _ends_mid_line(self.path)
        self._file: IO[str] = opener(self.path, "at", encoding="utf-8", newline="\n")
        if ends_mid_line:  # a record a crash cut, or a last newline missing: the next must not join it
            self._file.write("\n")
            self._file.flush()
        if fresh:
            created = created or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            header = {"capture": FORMAT_VERSION, "board": board, "start": start, "created": created}
            self._write({**header, **headers})

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def rx(self, t: float, data: bytes) -> None:
        self._write({"t": round(t, 3), "rx": data.hex()})

    def tx(self, t: float, data: bytes) -> None:
        self._write({"t": round(t, 3), "tx": data.hex()})

    def note(self, t: float, text: str) -> None:
        self._write({"t": round(t, 3), "note": text})

    def event(self, event: SquareEvent) -> None:
        """Record a decoded square event (for `board: events` captures and journals)."""
        self._write({"t": round(event.t, 3), **event_record(event)})

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> CaptureWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ends_mid_line(path: Path) -> bool:
    """Whether text appended to `path` would run on from its last line, as the reader reads it."""
    if path.suffix == ".gz":
        text = _gzip_text(path.read_bytes(), followed=True)[0]
        return bool(text) and not text.endswith(b"\n")
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


def event_record(event: SquareEvent) -> dict[str, Any]:
    """The capture-format keys of a square event (without `t`)."""
    match event:
        case PieceLifted(square=square):
            return {"lift": chess.square_name(square)}
        case PiecePlaced(square=square, piece=piece):
            record: dict[str, Any] = {"place": chess.square_name(square)}
            if piece is not None:
                record["piece"] = piece.symbol()
            return record
        case BoardSnapshot():
            return {"board": event.text()}
        case ButtonPressed(button=button):
            return {"button": button}
        case LinkChanged(up=up):
            return {"link": "up" if up else "down"}
    raise CaptureError(f"cannot record {event!r}")
