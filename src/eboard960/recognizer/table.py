"""The recognizer's modes and every way between them, as one table for `transitions`.

Each sensor event is classified first (`Recognizer._classify`); the class
names the trigger. Events that change nothing (a piece in the air, a touch)
fire no trigger, so a typical move costs two transitions: `show_move` when
the board shows it, `commit` when the other side's move begins.

`transitions` reads and checks the table once, at import; `ROUTES` is what it
read, flattened to one lookup per (mode, trigger). The recognizer fires from
that lookup because a trigger through the library's event machinery costs
about 12 µs, most of the time a whole move may take (see tools/bench_replay.py);
a test checks that firing through the library gives the same reports.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from transitions import Machine


class Mode(Enum):
    PLAYING = "playing"          # the board shows the game's position, or a move is under way
    MOVED = "moved"              # the board shows a legal move, still open to correction
    PROVISIONAL = "provisional"  # an ordinary move that may still become a castling
    CASTLING = "castling"        # half a castling that can only be a castling
    ILLEGAL = "illegal"          # the board settled where no legal continuation explains it
    GAME_OVER = "game_over"      # an automatic ending; nothing is recorded until a new game


PLAYING, MOVED, PROVISIONAL, CASTLING, ILLEGAL, GAME_OVER = Mode
OPEN = [MOVED, PROVISIONAL, CASTLING]  # a move on the board, not yet final

# trigger, source, dest, conditions, after
TRANSITIONS: list[dict[str, object]] = [
    # ordinary moves, captures, en passant, promotions: the board shows a legal move
    dict(trigger="show_move", source=[PLAYING, *OPEN], dest=MOVED, after="take_open"),
    dict(trigger="show_move", source=ILLEGAL, dest=MOVED, after=["report_restored", "take_open"]),
    # castling: a first half that is also an ordinary move, or half a castling that can be nothing else
    dict(trigger="show_provisional", source=[PLAYING, *OPEN], dest=PROVISIONAL,
         after=["take_open", "report_provisional"]),
    dict(trigger="show_provisional", source=ILLEGAL, dest=PROVISIONAL,
         after=["report_restored", "take_open", "report_provisional"]),
    dict(trigger="show_castling_half", source=[PLAYING, *OPEN], dest=CASTLING,
         after=["take_open", "report_provisional"]),
    dict(trigger="show_castling_half", source=ILLEGAL, dest=CASTLING,
         after=["report_restored", "take_open", "report_provisional"]),
    # the other side begins, a clock button, or the input ends: the open move is final
    dict(trigger="commit", source=OPEN, dest=PLAYING, after="commit_open"),
    dict(trigger="commit", source=ILLEGAL, dest=ILLEGAL, conditions="has_open", after="commit_open"),
    # a move put back where it came from before it was final
    dict(trigger="retract", source=OPEN, dest=PLAYING, after="drop_open"),
    dict(trigger="retract", source=ILLEGAL, dest=PLAYING, after=["report_restored", "drop_open"]),
    # takeback
    dict(trigger="take_back", source=[PLAYING, ILLEGAL], dest=PLAYING, after="take_back_last"),
    # a promotion button after the mover's clock, before the other side began, changes the piece,
    # even where the default queen ended the game
    dict(trigger="rechoose", source=[PLAYING, GAME_OVER], dest=PLAYING, after="rechoose_last"),
    # recovery
    dict(trigger="misplace", source=[PLAYING, *OPEN, ILLEGAL], dest=ILLEGAL, after="report_illegal"),
    dict(trigger="restore", source=ILLEGAL, dest=PLAYING, unless="has_open", after="report_restored"),
    dict(trigger="restore", source=ILLEGAL, dest=MOVED, conditions="open_is_moved", after="report_restored"),
    dict(trigger="restore", source=ILLEGAL, dest=PROVISIONAL, conditions="open_is_provisional",
         after="report_restored"),
    dict(trigger="restore", source=ILLEGAL, dest=CASTLING, conditions="open_is_castling_half",
         after="report_restored"),
    # new game and game over
    dict(trigger="set_up", source=list(Mode), dest=PLAYING, after="start_new_game"),
    dict(trigger="end", source=[PLAYING, ILLEGAL], dest=GAME_OVER, after="report_game_over"),
    # the game ended off the board (a flag fell, a resignation): an open move is not part of it
    dict(trigger="abandon", source=[PLAYING, *OPEN, ILLEGAL], dest=GAME_OVER, after="drop_open"),
]

TRIGGERS = sorted({str(line["trigger"]) for line in TRANSITIONS})

# (mode, trigger) pairs the classifier never fires; reaching one is a bug, not a user error.
REFUSED: set[tuple[Mode, str]] = {
    (PLAYING, "commit"), (PLAYING, "retract"), (PLAYING, "restore"),
    *((mode, trigger) for mode in OPEN for trigger in ("take_back", "restore", "end", "rechoose")),
    (ILLEGAL, "rechoose"),
    *((GAME_OVER, trigger) for trigger in TRIGGERS if trigger not in ("set_up", "rechoose")),
}


class Route(NamedTuple):
    """One line of the table as `transitions` parsed it: where to go if the conditions hold, and what then."""

    dest: Mode
    conditions: tuple[tuple[str, bool], ...]  # (method, the result it must give)
    after: tuple[str, ...]


def _routes() -> dict[tuple[Mode, str], tuple[Route, ...]]:
    machine = Machine(model=None, states=Mode, initial=PLAYING, transitions=TRANSITIONS,
                      auto_transitions=False)
    routes: dict[tuple[Mode, str], tuple[Route, ...]] = {}
    for trigger, event in machine.events.items():
        for source, lines in event.transitions.items():
            if any(line.prepare or line.before for line in lines):
                raise ValueError(f"{trigger}: the routes carry only conditions and 'after' callbacks")
            # the table names every dest, condition and callback; transitions types them as maybe callables
            routes[Mode[source], trigger] = tuple(
                Route(Mode[line.dest], tuple((c.func, c.target) for c in line.conditions), tuple(line.after))  # type: ignore[misc, arg-type]
                for line in lines
            )
    return routes


ROUTES = _routes()
