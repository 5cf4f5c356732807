"""How people make moves on a sensor board: chess moves in, square events out.

Used by the emulators to play scripted games, by the demo, and by the tests
that turn random games into the event orders humans produce. Castling orders
are named after what the hands do; `castling_orders` lists those that are
physically possible in a position (a piece cannot land on an occupied square).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable, Sequence

import chess

from eboard960.castling import CastlingSquares, castling_squares
from eboard960.events import PROMOTION_BUTTONS, ButtonPressed, PieceLifted, PiecePlaced, SquareEvent

Step = PieceLifted | PiecePlaced

CASTLING_ORDERS: tuple[str, ...] = (
    "eboard",          # lift king, lift rook, place rook, place king (the seeds' recommendation)
    "eboard-king",     # lift king, lift rook, place king, place rook
    "rook-lift-first", # lift rook, lift king, place rook, place king
    "rook-lift-first-king", # lift rook, lift king, place king, place rook
    "king-first",      # the king's move finished, then the rook's
    "rook-first",      # the rook's move finished, then the king's
)


def _castling_steps(order: str, squares: CastlingSquares) -> list[Step] | None:
    k0, k1, r0, r1 = squares
    lift_k, lift_r = PieceLifted(square=k0), PieceLifted(square=r0)
    place_k, place_r = PiecePlaced(square=k1), PiecePlaced(square=r1)
    if order == "eboard":
        return [lift_k, lift_r, place_r, place_k]
    if order == "eboard-king":
        return [lift_k, lift_r, place_k, place_r]
    if order == "rook-lift-first":
        return [lift_r, lift_k, place_r, place_k]
    if order == "rook-lift-first-king":
        return [lift_r, lift_k, place_k, place_r]
    if order == "king-first":
        if k1 == r0:  # the king's target still holds the rook
            return None
        king: list[Step] = [lift_k, place_k] if k0 != k1 else []
        rook: list[Step] = [lift_r, place_r] if r0 != r1 else []
        return king + rook if king and rook else None
    if order == "rook-first":
        if r1 == k0:
            return None
        king = [lift_k, place_k] if k0 != k1 else []
        rook = [lift_r, place_r] if r0 != r1 else []
        return rook + king if king and rook else None
    raise ValueError(f"unknown castling order {order!r}")


def _castling_placed_first(steps: list[Step], squares: CastlingSquares) -> list[list[Step]]:
    """`steps` with the king's or the rook's arrival reported just before its departure (the board's scan
    order), in every way its square is empty by then."""
    k0, k1, r0, r1 = squares
    variants = []
    for i, (first, second) in enumerate(itertools.pairwise(steps)):
        if (first.square, second.square) in ((k0, k1), (r0, r1)) and isinstance(first, PieceLifted) and (
            isinstance(second, PiecePlaced)
        ):
            variant = [*steps[:i], second, first, *steps[i + 2:]]
            occupied = {k0, r0}
            for step in variant:
                if isinstance(step, PiecePlaced) and step.square in occupied:
                    break
                (occupied.add if isinstance(step, PiecePlaced) else occupied.discard)(step.square)
            else:
                variants.append(variant)
    return variants


def castling_orders(board: chess.Board, move: chess.Move) -> dict[str, list[Step]]:
    """Every named order that can physically perform this castling, with its events."""
    squares = castling_squares(move)
    orders = {}
    for order in CASTLING_ORDERS:
        steps = _castling_steps(order, squares)
        if steps is not None:
            orders[order] = steps
    k0, k1, r0, r1 = squares
    if k0 == k1:
        orders["rook-only"] = [PieceLifted(square=r0), PiecePlaced(square=r1)]
    elif r0 == r1:
        orders["king-only"] = [PieceLifted(square=k0), PiecePlaced(square=k1)]
    return orders


def _placed(board: chess.Board, move: chess.Move) -> chess.Piece | None:
    """The piece `move` sets down: for a promotion, the promoted one."""
    piece = board.piece_at(move.from_square)
    if not move.promotion:
        return piece
    assert piece is not None  # a promotion moves a pawn
    return chess.Piece(move.promotion, piece.color)


def move_events(
    board: chess.Board, move: chess.Move, order: str = "eboard", victim_first: bool = True
) -> list[Step]:
    """The lifts and places of one move; `order` picks the castling procedure.

    Captures take the victim off first unless `victim_first` is false; a
    promotion places the promoted piece (boards that identify pieces report it).
    """
    if board.is_castling(move):
        orders = castling_orders(board, move)
        return orders.get(order) or orders["eboard"]
    frm, to = move.from_square, move.to_square
    placed = _placed(board, move)
    if board.is_en_passant(move):
        victim = chess.square(chess.square_file(to), chess.square_rank(frm))
        return [PieceLifted(square=frm), PieceLifted(square=victim), PiecePlaced(square=to, piece=placed)]
    steps: list[Step] = [PieceLifted(square=frm), PiecePlaced(square=to, piece=placed)]
    if board.is_capture(move):
        steps.insert(0 if victim_first else 1, PieceLifted(square=to))
    return steps


def game_events(board: chess.Board, moves: Iterable[chess.Move], order: str = "eboard") -> list[Step]:
    """All events of a game, each move made as `move_events` makes it; `board` is left unchanged."""
    board = board.copy(stack=False)
    steps: list[Step] = []
    for move in moves:
        steps += move_events(board, move, order)
        board.push(move)
    return steps


def human_events(board: chess.Board, move: chess.Move, rng: random.Random) -> list[Step]:
    """One of the many ways a person makes `move`, drawn from `rng`.

    Covers every castling order, captures with the victim first or last, en
    passant in every order a hand makes, place-before-lift (also in a capture,
    an en passant, and at each step of a slide), touches of other pieces and
    slides over empty squares (also into a capture); the events always net out
    to the move.
    """
    if board.is_castling(move):
        orders = castling_orders(board, move)
        made = list(orders[rng.choice(sorted(orders))])
        if rng.random() < 0.15:
            made = rng.choice(_castling_placed_first(made, castling_squares(move)) or [made])
        return made
    frm, to = move.from_square, move.to_square
    placed = _placed(board, move)
    place = PiecePlaced(square=to, piece=placed if rng.random() < 0.5 else None)
    lift = PieceLifted(square=frm)
    if board.is_en_passant(move):
        victim = PieceLifted(square=chess.square(chess.square_file(to), chess.square_rank(frm)))
        # a pawn reported on its target before its departure only just before it, as a board does
        return list(rng.choice(((lift, victim, place), (lift, place, victim), (victim, lift, place),
                                (victim, place, lift), (place, lift, victim))))
    if board.is_capture(move):
        victim = PieceLifted(square=to)
        style = rng.random()
        if style < 0.1:
            return [victim, place, lift]  # the landing reported before the capturer's departure
        if style < 0.5:
            return [victim, lift, place]
        transit = _transit_square(board, frm, to, rng) if rng.random() < 0.3 else None
        if transit is not None:  # a slide into the capture: the victim leaves while the piece is in hand
            return [lift, PiecePlaced(square=transit), PieceLifted(square=transit), victim, place]
        return [lift, victim, place]
    style = rng.random()
    if style < 0.15:
        return [place, lift]  # the board reports the arrival before the departure
    if style < 0.3:
        transit = _transit_square(board, frm, to, rng)
        if transit is not None and style < 0.2:  # each arrival reported before the departure it follows
            return [PiecePlaced(square=transit), lift, place, PieceLifted(square=transit)]
        if transit is not None:
            return [lift, PiecePlaced(square=transit), PieceLifted(square=transit), place]
    return [lift, place]


def takeback_events(board: chess.Board, move: chess.Move, rng: random.Random) -> list[Step]:
    """One way a person takes back `move`, just made from `board`: the pieces lifted from where they
    went and put back where they came from, a captured piece put back, in an order drawn from `rng`."""
    if board.is_castling(move):
        squares = castling_squares(move)
        lifts = [PieceLifted(square=squares.king_to), PieceLifted(square=squares.rook_to)]
        places = [PiecePlaced(square=squares.king_from), PiecePlaced(square=squares.rook_from)]
        rng.shuffle(lifts)
        rng.shuffle(places)
        return lifts + places  # both in hand together: a transposition shows nothing else
    lift, back = PieceLifted(square=move.to_square), PiecePlaced(square=move.from_square)
    if board.is_en_passant(move):
        victim = PiecePlaced(square=move.to_square ^ 8)
        return rng.choice([[lift, back, victim], [lift, victim, back], [victim, lift, back]])
    if board.is_capture(move):
        victim = PiecePlaced(square=move.to_square)
        return [lift, back, victim] if rng.random() < 0.5 else [lift, victim, back]
    return [lift, back] if rng.random() < 0.8 else [back, lift]


def _transit_square(board: chess.Board, frm: int, to: int, rng: random.Random) -> int | None:
    """An empty square on the straight line between `frm` and `to`, if any (a slide)."""
    between = [sq for sq in chess.SquareSet(chess.between(frm, to)) if not board.piece_at(sq)]
    return rng.choice(between) if between else None


def noise(board: chess.BaseBoard, rng: random.Random) -> list[Step]:
    """A touch or a sensor bounce: some occupied square lifted and put straight back."""
    occupied: Sequence[int] = list(chess.SquareSet(board.occupied))
    square = rng.choice(occupied)
    return [PieceLifted(square=square), PiecePlaced(square=square)]


def touch_in_hand(board: chess.Board, move: chess.Move, rng: random.Random) -> list[Step]:
    """Another piece touched while the moving one is in hand, for a quiet move: any piece but the
    mover's king and rooks (two of them in hand together may be a castling). Empty if none.

    A touched piece the moving one could take looks like its capture until the move lands elsewhere;
    the mover's clock press follows, as without it the other side's lift, within half a second of
    that landing, of a piece that could go there reads as that capture and a reply placed first."""
    if board.is_capture(move) or board.is_castling(move) or move.promotion:
        return []
    castlers = (board.kings | board.rooks) & board.occupied_co[board.turn]
    squares = list(chess.scan_forward(board.occupied & ~castlers & ~chess.BB_SQUARES[move.from_square]))
    if not squares:
        return []
    square = rng.choice(squares)
    return [PieceLifted(square=square), PiecePlaced(square=square)]


HAND_SECONDS = (0.3, 2.0)  # between two movements of a hand (the samples: 0.34 s and more)
BOUNCE_SECONDS = (0.02, 0.15)  # a sensor bounce (the samples: 0.026 to 0.144 s)
SCAN_SECONDS = (0.03, 0.28)  # a place reported before its own lift (the samples: 0.034 to 0.274 s)

PROMOTION_BUTTON = {piece: button for button, piece in PROMOTION_BUTTONS.items()}


def human_game(board: chess.Board, moves: Iterable[chess.Move], rng: random.Random, noise_rate: float = 0.1,
               clock_rate: float = 0.5, takeback_rate: float = 0.0,
               overlap_rate: float = 0.0, press_in_hand_rate: float = 0.0) -> list[SquareEvent]:
    """A whole game as a person plays it on a presence board, with times.

    Each move is made by `human_events`; while a piece is in hand another may be touched
    (`touch_in_hand`), between moves a piece may be touched or a sensor bounce, and a clock
    button may be pressed. An under-promotion is chosen by a button before or after the move,
    or by the piece the board reports; a queen needs nothing. With `takeback_rate`, a move (not
    a promotion, nor one that ends the game) may be taken back, after its clock press if it had
    one, and made again. With `overlap_rate`, the other side may take up the piece of its reply
    before the move lands (bullet hands), where the spec decides the reading (`_may_take_up_early`).
    With `press_in_hand_rate`, the mover's clock may be pressed before its piece lands, a slide's too
    (`_may_press_in_hand`), unless a piece was touched since the last move: a victim's square that showed
    empty for a moment makes the press with the piece in hand look like a capture made.
    """
    board = board.copy(stack=False)
    t = 0.0
    events: list[SquareEvent] = []
    sequence = list(_with_takebacks(board, moves, rng, takeback_rate))
    early: chess.Square | None = None  # the origin of the move's piece, taken up before the last one landed

    def add(event: SquareEvent, gap: tuple[float, float] = HAND_SECONDS) -> None:
        nonlocal t
        t += rng.uniform(*gap)
        events.append(dataclasses.replace(event, t=round(t, 3)))

    open_promotion = False  # a button pressed while a promotion is open would choose its piece
    knocked = False  # a piece touched or bounced since the last move (see `press_in_hand_rate`)
    for index, move in enumerate(sequence):
        if move is None:  # the last move is taken back
            last = board.pop()
            for step in takeback_events(board, last, rng):
                add(step)
            continue
        steps = human_events(board, move, rng)
        if early is not None:
            steps.remove(PieceLifted(square=early))  # lifted already
        if move.promotion:
            steps = [s if isinstance(s, PieceLifted) else PiecePlaced(square=s.square) for s in steps]
            how = rng.choice(("before", "after", "reported")) if move.promotion != chess.QUEEN else "none"
            if how == "before":
                if open_promotion:
                    add(ButtonPressed(button="black" if board.turn == chess.WHITE else "white"))
                add(ButtonPressed(button=PROMOTION_BUTTON[move.promotion]))
            elif how == "reported":
                piece = chess.Piece(move.promotion, board.turn)
                steps = [PiecePlaced(square=s.square, piece=piece) if isinstance(s, PiecePlaced)
                         and s.square == move.to_square else s for s in steps]
        else:
            how = "none"
        touched = []
        if rng.random() < noise_rate / 2 and steps[0] == PieceLifted(square=move.from_square):
            touched = touch_in_hand(board, move, rng)
            steps[1:1] = touched
        reply = sequence[index + 1] if index + 1 < len(sequence) else None
        early = None
        if overlap_rate and not touched and isinstance(reply, chess.Move) and (
                _may_take_up_early(board, move, reply, steps) and rng.random() < overlap_rate):
            early = reply.from_square
            steps.insert(len(steps) - 1, PieceLifted(square=early))
        press_at = None  # the index of the step the mover's clock is pressed before, its piece in hand
        if press_in_hand_rate and not touched and not knocked and _may_press_in_hand(board, move, steps) and (
                rng.random() < press_in_hand_rate):
            press_at = len(steps) - (2 if early is not None and rng.random() < 0.5 else 1)
        clock = ButtonPressed(button="white" if board.turn == chess.WHITE else "black")
        path = set() if board.is_castling(move) else {move.from_square}
        pairs = set()
        if board.is_castling(move):
            k0, k1, r0, r1 = castling_squares(move)
            pairs = {(k0, k1), (r0, r1)}
        for position, (before, step) in enumerate(zip([None, *steps[:-1]], steps, strict=True)):
            if position == press_at:
                add(clock)
            # the moving piece's departure reported just after its arrival further on
            placed_first = isinstance(before, PiecePlaced) and (
                step.square in path - {before.square} or (step.square, before.square) in pairs)
            add(step, SCAN_SECONDS if placed_first and isinstance(step, PieceLifted) else HAND_SECONDS)
            if path and isinstance(step, PiecePlaced) and step not in touched:
                path.add(step.square)
        if how == "after":
            assert move.promotion  # "after" is drawn only for a promotion
            add(ButtonPressed(button=PROMOTION_BUTTON[move.promotion]))
        board.push(move)
        open_promotion = bool(move.promotion)
        if press_at is None and (touched or rng.random() < clock_rate):  # see `touch_in_hand`
            add(clock)
            open_promotion = False
        knocked = early is None and rng.random() < noise_rate
        if knocked:
            lift, place = noise(board, rng)
            add(lift)
            add(place, BOUNCE_SECONDS if rng.random() < 0.5 else HAND_SECONDS)
    return events


def _may_take_up_early(board: chess.Board, move: chess.Move, reply: chess.Move, steps: list[Step]) -> bool:
    """Can the piece of `reply` be taken up before `move` lands (its last step, its only place), the spec
    deciding the reading? Not a promotion's (the button to come), nor an en passant; nor a castling's
    unless its king and rook are in hand together (a half made alone may be a move of its own); nor the
    king of a castling reply; nor a piece the moving one could take (then the landing decides, and a piece
    of the mover's picked up again from a square on the way there may go on to take it, or begin the
    mover's next move). A slide's piece may be up from where it paused: its landing further on says the
    slide went on, even if the reply's piece could take it where it paused."""
    frm = reply.from_square
    piece, target = board.piece_at(frm), board.piece_at(reply.to_square)
    castles = piece is not None and piece.piece_type == chess.KING and (
        target == chess.Piece(chess.ROOK, piece.color))
    if castles:
        return False  # its king may stay where it is
    if board.is_castling(move):
        king, _, rook, _ = castling_squares(move)
        first_place = next(i for i, step in enumerate(steps) if isinstance(step, PiecePlaced))
        lifted_first = {step.square for step in steps[:first_place]}
        return {king, rook} <= lifted_first and isinstance(steps[-1], PiecePlaced)
    landings = [step for step in steps if isinstance(step, PiecePlaced)]
    return (
        not move.promotion and not board.is_en_passant(move)
        and landings[-1] == steps[-1] and landings[-1].square == move.to_square
        and (len(steps) == 2 or _slides(steps))  # nothing else shown before it
        and frm not in (move.from_square, move.to_square)
        and not any(board.generate_legal_moves(chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[frm]))
    )


def _slides(steps: list[Step]) -> bool:
    """Are `steps` a slide in one order only: lifted, set down on the way, lifted again, landed?"""
    if len(steps) != 4 or not isinstance(steps[1], PiecePlaced):
        return False
    return steps[2] == PieceLifted(square=steps[1].square)


def _may_press_in_hand(board: chess.Board, move: chess.Move, steps: list[Step]) -> bool:
    """Can the mover's clock be pressed before the piece of `move` lands (its last step), the reading not
    in doubt? A quiet move's only, by a piece that could take nothing: with a victim's square unchanged, a
    capture made quicker than the board's scan shows the same board at the press. Nor a castling's half
    (a move of its own), nor a promotion (its piece is chosen up to the other side's first event)."""
    last = steps[-1]
    return (
        isinstance(last, PiecePlaced) and last.square == move.to_square
        and not board.is_castling(move) and not move.promotion
        and not any(board.generate_legal_captures(chess.BB_SQUARES[move.from_square]))
    )


def _with_takebacks(board: chess.Board, moves: Iterable[chess.Move], rng: random.Random,
                    rate: float) -> Iterable[chess.Move | None]:
    """`moves`, some of them followed by None (take it back) and the same move again."""
    board = board.copy()
    for move in moves:
        board.push(move)
        again = rate and not move.promotion and not board.is_game_over() and rng.random() < rate
        if again:
            yield from (move, None)
        yield move


def random_game(board: chess.Board, rng: random.Random, max_plies: int = 120) -> list[chess.Move]:
    """Random legal moves from `board` until the game ends or `max_plies`."""
    board = board.copy(stack=False)
    moves: list[chess.Move] = []
    while len(moves) < max_plies and board.outcome() is None:
        legal = list(board.legal_moves)
        castles = [m for m in legal if board.is_castling(m)]
        move = rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves
