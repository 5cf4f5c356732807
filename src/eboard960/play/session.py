"""The game being played: recognizer, clock and engine turn-taking, with no I/O.

Every input carries its time (seconds on the journal's time axis). Inputs
that came from the board (square events, the board's own clock buttons,
link changes) are already in the journal as the board's bytes, so the
session does not record them again; inputs that only the session knows of
(a clock press made in software, the engine's move) come back as
`JournalEvent` / `JournalNote` effects for the runner to append. Feeding the
same journal back in (`replaying=True` in the runner) therefore rebuilds
the same game and the same clock, exactly.

The clock starts when the board first shows the start position. A committed
move presses the mover's clock at the moment of commitment, whether the
commit came from a clock button or from the other side beginning to move.
With `settle` set, a complete legal move that has stood untouched that many
seconds is committed by pressing the mover's clock for them (auto-press):
boards without a clock, and the engine's moves, need that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from eboard960.castling import castling_squares
from eboard960.clock.core import Clock, ms_from_seconds
from eboard960.clock.timecontrol import Bonus, TimeControl, controls_text
from eboard960.commands import SetLeds
from eboard960.events import ButtonPressed, LinkChanged, SquareEvent
from eboard960.leds import DARK, leds_for, move_squares
from eboard960.recognizer import Mode, MoveProvisional, MoveRecognized, Recognizer, Report

if TYPE_CHECKING:
    import chess.pgn  # only for annotations: importing it at run time loads asyncio

ENGINE_NOTE = "engine "
CLOCK_NOTE = "clock "
RESUME_NOTE = "resumed"
RESIGN_NOTE = "resign "
DRAW_NOTE = "draw agreed"


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalEvent:
    """Append this event to the journal (a press the board did not report itself)."""

    event: ButtonPressed


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalNote:
    """Append this note to the journal."""

    t: float
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameChanged:
    """The game record changed: rewrite the PGN."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineTurn:
    """It is the engine's turn in `board` (ask it for a move, then call `engine_moved`)."""

    board: chess.Board


@dataclass(frozen=True, slots=True, kw_only=True)
class Said:
    """A line worth telling the user (a move, a takeback, a warning), for logs and plain output."""

    t: float
    text: str


Effect = JournalEvent | JournalNote | GameChanged | EngineTurn | Said | SetLeds


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """Everything the screen shows at one instant.

    `board` is the position the board should show (the game and a move standing
    on it); in an illegal position `to_empty` and `to_fill` say where it differs.
    """

    board: chess.BaseBoard
    start_number: int | None
    moves: tuple[str, ...]
    last_move: str | None
    white_ms: int | None
    black_ms: int | None
    to_move: chess.Color
    status: str
    control: str | None = None
    names: tuple[str, str] = ("White", "Black")
    to_empty: frozenset[chess.Square] = frozenset()
    to_fill: frozenset[chess.Square] = frozenset()


@dataclass(slots=True)
class _Engine:
    side: chess.Color
    move: chess.Move | None = None
    asked: bool = False


@dataclass(slots=True)
class _State:
    link_up: bool | None = None  # None: not connected yet
    set_up: bool = False
    last_input: float = 0.0
    clk: list[int] = field(default_factory=list)
    last_report: Report | None = None
    result: str | None = None
    ending: tuple[str, str] | None = None  # (PGN result, Termination) when the game ended off the board
    refusal: str | None = None


