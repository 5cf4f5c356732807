"""Turn successive full sensor snapshots into lift/place events.

Codecs of boards that push whole-board frames as pieces move (ChessLink
status frames, Chessnut position frames) go through this, so the recognizer
has one input model; boards that send their occupancy only when asked
(GoChess, Square Off) pass it on whole as a resync instead. A square whose
identified piece changed becomes a lift then a place, and lifts come before
places so that a capture reported in one frame reads as the victim leaving
first.
"""

from __future__ import annotations

import chess

from eboard960.events import BoardSnapshot, PieceLifted, PiecePlaced


class SnapshotDiffer:
    """Remembers the last snapshot and reports what changed in the next one."""

    def __init__(self) -> None:
        self._last: BoardSnapshot | None = None

    @property
    def last(self) -> BoardSnapshot | None:
        return self._last

    def reset(self) -> None:
        """Forget the last snapshot (after a reconnect the next one is a resync)."""
        self._last = None

    def diff(self, snapshot: BoardSnapshot) -> list[PieceLifted | PiecePlaced | BoardSnapshot]:
        """Events leading from the last snapshot to this one; the first is passed on whole."""
        last, self._last = self._last, snapshot
        if last is None:
            return [snapshot]
        lifted = last.occupied & ~snapshot.occupied
        placed = snapshot.occupied & ~last.occupied
        both = last.occupied & snapshot.occupied
        for square in chess.scan_forward(both):
            old, new = last.pieces.get(square), snapshot.pieces.get(square)
            if old is not None and new is not None and old != new:
                lifted |= chess.BB_SQUARES[square]
                placed |= chess.BB_SQUARES[square]
        t = snapshot.t
        events: list[PieceLifted | PiecePlaced | BoardSnapshot] = [
            PieceLifted(square=square, t=t) for square in chess.scan_forward(lifted)
        ]
        events += [
            PiecePlaced(square=square, piece=snapshot.pieces.get(square), t=t)
            for square in chess.scan_forward(placed)
        ]
        return events
