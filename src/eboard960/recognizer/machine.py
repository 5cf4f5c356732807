"""The move recognizer: square events in, Chess960 moves and board reports out.

It knows the game so far (a python-chess board of committed moves) and what
the sensors show; each event is classified against the legal continuations
(`explain`) and the class fires one trigger of the mode table (`table`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple, cast

import chess

from eboard960 import numbering
from eboard960.errors import RecognitionError
from eboard960.events import (
    CLOCK_BUTTONS,
    PROMOTION_BUTTONS,
    BoardSnapshot,
    ButtonPressed,
    LinkChanged,
    PieceLifted,
    PiecePlaced,
    SquareEvent,
)
from eboard960.recognizer.dumps import Dumps, is_unpromoted_pawn
from eboard960.recognizer.evidence import (
    BOUNCE_SECONDS,
    CAPTURE_SECONDS,
    SCAN_SECONDS,
    SWAP_SECONDS,
    FinalLift,
    Lift,
    PromotionPress,
    Segment,
    knocked,
    placed_before_lift,
)
from eboard960.recognizer.explain import (
    START_OCCUPANCY,
    CastlingShape,
    after_move,
    agrees,
    castling_shapes,
    is_partial,
    matching_moves,
    occupancy_after,
    shape_of,
    slides_over,
    successors,
    taken_earlier,
    with_promotions,
)
from eboard960.recognizer.hindsight import CAPTURE_PLACED_FIRST_SECONDS, PLACED_FIRST_SECONDS
from eboard960.recognizer.overlap import EarlyLift
from eboard960.recognizer.reports import (
    DrawClaimable,
    GameOver,
    IllegalPosition,
    Line,
    MoveProvisional,
    MoveRecognized,
    MoveTakenBack,
    NewGame,
    PositionRestored,
    Report,
)
from eboard960.recognizer.table import ROUTES, Mode

if TYPE_CHECKING:
    import chess.pgn


class Verdict(NamedTuple):
    """What the board shows now, as the classifier reads it."""

    # a trigger of the mode table, or a reading `_settle` acts on itself: the other side's reply
    # (`reply`), a capture seen late (`latent`), a castling completed after its first half was made
    # final (`complete_castling`), a takeback or retraction the next event decides (`hold_*`), the
    # game's position or the open move shown again (`shows_game`, `shows_open`), a new set-up
    # (`set_up`: `_set_up` commits an open move first); None: nothing to do
    trigger: str | None
    move: chess.Move | None = None
    shape: CastlingShape | None = None
    to_empty: frozenset[chess.Square] = frozenset()
    to_fill: frozenset[chess.Square] = frozenset()


NOTHING = Verdict(None)


def _start_board(start: chess.Board | int) -> chess.Board:
    if isinstance(start, int):
        if not 0 <= start <= 959:
            raise RecognitionError(f"start position {start} is outside 0..959")
        return chess.Board.from_chess960_pos(start)
    board = start.copy(stack=False)
    board.chess960 = True
    return board


def _repetition_key(board: chess.Board) -> tuple[object, ...]:
    """What makes two positions the same for the repetition rules."""
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else None
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.turn, board.clean_castling_rights(), ep)


def _in_start(rank: str, named: dict[chess.Square, chess.Piece]) -> bool:
    """Does the Chess960 start whose first rank is `rank` (letters, a to h) have each of the `named` pieces,
    on start squares, where it stands?"""
    for square, piece in named.items():
        row = chess.square_rank(square)
        if row in (1, 6):
            wanted = chess.Piece(chess.PAWN, row == 1)
        else:
            wanted = chess.Piece(chess.PIECE_SYMBOLS.index(rank[chess.square_file(square)].lower()), row == 0)
        if piece != wanted:
            return False
    return True


def _ends_game(board: chess.Board) -> bool:
    """Does the game end in `board` by itself: mate, stalemate, no mating material, the 75-move rule?"""
    may_lack_material = not board.pawns | board.rooks | board.queens  # any of these can still mate
    return (not any(board.generate_legal_moves()) or (may_lack_material and board.is_insufficient_material())
            or board.is_seventyfive_moves())


def _promotions(board: chess.Board) -> list[chess.Move]:
    """The legal promotions of the side to move."""
    pawns = board.pawns & board.occupied_co[board.turn] & (chess.BB_RANK_7 if board.turn else chess.BB_RANK_2)
    return list(board.generate_legal_moves(from_mask=pawns)) if pawns else []


class Recognizer(Dumps):
    """Turns square events into moves; `feed` returns the reports each event causes.

    >>> rec = Recognizer(518)
    >>> [r.san for r in rec.feed(PieceLifted(square=chess.E2)) + rec.feed(PiecePlaced(square=chess.E4))
    ...  + rec.finish()]
    ['e4']
    """

    mode: Mode
    # typed here: methods above `_reset_game`, which sets them, assign them first
    _open_theirs: chess.Bitboard
    _open_shapes: tuple[CastlingShape, ...] | None
    # (plies, capture): the board showed a capture, its piece read as still in hand (`_make_unlanded`)
    _unlanded_capture: tuple[int, chess.Move] | None
    _fix: tuple[frozenset[chess.Square], frozenset[chess.Square]] | None
    # the board was misplaced at a reconnect, moves made offline perhaps behind it
    _misplaced_offline: bool

    def __init__(self, start: chess.Board | int = 518, *, takebacks: bool = True,
                 rotated: bool | None = None) -> None:
        self.start = _start_board(start)
        self.takebacks = takebacks
        self.rotated = bool(rotated)
        self._auto_rotation = rotated is None  # told anew at the start of every game, before its first move
        self._detect_rotation = self._auto_rotation
        self._resync = True  # the next snapshot is read afresh: the first one, or one after the link dropped
        self._reconnected = False  # the link dropped since the last snapshot: reports may be lost
        self._dropped_at = -math.inf  # when the link last went down: what the hands did then went unseen
        self.archive: list[chess.pgn.Game] = []
        self._out: list[Report] = []
        self._t = 0.0
        self._index = 0
        self.skipped_places: list[PiecePlaced] = []  # places on a square that held a piece (sensor
        # inconsistencies), as reported; one held for the event after it is skipped when that one is fed
        self._verdict = NOTHING
        self._other_side_lifted: float | None = None  # when the other side's piece left
        self._held_undo: str | None = None  # "take_back" or "retract" of a capture, unless the next event
        # shows the other side's move placed before its lift (see `_decide_held_undo`)
        self._last_lift: Lift | None = None
        self._previous_input: SquareEvent | None = None  # the event fed before the one being read
        self._lifted_at: dict[chess.Square, float] = {}  # each square's last lift of a piece shown there
        self._placed_at: dict[chess.Square, float] = {}  # each square's last place (none skipped as full)
        self._left_at: dict[chess.Square, float] = {}  # each square's last lift, one from an empty square too
        self._open_before_lift: chess.Move | None = None
        # the events `Overlap` holds back, described where it declares them
        self._early_lift = None
        self._held_presses = []
        self._slide_press = None
        self._paused = None
        self._shared = None
        # the last promotion button: its piece, the event count then, and whether it is spare: pressed
        # while a promotion stood open whose piece a button had already chosen for it, it is for the next one
        self._promotion: PromotionPress | None = None
        # the mover's clock made a promotion final with the default piece, and the other side has not
        # begun: a promotion button still chooses its piece
        self._late_promotion = False
        self.mode = Mode.PLAYING
        self._reset_game(self.start)

    # ---------------------------------------------------------------- public API

    @property
    def board(self) -> chess.Board:
        """The game so far: every committed move (not the open one)."""
        return self._board

    @property
    def expected(self) -> chess.Board:
        """The position the board should show: the game plus the open move, if any."""
        return self._after() if self._open is not None else self._board

    @property
    def occupied(self) -> chess.Bitboard:
        """What the sensors show now."""
        return self._occupied

    @property
    def open_move(self) -> chess.Move | None:
        return self._open

    def squares_to_fix(
        self, reference: chess.Board | None = None
    ) -> tuple[frozenset[chess.Square], frozenset[chess.Square]]:
        """The squares to empty and to fill for the board to show `reference` (by default, the expected
        position)."""
        wanted = (self.expected if reference is None else reference).occupied
        return (frozenset(chess.scan_forward(self._occupied & ~wanted)),
                frozenset(chess.scan_forward(wanted & ~self._occupied)))

    def feed(self, event: SquareEvent) -> list[Report]:
        """Process one sensor event; returns the reports it caused, in order."""
        self._out = []
        self._take(event)
        self._previous_input = event
        return self._out

    def _step(self, event: SquareEvent, *, may_hold: bool = False) -> None:
        if self._place_on_held is not None:
            self._land_held_place(event)
        if type(event) is BoardSnapshot:
            self._snapshot(event)  # what changed in it decides what the last events left pending
            return
        if self._held_press is not None:
            self._decide_press(event)
        if type(event) is PiecePlaced and self._replaces(self._map(event.square), event.piece):
            self._step(PieceLifted(square=event.square, t=event.t))  # the victim left first: its own lift
        unseen = self._unseen_capture
        if unseen is not None and self._lift_on_unseen is None and type(event) is PieceLifted and (
                self._map(event.square) == unseen.to_square):
            self._lift_on_unseen = event  # the victim taken off only now, or the capturer by the other side
            return
        if unseen is not None or self._other_side_lifted is not None or self._held_undo or (
                self._held_capture is not None):
            if self._may_be_reply_placed_first(event):
                self._place_on_held = cast(PiecePlaced, event)  # decided by the next event
                return
            self._decide_pending(event)
        if may_hold and self._taken_up_early(event):
            # stepped once the mover's piece lands
            self._early_lift = EarlyLift(cast(PieceLifted, event), decided=True)
            return
        self._apply(event)

    def _apply(self, event: PieceLifted | PiecePlaced | ButtonPressed | LinkChanged) -> None:
        """Step `event` once what the events before it left pending is decided."""
        self._t = event.t
        if self._late_promotion and type(event) is not ButtonPressed and type(event) is not LinkChanged and (
                self._map(event.square) != self._board.peek().to_square):  # a swap of the promoted piece
            self._first_event(self._map(event.square))
        if type(event) is PiecePlaced and self.mode is Mode.MOVED and self._ends_with_open(event):
            self._fire("commit")  # the game ended with the open move: the hands that go on play no more
        if type(event) is PieceLifted:
            self._lift(self._map(event.square))
        elif type(event) is PiecePlaced:
            self._place(event)
        elif type(event) is ButtonPressed:
            self._button(event.button)
        elif type(event) is LinkChanged:
            self._resync = self._reconnected = True  # reports may be lost: the next snapshot is read afresh
            if not event.up:
                self._dropped_at = event.t
        else:
            raise RecognitionError(f"not a square event: {event!r}")

    def _replaces(self, square: chess.Square, piece: chess.Piece | None) -> bool:
        """Does a place of `piece` on `square` name a piece other than the one standing there: one piece
        replacing another in a single report (a board that skips the victim's empty state)?"""
        return bool(self._occupied & chess.BB_SQUARES[square]) and piece is not None and (
            not is_unpromoted_pawn(square, piece) and piece != self._piece_expected(square))

    def _decide_pending(self, event: SquareEvent | None) -> None:
        """The event after the other side's lift, after a capture undone victim first, after the mover's
        clock pressed with a piece in hand, or after a clock press held for it decides what they left open."""
        if self._held_press is not None:
            self._decide_press(event)
        if self._held_capture is not None:
            self._decide_held_capture(event)
        if self._unseen_capture is not None:
            self._decide_unseen_capture(event)
        if self._other_side_lifted is not None:
            self._other_side_began(event)
        elif self._held_undo:
            self._decide_held_undo(event)

    def finish(self, t: float | None = None) -> list[Report]:
        """The input ended: an open move becomes final."""
        self._out = []
        self._decide_all_pending()
        if t is not None:
            self._t = t
        self._commit_pending()
        self._catch_up(None)
        return self._out

    def stop(self) -> list[Report]:
        """The game ended off the board (a flag fell, a resignation): an open move is dropped, and no
        move is recorded until the pieces are set up for a new game. The ending is not reported (the
        caller knows the result); what the events before it left pending is (a takeback held for the
        next event, a promotion button's piece, a move the other side's lift made final)."""
        self._out = []
        self._decide_all_pending()
        if self.mode is not Mode.GAME_OVER:
            self._fire("abandon")
        return self._out

    def _decide_all_pending(self) -> None:
        """No event follows (`finish`, `stop`): the events held back are read, what they left pending is
        decided, and a promotion button either side may have meant was the mover's."""
        if self._place_on_held is not None:
            self._land_held_place(None)
        self._release_early()
        self._decide_pending(None)
        if self._late_promotion:
            self._first_event(None)

    def _commit_pending(self, *, pressed: bool = False) -> None:
        """The mover's clock (`pressed`) or the end of input: the open move (or a latent capture, or at the
        end a capture lifted again, `_capture_lifted_again`, or one the board showed at rest whose piece no
        event saw land, `_make_unlanded`) is final.
        A latent capture waits for the next event at a press: its victim touched and put back, its piece
        still in hand and the clock pressed early look the same. One whose piece left longer after its
        victim's square filled than a place is reported before its lift is none: the victim was touched."""
        if self._open is not None:
            self._make_open_final(self._occupied, reply_follows=False)
        elif self.mode in (Mode.PLAYING, Mode.ILLEGAL) and (
            (latent := self._latent_capture(self._occupied, with_reply=False))
            or (not pressed and (latent := self._capture_lifted_again()))
        ):
            if not pressed:
                self._commit_latent(latent, reply_follows=False)
            elif not self._left_late(latent):
                self._held_capture = latent  # unless the piece lands next (`_decide_held_capture`)
        elif not pressed:
            self._make_unlanded()

    def games(self, headers: dict[str, str] | None = None) -> list[chess.pgn.Game]:
        """Every game seen so far as PGN, the current one last."""
        return [*self.archive, self.pgn(headers)]

    def pgn(self, headers: dict[str, str] | None = None) -> chess.pgn.Game:
        """The current game as PGN, with the Chess960 headers whenever it needs them."""
        import chess.pgn  # here, not at the top: chess.pgn loads chess.engine and with it asyncio

        board = self._board
        game = chess.pgn.Game.from_board(board)
        if headers:
            game.headers.update(headers)
        outcome = board.outcome()
        game.headers["Result"] = outcome.result() if outcome else "*"
        game.headers["Variant"] = "Chess960"
        return game

    # ---------------------------------------------------------------- events

    def _other_side_began(self, event: SquareEvent | None) -> None:
        """A piece of the other side was lifted: the open move is final, unless the sensor bounced.

        A bounce is the same square filled again within `BOUNCE_SECONDS`; the spec counts it
        as nothing, so it must not end a provisional king step or a pending correction.
        """
        lifted_at, self._other_side_lifted = self._other_side_lifted, None
        assert lifted_at is not None  # decided only while it is set (`_decide_pending`)
        bounced = isinstance(event, PiecePlaced) and self._is_bounce(
            self._map(event.square), event.piece, event.t
        )
        if bounced or self._open is None or self._captures_instead(event):
            return
        if self._slides_on_to_victim(event):
            if isinstance(event, PiecePlaced):
                self._other_side_lifted = lifted_at  # its lift, the next event, decides
            return
        if isinstance(event, PiecePlaced) and (
                self._ends_knock(self._map(event.square), event.piece, event.t)
                or self._lands_castling(self._map(event.square))):
            # a neighbour knocked back in place, or the mover's hand still busy with a castling: the next
            # event decides
            self._other_side_lifted = lifted_at
            return
        if self._straddled_reply(lifted_at, event):
            return
        self._t = lifted_at
        chosen = self._take_alternative(event)
        assert self._last_lift is not None  # the other side's lift
        square, piece = self._last_lift.square, self._last_lift.piece
        if isinstance(event, PiecePlaced) and self._map(event.square) == self._open.to_square:
            self._fire("commit")  # the other side's piece takes the open move's, lifted as its victim
        else:
            before_reply = self._occupied | chess.BB_SQUARES[square]
            self._make_open_final(before_reply, reply_follows=True, chosen=chosen)
        self._final_lift = FinalLift(square, lifted_at, len(self._board.move_stack), piece)
        self._settle(after_lift=True)  # the other side's move may already be on the board

    def _slides_on_to_victim(self, event: SquareEvent | None) -> bool:
        """Is `event` the open move's piece sliding on to take the other side's piece lifted while it was in
        hand, its victim taken first: set down there before it leaves the open move's square (named as the
        mover's: not named, it is the victim put back), or leaving it within a scan of that? The next event
        decides; the lift was no reply."""
        move, lift = self._open, self._last_lift
        assert move is not None and lift is not None  # asked after the other side's lift
        landed = self._placed_at.get(move.to_square, -math.inf)  # a lift held till then has its time
        if lift.t > landed or not with_promotions(self._board, move.from_square, lift.square):
            return False
        if isinstance(event, PiecePlaced):
            ours = event.piece is not None and event.piece.color == self._board.turn
            return ours and self._map(event.square) == lift.square and bool(
                self._occupied & chess.BB_SQUARES[move.to_square])
        return isinstance(event, PieceLifted) and self._map(event.square) == move.to_square and (
            placed_before_lift(self._placed_at.get(lift.square), event.t))

    def _lands_castling(self, square: chess.Square) -> bool:
        """Does a place on `square` show a castling other than the open move, the other side's lifted piece
        back: the mover's last piece of it landing (its king set down first, then the rook), a hand still
        busy when the other side's piece left?"""
        assert self._last_lift is not None and self._open is not None  # asked after the other side's lift
        shown = self._occupied | chess.BB_SQUARES[square] | chess.BB_SQUARES[self._last_lift.square]
        return any(shape.after == shown and shape.move != self._open for shape in self._shapes)

    def _is_bounce(self, square: chess.Square, piece: chess.Piece | None, t: float) -> bool:
        """Is a place on `square` at `t` the end of a sensor bounce: the event just before lifted
        that square within `BOUNCE_SECONDS`, and (where the board identifies pieces) the same
        piece is back?"""
        if self._last_lift is None:
            return False
        lifted, at, index, lifted_piece = self._last_lift
        same_piece = piece is None or piece == lifted_piece
        return lifted == square and index == self._index and t - at <= BOUNCE_SECONDS and same_piece

    def _hand_may_take(self, board: chess.Board, square: chess.Square) -> bool:
        """Can a piece in hand of the side to move in `board` capture on `square`?"""
        in_hand = board.occupied_co[board.turn] & ~self._occupied
        return bool(in_hand) and any(board.generate_legal_captures(in_hand, chess.BB_SQUARES[square]))

    def _ends_knock(self, square: chess.Square, piece: chess.Piece | None, t: float) -> bool:
        """Is a place of `piece` on `square` at `t` a piece knocked by the hand put back: lifted within
        `BOUNCE_SECONDS`, other reports between, and neither the lift it follows nor the open move's?"""
        assert self._last_lift is not None and self._open is not None  # asked after the other side's lift
        return (
            knocked(self._lifted_at.get(square), t) and square != self._last_lift.square
            and square not in (self._open.from_square, self._open.to_square)
            and not self._occupied & chess.BB_SQUARES[square]
            and piece in (None, self._piece_expected(square))
        )

    def _knocked_together(self, square: chess.Square, piece: chess.Piece | None) -> chess.Bitboard:
        """The squares of the pieces a hand brushed, if a place on `square` (lifted within `BOUNCE_SECONDS`,
        other reports between) puts back the last of them (lift X, lift Y, place X, place Y): every square
        lifted or filled since its lift is full again, each within the bounce time. Else none."""
        since, knocks = self._lifted_at[square], chess.BB_SQUARES[square]
        for other, lifted in self._lifted_at.items():
            if other != square and lifted >= since:
                back = self._occupied & chess.BB_SQUARES[other]
                if not (back and knocked(lifted, self._placed_at.get(other))):
                    return 0
                knocks |= back
        for other, placed in self._placed_at.items():
            if other != square and placed >= since:
                if not knocked(self._lifted_at.get(other), placed):
                    return 0
                knocks |= chess.BB_SQUARES[other]
        if any(shape.is_transposition and knocks == shape.pair for shape in self._shapes):
            return 0  # king and rook off together and back on their castling squares: castling (item 9)
        return knocks if piece in (None, self.expected.piece_at(square)) else 0  # named: the piece knocked

    def _map(self, square: chess.Square) -> chess.Square:
        return 63 - square if self.rotated else square

    def _lift(self, square: chess.Square) -> None:
        bit = chess.BB_SQUARES[square]
        self._left_at[square] = self._t  # a piece left it, whatever the game's position says
        if not self._occupied & bit:
            return  # a lift from an empty square: a sensor glitch with nothing to undo
        lifted_piece = self._pieces.pop(square, None) or self._piece_expected(square)
        self._open_before_lift = self._open
        self._occupied &= ~bit
        self._lifted_at[square] = self._t
        self._touched_since_press |= bit
        self._index += 1
        self._last_lift = Lift(square, self._t, self._index, lifted_piece)
        if self.mode is Mode.GAME_OVER:
            self._settle(after_lift=True)  # a set-up for a new game may end with an extra piece taken off
            return
        self._segment.note_lift(square, self._occupied, self._t)
        if self._open is not None:
            self._segment_open.note_lift(square, self._occupied, self._t)
            for _, segment in self._alternatives:
                segment.note_lift(square, self._occupied, self._t)
            if self._open_theirs & bit and not self._waits_by(square):
                self._other_side_lifted = self._t  # final at the next event, unless a bounce
        self._settle(after_lift=True)

    def _waits_by(self, square: chess.Square) -> bool:
        """Does the open move's piece stand on a square it cannot stop on, no other piece touched since the
        move showed (the board misplaced: the move's square emptied, one more filled), from where its origin
        can take on `square`: a capturer waiting by its victim, not the other side's move begun?"""
        move, segment = self._open, self._segment_open
        assert move is not None  # asked only with an open move
        if self.mode is not Mode.ILLEGAL or segment.ever & self._open_occupied != chess.BB_SQUARES[
                move.to_square] | chess.BB_SQUARES[square]:
            return False
        stray = self._occupied & ~self._open_occupied
        return stray.bit_count() == 1 and chess.lsb(stray) in segment.landed and bool(
            with_promotions(self._board, move.from_square, square))

    def _place(self, event: PiecePlaced) -> None:
        square, piece = self._map(event.square), event.piece
        if is_unpromoted_pawn(square, piece):
            piece = None  # the button's piece or a queen it is
        if self._detect_rotation and piece and self._sets_up_turned(square, {**self._pieces, square: piece}):
            square = 63 - square  # the set-up just completed shows the board turned round
        bit = chess.BB_SQUARES[square]
        if self._occupied & bit:
            self.skipped_places.append(event)  # a place on an occupied square: a sensor inconsistency
            return
        self._occupied |= bit
        self._placed_at[square] = self._t
        segments = self._evidence()
        for segment in segments:
            segment.note_place(square, self._occupied, self._t)
        if piece is not None:
            self._pieces[square] = piece
        if self._late_promotion and piece is not None and square == self._board.peek().to_square and (
                piece.color != self._board.turn and piece.piece_type not in (chess.PAWN, chess.KING)):
            self._late_promotion = False  # the pawn swapped for its piece after the clock: the board names it
            self._rechoose(piece.piece_type)
        final_lift = self._final_lift
        if final_lift is not None and final_lift.square == square and self.mode is not Mode.GAME_OVER:
            self._reopen_knocked(piece)  # not once the game ended: the end stands
        lifted_at = self._lifted_at.get(square)
        # filled as it emptied, where a piece in hand may take: that capture, on a board that (all but)
        # skipped the victim's empty state, not a bounce; so too a capturer set down in the victim's place
        taken = piece is None and lifted_at is not None and (
            self._t - lifted_at < SWAP_SECONDS or self._set_down_in_its_place(square, lifted_at)
        ) and self._hand_may_take(self.expected, square)
        bounced = not taken and self._is_bounce(square, piece, self._t)
        if bounced:
            self._bounced_since_press |= bit
            for segment in segments:
                segment.bounce(square, self._occupied)
            made_by_bounce = self._open is not None and self._open_index == self._index
            before = self._open_before_lift
            if made_by_bounce and (before is None or self._board.move_stack[-1:] == [before]):
                self._fire("retract")  # the bounced lift alone made the board look like that move
        if bounced or taken or not knocked(lifted_at, self._t):
            knocks = 0
        elif self.mode is Mode.ILLEGAL and self._lifted_at[square] >= self._misplaced_at and (
            piece in (None, self.expected.piece_at(square))
        ):
            knocks = chess.BB_SQUARES[square]  # a piece knocked on a misplaced board, reports between
        else:
            knocks = self._knocked_together(square, piece)
        for knocked_square in chess.scan_forward(knocks):
            for segment in segments:
                segment.bounce(knocked_square, self._occupied)
        self._index += 1
        if not self._fixed_after_offline_moves():
            self._settle(after_lift=False, knock=bool(knocks))

    def _set_down_in_its_place(self, square: chess.Square, lifted_at: float) -> bool:
        """Was `square` filled right after its lift, nothing between, as slowly as a hand sets a capturer
        down in its victim's place (`CAPTURE_SECONDS`), with that piece alone in hand? A bounce so slow
        there is a capture made own piece first, quicker than the samples' but within a hand's reach."""
        before = self._previous_input
        return (type(before) is PieceLifted and self._map(before.square) == square
                and self._t - lifted_at >= CAPTURE_SECONDS
                and (self.expected.occupied & ~self._occupied).bit_count() == 1)

    def _evidence(self) -> tuple[Segment, ...]:
        """Every segment of evidence kept, each once: after a commit, the open move's is the game's."""
        segment, segment_open = self._segment, self._segment_open
        kept = (segment,) if segment_open is segment else (segment, segment_open)
        if not self._alternatives:
            return kept
        return (*kept, *(alternative for _, alternative in self._alternatives))

    def _button(self, button: str) -> None:
        if button in PROMOTION_BUTTONS:
            self._press_promotion(PROMOTION_BUTTONS[button])
        elif button in CLOCK_BUTTONS:
            side = CLOCK_BUTTONS[button]
            if side == self._board.turn and (placed := self._reply_placed_first()) is not None:
                self._held_press = placed  # the next event decides (`_decide_press`)
            else:
                self._press_clock(side)
        # the other buttons (draw, pause, ...) are the clock's

    def _press_promotion(self, piece: chess.PieceType) -> None:
        """A promotion button chooses the piece of the promotion of the side to move, or of the last move
        until the other side begins."""
        if self._late_promotion and not _promotions(self._board):
            self._rechoose(piece)
            return
        if self._late_promotion:
            self._either_press = piece  # or the side to move's: its first event tells (`_first_event`)
        if self._open is None and self.mode is Mode.PLAYING:
            latent = self._latent_capture(self._occupied, with_reply=False)
            if latent is not None and not latent.promotion:
                self._commit_latent(latent, reply_follows=False)  # made: the press is for the other side
            elif latent is None and (begun := self._reply_begun()) and (
                latent := self._latent_capture(self._occupied | begun, with_reply=False)
            ) is not None and latent.promotion:
                self._commit_latent(latent, reply_follows=True)  # its piece was chosen before they began
        open_move, press = self._open, self._promotion
        spare = (open_move is not None and bool(open_move.promotion)
                 and press is not None and not press.spare)
        self._promotion = PromotionPress(piece, self._index, spare)
        if not spare:
            self._repromote()

    def _reply_begun(self) -> chess.Bitboard:
        """The squares of the other side's pieces in hand that no piece of the mover's in hand can take: the
        other side's move begun."""
        board = self._board
        theirs = board.occupied_co[not board.turn] & self._segment.lifted & ~self._occupied
        ours = self._mover_in_hand()
        if not theirs or not ours:
            return theirs
        for move in board.generate_legal_moves(from_mask=ours, to_mask=theirs):
            theirs &= ~chess.BB_SQUARES[move.to_square]  # a victim lifted first, not their move
        return theirs

    def _reply_placed_first(self) -> tuple[chess.Move, Segment, chess.Square] | None:
        """At the mover's clock: an earlier open move (or a capture `_swept`), and the square a piece landed
        on since, within the board's scan before the press, where a piece of the other side can go after that
        move. The open move that replaced it may be that reply, placed before its lift (the board's scan
        order), with the clock pressed in between."""
        if self._open is None:
            return None
        board = self._board
        earlier = [*reversed(self._alternatives), *((move, self._segment_open) for move in self._swept())]
        for move, segment in earlier:
            shown = occupancy_after(board, move, self._shapes)
            landed = self._occupied & ~shown
            if landed.bit_count() != 1 or shown & ~self._occupied:
                continue
            square = chess.lsb(landed)
            if self._t - self._placed_at.get(square, -math.inf) > SCAN_SECONDS:
                continue
            if any(after_move(board, move).generate_legal_moves(to_mask=landed)):
                return move, segment, square
        return None

    def _decide_press(self, event: SquareEvent | None) -> None:
        """The event after a mover's clock held by `_reply_placed_first`: a lift, within the board's scan of
        the landing, of a piece of the other side that can go there after the earlier open move makes that
        move the mover's, and the landing its reply's (as with no press between); anything else leaves the
        open move. Then the press counts."""
        assert self._held_press is not None  # decided only while it is set
        (move, segment, square), self._held_press = self._held_press, None
        if isinstance(event, PieceLifted) and event.t - self._placed_at[square] <= SCAN_SECONDS and (
                with_promotions(after_move(self._board, move), self._map(event.square), square)):
            self._open_earlier(move, segment)
        self._press_clock(self._board.turn)

    def _press_clock(self, side: chess.Color) -> None:
        """The mover's clock makes its move final; the other side's says its own move is on the board."""
        if side == self._board.turn:
            moves, press = len(self._board.move_stack), self._promotion
            if press is not None and press.spare:  # a spare press before the mover's clock is the mover's:
                self._promotion = press._replace(spare=False)  # the later of two presses chooses the piece
                self._repromote()
            self._commit_pending(pressed=True)
            castled = self._castled_unseen() if len(self._board.move_stack) == moves and (
                self._occupied == self._board.occupied) else None
            if castled is not None:
                self._make_line([castled])
            elif self._occupied == self._board.occupied and self.mode is Mode.PLAYING:
                self._rebase()  # at rest: the mover's touches (j'adoube) are no victims for the other side
            elif len(self._board.move_stack) == moves and self._held_capture is None:
                self._catch_up(self._board.turn)  # nothing to commit: the move may end a line never seen
            last = self._board.move_stack[-1] if len(self._board.move_stack) > moves else None
            self._late_promotion = bool(
                last and last.promotion and press is None and last.to_square not in self._pieces
                and self.mode in (Mode.PLAYING, Mode.GAME_OVER)  # a button may undo the queen's ending
            )
            self._either_press = None
        else:
            self._catch_up(not self._board.turn)  # the other side's press: its move must be on the board
        self._plies_at_press = len(self._board.move_stack)
        self._bounced_since_press = 0
        self._touched_since_press &= self._board.occupied & ~self._occupied  # but pieces in hand: moves due

    def _castled_unseen(self) -> chess.Move | None:
        """A castling whose king and rook swap squares, one of them seen lifted since the last move landed and
        the link down since, which lost the rest of it: the move made, if the board shows the game as it was
        at the mover's clock (only that move leaves it so, and the press says a move was made), or the other
        side's move made after it."""
        since = self._open_at  # no move is open: the last one made landed then
        if self._dropped_at < since or self._open is not None or self.mode is not Mode.PLAYING:
            return None
        seen = sum(chess.BB_SQUARES[square] for square, lifted in self._lifted_at.items() if lifted >= since)
        swaps = (shape.move for shape in self._shapes if shape.is_transposition and shape.pair & seen)
        return next(swaps, None)

    def _replied_to_unseen_castling(self) -> bool:
        """The board no continuation explains shows the other side's move made, the mover's castling lost to
        a link drop (`_castled_unseen`) before it: both are made, the second still open."""
        castling = self._castled_unseen()
        reply = None if castling is None else successors(after_move(self._board, castling), self._occupied,
                                                         self._pieces, depth=1)
        if castling is None or reply is None:
            return False
        self._make_line([castling, *reply], open_last=True)
        return True

    def _decide_held_capture(self, event: SquareEvent | None) -> None:
        """The event after a clock press held with a capture the board shows, which its piece still in hand
        shows as well (`_commit_pending`, `_recaptured_unseen`): that piece landing where it can go says
        the press came early; any other move of a hand, or the end of input, makes the capture."""
        if type(event) in (BoardSnapshot, LinkChanged) or (
                type(event) is ButtonPressed and event.button not in CLOCK_BUTTONS):
            return  # no hand moved: the next event decides
        capture, self._held_capture = self._held_capture, None
        assert capture is not None  # decided only while there is one
        if isinstance(event, PiecePlaced) and with_promotions(self._board, capture.from_square,
                                                              self._map(event.square)):
            return
        self._make_line([capture])

    def _may_be_reply_placed_first(self, event: SquareEvent) -> bool:
        """After a clock press held with a capture the board shows, is `event` a place where the capturer can
        land (the press came early) and where the other side, the capture made, can move a piece it has
        not lifted (its reply, placed before its lift)? The next event tells (`_land_held_place`)."""
        capture = self._held_capture
        if capture is None or type(event) is not PiecePlaced or self._place_on_held is not None:
            return False
        board, square = self._board, self._map(event.square)
        if not with_promotions(board, capture.from_square, square) or (
                event.piece is not None and event.piece.color == board.turn):
            return False
        after = after_move(board, capture)
        return any(self._occupied & chess.BB_SQUARES[move.from_square]
                   for move in after.generate_legal_moves(to_mask=chess.BB_SQUARES[square]))

    def _land_held_place(self, event: SquareEvent | None) -> None:
        """Step the place held after a clock press held with a capture (`_may_be_reply_placed_first`): if
        `event` lifts, within a scan, a piece of the other side that can go there once the capture is made,
        the capture was made and the place began the reply; else it is decided as the capturer landing."""
        placed, self._place_on_held = self._place_on_held, None
        capture = self._held_capture
        assert placed is not None and capture is not None  # held only with that capture held
        square = self._map(placed.square)
        if type(event) is PieceLifted and event.t - placed.t <= SCAN_SECONDS and with_promotions(
                after_move(self._board, capture), self._map(event.square), square):
            self._held_capture = None
            self._make_line([capture])
            self._step(placed)
            return
        self._decide_pending(placed)
        self._apply(placed)

    def _decide_unseen_capture(self, event: SquareEvent | None) -> None:
        """The other side's lift or clock, or the end of input, makes the capture no scan showed
        (`_capture_in_one_scan`); another move of a hand, such as the piece landing, says the clock was
        pressed early. A lift from the capture's square waits for this decision: it took the victim off
        after the press, or the other side lifted the capturer."""
        board = self._board
        pressed = CLOCK_BUTTONS.get(event.button) if type(event) is ButtonPressed else None  # a clock's side
        if type(event) in (BoardSnapshot, LinkChanged) or (type(event) is ButtonPressed and pressed is None):
            return  # no hand moved: the next event decides
        capture, self._unseen_capture = self._unseen_capture, None
        theirs = board.occupied_co[not board.turn] & self._occupied
        if event is None or (
            type(event) is PieceLifted and theirs & chess.BB_SQUARES[self._map(event.square)]
        ) or pressed == (not board.turn):
            assert capture is not None  # it is decided only when there is one (`_decide_pending`)
            self._make_line([capture])
        held, self._lift_on_unseen = self._lift_on_unseen, None
        if held is not None:
            self._step(held)

    def _rechoose(self, piece: chess.PieceType) -> None:
        """A promotion button after the mover's clock, before the other side began, changes the piece."""
        last = self._board.peek()
        self._verdict = Verdict("rechoose", move=chess.Move(last.from_square, last.to_square, piece))
        if self._verdict.move != last:
            self._fire("rechoose")

    def _first_event(self, square: chess.Square | None) -> None:
        """The other side began on `square` (None: the input ended). A promotion button pressed before, which
        either side may have meant, was the other side's if this starts a promotion, else the last mover's."""
        self._late_promotion = False
        piece, self._either_press = self._either_press, None
        if piece is None:
            return
        if any(square in (move.from_square, move.to_square) for move in _promotions(self._board)):
            return
        self._promotion = None
        self._rechoose(piece)

    # ---------------------------------------------------------------- classification

    def _settle(self, after_lift: bool, *, knock: bool = False) -> None:
        """Classify what the sensors show and fire the trigger the class names, if any (`knock`: a place that
        put back a knocked piece)."""
        verdict = self._classify(after_lift)
        unexplained = verdict.trigger == "misplace"
        if verdict is NOTHING and self.mode is Mode.ILLEGAL:
            # a misplaced board picked up again is the game's with pieces in hand or a move under way
            expected, occupied = self.expected, self._occupied
            unexplained = bool(occupied & ~expected.occupied) and not is_partial(expected, occupied)
            if not unexplained and self._t - self._misplaced_at <= BOUNCE_SECONDS:
                self._fire("restore")  # misplaced only for a flicker (a slide, a straddle): the move goes on
                return
        if unexplained and (self._misread_capture() or self._misread_correction() or self._moved_together()
                            or self._replied_to_unseen_castling() or self._lost_line()
                            or self._knocks_read_as_moves()):
            return
        if verdict is NOTHING:
            if not after_lift and not self._lost_line() and self._open is None and self.mode is Mode.PLAYING:
                capture = self._latent_capture(self._occupied, with_reply=False)
                if capture is not None:  # its piece still in hand, as far as the events tell
                    self._unlanded_capture = (len(self._board.move_stack), capture)
            return
        if verdict.trigger == "reply":
            if self._other_side_lifted is not None:
                return  # the lift that shows the reply may be a bounce: decide at the next event
            self._fire("commit")
            verdict = self._classify(after_lift)
        elif verdict.trigger == "latent":
            if knock and self.mode is not Mode.ILLEGAL:
                return  # the pieces a hand brushed are back, not two captures each quicker than a bounce
            assert verdict.move is not None  # a latent verdict names its capture
            self._commit_latent(verdict.move, reply_follows=True)
            verdict = self._classify(after_lift)
        elif verdict.trigger == "complete_castling":
            self._fire("take_back")
            verdict = Verdict("show_move", move=verdict.move)
        if verdict.trigger is None:
            return
        if verdict.trigger in ("hold_take_back", "hold_retract"):
            self._held_undo = verdict.trigger.removeprefix("hold_")  # decided by the next event
            return
        if verdict.trigger == "shows_game":
            self._back_to_the_game(knock=knock)
            return
        if verdict.trigger == "shows_open":
            self._segment.lifted &= ~self._segment_open.lifted  # a touch after the move proves nothing
            self._segment_open.rest()
            for move, segment in self._alternatives:
                if occupancy_after(self._board, move, self._shapes) == self._open_occupied:
                    segment.rest()  # nor for an earlier move the board shows too (a king step, as castling)
            if self.mode is Mode.ILLEGAL:
                self._fire("restore")
            return
        if verdict.trigger == "misplace" and self.mode is Mode.ILLEGAL and (
            (verdict.to_empty, verdict.to_fill) == self._fix
        ):
            return
        if verdict.trigger == "set_up":
            self._set_up()
            return
        self._verdict = verdict
        self._fire(verdict.trigger)

    def _fixed_after_offline_moves(self) -> bool:
        """Does a place on a board a reconnect reported misplaced leave it showing moves made while the link
        was down (a piece knocked meanwhile, now put back, where the report asked or where such a move took
        it)? They are made, as the reconnect would have made them: the spec's legal successor of the last
        good position, which a capture's shows only by occupancy."""
        if not self._misplaced_offline or self.mode is not Mode.ILLEGAL or (
                self._occupied == self.expected.occupied):
            return False  # fixed: the game, its open move standing
        line = self._offline_moves(self._occupied, self._pieces)
        if line is None:
            return False
        self._make_offline(line)
        return True

    def _back_to_the_game(self, *, knock: bool = False) -> None:
        """The board shows the game's position again: an open move was put back, or the position fixed."""
        self._unlanded_capture = None  # a capture's piece put back: a touch
        if self.mode is Mode.ILLEGAL:
            if not knock:
                self._rebase()  # what the hands did on a misplaced board is no evidence; a knock is nothing
            self._fire("retract" if self._open is not None else "restore")
            return
        self._segment.rest()
        self._segment_open.rest()
        if self._open is not None:
            self._fire("retract")

    def _misplace(self) -> None:
        """A reconnect's snapshot shows what no continuation explains: report the squares to fix to get back
        to the expected position; once fixed, the board may show moves made meanwhile."""
        self._rebase()
        self._verdict = self._illegal(self.expected)
        self._fire("misplace")
        self._misplaced_offline = True

    def _set_up(self) -> None:
        """The pieces were set up again: a move still open when that began was made first, and so was a
        capture the board showed with its piece read as still in hand (`_make_unlanded`)."""
        if self._open is not None:
            self._fire("commit")
        else:
            self._make_unlanded()
        self._fire("set_up")

    def _make_unlanded(self) -> None:
        """Make the capture the board showed at rest with its piece read as still in hand (its victim's square
        filled again quicker than a bounce), if no move and no known position came since: the input ended,
        or the pieces were set up again, and the piece was never seen landing elsewhere (the game's last
        capture, a mate, then the king laid down or the pieces cleared)."""
        unlanded, self._unlanded_capture = self._unlanded_capture, None
        if unlanded is not None and self.mode in (Mode.PLAYING, Mode.ILLEGAL):
            plies, capture = unlanded
            if plies == len(self._board.move_stack) and self._board.is_legal(capture):
                self._make_line([capture])

    def _classify(self, after_lift: bool) -> Verdict:
        """What the board shows now, checked in this order: a legal move from the game (or its
        open move again), the other side's reply to the open move, the game's position again, a
        capture whose piece landed before its lift, half a castling, a capture that looked like a
        touch, then, once the board holds as many pieces as the expected position or one more or
        fewer, a takeback, a new set-up, a move caught halfway (nothing yet), a castling completed
        after its first half was made final, or an illegal position."""
        occupied = self._occupied
        board = self._board
        if self.mode is Mode.GAME_OVER:
            return Verdict("set_up") if occupied == START_OCCUPANCY else NOTHING
        if after_lift and self._open is None and self.mode is Mode.PLAYING and self._only_in_hand(occupied):
            return NOTHING
        moves = matching_moves(board, occupied, self._segment, self._shapes, self._open, self._pieces)
        if after_lift and moves:  # shown by a lift: a capture's piece landed first on its victim's square
            moves = [move for move in moves if not self._left_late(move)]
        move = self._choose(board, moves, misread=True) if moves else None
        if move is not None:
            if move == self._open and self.mode is not Mode.ILLEGAL:
                shown_again = self._shows_open()
                if occupied == board.occupied and (shown_again is NOTHING or self._swapped_back()):
                    return self._shows_game()  # a transposition swapped back (the pieces reported say so)
                return shown_again
            if self._may_replace(move) and not self._touched_after_castling(occupied):
                return self._as_move(move)
        if self._open is not None:
            if occupied == self._open_occupied and (
                (shown_again := self._shows_open()) is not NOTHING or occupied != board.occupied
            ):
                return shown_again  # or a transposition castling the pieces named show swapped back (below)
            if self._may_show_reply(occupied) and matching_moves(
                self._after(), occupied, self._segment_open, self._shapes_open()
            ):
                return Verdict("reply")
        if occupied == board.occupied and self._may_replace(None):
            if self._open is None and self.takebacks and self._undoes_transposition():
                return Verdict("take_back")
            rest, move = self._shows_game(), self._open
            if rest is not NOTHING and move is not None and self._board.is_capture(move) and (
                self._may_be_placed_first(self._after(), move, self._segment_open)
            ):
                return Verdict("hold_retract")  # or the other side's reply placed before its lift
            return rest
        if after_lift and self._open is None and (capture := self._placed_first_capture(occupied)):
            return Verdict("show_move", move=capture)
        if self._open is not None and self._knocked_back(self._open.from_square) and (
            capture := self._placed_first_capture(occupied)
        ) and capture != self._open:
            return Verdict("show_move", move=capture)  # the open move's piece was knocked; another took
        for shape in self._shapes:
            half = shape.halves.get(occupied)
            if half is None:
                continue
            king_at, rook_at = half
            moved_king = king_at == shape.king_to and rook_at == shape.rook_from
            moved_rook = rook_at == shape.rook_to and king_at == shape.king_from
            if moved_king or moved_rook:
                return Verdict("show_castling_half", move=shape.move, shape=shape)
            return NOTHING
        if self._open is None and (latent := self._latent_capture(occupied, with_reply=True)):
            return Verdict("latent", move=latent)
        count = occupied.bit_count()
        expected_count = (self._open_occupied if self._open is not None else board.occupied).bit_count()
        may_take_back = self._open is None and self.takebacks
        if may_take_back and expected_count <= count <= expected_count + 1 and self._is_takeback():
            if count > expected_count and self._may_be_placed_first(board, board.peek(), self._segment):
                return Verdict("hold_take_back")  # or the next move placed before its lift
            return Verdict("take_back")  # one more piece than now: a captured piece was put back
        if occupied == START_OCCUPANCY:
            return Verdict("set_up")  # with the pieces captured so far put back, too
        more = count - expected_count
        if more < -1 or (after_lift and more < 0):
            return NOTHING
        reference = self.expected
        if more > 0 and (more > 1 or occupied & reference.occupied != reference.occupied):
            return NOTHING  # pieces set down mid-move; one beside the game's position is judged below
        if is_partial(reference, occupied) or (self._open is not None and is_partial(board, occupied)):
            return NOTHING
        if may_take_back and self._is_takeback(halfway=True):
            return NOTHING  # a capture taken back, its victim not yet put back
        if self._open is None and (castling := self._castling_completed(occupied)):
            return Verdict("complete_castling", move=castling)
        if more < 0 and (is_partial(reference, occupied, in_hand=1) or self._castling_in_hand()):
            return NOTHING  # a move made, or under way, with another piece still in hand: not settled
        return self._illegal(reference)

    def _castling_in_hand(self) -> bool:
        """Were the mover's king and one of its rooks off the board together: a castling under way, legal or
        not, whose second piece is still in hand (the board settles, and is judged, when it lands)?"""
        board, segment = self._board, self._segment
        king, rooks = board.king(board.turn), board.pieces_mask(chess.ROOK, board.turn)
        return king is not None and any(segment.held_together(king, r) for r in chess.scan_forward(rooks))

    def _placed_first_capture(self, occupied: chess.Bitboard) -> chess.Move | None:
        """A capture whose piece left its square just after a piece landed on its victim's (lifted first, not
        a bounce): the board reported the place before the lift. Shown, it stays open to correction."""
        capture = self._latent_capture(occupied, with_reply=False)
        if capture is None:
            return None
        victim = capture.to_square
        if self._refilled_in_a_bounce(victim) and not self._segment.landed_before_bounce(victim):
            return None  # the victim's square only bounced
        return capture if self._landed_just_before_lift(capture) else None  # none if emptied by a snapshot

    def _only_in_hand(self, occupied: chess.Bitboard) -> bool:
        """The common lift, settled on occupancy alone: pieces of the game in the air, none put anywhere,
        no piece of the other side touched (no capture can be under way), no castling shape."""
        board = self._board
        return (
            occupied != board.occupied
            and not occupied & ~board.occupied
            and not self._segment.ever & occupied & board.occupied_co[not board.turn]
            and not any(shape.after == occupied or occupied in shape.halves for shape in self._shapes)
        )

    def _may_replace(self, move: chess.Move | None) -> bool:
        """An open move is replaced (or, with None, retracted) only by picking its piece up again, by
        completing the castling it is the first half of, or, if a capture, by its piece landing elsewhere
        with the victim still there or by the board showing the game again in any way."""
        open_move = self._open
        if open_move is None or self._knocked_back(open_move.from_square):
            return True  # its origin filled again within a bounce: a knock, and another piece placed
        if move is not None and self._board.is_castling(move):
            shape = shape_of(self._shapes, move)
            if open_move.from_square in (shape.king_from, shape.rook_from):
                return True  # the castling king or rook moved first: only its side can finish
        targets = chess.BB_SQUARES[open_move.to_square]
        picked_up = self._segment_open.lifted
        if self._board.is_castling(open_move):
            shape = shape_of(self._shapes, open_move)
            targets = shape.targets
            if shape.is_transposition:
                picked_up = self._segment_open.ever  # swapped back, it looks as if shown again
        elif self._board.is_capture(open_move) and (move is None or self._only_touched(open_move, move)):
            # with None, the board shows the game: the capture taken back (its victim put back first looks
            # touched), a quick swap misread as a bounce, or the pieces of a capture out of turn put back,
            # capturer first; unless the next event is a reply placed on its origin first
            # (`_decide_held_undo`)
            return True
        return bool(picked_up & targets)

    def _touched_after_castling(self, occupied: chess.Bitboard) -> bool:
        """Does the board show the open castling again after one of its pieces was only touched? A king or
        rook move leaving the same squares (the king placed before its lift gave no sign the two were in
        hand together) is no reason to replace it."""
        open_move = self._open
        return (open_move is not None and occupied == self._open_occupied
                and self._board.is_castling(open_move) and self._segment_open.ever.bit_count() == 1)

    def _knocked_back(self, square: chess.Square) -> bool:
        """Was the piece on `square` lifted and put back within `BOUNCE_SECONDS`, and is it there now?"""
        occupied = bool(self._occupied & chess.BB_SQUARES[square])
        return occupied and self._refilled_in_a_bounce(square)

    def _only_touched(self, capture: chess.Move, move: chess.Move) -> bool:
        """Is `capture` one (not en passant) and `move` from its square to an empty one, with the capture's
        square full: its piece lands while the victim stands, so the capturer never landed there (lifted
        with the capturer in hand, the victim was only touched)? The other side's reply placed before its
        lift looks the same at first; its lift then makes the capture an earlier open move it explains."""
        victim_square = capture.to_square
        board = self._board
        return (
            move.from_square == capture.from_square and move.to_square != victim_square
            and board.is_capture(capture) and not board.is_en_passant(capture)
            and bool(self._occupied & chess.BB_SQUARES[victim_square])
            and self._pieces.get(victim_square) in (None, board.piece_at(victim_square))
        )

    def _may_show_reply(self, occupied: chess.Bitboard) -> bool:
        """Could `occupied` be a complete reply to the open move? Every reply fills a square, except a
        capture whose victim was lifted and put back (a transposition castling shows no change at all)."""
        return bool(occupied & ~self._open_occupied or occupied & self._segment_open.lifted)

    def _make(self, move: chess.Move) -> None:
        """Show and commit at once a legal move the events never showed as it happened."""
        self._show(move)
        self._fire("commit")

    def _show(self, move: chess.Move) -> None:
        """Show a legal move the events never showed as it happened, open to correction as any move."""
        self._verdict = Verdict("show_move", move=move)
        self._fire("show_move")

    def _shows_game(self) -> Verdict:
        """The board shows the game's position again, unless identified pieces say a capture is under way."""
        return Verdict("shows_game") if agrees(self._board, self._pieces) else NOTHING

    def _illegal(self, reference: chess.Board) -> Verdict:
        to_empty, to_fill = self.squares_to_fix(reference)
        return Verdict("misplace", to_empty=to_empty, to_fill=to_fill)

    def _as_move(self, move: chess.Move) -> Verdict:
        """A move, or an ordinary move that is also the first half of a castling."""
        if self._shapes and not self._board.is_castling(move):
            for shape in self._shapes:
                if (move.from_square, move.to_square) in shape.steps:  # the king's half or the rook's
                    return Verdict("show_provisional", move=move, shape=shape)
        return Verdict("show_move", move=move)

    def _choose(
        self, board: chess.Board, moves: list[chess.Move], *, misread: bool = False
    ) -> chess.Move | None:
        """Castling shown by the events first; then the promotion piece reported, chosen, or a queen.

        A piece the board identifies on a move's destination that cannot be there after it
        rules the move out: a pawn reported back on e3 is no queen capturing on e3. With `misread`,
        a name that rules out every move and that no piece in play can have is a misread.
        """
        first, pieces = moves[0], self._pieces
        if (len(moves) == 1 and first.to_square not in pieces) or board.is_castling(first):
            return first
        named = [m for m in moves if pieces.get(m.to_square) in (None, self._placed(board, m))]
        if named:
            moves = named
        elif not misread or not all(self._misnamed(board, m.to_square) and self._may_have_landed(board, m)
                                    for m in moves):
            return None  # else a misread: what presence shows stands
        first = moves[0]
        if len(moves) == 1:
            return first
        if self._open in moves and first.to_square not in pieces:
            return self._open  # touching a promoted piece does not change what it became
        if first.to_square != moves[-1].to_square:  # several victims lifted: where did the piece land?
            landing = min(moves, key=self._landing_doubt).to_square
            moves = [move for move in moves if move.to_square == landing]
            first = moves[0]
        if first.promotion:  # a name that fits one promotion chose it above; one that fits none is a misread
            wanted = self._promotion.piece if self._promotion else chess.QUEEN
            for move in moves:
                if move.promotion == wanted:
                    return move
        return first

    def _may_have_landed(self, board: chess.Board, move: chess.Move) -> bool:
        """May the piece named on `move`'s square be the moving one, misread? Not if it was set down there
        longer before that piece left than a place is read before its lift, and the game has a piece of its
        name off the board: that is a captured piece put back (the pieces set up again)."""
        window = CAPTURE_PLACED_FIRST_SECONDS if board.is_capture(move) else PLACED_FIRST_SECONDS
        landed, left = self._placed_at.get(move.to_square), self._lifted_at.get(move.from_square)
        if landed is None or left is None or left - landed <= window:
            return True
        return not taken_earlier(board.root(), board, self._pieces[move.to_square])

    def _misnamed(self, board: chess.Board, square: chess.Square) -> bool:
        """Does the board name on `square` a piece of the side to move that none of its pieces can be (a
        worn piece, a sensor fault): none in hand, none put back in a takeback? The other side's piece is
        their move shown early (placed before its lift, a capture under way), or a victim put back."""
        piece = self._pieces[square]
        if piece.color != board.turn:
            return False
        if board.pieces_mask(piece.piece_type, piece.color) & ~self._occupied:
            return False  # one in hand
        if not board.move_stack or self._hand_may_take(board, square):
            return True  # a piece in hand takes there: a victim put back would leave it unexplained
        last = board.pop()
        try:
            return board.piece_at(square) != piece  # else a victim put back, taking the last move back
        finally:
            board.push(last)

    def _landing_doubt(self, capture: chess.Move) -> tuple[bool, bool, bool]:
        """Of several pieces lifted that one piece could take, the victim is where it landed: a square the
        board named the landing piece on, not one filled again while the piece still stood on its origin,
        nor one lifted and filled again within a bounce (knocked as the hand passed)."""
        victim = capture.to_square
        landed_first = self._segment.landed_before_left(victim, capture.from_square)
        brushed = self._refilled_in_a_bounce(victim)
        return victim not in self._pieces, landed_first, brushed

    def _piece_expected(self, square: chess.Square) -> chess.Piece | None:
        """What should stand on `square`: as identified, else as the game (and open move) says."""
        if square in self._pieces:
            return self._pieces[square]
        return self._piece_after_open(square) if self._open is not None else self._board.piece_at(square)

    @staticmethod
    def _placed(board: chess.Board, move: chess.Move) -> chess.Piece | None:
        if move.promotion:
            return chess.Piece(move.promotion, board.turn)
        return board.piece_at(move.from_square)

    def _is_takeback(self, *, halfway: bool = False) -> bool:
        """Do the events undo the last move: the board shows the position before it, and the squares
        it filled were emptied? With `halfway`, a capture undone but for its victim put back (or, en passant,
        its pawn), or a castling with its king or rook still in hand or on the way back."""
        board = self._board
        if not board.move_stack:
            return False
        last = board.pop()
        castling = board.is_castling(last)
        try:
            before = board.occupied
            if halfway and castling:
                shape = shape_of(castling_shapes(board), last)
                return bool(self._segment.lifted & shape.targets) and self._occupied in shape.halves
            if halfway:
                if not board.is_capture(last):
                    return False
                en_passant = board.is_en_passant(last)
                empty = last.to_square ^ 8 if en_passant else last.to_square  # the victim's, not yet back
                if en_passant and self._occupied == before & ~chess.BB_SQUARES[last.from_square]:
                    empty = last.from_square  # the victim put back first, the pawn in hand (apart only here)
                before &= ~chess.BB_SQUARES[empty]
            if before != self._occupied or not agrees(board, self._pieces):
                return False
            if castling:
                shape = shape_of(castling_shapes(board), last)
                if shape.is_transposition:
                    return self._segment.held_together(shape.king_to, shape.rook_to)
                moved = [to for frm, to in shape.steps if frm != to]  # king-only and rook-only castlings
                return all(self._segment.ever & chess.BB_SQUARES[square] for square in moved)
            # touches count: a victim put back before its capturer refills the square, and looks touched
            return bool(self._segment.ever & chess.BB_SQUARES[last.to_square])
        finally:
            board.push(last)

    def _swapped_back(self) -> bool:
        """King and rook of an open transposition castling in hand together again: put back, it is
        retracted, as the first time in hand together made it a castling (a touch takes one piece)."""
        shape = next((s for s in self._shapes if s.move == self._open), None)
        return shape is not None and self._segment_open.held_together(shape.king_to, shape.rook_to)

    def _undoes_transposition(self) -> bool:
        """King and rook that swapped squares in castling, swapped back: the occupancy never changes."""
        return bool(self._segment.together) and self._is_takeback()  # only it keeps the occupancy

    @staticmethod
    def _may_be_placed_first(position: chess.Board, capture: chess.Move, segment: Segment) -> bool:
        """Could the events that undid `capture` victim first (so that its square looks only touched)
        also be a touch of the capturer and the next move from `position` shown on the capture's
        origin before its lift, landing there or sliding over it?"""
        if segment.was_lifted(capture.to_square):
            return False  # the capturer went back first: the victim put back ends it
        origin = capture.from_square
        return any(position.generate_legal_moves(to_mask=chess.BB_SQUARES[origin])) or (
            slides_over(position, origin))

    def _repromote(self) -> None:
        """A promotion button while a promotion is open changes its piece."""
        move = self._open
        if move is None or not move.promotion or move.to_square in self._pieces:
            return
        assert self._promotion is not None  # a button was just pressed
        chosen = chess.Move(move.from_square, move.to_square, self._promotion.piece)
        if chosen != move and self._board.is_legal(chosen):
            self._set_open(chosen)

    # ---------------------------------------------------------------- transitions' callbacks

    def _fire(self, trigger: str) -> None:
        """Take the first line of the mode table for this mode and trigger whose conditions hold."""
        for route in ROUTES.get((self.mode, trigger), ()):
            conditions = route.conditions
            if not conditions or all(getattr(self, name)() == wanted for name, wanted in conditions):
                self.mode = route.dest
                for callback in route.after:
                    getattr(self, callback)()
                return
        raise RecognitionError(f"recognizer bug: {trigger} in mode {self.mode.name}")

    def has_open(self) -> bool:
        return self._open is not None

    def open_is_moved(self) -> bool:
        return self._open is not None and self._open_kind is Mode.MOVED

    def open_is_provisional(self) -> bool:
        return self._open is not None and self._open_kind is Mode.PROVISIONAL

    def open_is_castling_half(self) -> bool:
        return self._open is not None and self._open_kind is Mode.CASTLING

    def take_open(self) -> None:
        shown, move = self._open, self._verdict.move
        assert move is not None  # the verdicts that show a move name it
        if shown is not None and self._only_touched(shown, move):
            self._segment.forget(shown.to_square)  # only touched: no victim for a later change of mind
        self._open_kind = self.mode  # the mode the move entered, to go back to once the board is put right
        self._set_open(move)

    def _set_open(self, move: chess.Move) -> None:
        self._other_side_lifted = None
        board, named = self._board, self._pieces.get(move.to_square)
        if named is not None and not board.is_castling(move) and named != self._placed(board, move):
            del self._pieces[move.to_square]  # misread (see `_choose`): no later check may trust it
        if self._open is None:
            self._first_shown = self._index
        elif self._open.to_square != move.to_square:
            self._alternatives = [*self._alternatives[-1:], (self._open, self._segment_open)]
        self._open = move
        self._open_index = self._index
        self._open_at = self._t
        self._after_open = None
        self._open_occupied = occupancy_after(self._board, move, self._shapes)
        self._open_theirs = self._board.occupied_co[not self._board.turn] & self._open_occupied & ~(
            chess.BB_SQUARES[move.to_square] if not self._board.is_castling(move) else 0
        )
        self._open_shapes = None
        self._segment_open = Segment(self._occupied)

    def _close_open(self) -> None:
        """No move is open any more, nor are the moves it replaced."""
        self._open = None
        self._after_open = None
        self._alternatives = []

    def _after(self) -> chess.Board:
        """The game with the open move played, built only when something needs more than occupancy."""
        if self._after_open is None:
            assert self._open is not None  # asked only with an open move
            self._after_open = after_move(self._board, self._open)
        return self._after_open

    def _ends_with_open(self, placed: PiecePlaced) -> bool:
        """Does the open move end the game (`_ends_game`), and is `placed`, with the move's piece still
        standing, on no square that piece could have gone to instead? Then the game is over and the move
        final: a piece of the next set-up is no part of it. The move's own piece may still be moved on (a
        change of mind, slid on or reported landing before its lift), or a button choose another promotion;
        and a capture own piece first may still be a victim touched with the piece in hand."""
        open_at, move, board = self._open_at, self._open, self._board
        assert move is not None  # asked only with an open move
        origin, target, square = move.from_square, move.to_square, self._map(placed.square)
        standing = self._occupied & chess.BB_SQUARES[target]
        if placed.t - open_at <= SCAN_SECONDS or move.promotion or not standing:
            return False
        if not _ends_game(self._after()) or board.is_insufficient_material():  # not this move's ending
            return False
        # the move's piece may land here: slid on or moved on (its place reported before its lift), or the
        # piece in hand after its victim was touched
        return not board.is_legal(chess.Move(origin, square))

    def _piece_after_open(self, square: chess.Square) -> chess.Piece | None:
        """What stands on `square` once the open move is made, without making it."""
        board, move = self._board, self._open
        assert move is not None  # asked only with an open move
        if board.is_castling(move):
            shape = shape_of(self._shapes, move)
            if square == shape.king_to:
                return chess.Piece(chess.KING, board.turn)
            if square == shape.rook_to:
                return chess.Piece(chess.ROOK, board.turn)
            if square in (shape.king_from, shape.rook_from):
                return None
            return board.piece_at(square)
        if square == move.to_square:
            return self._placed(board, move)
        if square == move.from_square or (board.is_en_passant(move) and square == move.to_square ^ 8):
            return None
        return board.piece_at(square)

    def _shows_open(self) -> Verdict:
        """The board shows the open move again, unless identified pieces say a capture is under way."""
        agrees = all(self._piece_after_open(square) == piece for square, piece in self._pieces.items())
        return Verdict("shows_open") if agrees else NOTHING

    def _shapes_open(self) -> tuple[CastlingShape, ...]:
        if self._open_shapes is None:
            self._open_shapes = castling_shapes(self._after())
        return self._open_shapes

    def report_provisional(self) -> None:
        move, shape = self._verdict.move, self._verdict.shape
        assert move is not None and shape is not None  # a half of a castling names both
        self._out.append(MoveProvisional(move=move, before=self._board.copy(stack=False), castling=shape.move,
                                         t=self._t))

    def commit_open(self) -> None:
        self._detect_rotation = False
        board, move, press = self._board, self._open, self._promotion
        assert move is not None  # the table commits only an open move
        if move.promotion and press is not None and press.spare and move.to_square not in self._pieces and (
                not _promotions(after_move(board, move))):
            # no promotion of theirs can use it: the mover's second thoughts, the later press chooses
            move = chess.Move(move.from_square, move.to_square, press.piece)
            press = press._replace(spare=False)
        board.push(move)
        self._made_at.append(self._t)
        self._out.append(MoveRecognized(move=move, ply=len(board.move_stack), t=self._t, line=self._line,
                                        index=self._line.append(move)))
        if press is not None and (self._first_shown > press.nth or (move.promotion and not press.spare)):
            self._promotion = None  # pressed before this move (or the first it replaced) showed, or for it
        self._replaced = tuple(replaced for replaced, _ in self._alternatives)
        self._close_open()
        self._other_side_lifted = None
        self._segment = self._segment_open
        self._shapes = castling_shapes(board)
        self._check_ending()

    def rechoose_last(self) -> None:
        """A promotion button after the mover's clock, before the other side began: the piece changes."""
        self._undo_last()
        assert self._verdict.move is not None  # `_rechoose` names the move
        self._set_open(self._verdict.move)
        self.commit_open()

    def drop_open(self) -> None:
        if self._open is not None and self._open.promotion:
            self._promotion = None  # the button chose the piece of this try; made again, it may differ
        self._other_side_lifted = None
        self._close_open()

    def take_back_last(self) -> None:
        """A takeback: the turn it undoes takes with it a promotion button pressed in it, and the clock press
        that had confirmed the move; made on a board misplaced at a reconnect, it leaves that board."""
        self._undo_last()
        self._promotion = None
        self._misplaced_offline = False
        self._plies_at_press = min(self._plies_at_press, len(self._board.move_stack))

    def _undo_last(self) -> None:
        self._repetitions[_repetition_key(self._board)] -= 1  # the position taken back never stood
        move = self._board.pop()
        self._made_at.pop()
        self._replaced = ()
        self._out.append(MoveTakenBack(move=move, san=self._board.san(move), t=self._t))
        self._line = Line(self._board)
        self._rebase()

    def report_illegal(self) -> None:
        verdict = self._verdict
        if self._fix is None:
            self._misplaced_at = self._t
        self._fix = (verdict.to_empty, verdict.to_fill)
        self._out.append(IllegalPosition(to_empty=verdict.to_empty, to_fill=verdict.to_fill, t=self._t))

    def report_restored(self) -> None:
        self._fix = None
        self._misplaced_offline = False
        self._out.append(PositionRestored(t=self._t))

    def start_new_game(self) -> None:
        self.archive.append(self.pgn())
        if self._auto_rotation and self._new_game_turned():
            self._turn()
        self._detect_rotation = self._auto_rotation
        self.start, named = self._set_up_start(), self._pieces
        self._reset_game(self.start)
        if agrees(self.start, named):
            self._pieces = named  # the names stand: pieces the next set-up leaves where they are keep them
        self._out.append(NewGame(fen=self.start.fen(), t=self._t))

    def _set_up_start(self) -> chess.Board:
        """The position the pieces were set up in: the game's start again (standard chess after a FEN start
        whose pieces did not fill the start's ranks), unless the pieces the board named disagree with it,
        name a piece on every file of the first or last rank, and fit one Chess960 start alone (players may
        set up the next game's draw, on a board that names only the pieces it reports landing; one piece
        named wrongly among a few put back is no new position)."""
        again = self.start if self.start.occupied == START_OCCUPANCY else chess.Board(chess960=True)
        named = {square: piece for square, piece in self._pieces.items()
                 if START_OCCUPANCY & chess.BB_SQUARES[square]}
        files = {chess.square_file(square) for square in named if chess.square_rank(square) in (0, 7)}
        if len(files) < 8 or agrees(again, named):
            return again
        fits = [number for number in range(960) if _in_start(numbering.scharnagl_rank(number), named)]
        return chess.Board.from_chess960_pos(fits[0]) if len(fits) == 1 else again

    def report_game_over(self) -> None:
        outcome = self._board.outcome()
        termination = outcome.termination.name.lower() if outcome else "unknown"
        result = outcome.result() if outcome else "*"
        self._out.append(GameOver(result=result, termination=termination, t=self._t))

    # ---------------------------------------------------------------- bookkeeping

    def _reset_game(self, start: chess.Board) -> None:
        self._board = start.copy(stack=False)
        self._board.chess960 = True
        self._line = Line(self._board)
        self._made_at: list[float] = []  # when each move of the game was made
        self._occupied = self._board.occupied
        self._pieces: dict[chess.Square, chess.Piece] = {}
        self._open: chess.Move | None = None
        self._open_kind: Mode | None = None
        self._open_index = self._index
        self._first_shown = self._index  # the open move's, or the first one it replaced
        self._open_at = self._t
        self._after_open: chess.Board | None = None
        self._open_occupied: chess.Bitboard = 0
        self._open_theirs = 0  # the other side's pieces once the open move is made
        self._open_shapes = None
        self._alternatives: list[tuple[chess.Move, Segment]] = []
        self._replaced: tuple[chess.Move, ...] = ()  # the open moves the last committed move replaced
        self._shapes = castling_shapes(self._board)
        self._segment = Segment(self._occupied)
        self._segment_open = Segment(self._occupied)
        self._fix = None
        self._misplaced_at = self._t  # when the board last went from right to misplaced
        self._misplaced_offline = False
        self._repetitions: dict[tuple[object, ...], int] = {_repetition_key(self._board): 1}
        self._promotion = None
        self._late_promotion = False
        self._either_press: chess.PieceType | None = None  # a button then, which either side may have meant
        self._unseen_capture: chess.Move | None = None  # the mover's clock came with a piece in hand
        self._held_capture: chess.Move | None = None  # a capture the board shows, at a clock that came early?
        self._held_press = None  # the mover's clock, held for the next event (`_decide_press`)
        self._lift_on_unseen = None  # a lift from its square, read once that capture is decided
        self._unlanded_capture = None
        self._place_on_held = None  # a place after a held capture, read at the next event
        self._final_lift = None  # the other side's lift that made the last move final
        self._plies_at_press = 0  # the moves made before the last clock press, which confirmed them
        self._bounced_since_press: chess.Bitboard = 0  # squares that bounced since the last clock press
        self._touched_since_press: chess.Bitboard = 0  # emptied since the last clock press, or empty then

    def _rebase(self) -> None:
        """The board shows a known position: evidence starts afresh."""
        self._unlanded_capture = None
        self._segment = Segment(self._occupied)
        self._segment_open = Segment(self._occupied)
        self._shapes = castling_shapes(self._board)

    def _check_ending(self) -> None:
        board = self._board
        key = _repetition_key(board)
        seen = self._repetitions[key] = self._repetitions.get(key, 0) + 1
        if _ends_game(board) or seen >= 5:
            self._fire("end")
            return
        if seen >= 3:
            self._out.append(DrawClaimable(reason="threefold repetition", t=self._t))
        elif board.is_fifty_moves():
            self._out.append(DrawClaimable(reason="fifty-move rule", t=self._t))
