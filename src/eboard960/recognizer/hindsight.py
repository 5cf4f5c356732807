"""Moves read from what followed them, where the events as they came read otherwise.

A hand can be quicker than the sensors: a victim swept off and the capturer
set down within a bounce, a capture's piece landing before its origin empties,
the other side's move shown before its lift. On presence alone such events
first look like a touch, a bounce or a change of mind; what comes next (the
other side's reply, a clock press, the end of input) tells. `Hindsight` holds
those second readings; `Recognizer` (machine.py) owns the state they read and
the table they fire.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import pairwise

import chess

from eboard960.castling import castling_squares
from eboard960.events import CLOCK_BUTTONS, ButtonPressed, PieceLifted, PiecePlaced, SquareEvent
from eboard960.recognizer.evidence import (
    SCAN_SECONDS,
    FinalLift,
    Lift,
    PromotionPress,
    Segment,
    knocked,
    placed_before_lift,
)
from eboard960.recognizer.explain import (
    CastlingShape,
    after_move,
    agrees,
    castling_shapes,
    is_partial,
    matching_moves,
    occupancy_after,
    reads_as,
    slides_over,
    successors,
    with_promotions,
)
from eboard960.recognizer.table import Mode

# a place reported before its own lift comes from the board's scan order, or a slide: the samples' lifts
# follow within 0.27 s; a lift later than this begins another hand movement
PLACED_FIRST_SECONDS = 0.5
# but a capture placed first may wait longer for its lift (a DGT sample: 0.58 s, 1.38 s where the board named
# the capturer); on presence alone, a lift later than this makes the victim's lift and place a touch
CAPTURE_PLACED_FIRST_SECONDS = 1.0


class Hindsight:
    """The second readings of `Recognizer`, a part of it kept apart: it reads the recognizer's state
    (declared here) and fires through its table (`_fire`, `_make`, `_show`, `_set_open`)."""

    mode: Mode
    _t: float
    _index: int  # lifts and places that changed the board, and snapshots read, so far (buttons do not count)
    _board: chess.Board  # the committed moves
    _occupied: chess.Bitboard  # what the sensors show
    _pieces: dict[chess.Square, chess.Piece]  # pieces the board identified
    _open: chess.Move | None
    _open_kind: Mode | None
    _open_at: float
    _alternatives: list[tuple[chess.Move, Segment]]
    _replaced: tuple[chess.Move, ...]
    _segment: Segment
    _segment_open: Segment
    _last_lift: Lift | None
    _lifted_at: dict[chess.Square, float]
    _made_at: list[float]
    _left_at: dict[chess.Square, float]
    _placed_at: dict[chess.Square, float]
    _held_undo: str | None
    _plies_at_press: int
    _bounced_since_press: chess.Bitboard
    _touched_since_press: chess.Bitboard
    _final_lift: FinalLift | None  # see `_reopen_knocked`
    _open_occupied: chess.Bitboard
    _shapes: tuple[CastlingShape, ...]
    _promotion: PromotionPress | None
    _unseen_capture: chess.Move | None
    _held_capture: chess.Move | None
    # the recognizer's methods it calls, as it calls them
    _map: Callable[[chess.Square], chess.Square]
    _after: Callable[[], chess.Board]
    _shapes_open: Callable[[], tuple[CastlingShape, ...]]
    _only_touched: Callable[[chess.Move, chess.Move], bool]
    _choose: Callable[[chess.Board, list[chess.Move]], chess.Move | None]
    _fire: Callable[[str], None]
    _make: Callable[[chess.Move], None]
    _show: Callable[[chess.Move], None]
    _set_open: Callable[[chess.Move], None]
    _rebase: Callable[[], None]
    _back_to_the_game: Callable[[], None]

    # -------------------------------- the other side began: the open move, an earlier one, or a capture

    def _take_alternative(self, event: SquareEvent | None) -> bool:
        """The other side began, `event` next: if the board shows its reply to an earlier open move and none
        to the open one, make that move the open one again; say whether one was taken. "Late" means the lift
        came more than `PLACED_FIRST_SECONDS` after the open move landed, too late to end a move placed before
        its lift; sooner, a capture `_swept` quicker than a bounce counts as an earlier open move too. Which
        events keep the open move is commented case by case below."""
        quick = self._t - self._open_at <= PLACED_FIRST_SECONDS
        swept = self._swept() if quick else []
        if not self._alternatives and not swept:
            return False
        played, shapes = self._after(), self._shapes_open()
        if matching_moves(played, self._occupied, self._segment_open, shapes):
            return False
        # `event` lands a reply to the open move (the piece the board names, if it names one)
        lands_reply = isinstance(event, PiecePlaced) and self._lands_reply(played, shapes, event)
        late = not quick
        under_way = late and isinstance(event, PiecePlaced | PieceLifted)  # the reply goes on, not a press
        # asked after the other side's lift, with an open move
        assert self._open is not None and self._last_lift is not None
        # late, `event` lifts the open move's piece, which the piece lifted can take (a capture, own piece
        # first)
        target = self._open.to_square
        takes_open = late and isinstance(event, PieceLifted) and self._map(event.square) == target and bool(
            with_promotions(played, self._last_lift.square, target))
        # the reply is no longer in hand, which the open move cannot explain: the mover lifts a piece it
        # cannot take, a piece lands where it cannot go, or its clock is pressed
        lifted = self._last_lift.square
        if isinstance(event, PieceLifted | PiecePlaced):
            square = self._map(event.square)
            mover_or_landing = isinstance(event, PiecePlaced) or played.color_at(square) is not played.turn
            reply_over = mover_or_landing and square != lifted and not with_promotions(played, lifted, square)
        else:
            reply_over = isinstance(event, ButtonPressed) and CLOCK_BUTTONS.get(event.button) == played.turn
        shown = [self._open, *(move for move, _ in self._alternatives)]
        earlier = [*reversed(self._alternatives), *((capture, self._segment_open) for capture in swept)]
        for move, segment in earlier:
            if any(self._never_landed(move, other) for other in shown):
                continue
            if self._never_landed(self._open, move):  # the open move cannot be, whatever the reply shows yet
                self._open_earlier(move, segment)
                return True
            if self._only_touched(move, self._open):  # a capture replaced because its victim stood
                victim, origin = move.to_square, move.from_square
                if self._segment.left_before(victim, origin):  # the victim lifted with the capturer in hand
                    if under_way or lands_reply:
                        continue  # it was only touched
                elif takes_open and self._segment.landed_before_left(victim, origin):
                    continue  # the capture was placed first; its reply, lifted that late, was not
                # else its victim left first: no touch, even where `event` lands a reply
            elif lands_reply or takes_open:
                continue
            after = after_move(self._board, move)
            replies = matching_moves(after, self._occupied, segment, castling_shapes(after))
            if not reply_over:  # a reply's square filled long before its lift: the open move's piece is there
                replies = [reply for reply in replies if not self._landed_long_before(after, move, reply)]
            if move in swept:  # a reply cannot have landed before the capture it answers
                replies = [reply for reply in replies if not self._landed_before(reply, move)]
            if replies and self._choose(after, replies) is not None:  # and the pieces reported agree
                self._open_earlier(move, segment)
                return True
        return False

    def _open_earlier(self, move: chess.Move, segment: Segment) -> None:
        """Make an earlier open move (or a capture read late) the open move again, with its evidence."""
        self._open_kind = Mode.MOVED
        self._set_open(move)
        self._segment_open = segment

    def _swept(self) -> list[chess.Move]:
        """The open move's piece taking a piece of the other side that bounced while it was in hand: a victim
        swept off quicker than a bounce by the capturer landing there, a capture read as an earlier open
        move."""
        assert self._open is not None  # asked only with an open move
        board, segment, origin = self._board, self._segment, self._open.from_square
        theirs = board.occupied_co[not board.turn]
        captures = []
        for victim in segment.bounced:
            choices = with_promotions(board, origin, victim) if theirs & chess.BB_SQUARES[victim] and (
                segment.bounced_while_empty(victim, origin)) else []
            if choices and (capture := self._choose(board, choices)) is not None:
                captures.append(capture)
        return captures

    def _never_landed(self, move: chess.Move, other: chess.Move) -> bool:
        """Was `move` a capture shown only because its victim was knocked and put back, after its piece left
        its origin and longer before that piece left `other`'s square (another move of it shown) than even
        a capture is placed before its lift? The knocked piece was back; the moving one stood on `other`'s."""
        origin, target = move.from_square, move.to_square
        filled, left = self._placed_at.get(target), self._lifted_at.get(other.to_square)
        return (other.from_square == origin and other.to_square != target and filled is not None
                and left is not None and left - filled > CAPTURE_PLACED_FIRST_SECONDS
                and knocked(self._lifted_at.get(target), filled)
                and self._lifted_at.get(origin, filled) < filled)

    def _landed_long_before(self, position: chess.Board, move: chess.Move, reply: chess.Move) -> bool:
        """Did the piece on `reply`'s square, not named, land after `move`'s piece left its square and longer
        before `reply`'s piece left than even a capture is placed before its lift? Then it is not that piece
        but `move`'s own, changed there. One that landed while `move`'s piece still stood was another."""
        square = reply.to_square
        landed, left = self._placed_at.get(square), self._lifted_at.get(reply.from_square)
        moved_on = self._lifted_at.get(move.to_square)
        return (not position.is_castling(reply) and square not in self._pieces and landed is not None
                and left is not None and left - landed > CAPTURE_PLACED_FIRST_SECONDS
                and moved_on is not None and moved_on < landed + SCAN_SECONDS)

    def _landed_before(self, reply: chess.Move, move: chess.Move) -> bool:
        """Was `reply`'s square filled before `move`'s piece landed? Then `reply` cannot answer `move`."""
        return self._placed_at.get(reply.to_square, math.inf) < self._placed_at.get(move.to_square, -math.inf)

    def _lands_reply(
        self, played: chess.Board, shapes: tuple[CastlingShape, ...], event: PiecePlaced
    ) -> bool:
        """Does `event` land a reply to the open move, `played`, with the piece the board names if any?"""
        square = self._map(event.square)
        landed = self._occupied | chess.BB_SQUARES[square]
        replies = matching_moves(played, landed, self._segment_open, shapes)
        if event.piece is None:
            return bool(replies)
        return any(after_move(played, reply).piece_at(square) == event.piece for reply in replies)

    def _reopen_knocked(self, piece: chess.Piece | None) -> None:
        """The other side's piece whose lift made the last move final is back (as `piece`, if named) within
        a bounce, other reports between: it was knocked, which is nothing. The move is open again, as the
        board shows it now: its piece may be in hand again, or on its square with the slide it began still
        going on. A move the knocked piece seemed to make meanwhile is void. Not if it is a king or rook whose
        partner in a castling is in hand, or was off the board with it and is back where a transposition puts
        it: that side is castling (item 9), however quick its hands. Nor while
        another piece of that side is in hand and none of the mover's: its move goes on, and only that piece
        knocked back too would reopen the move."""
        assert self._final_lift is not None  # called only while it is set
        square, lifted_at, plies, lifted_piece = self._final_lift
        self._final_lift = None
        board, shown = self._board, self._open
        in_hand = self._mover_in_hand() | chess.BB_SQUARES[square]
        castles = any(in_hand & shape.pair == shape.pair or (  # or swapped back already, both off at once
            shape.is_transposition and chess.BB_SQUARES[square] & shape.pair
            and self._segment.held_together(shape.king_from, shape.rook_from)) for shape in self._shapes)
        if (not knocked(lifted_at, self._t) or len(board.move_stack) != plies or castles
                or piece not in (None, lifted_piece) or (shown is not None and shown.from_square != square)):
            return
        others = in_hand & ~chess.BB_SQUARES[square]
        if others and not board.occupied_co[not board.turn] & ~self._occupied:
            # the other side lifted more since, none the mover's victim (the mover has nothing in hand): its
            # move began, unless that piece was knocked too
            latest = max(chess.scan_forward(others), key=lambda other: self._lifted_at.get(other, 0.0))
            lifted_then = self._lifted_at.get(latest, 0.0)
            self._final_lift = FinalLift(latest, lifted_then, plies, board.piece_at(latest))
            return
        last = board.pop()  # castling is known from the position before it
        castled = board.is_castling(last)
        board.push(last)
        moved = board.piece_at(last.to_square)
        if castled or self._pieces.get(last.to_square, moved) != moved:
            return  # a castling half's partner is `_castling_completed`'s; a piece named there took it
        if self._slid_into_capture(last, square, lifted_at):
            return
        if shown is not None:
            self._fire("retract")
        if self.mode is Mode.ILLEGAL:
            self._fire("restore")
        self._fire("take_back")
        self._show(last)
        self._segment, self._segment_open = self._in_hand(board.occupied), self._in_hand(self._open_occupied)

    def _in_hand(self, base: chess.Bitboard) -> Segment:
        """Evidence afresh from the position `base`: what is in hand now was lifted."""
        segment = Segment(base)
        for lifted in chess.scan_forward(base & ~self._occupied):
            segment.note_lift(lifted, self._occupied, self._t)
        return segment

    def _slid_into_capture(self, last: chess.Move, square: chess.Square, lifted_at: float) -> bool:
        """Is the piece on `square`, taken up while the last move's piece was in hand and back within a
        bounce, that piece landing there instead: a capture made own piece first, the piece passing over
        its first landing (a slide), now set down on its victim's square? Its piece is in hand again and
        the capture from its origin is legal; the board at rest then shows the capture (`_lost_line`)."""
        if self._occupied & chess.BB_SQUARES[last.to_square] or not lifted_at <= self._placed_at.get(
                last.to_square, -math.inf):
            return False
        before = self._board.copy(stack=1)
        before.pop()
        return any(before.generate_legal_moves(chess.BB_SQUARES[last.from_square], chess.BB_SQUARES[square]))

    def _captures_instead(self, event: SquareEvent | None) -> bool:
        """Is `event` the open move's piece, picked up again, landing on the square of the other side's
        piece just lifted: a change of mind or a slide into a capture, not the other side's move? On a board
        that identifies pieces, the piece may also still touch the open move's square (set down across two
        squares): the board then reports it replacing the other side's piece, in one message."""
        move, board = self._open, self._board
        assert move is not None  # asked only with an open move
        if not isinstance(event, PiecePlaced) or board.is_castling(move) or self._last_lift is None:
            return False
        square, target = self._map(event.square), chess.BB_SQUARES[move.to_square]
        in_hand = bool(self._segment_open.lifted & target) and not self._occupied & target
        replaced = event.piece is not None and event.t == self._last_lift.t and (
            event.piece.piece_type == board.piece_type_at(move.from_square))
        ours = event.piece is None or event.piece.color == board.turn
        lifted_there = square == self._last_lift.square
        return ((in_hand or replaced) and ours and lifted_there
                and bool(with_promotions(board, move.from_square, square)))

    def _straddled_reply(self, lifted_at: float, event: SquareEvent | None) -> bool:
        """Was the last move's change of mind the other side's piece slid, set down across the square it
        left and the one beside it? The fill that read it came within a scan before the open move's piece
        left the square beside, and the other side lifts from it (at `lifted_at`) within a scan of that
        piece's landing. The move the change of mind replaced is made, then the open move (a capture, if its
        piece was the victim taken first), when the board shows the two; not if `event` lands the piece
        lifted where it can go (a quick reply)."""
        move, board, left_at, placed_at = self._open, self._board, self._left_at, self._placed_at
        assert move is not None and self._last_lift is not None  # asked after the other side's lift
        straddled = self._last_lift.square
        if len(board.move_stack) <= self._plies_at_press or board.is_castling(move) or board.is_capture(move):
            return False
        landing = self._map(event.square) if isinstance(event, PiecePlaced) else None
        if landing is not None and with_promotions(self._after(), straddled, landing):
            return False
        last = board.peek()
        if last.to_square != straddled or chess.square_distance(straddled, move.from_square) != 1:
            return False
        filled, left = placed_at.get(straddled, math.inf), left_at.get(move.from_square, -math.inf)
        landed = placed_at.get(move.to_square, math.inf)
        if not (0 <= left - filled <= SCAN_SECONDS and 0 <= lifted_at - landed <= SCAN_SECONDS):
            return False
        before = board.copy()
        before.pop()
        victim_first = left_at.get(move.to_square, math.inf) < filled  # the earlier move's piece taken
        for earlier in reversed(self._replaced):
            if earlier.from_square != last.from_square or not before.is_legal(earlier):
                continue
            after = after_move(before, earlier)
            if after.is_legal(move) and (victim_first or not after.piece_at(move.to_square)) and reads_as(
                    after_move(after, move), self._occupied, self._pieces):
                self._fire("retract")
                self._fire("take_back")
                self._make_line([earlier, move], open_last=True)
                return True
        return False

    def _make_open_final(
        self, occupied: chess.Bitboard, reply_follows: bool, *, chosen: bool = False
    ) -> None:
        """Make the open move final, unless its piece is in hand again and `occupied` (the board before
        the other side began) shows a capture from its origin, or an earlier open move, instead: not when
        the other side's piece just lifted can take it where it landed (a reply, victim first)."""
        taken = reply_follows and self._reply_takes_open()
        capture = None if taken else self._capture_in_hand(occupied, reply_follows)
        if capture is None:
            if not chosen and not taken:  # chosen: the reply picked it among the earlier open moves
                self._back_to_earlier(occupied)
            self._fire("commit")
            return
        self._fire("retract")
        self._commit_latent(capture, reply_follows)

    def _back_to_earlier(self, occupied: chess.Bitboard) -> None:
        """At the mover's clock, the other side's lift or the end of input, the open move's piece was
        picked up again and never landed, and `occupied` is an earlier open move made: the piece only
        brushed that square as it was set down (a straddle). That earlier move is the one made."""
        move, segment = self._open, self._segment_open
        assert move is not None  # called only with an open move
        target = chess.BB_SQUARES[move.to_square]
        if not segment.lifted & target or occupied & target:
            return
        for earlier, earlier_segment in reversed(self._alternatives):
            if occupancy_after(self._board, earlier, self._shapes) == occupied and agrees(
                after_move(self._board, earlier), self._pieces
            ):
                self._open_earlier(earlier, earlier_segment)
                return

    def _capture_in_hand(self, occupied: chess.Bitboard, reply_follows: bool) -> chess.Move | None:
        """A slide or a change of mind into a capture whose victim was swept off quicker than a bounce:
        the open move's piece was picked up again and never landed, and with it in hand a piece it could
        take from its origin was lifted and put back, so that `occupied` is that capture made (but for one
        of the mover's pieces already lifted as the victim of the reply that follows)."""
        move, board, segment = self._open, self._board, self._segment_open
        assert move is not None  # called only with an open move
        target = chess.BB_SQUARES[move.to_square]
        in_hand = segment.lifted & target and not occupied & target  # picked up again, never put back
        if not in_hand or board.is_castling(move):
            return None
        captured = board.occupied & ~chess.BB_SQUARES[move.from_square]  # what any capture from there leaves
        placed_first = occupied & ~captured  # the square of the reply that follows, placed before its lift
        reply_victim = captured & ~occupied  # one of the mover's pieces, lifted by the reply that follows
        if placed_first and not (reply_follows and placed_first.bit_count() == 1 and not reply_victim):
            return None
        if reply_victim and not (
            reply_follows and reply_victim.bit_count() == 1 and reply_victim & board.occupied_co[board.turn]
        ):
            return None
        victims = occupied & board.occupied_co[not board.turn]  # one may be lifted by the reply by now
        # bounced while the open move's square was empty: after it was shown, or before, with the piece in
        # hand (it touched that square too as it was set down: a straddle)
        windows = ((segment, (move.to_square,)), (self._segment, (move.to_square, move.from_square)))
        for evidence, empty in windows:
            for to in reversed(evidence.order):
                if victims & chess.BB_SQUARES[to] and all(evidence.bounced_while_empty(to, e) for e in empty):
                    moves = with_promotions(board, move.from_square, to)
                    if moves and (capture := self._choose(board, moves)) is not None and (
                        not placed_first or self._lifted_may_land(capture, chess.lsb(placed_first))
                    ):
                        return capture
        return None

    def _reply_takes_open(self) -> bool:
        """Was the open move's piece lifted again, and can the other side's piece just lifted take it where
        it landed? Then the open move explains the events (a reply, victim first) as well as a capture read
        from a bounce, or an earlier open move, does, and the spec counts a bounce as nothing. Not if it was
        lifted sooner after it landed than a hand comes back: it was set down across two squares."""
        assert self._open is not None and self._last_lift is not None  # the other side's lift
        target = self._open.to_square
        in_hand = self._segment_open.lifted & ~self._occupied & chess.BB_SQUARES[target]
        landed = self._placed_at.get(target, self._open_at)
        if not in_hand or self._lifted_at[target] - landed <= SCAN_SECONDS:
            return False  # not lifted again, or too soon for a hand: it was set down across two squares
        return bool(with_promotions(self._after(), self._last_lift.square, target))

    def _lifted_may_land(self, move: chess.Move, square: chess.Square) -> bool:
        """Can the other side's piece just lifted go to `square` once `move` is made?"""
        assert self._last_lift is not None  # the other side's lift
        return bool(with_promotions(after_move(self._board, move), self._last_lift.square, square))

    # -------------------------------- a capture undone, or the next move placed first

    def _decide_held_undo(self, event: SquareEvent | None) -> None:
        """A capture undone victim first (taken back, or retracted while open) ends with its piece put
        back on its origin, which is also how the other side's next move looks when a board reports its
        place before its lift: the undoing stands unless this event lifts, soon enough, a piece that can
        go to that square, or within a scan one beside it that can slide over it (and is not told apart by
        the piece the board reported there). A capture whose piece was never lifted again was not undone
        by hand but seen undone (a capture out of turn put back, capturer first) or not at all: then the
        lift may come at any time."""
        trigger, self._held_undo = self._held_undo, None
        soon = PLACED_FIRST_SECONDS
        if trigger == "take_back":
            position, origin = self._board, self._board.peek().from_square
        else:
            assert self._open is not None  # a retract is held only for an open move
            position, origin = self._after(), self._open.from_square
            picked_up = self._segment_open.ever | self._bounced_since_press
            if not picked_up & chess.BB_SQUARES[self._open.to_square]:
                soon = math.inf
        if isinstance(event, PieceLifted) and event.t - self._t <= soon:
            square = self._map(event.square)
            same_piece = self._pieces.get(origin) in (None, position.piece_at(square))
            lifted = self._occupied & chess.BB_SQUARES[square]
            slid = event.t - self._t <= SCAN_SECONDS and slides_over(position, origin, square)
            if same_piece and lifted and (with_promotions(position, square, origin) or slid):
                return  # the next move, placed first (or slid over the origin): the lift completes it
        if trigger == "take_back":
            self._fire("take_back")
        else:
            self._back_to_the_game()

    # -------------------------------- latent captures: the piece landed before its origin emptied

    def _latent_capture(self, occupied: chess.Bitboard, with_reply: bool) -> chess.Move | None:
        """A capture whose piece landed before its origin emptied, so that the board looked touched.

        Presence sensors show "lift victim, place, lift capturer" as a touch and a lift; only
        what follows tells: the other side's complete reply, or the mover's clock, or the end.
        """
        board, segment = self._board, self._segment
        victims = segment.ever & occupied & board.occupied_co[not board.turn]
        ours = board.occupied_co[board.turn]
        origins = board.occupied & ~occupied & ours
        if with_reply:
            origins |= ours & segment.lifted & occupied  # the reply may land where the capturer stood
        if not victims or not origins:
            return None
        # one generator call for every pair, not an is_legal per pair; a pawn's four promotions together
        legal: dict[tuple[chess.Square, chess.Square], list[chess.Move]] = {}
        for capture in board.generate_legal_moves(from_mask=origins, to_mask=victims):
            legal.setdefault((capture.to_square, capture.from_square), []).append(capture)
        if not legal:
            return None
        order = segment.order
        first = {square: index for index, square in reversed(list(enumerate(order)))}  # where it first shows
        targets = dict.fromkeys(to for to in reversed(order) if victims & chess.BB_SQUARES[to])  # once each
        pairs = [(to, frm) for to in targets for frm in chess.scan_forward(origins)
                 if (to, frm) in legal]  # the victim lifted last first, for the ties the sort below leaves
        replying = board.occupied_co[not board.turn] & ~occupied  # the other side's pieces lifted since
        began = min((first[square] for square in chess.scan_forward(replying) if square in first),
                    default=len(order))
        # one lifted before the reply began, and with frm empty, is the likeliest; then the one filled last:
        # the capturer's landing, reported before its lift, came after a touched piece was put back
        placed_at = self._placed_at
        pairs.sort(key=lambda pair: (
            first[pair[0]] > began, not segment.left_before(*pair), -placed_at.get(pair[0], -math.inf)
        ))
        for to, frm in pairs:
            move = self._choose(board, legal[(to, frm)])
            if move is None:
                continue
            after = after_move(board, move)
            if with_reply and self._lifted_after(after.occupied & ~occupied, frm) and not self._left_late(
                move
            ) and (self._replies(after, occupied, move) or self._quick_reply(after, occupied, move)):
                return move
            if not with_reply and after.occupied == occupied:
                return move
        return None

    def _capture_lifted_again(self) -> chess.Move | None:
        """At the end of input: a capture whose piece landed within a bounce of its victim's lift (read as the
        victim knocked back), and whose square was emptied again since. The board showed the capture before
        that lift: the capturer picked up again once its move was made (a mate's pieces cleared away)."""
        board, segment = self._board, self._segment
        for square in chess.scan_forward(board.occupied_co[not board.turn] & ~self._occupied & segment.ever):
            if square in segment.bounced and (
                capture := self._latent_capture(self._occupied | chess.BB_SQUARES[square], with_reply=False)
            ) and capture.to_square == square and segment.bounced_while_empty(square, capture.from_square):
                return capture
        return None

    def _replies(self, after: chess.Board, occupied: chess.Bitboard, capture: chess.Move) -> list[chess.Move]:
        """The replies to a latent `capture` that `occupied` shows. One that takes the capturer lands where it
        landed: a single landing there (a neighbour wobbling as the capturer came down) is the capture's."""
        segment = self._segment
        replies = matching_moves(after, occupied, segment, castling_shapes(after))
        square = capture.to_square
        if segment.landings.get(square, 0) >= 2:
            return replies
        return [reply for reply in replies if reply.to_square != square]

    def _quick_reply(self, after: chess.Board, occupied: chess.Bitboard, capture: chess.Move) -> bool:
        """Is `occupied` a capture from `after` (once `capture` is made) quicker than a bounce under way: one
        piece of the side to move off the board, and a piece it could take bounced while it was in hand?
        A bounce on the square `capture` took is its own landing, unless it landed placed first, or the
        square bounced again."""
        vacated = after.occupied & ~occupied
        if vacated.bit_count() != 1 or occupied & ~after.occupied:
            return False
        if not vacated & after.occupied_co[after.turn]:
            return False
        origin, segment = chess.lsb(vacated), self._segment
        landing = capture.to_square
        own_landing = not segment.landed_before_left(landing, capture.from_square) and not (
            segment.rebounced & chess.BB_SQUARES[landing]
        )
        return any(
            segment.bounced_while_empty(victim, origin) and with_promotions(after, origin, victim)
            for victim in segment.bounced if after.occupied_co[not after.turn] & chess.BB_SQUARES[victim]
            and not (victim == landing and own_landing)
        )

    def _left_late(self, move: chess.Move) -> bool:
        """Is `move` a capture whose piece left its square longer after a piece landed on the victim's
        (the victim lifted while it stood) than a place reported before its lift allows? Then the victim
        was touched, and the piece that left is moving on, not capturing; unless the board named the
        piece that landed."""
        victim, origin = move.to_square, move.from_square
        board = self._board
        if not board.is_capture(move) or board.is_en_passant(move) or victim in self._pieces:
            return False
        if self._segment.left_before(victim, origin):
            return False
        waited = self._lifted_at.get(origin, 0.0) - self._placed_at.get(victim, 0.0)
        return waited > CAPTURE_PLACED_FIRST_SECONDS

    def _lifted_after(self, squares: chess.Bitboard, origin: chess.Square) -> bool:
        """Were all `squares` last emptied after `origin`? A reply begins once the capture is done."""
        order = self._segment.order
        start = order.index(origin) if origin in order else len(order)
        return all(square in order[start + 1:] for square in chess.scan_forward(squares))

    def _commit_latent(self, move: chess.Move, reply_follows: bool) -> None:
        """Commit a latent capture; with the reply already on the board, keep the lifts since as its
        evidence, else start afresh from the position after the capture."""
        segment, press = self._segment, self._promotion
        self._make(move)
        if reply_follows:
            if not move.promotion:
                self._promotion = press  # a promotion button pressed meanwhile is the reply's
            kept = segment.lifted  # and a victim of the reply, bounced with its piece in hand
            replying = self._board.occupied & ~self._occupied
            for square, empty in segment.bounced.items():
                if empty & replying:
                    kept |= chess.BB_SQUARES[square]
            segment.ever &= kept
            segment.order = [square for square in segment.order if kept & chess.BB_SQUARES[square]]
            self._segment = segment
        else:
            self._rebase()

    # -------------------------------- catching up: moves the board shows and the events never did

    def _catch_up(self, presser: chess.Color | None) -> None:
        """At a clock press with nothing seen to commit, or the end of input (no `presser`): if the board
        shows the game some legal moves on, where no move was seen (events read as something else, a
        takeback or a bounce, or never sent), they are made, the presser's last.

        The last move, if made since the last press, may have been misread: the other side's move placed
        before its lift, read as a change of mind or as the capturer landing. It is taken back for a line
        from the position before it that begins with the open move it replaced (fewer moves never seen
        than any line from the board), or with a capture quicker than a bounce, unless a line from the
        board has more of its squares emptied by the hands since the last press. Not for the open move it
        replaced when the press is late, the side to move's move under way: the last move was a slide."""
        if self._open is not None or self.mode not in (Mode.PLAYING, Mode.ILLEGAL) or (
            self._occupied == self._board.occupied
        ):
            return
        movers = presser == self._board.turn
        # pressed with the move of the side to move under way (late, or early), the board shows no moves
        under_way = presser is not None and is_partial(self._board, self._occupied)
        redo = self._redo_last((2, 3) if presser is None else (2,) if movers else (3,))
        late = under_way and not movers  # the other side's move begun: the last move stands
        line = redo[1] if redo is not None and redo[1][0] in self._replaced and not late else None
        if line is None:
            plies = (2, 3) if presser is None else (3,) if movers else (2,)
            line = None if under_way else self._line_to_board(self._board, plies)
            if under_way and movers:
                self._unseen_capture = self._capture_in_one_scan()  # unless the piece lands next
            if redo is not None and self._quick_capture(*redo) and (
                line is None or self._touched(redo[1]) > self._touched(line)
            ):
                line = redo[1]
        if redo is not None and line is redo[1]:
            self._fire("take_back")
        if presser is not None and not movers and line and self._recaptured_unseen(line):
            self._make_line(line[:1])
            self._held_capture = line[1]  # the presser's, unless its piece lands next
            return
        self._make_line(line or ())

    def _recaptured_unseen(self, line: Sequence[chess.Move]) -> bool:
        """Does a two-move line end with a capture whose victim the sensors never showed leaving (its square
        never emptied, or only before the first move landed there)? A clock pressed with the capturer still
        in hand looks the same."""
        if len(line) != 2:
            return False
        first, last = line
        before = after_move(self._board, first)
        if not before.is_capture(last) or before.is_en_passant(last):
            return False
        if last.to_square == first.to_square:
            return self._segment.landings.get(last.to_square, 0) <= 1
        return not self._segment.ever & chess.BB_SQUARES[last.to_square]

    def _capture_in_one_scan(self) -> chess.Move | None:
        """At the mover's clock, one of its pieces in hand and nothing else changed: the only capture that
        piece can make, its victim taken off and the capturer set down between two scans of a presence board
        (its square never showed empty). The clock pressed early, with the piece still in hand, looks the
        same until the piece lands: the next event decides (`Recognizer._decide_unseen_capture`)."""
        board = self._board
        vacated = board.occupied & ~self._occupied
        if vacated.bit_count() != 1 or not vacated & board.occupied_co[board.turn] or (
                self._occupied & ~board.occupied):
            return None
        return self._only_capture(board, chess.lsb(vacated), board.occupied_co[not board.turn])

    def _only_capture(self, board: chess.Board, origin: chess.Square,
                      victims: chess.Bitboard) -> chess.Move | None:
        """The capture the piece on `origin` can make of one of `victims`, if it can take only one of them
        (a pawn's promotions chosen): with its victim's square never seen empty, the board shows no other."""
        captures = list(board.generate_legal_moves(chess.BB_SQUARES[origin], victims))
        if len({move.to_square for move in captures}) != 1:
            return None  # none, or several victims the board cannot tell apart
        return self._choose(board, captures)

    def _make_line(self, line: Sequence[chess.Move], *, open_last: bool = False) -> None:
        """Make a line the board shows, found from occupancy (promotions with the piece chosen now); with
        `open_last`, its last move stays open to correction, as the hands may not be done with it. The
        board's names are of the line's last position: one that disagrees with an earlier move's piece
        (the piece a later move captures there) is no misread."""
        names = self._pieces
        for index, move in enumerate(line, 1):
            if self.mode is Mode.GAME_OVER:
                return  # the first move ended the game (insufficient material, the 75-move rule)
            self._pieces = names if index == len(line) else dict(names)
            if move.promotion:
                choices = with_promotions(self._board, move.from_square, move.to_square)
                chosen = self._choose(self._board, choices) if choices else None
                if chosen is not None and (index == len(line) or self._allows(chosen, line[index])):
                    move = chosen  # else the next move needs the piece found: the board shows it was chosen
            if not self._board.is_legal(move):
                return
            if open_last and index == len(line):
                self._show(move)
            else:
                self._make(move)
            self._rebase()

    def _allows(self, move: chess.Move, following: chess.Move) -> bool:
        """Is `following` legal once `move` is made?"""
        board = self._board
        board.push(move)
        try:
            return board.is_legal(following)
        finally:
            board.pop()

    def _misread_capture(self) -> bool:
        """The board no legal continuation explains, because a capture quicker than a bounce was misread:
        the capturer stayed in hand, and the other side's reply, placed before its lift, read as it landing
        there (or the capturer's next move did). If the last move, made since the last press, is that piece's,
        and from the position before it that piece's capture of a square bounced since the press and one or
        two moves more show the board, the last move is taken back and that line made, its last move open.
        The square must have bounced while that piece was in hand, and the last move must not be a capture
        whose victim was off its square for longer than a bounce (that one was made)."""
        board = self._board
        victims = self._bounced_since_press & board.occupied_co[board.turn]  # the other side's, before it too
        redo = self._before_last() if self._open is None and victims else None
        if redo is None:
            return False
        before, last = redo
        taken = last.to_square
        if before.is_capture(last) and not before.is_en_passant(last) and (
                not self._refilled_in_a_bounce(taken)):
            return False  # its victim was taken off, not swept off within a bounce: that capture was made
        origin = last.from_square
        in_hand_from, landed = self._lifted_at.get(origin, 0.0), self._placed_at.get(taken, 0.0)
        for victim in chess.scan_forward(victims):
            if not in_hand_from <= self._placed_at.get(victim, -1.0) <= landed:
                continue  # it bounced before that piece was lifted or after it landed: no capture's
            moves = with_promotions(before, origin, victim)
            capture = self._choose(before, moves) if moves else None
            if capture is None:
                continue
            after = after_move(before, capture)
            rest = successors(after, self._occupied, self._pieces, depth=2, rank=self._as_seen)
            if rest is not None:
                self._fire("take_back")
                self._make_line([capture, *rest], open_last=True)
                return True
        return False

    def _misread_correction(self) -> bool:
        """The board no legal continuation explains, because the last move, made since the last press, read
        as a change of mind was none. Either it was the other side's reply placed before its lift (an en
        passant, say), and that reply was just taken back: the board shows the open move the last move
        replaced. Or the other side's piece in hand, the open move's, slid over the square the change of
        mind was read on: the board shows the replaced move and that piece's move after it, landing where
        a piece was just placed, or lifted after the change of mind landed and ending as that square
        empties now (the slide's first square reported before its lift). The last move (and the open one)
        is taken back and that line made."""
        redo = self._before_last()
        if redo is None:
            return False
        (before, last), reply = redo, self._open
        landed = self._placed_at.get(last.to_square, math.inf)
        slid_off = self._left_at.get(last.to_square) == self._t
        for move in self._replaced:
            if not before.is_legal(move):
                continue
            after = after_move(before, move)
            if reply is None:
                shown = reads_as(after, self._occupied, self._pieces)
                line = [move] if shown else None
                if line is None and slid_off:
                    rest = successors(after, self._occupied, self._pieces, depth=1, keep=lambda rest: (
                        self._lifted_at.get(rest[0].from_square, -math.inf) > landed))
                    line = None if rest is None else [move, *rest]
            else:
                rest = successors(after, self._occupied, self._pieces, depth=1, keep=lambda rest: (
                    rest[0].from_square == reply.from_square
                    and self._placed_at.get(rest[0].to_square) == self._t))
                line = None if rest is None else [move, *rest]
            if line is not None:
                if reply is not None:
                    self._fire("retract")
                self._fire("take_back")
                self._make_line(line, open_last=reply is not None)
                return True
        return False

    def _lost_line(self) -> bool:
        """The board, at rest a piece or two short with no move open, shows moves the hands made one after
        another, whose events read as something else (a capture seen undone by the reply placed before its
        lift, a bounce between, a change of mind into a capture, its victim taken first, read as the other
        side's reply) and whose victims counted as pieces in hand: the game two or three moves on; or, the
        last move made since the last press, the game before it with that move's piece gone elsewhere from
        its origin and up to two moves more (with no piece short, only if a piece of the other side was
        knocked onto the last move's square and put back, `_knocked_off`). They are made (the last move taken
        back first), the last open."""
        if self._open is not None or self.mode is not Mode.PLAYING:
            return False
        board = self._board
        line = self._hands_line(board, self._made_at[-1] if board.move_stack else -math.inf)
        if line is not None and len(line) >= 2:
            self._make_line(line, open_last=True)
            return True
        last = board.peek() if board.move_stack else None
        if last is None or not self._placed_at.get(last.to_square, math.inf) < self._left_at.get(
                last.to_square, -math.inf):
            return False  # the last move's piece not picked up again since it landed: no change of mind
        redo = self._before_last()
        if redo is None:
            return False
        before = redo[0]
        if before.occupied.bit_count() == self._occupied.bit_count() and not self._knocked_off(before, last):
            return False  # no piece short: only a piece knocked onto the last move's square misled
        made = len(before.move_stack)
        line = self._hands_line(before, self._made_at[made - 1] if made else -math.inf, instead=last)
        if line is None:
            return False
        self._fire("take_back")
        if last.promotion:  # the piece chosen for the promotion changed is the one still in hand
            self._promotion = PromotionPress(last.promotion, self._index, spare=False)
        self._make_line(line, open_last=True)
        return True

    def _knocks_read_as_moves(self) -> bool:
        """The board no legal continuation explains, after one or two moves since the last press (and the
        open one), whose pieces' squares each came back within a bounce of their lift: knocks read as moves
        (a piece brushed as another's landing was reported before its lift, its neighbour brushed in turn,
        read as the reply). Those moves are taken back and the move the board shows from before them made,
        its squares emptied and filled by the hands since, still open."""
        knocked_open = self._open is not None and self._refilled_in_a_bounce(self._open.from_square)
        if self.mode in (Mode.ILLEGAL, Mode.GAME_OVER) or (self._open is not None and not knocked_open):
            return False
        before, undone = self._board.copy(), 0
        since = self._made_at[self._plies_at_press - 1] if self._plies_at_press else -math.inf
        lifted = sum(chess.BB_SQUARES[square] for square, t in self._left_at.items() if t > since)
        placed = sum(chess.BB_SQUARES[square] for square, t in self._placed_at.items() if t > since)
        while undone < 2 and len(before.move_stack) > self._plies_at_press:
            if not self._refilled_in_a_bounce(before.pop().from_square):
                return False
            undone += 1
            line = successors(before, self._occupied, self._pieces, depth=1, movable=lifted, landing=placed)
            if line is not None:
                if knocked_open:
                    self._fire("retract")
                for _ in range(undone):
                    self._fire("take_back")
                self._make_line(line, open_last=True)
                return True
        return False

    def _knocked_off(self, before: chess.Board, last: chess.Move) -> bool:
        """Did a piece of the other side leave its square while the last move's piece was in hand, and come
        back after that move's square emptied again: knocked off onto the square the move was read to and
        put back? That move was none; its piece landed later."""
        left_at, placed_at = self._left_at, self._placed_at
        lifted, landed = left_at.get(last.from_square, math.inf), placed_at.get(last.to_square, math.inf)
        picked_up = left_at.get(last.to_square, math.inf)
        theirs = before.occupied_co[not before.turn] & self._occupied
        return any(lifted < left_at.get(square, -math.inf) <= landed  # a lift held till the landing: at it
                   and placed_at.get(square, -math.inf) >= picked_up for square in chess.scan_forward(theirs))

    def _hands_line(
        self, board: chess.Board, since: float, *, instead: chess.Move | None = None
    ) -> list[chess.Move] | None:
        """Up to three legal moves from `board` after which it reads as the sensors do, a piece or two short
        (or none, with `instead`), made one after another since `since`: each from a square lifted and to a
        square filled after the one before (a landing at `since` finished the move made then), none landing a
        second before its lift. With `instead`, the line begins with a change of mind: another move of its
        piece from its origin, that piece picked up again after it landed and set down after that."""
        short = board.occupied.bit_count() - self._occupied.bit_count()
        if not (0 < short <= 2 or (short == 0 and instead is not None)):
            return None
        left_at, placed_at = self._left_at, self._placed_at
        lifted = sum(chess.BB_SQUARES[square] for square, t in left_at.items() if t >= since)
        placed = sum(chess.BB_SQUARES[square] for square, t in placed_at.items() if t > since)
        if board.occupied & ~self._occupied & ~lifted or self._occupied & ~board.occupied & ~placed:
            return None  # a square emptied that no hand lifted, or filled that no hand filled
        if instead is None and not (lifted & board.occupied_co[chess.WHITE] and lifted & board.occupied_co[
                chess.BLACK]):
            return None  # the line has a move of each side: one made by no hand

        def one_after_another(line: list[chess.Move]) -> bool:
            lifts = [left_at.get(move.from_square, -math.inf) for move in line]
            landings = [placed_at.get(move.to_square, -math.inf) for move in line]
            in_turn = all(a < b for a, b in (*pairwise(lifts), *pairwise(landings)))
            placed_late = all(landing > lift - CAPTURE_PLACED_FIRST_SECONDS
                              for lift, landing in zip(lifts, landings, strict=True))
            return in_turn and placed_late and lifts[0] >= since and landings[0] > since

        def changed_mind(line: list[chess.Move]) -> bool:
            assert instead is not None  # asked only with it
            first, landed = line[0], placed_at.get(instead.to_square, math.inf)
            picked_up = left_at.get(instead.to_square, -math.inf)
            return first.from_square == instead.from_square and first != instead and (
                placed_at.get(first.to_square, -math.inf) >= picked_up > landed)  # or in one scan

        def kept(line: list[chess.Move]) -> bool:
            return one_after_another(line) and (instead is None or changed_mind(line))

        return successors(board, self._occupied, self._pieces, depth=3, movable=lifted, landing=placed,
                          keep=kept)

    def _moved_together(self) -> bool:
        """The board no legal continuation explains, with no move open, shows the game two moves on, one of
        each side, whose pieces were both lifted since it last showed the game, the other side's after the
        mover's and before the mover's landed (bullet: the other side took its piece up early). Those two
        moves are made, the second still open; not if the mover's piece could take the other's (a victim
        lifted first, a capture under way)."""
        if self._open is not None or self.mode is not Mode.PLAYING:
            return False
        lifted = self._segment.lifted
        line = successors(self._board, self._occupied, self._pieces, depth=2, narrow=True, rank=self._as_seen)
        if line is None or len(line) != 2 or any(not lifted & chess.BB_SQUARES[move.from_square]
                                                 for move in line):
            return False
        mover, other = line
        lifted_at, placed_at = self._lifted_at, self._placed_at
        if not lifted_at[mover.from_square] <= lifted_at[other.from_square] < placed_at.get(
                mover.to_square, -math.inf):
            return False  # not the other side's piece taken up while the mover's was in hand
        if with_promotions(self._board, mover.from_square, other.from_square):
            return False  # the other side's piece was one the mover's could take: its victim, lifted first
        self._make_line(line, open_last=True)
        return True

    def _redo_last(self, plies: tuple[int, ...]) -> tuple[chess.Board, list[chess.Move]] | None:
        """The position before the last move, if made since the last press, and a line from it that the
        board shows and that does not begin with that move."""
        redo = self._before_last()
        if redo is None:
            return None
        before, last = redo
        line = self._line_to_board(before, plies)
        if line is not None and line[0] == last:
            line = self._replaced_line(before, plies, self._as_seen(line))
        return None if line is None or line[0] == last else (before, line)

    def _replaced_line(
        self, before: chess.Board, plies: tuple[int, ...], seen: tuple[int, int, int]
    ) -> list[chess.Move] | None:
        """A line from `before` that begins with an open move the last move replaced and that the board
        shows as the hands were seen making it, no less than the line through the last move (`seen`): the
        hands made that move first, and only its own piece moving again said otherwise."""
        for move in self._replaced:
            rest = successors(after_move(before, move), self._occupied, self._pieces, depth=max(plies) - 1,
                              rank=self._as_seen) if before.is_legal(move) else None
            if rest is not None and len(rest) + 1 in plies and self._as_seen([move, *rest]) >= seen:
                return [move, *rest]
        return None

    def _before_last(self) -> tuple[chess.Board, chess.Move] | None:
        """The position before the last move and that move, if it was made since the last clock press (the
        press confirmed the moves before it)."""
        if len(self._board.move_stack) <= self._plies_at_press:
            return None
        before = self._board.copy()
        return before, before.pop()

    def _line_to_board(self, board: chess.Board, plies: tuple[int, ...]) -> list[chess.Move] | None:
        """The legal moves from `board`, as many as `plies` allows, after which it reads as the board does."""
        taken = board.occupied.bit_count() - self._occupied.bit_count()  # a move takes one at most
        if not 0 <= taken <= max(plies):
            return None
        seen = self._seen_leaving(board)
        line = successors(board, self._occupied, self._pieces, depth=2, rank=self._as_seen, keep=seen)
        if line is None and 3 in plies:
            line = successors(board, self._occupied, self._pieces, depth=3, narrow=True, rank=self._as_seen,
                              keep=seen)
        return line if line and len(line) in plies else None

    def _seen_leaving(self, board: chess.Board) -> Callable[[list[chess.Move]], bool]:
        """A test of a line from `board`: was every square it moves a piece off lifted since the move before
        `board`'s last was made? A line that moves a piece no hand touched is not what the hands did,
        whatever the board shows."""
        made, start = len(board.move_stack), board.copy(stack=False)
        since = self._made_at[made - 2] if made >= 2 else -math.inf
        left_at = self._left_at

        def seen(line: list[chess.Move]) -> bool:
            position = start.copy(stack=False)
            for move in line:
                if position.is_castling(move):
                    king_from, king_to, rook_from, rook_to = castling_squares(move)
                    left = [frm for frm, to in ((king_from, king_to), (rook_from, rook_to)) if frm != to]
                else:
                    left = [move.from_square]
                if any(square not in left_at or left_at[square] < since for square in left):
                    return False
                position.push(move)
            return True

        return seen

    def _as_seen(self, line: list[chess.Move]) -> tuple[int, int, int]:
        """Of two lines the board shows, the one the hands were seen making: the more squares `_touched`, then
        the fewer captures of a piece the line's move before had set down where no second piece was seen
        landing (one piece set down there, not two), then the more of its moves whose piece left its square
        after the move before it left (a line made in an order no hand made it puts moves out of the order
        they were played in)."""
        lifted, landings = self._lifted_at, self._segment.landings
        in_order = sum(lifted.get(move.from_square, -1.0) >= lifted.get(before.from_square, -1.0)
                       for before, move in pairwise(line))
        unseen = sum(move.to_square == before.to_square and landings.get(move.to_square, 0) <= 1
                     for before, move in pairwise(line))
        return self._touched(line), -unseen, in_order

    def _touched(self, line: list[chess.Move]) -> int:
        """How many of the squares `line` moves from and to were emptied since the last clock press (or were
        empty then), or saw a landing reported just before the move's piece left (placed before its lift): of
        two lines the board shows, the one the hands were seen making."""
        touched = self._touched_since_press
        return sum(bool(touched & chess.BB_SQUARES[move.from_square]) + (
            bool(touched & chess.BB_SQUARES[move.to_square]) or self._landed_just_before_lift(move))
            for move in line)

    def _mover_in_hand(self) -> chess.Bitboard:
        """The squares of the side to move's pieces that are off the board."""
        board = self._board
        return board.occupied_co[board.turn] & ~self._occupied

    def _refilled_in_a_bounce(self, square: chess.Square) -> bool:
        """Was `square` last filled within `BOUNCE_SECONDS` of its last lift (a bounce, or a knock)?"""
        return knocked(self._lifted_at.get(square), self._placed_at.get(square))

    def _landed_just_before_lift(self, move: chess.Move) -> bool:
        """Was `move`'s square filled at most `SCAN_SECONDS` before its piece left (placed first)?"""
        return placed_before_lift(self._placed_at.get(move.to_square), self._lifted_at.get(move.from_square))

    def _quick_capture(self, board: chess.Board, line: list[chess.Move]) -> bool:
        """Does `line` begin with a capture whose victim bounced since the last clock press: taken quicker
        than a bounce, which is how a move comes to be misread?"""
        move = line[0]
        return board.is_capture(move) and bool(self._bounced_since_press & chess.BB_SQUARES[move.to_square])

    def _castling_completed(self, occupied: chess.Bitboard) -> chess.Move | None:
        """The castling the board shows made instead of the last move, its king's or rook's half: that half
        was also an ordinary move, and a touch of the other side's piece made it final before the partner
        moved. Not once the mover's clock confirmed the half alone."""
        redo = self._before_last()
        if redo is None:
            return None
        before, last = redo
        for shape in castling_shapes(before):
            if shape.after == occupied and (last.from_square, last.to_square) in shape.steps:
                return shape.move if agrees(after_move(before, shape.move), self._pieces) else None
        return None
