"""Telling the room which position was drawn: words for speech, screens for DGT clocks.

The pure parts (number words, the spoken sentence, the DGT clock's screens and
commands) are separate from the one impure helper, `Speaker`, which runs
espeak-ng when it is installed and stays silent with a one-line note when not.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import chess

from eboard960.clock.core import ClockReading
from eboard960.errors import ClockError
from eboard960.position import StartPosition
from eboard960.protocols.dgt_clock import (
    SEGMENTS,
    ClockCommand,
    ClockEnd,
    ClockSegments,
    ClockSetAndRun,
    ClockText,
)

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """English words for 0..999, e.g. 466 -> "four hundred sixty-six"."""
    if not 0 <= n <= 999:
        raise ClockError(f"can only spell 0..999, not {n}")
    hundreds, rest = divmod(n, 100)
    words = [f"{_ONES[hundreds]} hundred"] if hundreds else []
    if rest or not hundreds:
        tens, ones = divmod(rest, 10)
        words.append(_ONES[rest] if rest < 20 else _TENS[tens] + (f"-{_ONES[ones]}" if ones
                                                                 else ""))
    return " ".join(words)


def spoken(position: StartPosition, number: int) -> str:
    """ "Position four hundred sixty-six: bishop, rook, knight, ..." (a1 to h1)."""
    pieces = ", ".join(chess.piece_name(chess.Piece.from_symbol(letter).piece_type)
                       for letter in position.rank)
    return f"Position {number_words(number)}: {pieces}"


def symbols(position: StartPosition) -> str:
    """The back rank in white piece symbols, a1 to h1."""
    return "".join(chess.Piece.from_symbol(letter).unicode_symbol() for letter in position.rank)


class Speaker:
    """Says sentences through espeak-ng; without it, says nothing and notes that once."""

    def __init__(self, *, program: str = "espeak-ng", voice: str | None = None) -> None:
        self.path = shutil.which(program)
        self.voice = voice
        self.note = None if self.path else f"{program} is not installed: announcing silently"
        self._speaking: subprocess.Popen[bytes] | None = None

    def say(self, text: str) -> None:
        """Start speaking `text`, cutting off whatever is still being said."""
        if self.path is None:
            return
        self.stop()
        self._speaking = subprocess.Popen(
            self._argv(text), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def record(self, text: str, wav: Path) -> bool:
        """Write `text` as speech to a WAV file; False when espeak-ng is missing."""
        if self.path is None:
            return False
        subprocess.run([*self._argv(text), "-w", str(wav)], check=True, capture_output=True)
        return True

    def stop(self) -> None:
        if self._speaking is not None and self._speaking.poll() is None:
            self._speaking.terminate()
            self._speaking.wait()
        self._speaking = None

    def _argv(self, text: str) -> list[str]:
        voice = ["-v", self.voice] if self.voice else []
        return [self.path or "espeak-ng", *voice, text]


# ----- DGT clocks ------------------------------------------------------------------------

KING_SEGMENTS = 0x75  # the usual seven-segment "K": an H with its top bar lit
DGT_BUTTONS = {"back": "draw", "minus": "minus", "plus": "plus", "pause": "pause",
               "confirm": "confirm", "white": "white", "black": "black"}
"""The DGT 3000 has no draw button: its leftmost (back) button draws and redraws."""


def dgt_screens(position: StartPosition, number: int, kind: str) -> list[str]:
    """Texts that fit the clock: the number, then the back rank (in two halves on an XL)."""
    if kind == "3000":
        return [f"pos {number}", position.rank]
    if kind == "xl":
        rank = position.rank.lower()
        return [f"pos{number:>3}", f"{rank[:4]}  ", f"  {rank[4:]}"]
    raise ClockError(f"a DGT clock is a '3000' or an 'xl', not {kind!r}")


def dgt_screen_commands(position: StartPosition, number: int, kind: str,
                        beep: bool = True) -> list[ClockCommand]:
    """One display command per screen; the first one beeps."""
    commands: list[ClockCommand] = []
    for index, text in enumerate(dgt_screens(position, number, kind)):
        first = beep and index == 0
        if kind == "3000":
            commands.append(ClockText(text=text, beep=8 if first else 0))
        else:
            bits = tuple(KING_SEGMENTS if c == "k" else SEGMENTS[c] for c in text)
            commands.append(ClockSegments(segments=bits, beep=first))  # type: ignore[arg-type]
    return commands


def dgt_times_command(reading: ClockReading, *, white_side: str = "left") -> Sequence[
        ClockCommand]:
    """Set the DGT clock to our times (whole seconds, rounded up) and let the mover's side run.

    The clock counts down on its own between presses; every press resets it to
    our exact time, so its display never drifts by more than one move.
    """
    def seconds(ms: int) -> int:
        return min(-(-ms // 1000), 9 * 3600 + 59 * 60 + 59)

    white, black = seconds(reading.white_ms), seconds(reading.black_ms)
    white_runs = reading.running and reading.to_move == chess.WHITE
    black_runs = reading.running and reading.to_move == chess.BLACK
    if white_side == "left":
        left, right, left_runs, right_runs = white, black, white_runs, black_runs
    else:
        left, right, left_runs, right_runs = black, white, black_runs, white_runs
    return [
        ClockSetAndRun(left=left, right=right, left_running=left_runs, right_running=right_runs,
                       paused=not reading.running),
        ClockEnd(),
    ]