class PlaySession:
    """One game: feed it the board's events and local presses; it says what to do and show."""

    def __init__(
        self,
        start: chess.Board | int,
        *,
        controls: tuple[TimeControl, TimeControl] | None = None,
        engine_side: chess.Color | None = None,
        settle: float | None = None,
        names: tuple[str, str] = ("White", "Black"),
        headers: dict[str, str] | None = None,
    ) -> None:
        self.recognizer = Recognizer(start)
        self.headers = dict(headers or {})
        self.start_number = start if isinstance(start, int) else _chess960_number(start)
        self.controls = controls
        self.clock = Clock(*controls) if controls else None
        self.engine = _Engine(side=engine_side) if engine_side is not None else None
        self.settle = settle
        self.names = names
        self._state = _State()
        self._archived: list[_State] = []  # the finished games' clocks and endings
        self._last_command_ms = 0
        self._sans: tuple[chess.Board | None, list[chess.Move], tuple[str, ...]] = (None, [], ())

    # ---------------------------------------------------------------- inputs

    @property
    def set_up(self) -> bool:
        """The board has shown the start position (the game can begin)."""
        return self._state.set_up

    @property
    def engine_move(self) -> chess.Move | None:
        """The engine's move the player is to make on the board, if any."""
        return self.engine.move if self.engine is not None else None

    @property
    def board(self) -> chess.Board:
        """The committed game."""
        return self.recognizer.board

    def feed(self, event: SquareEvent) -> list[Effect]:
        """An event from the board (already journaled as the board's bytes)."""
        if isinstance(event, LinkChanged):
            self._state.link_up = event.up
            said = "board connected" if event.up else "board disconnected — reconnecting"
            return [Said(t=event.t, text=said), *self._reports(self.recognizer.feed(event))]
        if self._state.link_up is None:
            self._state.link_up = True  # a board that speaks is connected
        if isinstance(event, ButtonPressed) and event.button in ("white", "black"):
            return self._press(event, local=False)
        effects = self._flag_fell(event.t)
        self._state.last_input = event.t
        self._state.refusal = None
        effects += self._reports(self.recognizer.feed(event))
        return effects + self._check_set_up(event.t)

    def press(self, side: chess.Color, t: float) -> list[Effect]:
        """A clock press the session makes itself (keyboard, demo script, auto-press)."""
        return self._press(ButtonPressed(button=chess.COLOR_NAMES[side], t=t), local=True)

    def engine_moved(self, move: chess.Move, t: float, *, journal: bool = True) -> list[Effect]:
        """The engine chose `move` for the current position; the player is to make it."""
        if self.engine is None or self.board.turn != self.engine.side:
            return []
        if move not in self.board.legal_moves:
            return [Said(t=t, text=f"the engine's move {move.uci()} is not legal here; ignored")]
        self.engine.move = move
        san = self.board.san(move)
        effects: list[Effect] = [Said(t=t, text=f"engine plays {san}: make it on the board"),
                                 SetLeds(squares=move_squares(move, san))]
        if journal:
            effects.insert(0, JournalNote(t=t, text=ENGINE_NOTE + self.board.uci(move)))
        return effects

    def note(self, t: float, text: str) -> list[Effect]:
        """A note read back from the journal: engine moves and earlier resumes are restored from it."""
        if text == RESUME_NOTE:
            return self.resume_at(t, journal=False)
        if text.startswith(RESIGN_NOTE) and (side := text[len(RESIGN_NOTE):]) in chess.COLOR_NAMES:
            return self.resign(side == "white", t, journal=False)
        if text == DRAW_NOTE:
            return self.agree_draw(t, journal=False)
        if text.startswith(ENGINE_NOTE) and self.engine is not None:
            try:
                move = self.board.parse_uci(text[len(ENGINE_NOTE):].strip())
            except ValueError:
                return []
            return self.engine_moved(move, t, journal=False)
        return []

    def tick(self, t: float) -> list[Effect]:
        """Time passes: auto-press a settled move, notice a flag, ask the engine."""
        effects = self._flag_fell(t)
        rec = self.recognizer
        if (self.settle is not None and rec.mode is Mode.MOVED and rec.open_move is not None
                and t - self._state.last_input >= self.settle and self._engine_accepts()):
            effects += self.press(self.board.turn, t)
        return effects + self._engine_request()

    def resume_at(self, t: float, *, journal: bool = True) -> list[Effect]:
        """The journal ended at `t` (a crash): a move that stood on the board is committed now.

        The recognizer finishes its input, as `replay` does at the end of a
        capture, and the mover's clock is pressed for a move that this makes
        final. The note `resumed` marks the moment, so that replaying the
        journal later does the same there. A move standing where the engine's
        should be, but is not the engine's, stays open.
        """
        flagged = self._flag_fell(t)
        if not self._engine_accepts():
            return flagged
        effects = flagged + self._reports(self.recognizer.finish(t))
        return [JournalNote(t=t, text=RESUME_NOTE), *effects] if journal else effects

    def resign(self, side: chess.Color | None, t: float, *, journal: bool = True) -> list[Effect]:
        """`side` resigns (None: the player facing the engine, else the side to move): the other side wins."""
        if side is None:
            side = not self.engine.side if self.engine is not None else self.board.turn
        result = "0-1" if side == chess.WHITE else "1-0"
        name = chess.COLOR_NAMES[side]
        return self._agreed(t, result, f"{name.capitalize()} resigns", RESIGN_NOTE + name, journal)

    def agree_draw(self, t: float, *, journal: bool = True) -> list[Effect]:
        """The players agree a draw."""
        return self._agreed(t, "1/2-1/2", "draw agreed", DRAW_NOTE, journal)

    # ---------------------------------------------------------------- outputs

    def view(self, t: float) -> View:
        rec = self.recognizer
        moves = self._move_sans()
        white_ms = black_ms = None
        if self.clock is not None:
            at = ms_from_seconds(t)
            reading = self.clock.reading(at) if self.clock.started else None
            white_ms = reading.white_ms if reading else self.clock.remaining(chess.WHITE, at)
            black_ms = reading.black_ms if reading else self.clock.remaining(chess.BLACK, at)
        to_empty, to_fill = self._fix()
        return View(
            board=rec.expected.copy(stack=False),
            to_empty=to_empty,
            to_fill=to_fill,
            start_number=self.start_number,
            moves=moves,
            last_move=moves[-1] if moves else None,
            white_ms=white_ms,
            black_ms=black_ms,
            to_move=self.board.turn,
            status=self.status(t),
            control=controls_text(*self.controls) if self.controls is not None else None,
            names=self.names,
        )

    def status(self, t: float) -> str:
        """What the player should know or do now, in words."""
        state, rec = self._state, self.recognizer
        if state.link_up is None:
            return "connecting to the board"
        if not state.link_up:
            return "board disconnected — reconnecting"
        if state.result is not None:
            return f"game over: {state.result}"
        if self.clock is not None and self.clock.started:
            flags = self.clock.flags(ms_from_seconds(t))
            if flags:
                return f"{chess.COLOR_NAMES[flags[0].side].capitalize()}'s flag fell"
        report = state.last_report
        if rec.mode is Mode.ILLEGAL and report is not None and report.kind == "illegal":
            if not state.set_up:
                return f"set up position {self.start_number}: {report.describe()}"
            return f"illegal: {report.describe()}"
        if not state.set_up:
            return f"set up position {self.start_number}"
        engine_move = self._engine_expectation()
        if engine_move is not None:
            return engine_move
        if state.refusal:
            return state.refusal
        castling = rec.mode in (Mode.PROVISIONAL, Mode.CASTLING)
        if castling and report is not None and report.kind == "provisional":
            return self._castling_hint(report)
        side = chess.COLOR_NAMES[self.board.turn].capitalize()
        if rec.mode is Mode.MOVED and rec.open_move is not None:
            san = self.board.san(rec.open_move)
            return f"{side} played {san}: press the clock"
        return f"{side} to move"

    def pgn(self) -> chess.pgn.Game:
        """The current game with Chess960 headers and a `[%clk]` comment after every timed move."""
        return self.games()[-1]

    def games(self) -> list[chess.pgn.Game]:
        """Every game of the session (the pieces set up again start a new one), the current last."""
        headers = {"Event": "eboard960 play", "White": self.names[0], "Black": self.names[1]}
        control = _pgn_time_control(self.controls)
        if control:
            headers["TimeControl"] = control
        games = self.recognizer.games()
        for game in games:  # the recognizer stamps only the current game
            game.headers.update({**headers, **self.headers})
        for game, state in zip(games, [*self._archived, self._state], strict=True):
            if state.ending is not None:
                game.headers.update({"Result": state.ending[0], "Termination": state.ending[1]})
            if self.clock is not None:
                for node, ms in zip(game.mainline(), state.clk, strict=False):
                    node.set_clock(ms // 1000)
        return games

    def pgn_text(self) -> str:
        """All games as PGN text, for the file beside the journal."""
        from eboard960.pgn import pgn_text  # here, not at the top: chess.pgn loads asyncio

        return pgn_text(self.games())

    def clock_note(self, t: float) -> str:
        """The clock at `t` as a journal note: white's and black's milliseconds."""
        clock = self.clock
        if clock is None:
            return CLOCK_NOTE + "none"
        at = ms_from_seconds(t)
        return f"{CLOCK_NOTE}{clock.remaining(chess.WHITE, at)} {clock.remaining(chess.BLACK, at)}"

    # ---------------------------------------------------------------- internals

    def _press(self, event: ButtonPressed, *, local: bool) -> list[Effect]:
        side = chess.WHITE if event.button == "white" else chess.BLACK
        rec = self.recognizer
        flagged = self._flag_fell(event.t)
        if side == self.board.turn and not self._engine_accepts():
            assert self.engine is not None  # without an engine, every move is accepted
            engine_move = self.engine.move
            if engine_move is None:
                return [*flagged, Said(t=event.t, text="the engine is still thinking")]
            self._state.refusal = f"make the engine's move {self.board.san(engine_move)}"
            return [*flagged, Said(t=event.t, text=f"illegal: {self._state.refusal}")]
        effects: list[Effect] = [JournalEvent(event=event)] if local else []
        return flagged + effects + self._reports(rec.feed(event))

    def _flag_fell(self, t: float) -> list[Effect]:
        """A flag fell by `t`: the game ends on time, in the position it had then.

        Checked before every input, at the input's time, so that replaying the
        journal ends the game where the live session did. The side whose flag
        fell loses, unless the other side has too little material to mate
        (python-chess's `has_insufficient_material`): then it is a draw.
        """
        clock, state = self.clock, self._state
        if clock is None or not clock.started or state.result is not None:
            return []
        flags = clock.flags(max(ms_from_seconds(t), self._last_command_ms))
        if not flags:
            return []
        loser = flags[0].side
        if clock.running:
            self._last_command_ms = max(self._last_command_ms, flags[0].at)
            clock.pause(self._last_command_ms)
        effects = self._reports(self.recognizer.stop())  # what the moves before the flag left pending
        if state.result is not None:
            return effects  # a promotion button's piece mated before the flag fell: that ending stands
        if self.board.has_insufficient_material(not loser):
            result = "1/2-1/2"
        else:
            result = "0-1" if loser == chess.WHITE else "1-0"
        state.ending = (result, "time forfeit")
        state.result = f"{result} (time forfeit)"
        side = chess.COLOR_NAMES[loser].capitalize()
        return [*effects, Said(t=t, text=f"{side}'s flag fell: {state.result}"), GameChanged()]

    def _agreed(self, t: float, result: str, how: str, note: str, journal: bool) -> list[Effect]:
        """The players end the game (a resignation, an agreed draw).

        A move standing on the board was made before they agreed, so it is
        committed first, as at the end of input; if it ends the game by itself
        (a mate), that ending stands.
        """
        effects = self._flag_fell(t)
        state = self._state
        if state.result is None and state.set_up and self._engine_accepts():
            effects += self._reports(self.recognizer.finish(t))
        if state.result is not None:
            return [*effects, Said(t=t, text=f"the game is already over: {state.result}")]
        if not state.set_up:
            return [*effects, Said(t=t, text=f"no game to end yet: set up position {self.start_number}")]
        state.ending = (result, "normal")
        state.result = f"{result} ({how})"
        if self.clock is not None and self.clock.running:
            self.clock.pause(self._command_time(t))
        effects += self._reports(self.recognizer.stop())  # what `finish` did not decide (an engine's turn)
        effects += [Said(t=t, text=f"{how}: {result}"), GameChanged()]
        return [JournalNote(t=t, text=note), *effects] if journal else effects

    def _engine_accepts(self) -> bool:
        """False when the board shows another move than the engine's, on the engine's turn."""
        engine, rec = self.engine, self.recognizer
        if engine is None or self.board.turn != engine.side:
            return True
        return engine.move is not None and rec.open_move == engine.move

    def _reports(self, reports: list[Report]) -> list[Effect]:
        effects: list[Effect] = []
        for report in reports:
            self._state.last_report = report
            leds = leds_for(report)
            if leds is not None and not (report.kind == "move" and self.engine is not None):
                effects.append(leds)
            match report.kind:
                case "move":
                    effects += self._committed(report)
                case "takeback":
                    if self._state.clk:
                        self._state.clk.pop()
                    if self._state.result is not None and self._state.ending is None:  # a promotion button
                        # undid the ending the default queen made
                        self._state.result = None
                        if self.clock is not None and self.clock.started and not self.clock.running:
                            self.clock.resume(self._command_time(report.t))
                    self._clock_to_turn(report.t)
                    if self.engine is not None:
                        self.engine.move, self.engine.asked = None, False
                    effects += [Said(t=report.t, text=f"takeback {report.san}"), GameChanged()]
                case "game_over":
                    self._state.result = f"{report.result} ({report.termination.replace('_', ' ')})"
                    if self.clock is not None and self.clock.running:
                        self.clock.pause(self._command_time(report.t))
                    effects += [Said(t=report.t, text=f"game over: {self._state.result}"), GameChanged()]
                case "new_game":
                    effects += self._new_game(report.t)
                case "illegal":
                    effects.append(Said(t=report.t, text=f"illegal: {report.describe()}"))
                case "claimable":
                    effects.append(Said(t=report.t, text=f"a draw may be claimed: {report.reason}"))
        return effects

    def _committed(self, report: MoveRecognized) -> list[Effect]:
        mover = not self.board.turn
        ply = report.ply
        number = f"{(ply + 1) // 2}." if mover == chess.WHITE else f"{(ply + 1) // 2}..."
        effects: list[Effect] = [Said(t=report.t, text=f"move {number} {report.san}")]
        if self.clock is not None:
            at = self._command_time(report.t)
            if not self.clock.started:
                self.clock.start(at)
            if self.clock.running and self.clock.to_move == mover:
                self.clock.press(mover, at)
            self._state.clk.append(self.clock.remaining(mover, at))
            effects.append(JournalNote(t=report.t, text=self.clock_note(report.t)))
        if self.engine is not None:
            self.engine.move, self.engine.asked = None, False
            if mover != self.engine.side:
                effects.append(DARK)
        effects.append(GameChanged())
        return effects

    def _command_time(self, t: float) -> int:
        """A clock command's time: a report stamped with an earlier event than the last command
        (a move made final late) counts from the last command, as clocks never run backwards."""
        self._last_command_ms = max(self._last_command_ms, ms_from_seconds(t))
        return self._last_command_ms

    def _clock_to_turn(self, t: float) -> None:
        """After a takeback the side to move is the one whose move was undone: its clock runs again,
        without the increment that move earned; the time both sides used stays used."""
        clock = self.clock
        if clock is not None and clock.running and clock.to_move != self.board.turn:
            clock.take_back(self._command_time(t))

    def _new_game(self, t: float) -> list[Effect]:
        """The pieces were set up again: the finished game is kept, a new one starts on a fresh clock."""
        self._archived.append(self._state)
        self._state = _State(link_up=self._state.link_up, set_up=True, last_input=t)
        if self.controls is not None:
            self.clock = Clock(*self.controls)
            self.clock.start(self._command_time(t))
        if self.engine is not None:
            self.engine.move, self.engine.asked = None, False
        return [Said(t=t, text="new game: White to move"), GameChanged()]

    def _check_set_up(self, t: float) -> list[Effect]:
        rec = self.recognizer
        if self._state.set_up or rec.mode is Mode.ILLEGAL or rec.occupied != rec.start.occupied:
            return []
        self._state.set_up = True
        if self.clock is not None and not self.clock.started:
            self.clock.start(self._command_time(t))
        return [Said(t=t, text=f"position {self.start_number} is set up: White to move")]

    def _engine_request(self) -> list[Effect]:
        engine = self.engine
        if (engine is None or not self._state.set_up or self._state.result is not None
                or self.board.turn != engine.side or engine.move is not None or engine.asked):
            return []
        engine.asked = True
        return [EngineTurn(board=self.board.copy())]

    def _engine_expectation(self) -> str | None:
        engine, rec = self.engine, self.recognizer
        if engine is None or self.board.turn != engine.side:
            return None
        if engine.move is None:
            return "engine thinking"
        san = self.board.san(engine.move)
        if rec.open_move is not None and rec.open_move != engine.move and rec.mode is Mode.MOVED:
            target = self.board.copy(stack=False)
            target.push(engine.move)
            fix = _difference(rec.expected, target)
            return f"illegal: make the engine's move {san}" + (f" ({fix})" if fix else "")
        return f"make the engine's move {san}"

    def _move_sans(self) -> tuple[str, ...]:
        """The game's moves in SAN, replayed from the start only when the game changed.

        The screen asks for a view ten times a second; replaying a long game's
        SAN each time costs milliseconds. The recognizer pushes and pops on
        one board and starts a new board for a new game, so the board and its
        moves together say whether the last replay still holds.
        """
        board, moves, sans = self._sans
        if board is not self.board or moves != self.board.move_stack:
            board, moves, sans = self.board, list(self.board.move_stack), tuple(_san_list(self.board))
            self._sans = (board, moves, sans)
        return sans

    def _fix(self) -> tuple[frozenset[chess.Square], frozenset[chess.Square]]:
        """In an illegal position, the squares to empty and to fill to get back."""
        report = self._state.last_report
        if self.recognizer.mode is Mode.ILLEGAL and report is not None and report.kind == "illegal":
            return report.to_empty, report.to_fill
        return frozenset(), frozenset()

    def _castling_hint(self, report: MoveProvisional) -> str:
        _king, king_to, rook, rook_to = castling_squares(report.castling)
        occupied = self.recognizer.occupied
        rook_waits = occupied & chess.BB_SQUARES[rook] and rook != rook_to
        if not occupied & chess.BB_SQUARES[rook_to] or rook_waits:
            return f"castling: place the rook on {chess.square_name(rook_to)}"
        return f"castling: place the king on {chess.square_name(king_to)}"


def _difference(shown: chess.BaseBoard, target: chess.BaseBoard) -> str:
    empty = sorted(chess.square_name(s) for s in chess.SquareSet(shown.occupied & ~target.occupied))
    fill = sorted(chess.square_name(s) for s in chess.SquareSet(target.occupied & ~shown.occupied))
    parts = (["empty " + ", ".join(empty)] if empty else []) + (["fill " + ", ".join(fill)] if fill else [])
    return "; ".join(parts)


def _san_list(board: chess.Board) -> list[str]:
    replay = board.root()
    sans = []
    for move in board.move_stack:
        sans.append(replay.san(move))
        replay.push(move)
    return sans


def _chess960_number(board: chess.Board) -> int | None:
    return board.chess960_pos(ignore_turn=True, ignore_castling=True, ignore_counters=True)


def _pgn_time_control(controls: tuple[TimeControl, TimeControl] | None) -> str | None:
    """PGN's TimeControl tag ("900+10") for an even single-stage control; None otherwise."""
    if controls is None or controls[0] != controls[1] or len(controls[0].stages) != 1:
        return None
    stage = controls[0].stages[0]
    if stage.moves is not None or stage.bonus not in (Bonus.NONE, Bonus.FISCHER):
        return None
    seconds = f"{stage.time_ms / 1000:g}"
    return seconds + (f"+{stage.bonus_ms / 1000:g}" if stage.bonus is Bonus.FISCHER else "")
