"""The terminal view of a game: board in piece symbols, both clocks, last move, status in words.

`render` is pure (a `View` in, lines out). `ScreenDisplay` redraws a
terminal in place; `PlainDisplay` is for pipes, logs and tests: it prints
each thing said and each change of status as a line of its own, never an
escape code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

import chess

from eboard960.clock.tui import clock_text
from eboard960.play.session import View
from eboard960.position import StartPosition

FILES = "  a b c d e f g h"


def board_lines(board: chess.BaseBoard, to_empty: frozenset[chess.Square] = frozenset()) -> list[str]:
    """Eight ranks, White at the bottom, pieces as Unicode symbols, empty squares as dots.

    Squares that hold a piece they should not are crossed (×); the pieces
    shown are where they belong, so a square to fill shows what goes there.
    """
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            cells.append("×" if square in to_empty else piece.unicode_symbol() if piece else "·")
        lines.append(f"{rank + 1} " + " ".join(cells))
    return [*lines, FILES]


def clock_line(view: View, side: chess.Color) -> str:
    name = view.names[0] if side == chess.WHITE else view.names[1]
    ms = view.white_ms if side == chess.WHITE else view.black_ms
    shown = clock_text(ms) if ms is not None else "--:--"
    marker = "◀" if view.to_move == side else " "
    return f"{marker} {chess.COLOR_NAMES[side]:<5} {shown:>8}  {name}"


def render(view: View, *, said: Sequence[str] = ()) -> list[str]:
    """The whole screen as lines (no escape codes); `said` are the latest messages."""
    title = "eboard960 play"
    if view.start_number is not None:
        rank = StartPosition.from_number(view.start_number).rank
        title += f"  position {view.start_number} ({rank})"
    if view.control:
        title += f"  {view.control}"
    panel = [
        clock_line(view, chess.BLACK),
        "",
        f"last move: {view.last_move or '-'}",
        f"moves: {len(view.moves)}",
        "",
        clock_line(view, chess.WHITE),
    ]
    rows = board_lines(view.board, view.to_empty)
    lines = [title, ""]
    for index, row in enumerate(rows):
        side = panel[index - 1] if 1 <= index <= len(panel) else ""
        lines.append(f"{row}    {side}".rstrip())
    lines += ["", f"» {view.status}", ""]
    lines += [_move_text(view.moves)[-160:]] if view.moves else []
    lines += said[-5:]
    return lines


def _move_text(moves: tuple[str, ...]) -> str:
    parts = []
    for index, san in enumerate(moves):
        parts.append(f"{index // 2 + 1}. {san}" if index % 2 == 0 else san)
    return " ".join(parts)


class PlainDisplay:
    """Line by line: what is said, and the status whenever it changes."""

    redraws = False

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._status: str | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self, view: View) -> None:
        if view.status != self._status:
            self._status = view.status
            print(f"status: {view.status}", file=self.out, flush=True)

    def typing(self, text: str) -> None:
        """A pipe echoes nothing."""

    def close(self) -> None:
        """Nothing to restore on a pipe."""


class ScreenDisplay:
    """Redraws the terminal in place; keeps the last few messages under the board."""

    redraws = True

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._said: list[str] = []
        self._last: list[str] | None = None
        self._view: View | None = None
        self._typed = ""

    def say(self, text: str) -> None:
        self._said = [*self._said[-4:], text]
        self._last = None

    def show(self, view: View) -> None:
        self._view = view
        lines = [*render(view, said=self._said), f"> {self._typed}"]
        if lines == self._last:
            return
        self._last = lines
        self.out.write("\x1b[H\x1b[2J" + "\n".join(lines))
        self.out.flush()

    def typing(self, text: str) -> None:
        """The line being typed, shown after the prompt."""
        self._typed = text
        if self._view is not None:
            self.show(self._view)

    def close(self) -> None:
        """Draw the last screen once more with the latest messages, and leave the cursor below it."""
        if self._view is not None:
            self._typed = ""
            self._last = None
            self.show(self._view)
        self.out.write("\n")
        self.out.flush()
