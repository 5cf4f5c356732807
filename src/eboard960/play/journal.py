"""The game's journal: every byte and event appended and flushed, the PGN kept beside it, resume.

The journal is a capture file (`eboard960.capture`) and stays one: `replay`
reads it like any other. Its header holds what resuming needs besides the
start (`time`, `engine`, `level`, `engine_side`, `demo`). Records are on one
time axis across sessions: a resumed session's times continue from the
journal's last record, so time never goes backwards and the crash's gap is
not charged to either clock.

What the session itself decides is recorded too: a clock press made in
software is a `button` record; the engine's move is the note `engine <uci>`;
after every committed move the note `clock <white ms> <black ms>` states both
clocks (for people reading the file; resume recomputes them); `resumed` marks
where a resume made a move standing on the board final. Resume feeds
the records back through a fresh session in order: square events and board
bytes (decoded by the board's codec) as they came, notes to `note`; the
recognizer and the clock, being deterministic, end where they were.

`FILE.pgn` is rewritten after every change of the game, to a temporary file
first and then `os.replace`d, so a crash leaves the old PGN or the new one.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eboard960.capture import Capture, CaptureWriter, read_capture
from eboard960.errors import CaptureError
from eboard960.events import SquareEvent
from eboard960.play.session import Effect, PlaySession
from eboard960.replay import decoded


class Journal:
    """A CaptureWriter on the journal's time axis (`offset` added to every time)."""

    def __init__(self, writer: CaptureWriter, offset: float = 0.0) -> None:
        self.writer = writer
        self.offset = offset
        self.path = writer.path

    @property
    def pgn_path(self) -> Path:
        return pgn_path(self.path)

    def rx(self, t: float, data: bytes) -> None:
        self.writer.rx(t + self.offset, data)

    def tx(self, t: float, data: bytes) -> None:
        self.writer.tx(t + self.offset, data)

    def event(self, event: Any) -> None:
        """An event stamped by the Board (its own time) goes on the journal's axis."""
        self.writer.event(dataclasses.replace(event, t=event.t + self.offset))

    def session_event(self, event: SquareEvent) -> None:
        """An event already on the journal's axis."""
        self.writer.event(event)

    def note(self, t: float, text: str) -> None:
        self.writer.note(t, text)

    def write_pgn(self, text: str) -> None:
        write_atomically(self.pgn_path, text)

    def close(self) -> None:
        self.writer.close()


def pgn_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".pgn")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that a crash leaves either the old file or the new one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def new_journal(path: Path, *, board: str, start: int | str, **headers: Any) -> Journal:
    if path.exists() and path.stat().st_size > 0:
        raise CaptureError(f"{path} already exists; use --resume {path} to continue it")
    if pgn_path(path).exists():  # another game's PGN, or a file of the user's: not ours to overwrite
        raise CaptureError(f"{pgn_path(path)} already exists; move it away or choose another journal name")
    try:
        return Journal(CaptureWriter(path, board=board, start=start, **headers))
    except OSError as error:
        raise CaptureError(f"cannot write the journal {path}: {error.strerror or error}") from None


def reserve_free_path(first: Path) -> Path:
    """`first`, or the first of `first` with -2, -3, ... before its suffix that is free (with its PGN).

    The name is taken by creating the file empty and exclusively, so two
    sessions started in the same second never share a default journal.
    """
    path, number = first, 1
    try:
        first.parent.mkdir(parents=True, exist_ok=True)
        while pgn_path(path).exists() or not _created(path):
            number += 1
            path = first.with_name(f"{first.stem}-{number}{first.suffix}")
    except OSError as error:
        raise CaptureError(f"cannot write a journal in {first.parent}: {error.strerror or error}") from None
    return path


def _created(path: Path) -> bool:
    """Create `path` empty unless it exists: one atomic step, whoever else is looking."""
    try:
        path.open("x").close()
    except FileExistsError:
        return False
    return True


@dataclass(slots=True)
class Restored:
    """A journal read back: its capture and the time its last record carries."""

    capture: Capture
    end: float

    @property
    def header(self) -> dict[str, Any]:
        return self.capture.header.extra


def read_journal(path: Path) -> Restored:
    capture = read_capture(path)
    end = max((record.t for record in capture.records), default=0.0)
    return Restored(capture=capture, end=end)


def replay_into(session: PlaySession, capture: Capture) -> list[Effect]:
    """Feed a journal's records to `session`; returns its effects (to be dropped: already done)."""
    effects: list[Effect] = []
    for record, event in decoded(capture, problems=[]):  # `replay` names the problems; resume goes on
        if event is not None:
            effects += session.feed(event)
        elif record.kind == "note" and record.text is not None:
            effects += session.note(record.t, record.text)
    return effects


def open_existing(path: Path, offset: float, *, board: str, start: int | str) -> Journal:
    """Append to the journal being resumed, after cutting off a last line that a crash left half-written."""
    try:
        _drop_partial_line(path)
        return Journal(CaptureWriter(path, board=board, start=start), offset)
    except OSError as error:
        raise CaptureError(f"cannot append to the journal {path}: {error.strerror or error}") from None


def _drop_partial_line(path: Path) -> None:
    """A record cut off mid-write was ignored when reading; appending after it would spoil the next."""
    if path.suffix == ".gz":
        return  # gzip members append cleanly; the reader already skips a cut-off tail
    with path.open("rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return
        handle.seek(max(0, size - 65536))
        tail = handle.read()
        if tail.endswith(b"\n"):
            return
        cut = tail.rfind(b"\n")
        if cut < 0:
            raise CaptureError(f"{path.name}: the last 64 KiB hold no complete record")
        handle.truncate(size - len(tail) + cut + 1)
