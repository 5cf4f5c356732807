#!/usr/bin/env python3
"""An independent, adversarial generator of sensor-recording corpora for the move recognizer.

Written from the two contracts (specs/move-recognition.md and
specs/capture-format.md), not from the recognizer's own choreography, so that
the two can disagree: random Chess960 games are played out as a person would
at a sensor board (every castling order, captures both ways, en passant in
every order, promotions by button or by the board's report, touches, sensor
bounces, slides, place-before-lift, missing clock presses) and written as
captures with their expected PGNs, in the format of the shared samples.

    python tools/corpus.py --out DIR --games N --seed S [--dgt-fraction 0.3]

Every behaviour has a probability in `PROBS`. Where an order of events is
genuinely ambiguous on a presence-only board (see the README section
"Testing the recognizer against an independent corpus"),
the generator makes the person press the clock first, as the spec's commit
rules then settle the previous move.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

PROBS: dict[str, float] = {
    # which moves the random games prefer
    "pick_castling": 0.6, "pick_en_passant": 0.9, "pick_promotion": 0.85, "pick_capture": 0.35,
    "pick_pawn": 0.25, "pick_develop": 0.35, "promote_queen": 0.6,
    # how a quiet move is made
    "slide": 0.15, "slide_pbl": 0.5, "correction": 0.03, "place_before_lift": 0.08,
    # how a capture is made
    "victim_first": 0.45, "capture_pbl": 0.08, "capture_slide": 0.12, "dgt_replace": 0.5,
    # promotions
    "button_before_lift": 0.5, "button_for_queen": 0.15, "button_when_reported": 0.3,
    "promotion_swap": 0.25,
    # noise
    "mid_move_bounce": 0.05, "self_bounce": 0.03, "touch_before_clock": 0.05, "touch": 0.1,
    "bounce": 0.06, "note": 0.01,
    # clock and file
    "resync": 0.04, "link_drop": 0.01,
    "clock": 0.7, "identify": 0.1, "snapshot": 0.5, "snapshot_letters": 0.6, "dgt_dump": 0.5,
    "fen_start": 0.05, "standard": 0.08, "gzip": 0.15, "cut_off": 0.15,
    "dgt_split": 0.12, "dgt_merge": 0.08,
}

DGT_CODES = {
    (chess.PAWN, chess.WHITE): 1, (chess.ROOK, chess.WHITE): 2, (chess.KNIGHT, chess.WHITE): 3,
    (chess.BISHOP, chess.WHITE): 4, (chess.KING, chess.WHITE): 5, (chess.QUEEN, chess.WHITE): 6,
    (chess.PAWN, chess.BLACK): 7, (chess.ROOK, chess.BLACK): 8, (chess.KNIGHT, chess.BLACK): 9,
    (chess.BISHOP, chess.BLACK): 10, (chess.KING, chess.BLACK): 11, (chess.QUEEN, chess.BLACK): 12,
}
PROMOTE_BUTTON = {chess.QUEEN: "promote_q", chess.ROOK: "promote_r",
                  chess.BISHOP: "promote_b", chess.KNIGHT: "promote_n"}
NOTES = ("player adjusts glasses; nothing happened", "arbiter walks past", "spectator coughs",
         "clock display checked")


@dataclass(frozen=True, slots=True)
class Act:
    """One physical happening at the board, `gap` seconds after the previous one."""

    kind: str  # lift, place, replace (DGT: one victim-to-capturer update), button, note, link, snapshot
    gap: float
    square: int = -1
    piece: chess.Piece | None = None
    text: str = ""  # button name, note, "up"/"down" for a link, the board FEN of a snapshot


@dataclass(slots=True)
class Ply:
    """The acts of one move (with the noise that follows it) and the behaviours used."""

    san: str
    acts: list[Act]
    tags: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Context:
    """What the person at the board must respect from the previous move."""

    dgt: bool
    identify: bool
    letters: bool = True  # snapshots name the pieces (always so on DGT)
    prev_open: bool = False
    prev_promotion: bool = False
    last_move: chess.Move | None = None


# --------------------------------------------------------------------------- games


def random_game(rng: random.Random, board: chess.Board, max_plies: int) -> list[chess.Move]:
    """A random legal game that seeks out castling, en passant, promotions and captures."""
    board = board.copy()
    moves: list[chess.Move] = []
    while len(moves) < max_plies and not board.is_game_over(claim_draw=False):
        legal = list(board.legal_moves)
        castles = [m for m in legal if board.is_castling(m)]
        passant = [m for m in legal if board.is_en_passant(m)]
        promos = [m for m in legal if m.promotion]
        captures = [m for m in legal if board.is_capture(m)]
        pawns = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN]
        develop = [m for m in legal if board.has_castling_rights(board.turn)
                   and chess.square_rank(m.from_square) in (0, 7)
                   and board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)]
        if castles and rng.random() < PROBS["pick_castling"]:
            move = rng.choice(castles)
        elif passant and rng.random() < PROBS["pick_en_passant"]:
            move = rng.choice(passant)
        elif promos and rng.random() < PROBS["pick_promotion"]:
            move = rng.choice(promos)
            if rng.random() < PROBS["promote_queen"]:
                move = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        elif captures and rng.random() < PROBS["pick_capture"]:
            move = rng.choice(captures)
        elif develop and rng.random() < PROBS["pick_develop"]:
            move = rng.choice(develop)
        elif pawns and rng.random() < PROBS["pick_pawn"]:
            move = rng.choice(pawns)
        else:
            move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def castling_squares(move: chess.Move) -> tuple[int, int, int, int]:
    """King from, king to, rook from, rook to of a castling move (python-chess: king takes rook)."""
    king, rook = move.from_square, move.to_square
    rank = chess.square_rank(king)
    if chess.square_file(rook) > chess.square_file(king):
        return king, chess.square(6, rank), rook, chess.square(5, rank)
    return king, chess.square(2, rank), rook, chess.square(3, rank)


def placed_piece(board: chess.Board, move: chess.Move) -> chess.Piece:
    piece = board.piece_at(move.from_square)
    assert piece is not None
    return chess.Piece(move.promotion, piece.color) if move.promotion else piece


# --------------------------------------------------------------------------- timing


def think(rng: random.Random) -> float:
    return round(rng.uniform(0.3, 3.0), 3)


def hand(rng: random.Random) -> float:
    """A human action; the samples never show one under 0.3 s."""
    return round(rng.uniform(0.3, 2.5), 3)


def quick(rng: random.Random) -> float:
    """A sensor bounce; the samples show them between 20 and 150 ms."""
    return round(rng.uniform(0.02, 0.12), 3)


def glide(rng: random.Random) -> float:
    return round(rng.uniform(0.05, 0.25), 3)


# --------------------------------------------------------------------------- one move


def lift(square: int, gap: float) -> Act:
    return Act("lift", gap, square)


def place(square: int, piece: chess.Piece, gap: float) -> Act:
    return Act("place", gap, square, piece)


def bounce_back(rng: random.Random, square: int, piece: chess.Piece) -> Act:
    """The place that ends a sensor bounce: marked, so that a merged read never delays it."""
    return Act("place", quick(rng), square, piece, "bounce")


def slide_acts(rng: random.Random, start: int, path: list[int], end: int, piece: chess.Piece,
               pbl: bool) -> list[Act]:
    """A piece pushed over `path`: each square senses it; `pbl` shows it before it leaves the last."""
    squares = [start, *path, end]
    acts: list[Act] = []
    if pbl:
        for index in range(1, len(squares)):
            acts.append(place(squares[index], piece, think(rng) if index == 1 else glide(rng)))
            acts.append(lift(squares[index - 1], glide(rng)))
    else:
        acts.append(lift(start, think(rng)))
        for square in path:
            acts.append(place(square, piece, glide(rng)))
            acts.append(lift(square, glide(rng)))
        acts.append(place(end, piece, glide(rng)))
    return acts


def slide_path(board: chess.Board, move: chess.Move) -> list[int]:
    """Intermediate squares a sliding piece (or a pawn's double step) passes, nearest first."""
    kind = board.piece_type_at(move.from_square)
    if kind not in (chess.BISHOP, chess.ROOK, chess.QUEEN, chess.PAWN):
        return []
    between = list(chess.SquareSet(chess.between(move.from_square, move.to_square)))
    between.sort(key=lambda s: chess.square_distance(s, move.from_square))
    return between


def correction_square(rng: random.Random, board: chess.Board, move: chess.Move) -> int | None:
    """Another empty square the piece could legally reach, where a change of mind might put it first."""
    piece = board.piece_at(move.from_square)
    if piece is None or piece.piece_type == chess.KING:
        return None
    if board.castling_rights & chess.BB_SQUARES[move.from_square]:
        return None
    options = []
    for other in board.legal_moves:
        if other.from_square != move.from_square or other.to_square == move.to_square:
            continue
        if other.promotion or board.is_capture(other) or board.is_castling(other):
            continue
        if piece.piece_type == chess.PAWN and chess.square_distance(other.from_square, other.to_square) == 2:
            # g2-g4 changed to g2-g3 reads exactly like g2-g4 then the enemy pawn's en passant
            # capture begun victim first (lift g4, place g3), when the capture follows.
            continue
        board.push(other)
        ends = board.is_game_over(claim_draw=False)
        board.pop()
        if not ends:
            options.append(other.to_square)
    return rng.choice(options) if options else None


def quiet_acts(rng: random.Random, board: chess.Board, move: chess.Move, tags: list[str]) -> list[Act]:
    start, end = move.from_square, move.to_square
    piece = placed_piece(board, move)
    mover = board.piece_at(start)
    assert mover is not None
    path = slide_path(board, move) if not move.promotion else []
    if path and rng.random() < PROBS["slide"]:
        pbl = rng.random() < PROBS["slide_pbl"]
        tags.append("slide_pbl" if pbl else "slide")
        return slide_acts(rng, start, path, end, mover, pbl)
    if rng.random() < PROBS["correction"]:
        other = correction_square(rng, board, move)
        if other is not None:
            tags.append("correction")
            return [lift(start, think(rng)), place(other, mover, hand(rng)),
                    lift(other, think(rng)), place(end, piece, hand(rng))]
    if rng.random() < PROBS["place_before_lift"]:
        tags.append("place_before_lift")
        return [place(end, piece, think(rng)), lift(start, glide(rng))]
    tags.append("plain")
    return [lift(start, think(rng)), place(end, piece, hand(rng))]


def capture_acts(rng: random.Random, board: chess.Board, move: chess.Move, ctx: Context,
                 tags: list[str]) -> list[Act]:
    start, end = move.from_square, move.to_square
    piece = placed_piece(board, move)
    victim = board.piece_at(end)
    assert victim is not None
    if rng.random() < PROBS["capture_pbl"]:
        tags.append("capture_pbl")
        if ctx.dgt:
            return [Act("replace", think(rng), end, piece), lift(start, glide(rng))]
        return [lift(end, think(rng)), place(end, piece, hand(rng)), lift(start, glide(rng))]
    if rng.random() < PROBS["victim_first"]:
        path = slide_path(board, move) if not move.promotion else []
        if path and rng.random() < PROBS["capture_slide"]:
            # Sliding in front of itself onto a square right after lifting the piece that just
            # moved would be, on a presence board, that move taken back or corrected.
            pbl = rng.random() < PROBS["slide_pbl"] and not just_moved(ctx, end)
            tags.append("victim_first_slide_pbl" if pbl else "victim_first_slide")
            return [lift(end, think(rng)), *slide_acts(rng, start, path, end, piece, pbl)]
        tags.append("victim_first")
        return [lift(end, think(rng)), lift(start, hand(rng)), place(end, piece, hand(rng))]
    if ctx.dgt and rng.random() < PROBS["dgt_replace"]:
        tags.append("attacker_first_replace")
        return [lift(start, think(rng)), Act("replace", hand(rng), end, piece)]
    tags.append("attacker_first")
    return [lift(start, think(rng)), lift(end, hand(rng)), place(end, piece, hand(rng))]


def just_moved(ctx: Context, square: int) -> bool:
    return ctx.last_move is not None and ctx.last_move.to_square == square


EP_STEPS = ("lift_pawn", "place_pawn", "lift_victim")


def en_passant_order(rng: random.Random) -> tuple[str, ...]:
    order = list(EP_STEPS)
    rng.shuffle(order)
    return tuple(order)


def en_passant_needs_commit(order: tuple[str, ...]) -> bool:
    """The victim's lift and the place both before the pawn's lift: on a presence board this
    is also the opponent correcting his double step to a single one, unless he pressed his clock."""
    return order[-1] == "lift_pawn"


def en_passant_acts(rng: random.Random, board: chess.Board, move: chess.Move,
                    order: tuple[str, ...], tags: list[str]) -> list[Act]:
    start, end = move.from_square, move.to_square
    victim = chess.square(chess.square_file(end), chess.square_rank(start))
    piece = placed_piece(board, move)
    tags.append("en_passant:" + ",".join(order))
    acts = {"lift_pawn": lambda g: lift(start, g), "place_pawn": lambda g: place(end, piece, g),
            "lift_victim": lambda g: lift(victim, g)}
    return [acts[step](think(rng) if i == 0 else hand(rng)) for i, step in enumerate(order)]


def castling_orders(k0: int, k1: int, r0: int, r1: int) -> list[str]:
    """Every physically possible order: a piece is never placed on an occupied square."""
    orders = ["eboard", "eboard_places_swapped", "eboard_lifts_swapped", "eboard_both_swapped"]
    if k1 == r0 and r1 == k0:
        return orders  # transposition: both pieces must be in hand
    if r0 == r1:
        return [*orders, "king_only"]
    if k0 == k1:
        return [*orders, "rook_only"]
    if k1 != r0:
        orders.append("king_first")
    if r1 != k0:
        orders.append("rook_first")
    return orders


def castling_acts(rng: random.Random, board: chess.Board, move: chess.Move,
                  tags: list[str]) -> list[Act]:
    k0, k1, r0, r1 = castling_squares(move)
    king = board.piece_at(k0)
    rook = board.piece_at(r0)
    assert king is not None and rook is not None
    order = rng.choice(castling_orders(k0, k1, r0, r1))
    shape = ("transposition" if (k1 == r0 and r1 == k0) else "king_only" if r0 == r1
             else "rook_only" if k0 == k1 else "both_move")
    tags.append(f"castling:{shape}:{order}")
    lk, lr = lift(k0, think(rng)), lift(r0, hand(rng))
    pk, pr = place(k1, king, hand(rng)), place(r1, rook, hand(rng))
    if order == "eboard":
        return [lk, lr, pr, pk]
    if order == "eboard_places_swapped":
        return [lk, lr, pk, pr]
    if order == "eboard_lifts_swapped":
        return [Act("lift", lk.gap, r0), Act("lift", lr.gap, k0), pr, pk]
    if order == "eboard_both_swapped":
        return [Act("lift", lk.gap, r0), Act("lift", lr.gap, k0), pk, pr]
    if order == "king_only":
        return [lk, pk]
    if order == "rook_only":
        return [Act("lift", lk.gap, r0), pr]
    if order == "king_first":
        return [lk, pk, Act("lift", think(rng), r0), pr]
    return [Act("lift", lk.gap, r0), pr, Act("lift", think(rng), k0), pk]


def bounce_candidates(board: chess.Board, busy: set[int]) -> list[int]:
    """Squares whose piece may be knocked mid-move: never a king or a rook that may castle,
    so that no bounce can put a king and a castling rook in hand together (spec item 9)."""
    out = []
    for square, piece in board.piece_map().items():
        if square in busy or piece.piece_type == chess.KING:
            continue
        if board.castling_rights & chess.BB_SQUARES[square]:
            continue
        out.append(square)
    return out


def with_bounce(rng: random.Random, acts: list[Act], square: int, piece: chess.Piece) -> list[Act]:
    at = rng.randrange(1, len(acts))
    return [*acts[:at], lift(square, quick(rng)), bounce_back(rng, square, piece), *acts[at:]]


def bounced(rng: random.Random, board: chess.Board, move: chess.Move, acts: list[Act], busy: set[int],
            tags: list[str]) -> list[Act]:
    """Sometimes a sensor bounce (or a knocked piece) somewhere while the move is being made."""
    if rng.random() >= PROBS["mid_move_bounce"]:
        return acts
    candidates = bounce_candidates(board, busy | {a.square for a in acts if a.square >= 0})
    if not candidates:
        return acts
    square = rng.choice(candidates)
    piece = board.piece_at(square)
    assert piece is not None
    whose = "own" if piece.color == board.turn else "opponent"
    capturable = any(m.to_square == square for m in board.legal_moves if m.from_square == move.from_square)
    tags.append(f"mid_move_bounce:{whose}{':capturable' if capturable else ''}")
    return with_bounce(rng, acts, square, piece)


def move_acts(rng: random.Random, board: chess.Board, move: chess.Move, ctx: Context,
              ep_order: tuple[str, ...] | None) -> Ply:
    """The acts of one move, without the clock press and the noise after it."""
    tags: list[str] = []
    san = board.san(move)
    if board.is_castling(move):
        acts = castling_acts(rng, board, move, tags)
        return Ply(san, bounced(rng, board, move, acts, set(castling_squares(move)), tags), tags)
    if board.is_en_passant(move):
        assert ep_order is not None
        acts = en_passant_acts(rng, board, move, ep_order, tags)
        busy = {move.from_square, move.to_square, move.to_square ^ 8}
    elif board.is_capture(move):
        acts = capture_acts(rng, board, move, ctx, tags)
        busy = {move.from_square, move.to_square}
    else:
        acts = quiet_acts(rng, board, move, tags)
        busy = {move.from_square, move.to_square}
    if ctx.last_move is not None:
        # Lifting the piece that just moved while a piece lands on the square it came from is,
        # on a presence board, that move taken back, however short the lift.
        busy.add(ctx.last_move.to_square)
    acts = bounced(rng, board, move, acts, busy, tags)
    if rng.random() < PROBS["self_bounce"] and tags[0] in ("plain", "victim_first", "attacker_first"):
        if rng.random() < 0.5:
            last = acts[-1]
            acts = [*acts, lift(last.square, quick(rng)), bounce_back(rng, last.square, last.piece)]
            tags.append("bounce_on_arrival")
        else:
            first = acts[0]
            mover = board.piece_at(first.square)
            assert mover is not None
            acts = [first, bounce_back(rng, first.square, mover), lift(first.square, quick(rng)), *acts[1:]]
            tags.append("bounce_on_lift")
    if move.promotion and tags[0] == "plain" and rng.random() < PROBS["promotion_swap"]:
        # The pawn is pushed onto the last rank first, then swapped for the new piece there.
        pawn = board.piece_at(move.from_square)
        assert pawn is not None
        last = acts[-1]
        acts = [*acts[:-1], place(last.square, pawn, last.gap), lift(last.square, hand(rng)),
                place(last.square, last.piece, hand(rng))]
        tags.append("promotion_swap")
    if move.promotion:
        promotion_buttons(rng, move, ctx, acts, tags)
    return Ply(san, acts, tags)


def promotion_buttons(rng: random.Random, move: chess.Move, ctx: Context, acts: list[Act],
                      tags: list[str]) -> None:
    """Presence boards need a button for an under-promotion; identifying boards report the piece."""
    reported = ctx.dgt or ctx.identify
    assert move.promotion is not None
    if reported:
        wanted = rng.random() < PROBS["button_when_reported"]
    else:
        wanted = move.promotion != chess.QUEEN or rng.random() < PROBS["button_for_queen"]
    if not wanted:
        tags.append(f"promotion:{chess.piece_symbol(move.promotion)}:no_button")
        return
    button = PROMOTE_BUTTON[move.promotion]
    # Before the lift, unless right after the opponent's promotion with no clock press: a button then
    # still chooses the piece of that promotion, which is open until this side's first event.
    before = rng.random() < PROBS["button_before_lift"] and not (ctx.prev_promotion and ctx.prev_open)
    if before:
        acts.insert(0, Act("button", think(rng), text=button))
        first = acts[1]
        acts[1] = Act(first.kind, hand(rng), first.square, first.piece, first.text)
        tags.append(f"promotion:{chess.piece_symbol(move.promotion)}:button_before_lift")
    else:
        acts.append(Act("button", hand(rng), text=button))
        tags.append(f"promotion:{chess.piece_symbol(move.promotion)}:button_after_place")


def noise_acts(rng: random.Random, board: chess.Board, tags: list[str]) -> list[Act]:
    """Touches, bounces and remarks between moves."""
    acts: list[Act] = []
    pieces = board.piece_map()
    if rng.random() < PROBS["touch"]:
        square = rng.choice(list(pieces))
        acts += [lift(square, think(rng)), place(square, pieces[square], hand(rng))]
        tags.append("touch")
    if rng.random() < PROBS["bounce"]:
        square = rng.choice(list(pieces))
        acts += [lift(square, think(rng)), bounce_back(rng, square, pieces[square])]
        tags.append("bounce")
    if rng.random() < PROBS["note"]:
        acts.append(Act("note", think(rng), text=rng.choice(NOTES)))
    return acts


def snapshot_tells(board: chess.Board, move: chess.Move, letters: bool) -> bool:
    """Whether a snapshot after `move` shows which move it was (no other legal move looks the same)."""
    def seen(m: chess.Move) -> object:
        board.push(m)
        shown = board.board_fen() if letters else board.occupied
        board.pop()
        return shown
    target = seen(move)
    still = board.board_fen() if letters else board.occupied
    return target != still and sum(seen(m) == target for m in board.legal_moves) == 1


def link_drop_acts(rng: random.Random, board: chess.Board, move: chess.Move) -> list[Act]:
    """The link drops, the move is made while it is down, and the board is read when it is back."""
    after = board.copy()
    after.push(move)
    return [Act("link", think(rng), text="down"), Act("link", think(rng) + hand(rng), text="up"),
            Act("snapshot", glide(rng), text=after.board_fen())]


def script_game(rng: random.Random, start: chess.Board, moves: list[chess.Move], ctx: Context) -> list[Ply]:
    """Every ply's acts: the move, a promotion button after it, the clock, then noise."""
    board = start.copy()
    plies: list[Ply] = []
    ep_order = en_passant_order(rng) if moves and board.is_en_passant(moves[0]) else None
    for index, move in enumerate(moves):
        if (not ctx.prev_open and rng.random() < PROBS["link_drop"]
                and snapshot_tells(board, move, ctx.letters)):
            ply = Ply(board.san(move), link_drop_acts(rng, board, move), ["link_drop"])
        else:
            ply = move_acts(rng, board, move, ctx, ep_order)
        mover = board.turn
        was_promotion = bool(move.promotion)
        pbl_capture = "capture_pbl" in ply.tags
        board.push(move)
        nxt = moves[index + 1] if index + 1 < len(moves) else None
        ep_order = en_passant_order(rng) if nxt is not None and board.is_en_passant(nxt) else None
        press = rng.random() < PROBS["clock"]
        if ep_order is not None and en_passant_needs_commit(ep_order) and not press:
            press = True
            ply.tags.append("clock_forced_for_en_passant")
        if pbl_capture and not press and nxt is not None:
            press = True
            ply.tags.append("clock_forced_after_capture_pbl")
        if press:
            own = {square: piece for square, piece in board.piece_map().items() if piece.color == mover}
            if rng.random() < PROBS["touch_before_clock"]:
                square = rng.choice(list(own))
                ply.acts += [lift(square, think(rng)), place(square, own[square], hand(rng))]
                ply.tags.append("touch_before_clock")
            ply.acts.append(Act("button", hand(rng), text="white" if mover == chess.WHITE else "black"))
            if rng.random() < PROBS["resync"]:
                ply.acts.append(Act("snapshot", glide(rng), text=board.board_fen()))
                ply.tags.append("resync")
        else:
            ply.tags.append("no_clock")
        if not board.is_game_over(claim_draw=False):
            ply.acts += noise_acts(rng, board, ply.tags)
        ctx.prev_open = not press
        ctx.prev_promotion = was_promotion
        ctx.last_move = move
        plies.append(ply)
    return plies


# --------------------------------------------------------------------------- files


def square_name(square: int) -> str:
    return chess.square_name(square)


def dgt_field(square: int) -> int:
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


def dgt_update(square: int, piece: chess.Piece | None) -> bytes:
    code = 0 if piece is None else DGT_CODES[(piece.piece_type, piece.color)]
    return bytes((0x8E, 0x00, 0x05, dgt_field(square), code))


def dgt_dump(board: chess.BaseBoard) -> bytes:
    codes = bytearray(64)
    for square, piece in board.piece_map().items():
        codes[dgt_field(square)] = DGT_CODES[(piece.piece_type, piece.color)]
    return bytes((0x86, 0x00, 0x43)) + bytes(codes)


def timed(plies: list[Ply], t0: float) -> list[tuple[float, Act, int]]:
    """Absolute times (ms resolution, strictly increasing) for every act, with its ply index."""
    out = []
    t = t0
    for index, ply in enumerate(plies):
        for act in ply.acts:
            t = round(max(t + act.gap, t + 0.001), 3)
            out.append((t, act, index))
    return out


def events_records(timeline: list[tuple[float, Act, int]], identify: bool,
                   letters: bool) -> list[dict]:
    records: list[dict] = []
    for t, act, _ in timeline:
        if act.kind == "lift":
            records.append({"t": t, "lift": square_name(act.square)})
        elif act.kind == "place":
            record: dict[str, object] = {"t": t, "place": square_name(act.square)}
            if identify and act.piece is not None:
                record["piece"] = act.piece.symbol()
            records.append(record)
        elif act.kind == "button":
            records.append({"t": t, "button": act.text})
        elif act.kind in ("note", "link"):
            records.append({"t": t, act.kind: act.text})
        elif act.kind == "snapshot":
            records.append({"t": t, "board": snapshot_text(chess.BaseBoard(act.text), letters)})
        else:
            raise ValueError(f"act {act.kind} has no event form")
    return records


def chunks(rng: random.Random, t: float, data: bytes, limit: float) -> list[tuple[float, bytes]]:
    """A frame as the serial port may deliver it: sometimes in pieces a few milliseconds apart."""
    if len(data) < 2 or rng.random() >= PROBS["dgt_split"]:
        return [(t, data)]
    cuts = sorted(rng.sample(range(1, len(data)), k=min(len(data) - 1, rng.choice((1, 1, 2)))))
    pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
    out = []
    for piece in pieces:
        out.append((t, piece))
        t = round(min(t + rng.uniform(0.002, 0.03), limit), 3)
    return out


def dgt_records(rng: random.Random, timeline: list[tuple[float, Act, int]]) -> list[dict]:
    """Field updates as `rx` records, split and merged like the samples' reads; a merge delivers
    the earlier bytes at the later time, so the place ending a bounce is never merged forward
    (that would stretch a 50 ms bounce into a touch, which the spec's commit rules read otherwise)."""
    items: list[tuple[float, str, object, bool]] = []
    for index, (t, act, _) in enumerate(timeline):
        limit = timeline[index + 1][0] - 0.001 if index + 1 < len(timeline) else t + 0.05
        if act.kind in ("lift", "place", "replace"):
            frame = dgt_update(act.square, None if act.kind == "lift" else act.piece)
            held = act.text == "bounce"
            items += [(ct, "rx", data, held) for ct, data in chunks(rng, t, frame, max(limit, t))]
        elif act.kind == "snapshot":
            items.append((t, "tx", "42", False))
            dump = dgt_dump(chess.BaseBoard(act.text))
            items += [(ct, "rx", data, False)
                      for ct, data in chunks(rng, round(t + 0.03, 3), dump, max(limit, t))]
        else:
            items.append((t, act.kind, act.text, False))
    records: list[dict] = []
    held_last = False
    for t, kind, value, held in items:
        if (kind == "rx" and records and "rx" in records[-1] and not held_last
                and rng.random() < PROBS["dgt_merge"]):
            assert isinstance(value, bytes)
            records[-1] = {"t": t, "rx": records[-1]["rx"] + value.hex()}
            held_last = held
            continue
        if kind == "rx":
            assert isinstance(value, bytes)
            records.append({"t": t, "rx": value.hex()})
        else:
            records.append({"t": t, kind: value})
        held_last = held
    for before, after in itertools.pairwise(records):
        if after["t"] <= before["t"]:
            after["t"] = round(before["t"] + 0.001, 3)
    return records


def shredder_fen(board: chess.Board) -> str:
    return board.fen(shredder=True)


def snapshot_text(board: chess.BaseBoard, letters: bool) -> str:
    """The capture format's 64 characters: FEN letters, or `x` from a presence-only board."""
    chars = []
    for rank in range(7, -1, -1):
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            chars.append("." if piece is None else piece.symbol() if letters else "x")
    return "".join(chars)


def expected_pgn(start: chess.Board, moves: list[chess.Move], headers: dict[str, str]) -> str:
    game = chess.pgn.Game()
    for key, value in headers.items():
        game.headers[key] = value
    game.headers["Variant"] = "Chess960"
    if start.fen() != chess.STARTING_FEN:
        game.setup(start)
    node: chess.pgn.GameNode = game
    for move in moves:
        node = node.add_variation(move)
    return str(game) + "\n"


@dataclass(slots=True)
class GameFile:
    path: Path
    plies: int
    dgt: bool
    tags: dict[str, int]


def write_game(out: Path, index: int, rng: random.Random, dgt: bool) -> GameFile:
    """One capture and its expected PGN (and a `.tags.json` naming each ply's behaviours)."""
    number = 518 if rng.random() < PROBS["standard"] else rng.randrange(960)
    start = chess.Board.from_chess960_pos(number)
    moves = random_game(rng, start, rng.randrange(20, 161))
    identify = not dgt and rng.random() < PROBS["identify"]
    letters = dgt or rng.random() < PROBS["snapshot_letters"]
    ctx = Context(dgt=dgt, identify=identify, letters=letters)
    plies = script_game(rng, start, moves, ctx)
    names = {"white": f"White {index}", "black": f"Black {index}", "event": "Adversarial corpus",
             "round": str(index)}
    start_value: int | str = shredder_fen(start) if rng.random() < PROBS["fen_start"] else number
    header = {"capture": 1, "board": "dgt" if dgt else "events", "start": start_value,
              "created": "2026-11-22T10:00:00Z", **names}
    t0 = round(rng.uniform(1.0, 5.0), 3)
    timeline = timed(plies, t0)
    head: list[dict] = []
    if dgt:
        if rng.random() < PROBS["dgt_dump"]:
            dump = dgt_dump(start)
            head = [{"t": 0.0, "tx": "40"}, {"t": 0.01, "tx": "42"}]
            cut = rng.randrange(3, len(dump)) if rng.random() < 0.3 else len(dump)
            head.append({"t": 0.05, "rx": dump[:cut].hex()})
            if cut < len(dump):
                head.append({"t": 0.058, "rx": dump[cut:].hex()})
            head.append({"t": 0.064, "tx": rng.choice(("44", "43", "4b"))})
        body = dgt_records(rng, timeline)
    else:
        if rng.random() < PROBS["snapshot"]:
            head = [{"t": 0.0, "board": snapshot_text(start, letters)}]
        body = events_records(timeline, identify, letters)
    lines = [json.dumps(header), *(json.dumps(r) for r in head + body)]
    text = "\n".join(lines) + "\n"
    if rng.random() < PROBS["cut_off"]:
        last_t = body[-1]["t"] if body else 1.0
        extra = json.dumps({"t": round(last_t + 1.0, 3), "button": "white" if len(moves) % 2 else "black"})
        text += extra[: rng.randrange(1, len(extra) - 1)]
    stem = f"game_{index:04d}"
    path = out / (stem + ".jsonl")
    if rng.random() < PROBS["gzip"]:
        path = out / (stem + ".jsonl.gz")
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")
    pgn_headers = {"Event": "Adversarial corpus", "Site": "?", "Date": "????.??.??", "Round": str(index),
                   "White": names["white"], "Black": names["black"], "Result": "*"}
    (out / (stem + ".expected.pgn")).write_text(expected_pgn(start, moves, pgn_headers), encoding="utf-8")
    spans: dict[int, list[float]] = {}
    for t, _, ply_index in timeline:
        spans.setdefault(ply_index, [t, t])[1] = t
    annotations = [{"ply": i + 1, "san": p.san, "tags": p.tags, "t": spans.get(i, [None, None])}
                   for i, p in enumerate(plies)]
    (out / (stem + ".tags.json")).write_text(json.dumps(annotations), encoding="utf-8")
    counts: dict[str, int] = {}
    for ply in plies:
        for tag in ply.tags:
            key = tag if tag.startswith(("castling", "promotion")) else tag.split(":")[0]
            counts[key] = counts.get(key, 0) + 1
    return GameFile(path=path, plies=len(moves), dgt=dgt, tags=counts)


def generate(out: Path, games: int, seed: int, dgt_fraction: float = 0.3) -> list[GameFile]:
    """Write `games` captures into `out`; the same seed gives the same corpus."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(games):
        rng = random.Random(f"{seed}:{index}")
        written.append(write_game(out, index, rng, dgt=rng.random() < dgt_fraction))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for the capture files")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dgt-fraction", type=float, default=0.3,
                        help="share of games written as raw DGT field updates")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=P",
                        help="override one behaviour probability (see PROBS), e.g. --set touch=0.5")
    args = parser.parse_args(argv)
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in PROBS:
            print(f"corpus: unknown behaviour {name!r}; known: {', '.join(sorted(PROBS))}", file=sys.stderr)
            return 2
        try:
            PROBS[name] = float(value)
        except ValueError:
            print(f"corpus: {item!r}: the probability must be a number", file=sys.stderr)
            return 2
    if args.games < 0 or not 0.0 <= args.dgt_fraction <= 1.0:
        print("corpus: --games must be >= 0 and --dgt-fraction within 0..1", file=sys.stderr)
        return 2
    written = generate(args.out, args.games, args.seed, args.dgt_fraction)
    plies = sum(g.plies for g in written)
    totals: dict[str, int] = {}
    for game in written:
        for tag, count in game.tags.items():
            totals[tag] = totals.get(tag, 0) + count
    print(f"wrote {len(written)} games ({sum(g.dgt for g in written)} DGT), {plies} plies, into {args.out}")
    for tag in sorted(totals):
        print(f"  {tag:55} {totals[tag]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
