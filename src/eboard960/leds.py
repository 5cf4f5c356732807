"""What a board's LEDs should show, from what the recognizer reports: pure functions.

Boards with LEDs under the squares (Pegasus, ChessLink, Chessnut, GoChess,
Square Off) help the player when they light

* the last move: its from and to squares (for a castling, the king's and the
  rook's, so both pieces are seen to have moved);
* a castling half done: while the recognizer holds a move that must or may
  still become a castling, the rook still to move and its target;
* an illegal position: every square to empty and every square to fill to get
  back to the last good position;

and go dark when the position is good again (restored, taken back, a new
game). `leds_for(report)` maps one report to the `SetLeds` command that shows
it, or None when the LEDs should stay as they are; `leds_for_all` does a
batch (the recognizer returns lists). Castlings are read in python-chess's
Chess960 encoding (king to rook square).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import chess

from eboard960.castling import castling_squares
from eboard960.commands import SetLeds

DARK = SetLeds(squares=frozenset())


def move_squares(move: chess.Move, san: str) -> frozenset[chess.Square]:
    """The squares that show a move: from and to, or all four of a castling."""
    if san.startswith("O-O"):
        return frozenset(castling_squares(move))
    return frozenset({move.from_square, move.to_square})


def leds_for(report: Any) -> SetLeds | None:
    """The LEDs that show `report`, or None to leave them as they are.

    Reports are told apart by their `kind` (see `eboard960.recognizer.reports`),
    so this pure module does not import the recognizer.
    """
    match report.kind:
        case "move":
            return SetLeds(squares=move_squares(report.move, report.san))
        case "provisional":
            _king, _king_to, rook, rook_to = castling_squares(report.castling)
            return SetLeds(squares=frozenset({rook, rook_to}))
        case "illegal":
            return SetLeds(squares=report.to_empty | report.to_fill)
        case "restored" | "takeback" | "new_game":
            return DARK
    return None


def leds_for_all(reports: Iterable[Any]) -> list[SetLeds]:
    """The commands for a batch of reports, in order, with repeats of the same picture dropped."""
    commands: list[SetLeds] = []
    for report in reports:
        command = leds_for(report)
        if command is not None and (not commands or commands[-1] != command):
            commands.append(command)
    return commands
