"""Which legal moves explain what the sensors show: pure functions on python-chess boards.

The search is driven by the occupancy change, not by generating every legal
move: the squares that emptied and filled name the candidate moves, and
`Board.is_legal` checks each. Castlings are the exception: there are at most
two per side, their before/after and half-done occupancies are computed once
per position (`CastlingShape`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import chess

from eboard960.castling import castling_squares
from eboard960.recognizer.evidence import Segment

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
SQUARES_PER_MOVE = 4  # a castling empties and fills two squares each; any other move changes fewer
START_OCCUPANCY = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8


@dataclass(frozen=True, slots=True)
class CastlingShape:
    """One legal castling seen from the sensors: its squares and every half-done occupancy."""

    move: chess.Move
    king_from: chess.Square
    rook_from: chess.Square
    king_to: chess.Square
    rook_to: chess.Square
    after: chess.Bitboard
    halves: dict[chess.Bitboard, tuple[chess.Square | None, chess.Square | None]]

    @property
    def is_transposition(self) -> bool:
        return self.king_to == self.rook_from and self.rook_to == self.king_from

    @property
    def pair(self) -> chess.Bitboard:
        """The squares the king and rook stand on before it."""
        return chess.BB_SQUARES[self.king_from] | chess.BB_SQUARES[self.rook_from]

    @property
    def targets(self) -> chess.Bitboard:
        """The squares the king and rook stand on after it."""
        return chess.BB_SQUARES[self.king_to] | chess.BB_SQUARES[self.rook_to]

    @property
    def steps(self) -> tuple[tuple[chess.Square, chess.Square], tuple[chess.Square, chess.Square]]:
        """(from, to) of the king and of the rook: each half alone looks like a move of one piece."""
        return (self.king_from, self.king_to), (self.rook_from, self.rook_to)


def castling_shapes(board: chess.Board) -> tuple[CastlingShape, ...]:
    """Every legal castling of the side to move, with its half-done occupancies."""
    if not board.castling_rights & board.occupied_co[board.turn]:
        return ()
    shapes = []
    for move in board.generate_castling_moves():
        k0, k1, r0, r1 = castling_squares(move)
        rest = board.occupied & ~chess.BB_SQUARES[k0] & ~chess.BB_SQUARES[r0]
        halves: dict[chess.Bitboard, tuple[chess.Square | None, chess.Square | None]] = {}
        for king_at in (k0, None, k1):
            for rook_at in (r0, None, r1):
                if (king_at, rook_at) in ((k0, r0), (k1, r1)) or (king_at is not None and king_at == rook_at):
                    continue
                occupied = rest
                for square in (king_at, rook_at):
                    if square is not None:
                        occupied |= chess.BB_SQUARES[square]
                halves.setdefault(occupied, (king_at, rook_at))
        after = rest | chess.BB_SQUARES[k1] | chess.BB_SQUARES[r1]
        shapes.append(CastlingShape(move, k0, r0, k1, r1, after, halves))
    return tuple(shapes)


def shape_of(shapes: tuple[CastlingShape, ...], move: chess.Move) -> CastlingShape:
    """The shape of the castling `move`, one of `shapes` (those of the position it is made in)."""
    return next(shape for shape in shapes if shape.move == move)


def castling_evidence(shape: CastlingShape, segment: Segment, shown: chess.Move | None = None) -> bool:
    """Did the events show this castling, where occupancy alone cannot?

    A square that holds a piece before and after but changed hands (the king
    landing where its rook stood, or the rook where the king stood) must have
    been emptied before the piece that left it could arrive, or both pieces
    must have been in hand together (the board may report one's landing just
    before its lift); a transposition needs the latter. Else an ordinary
    move and a touched piece explain the same occupancy better. A half
    already `shown` as a move of its own (placed before its lift, say) left first.
    """
    if shape.is_transposition:
        return segment.held_together(shape.king_from, shape.rook_from) or _placed_first(shape, segment)
    if shown is not None and (shown.from_square, shown.to_square) in shape.steps:
        return True
    if shape.king_to == shape.rook_from:  # the rook must have left before it could land
        left_first = segment.left_before(shape.rook_from, shape.rook_to)
    elif shape.rook_to == shape.king_from:
        left_first = segment.left_before(shape.king_from, shape.king_to)
    else:
        return True
    together = segment.held_together(shape.king_from, shape.rook_from)
    return left_first or together or _placed_first(shape, segment)


def _placed_first(shape: CastlingShape, segment: Segment) -> bool:
    """Did the board report the king or the rook landing on its castling square just before it left its
    own? Then the two were in hand together; the other's lift and place only looked like a touch."""
    return (segment.landed_just_before(shape.rook_to, shape.rook_from)
            or segment.landed_just_before(shape.king_to, shape.king_from))


def agrees(board: chess.Board, pieces: dict[chess.Square, chess.Piece]) -> bool:
    """Does every piece the board named stand where `board` has it?"""
    return all(board.piece_at(square) == piece for square, piece in pieces.items())


def reads_as(board: chess.Board, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece]) -> bool:
    """Does `board` show what the sensors read: `occupied`, and the `pieces` named?"""
    return board.occupied == occupied and agrees(board, pieces)


def after_move(board: chess.Board, move: chess.Move) -> chess.Board:
    """The position once `move` is made, `board` left as it is."""
    after = board.copy(stack=False)
    after.push(move)
    return after


def with_promotions(
    board: chess.Board, from_square: chess.Square, to_square: chess.Square
) -> list[chess.Move]:
    """The legal moves from `from_square` to `to_square`: one, or a pawn's four promotions (the sensors
    cannot tell which piece), or none."""
    piece = board.piece_type_at(from_square)
    if piece == chess.PAWN and chess.BB_SQUARES[to_square] & chess.BB_BACKRANKS:
        return [move for p in PROMOTIONS if board.is_legal(move := chess.Move(from_square, to_square, p))]
    move = chess.Move(from_square, to_square)
    return [move] if board.is_legal(move) else []


def slides_over(board: chess.Board, square: chess.Square, beside: chess.Square | None = None) -> bool:
    """Can a piece of the side to move, on a square beside `square` (on `beside`, if given), slide over it
    on a legal move: set down there on its way, across the corner of a knight's leg or straddling two
    squares? `square` lies inside the rectangle the move spans, short of both its ends."""
    origins = chess.BB_KING_ATTACKS[square] & board.occupied_co[board.turn]
    if beside is not None:
        origins &= chess.BB_SQUARES[beside]
    file, rank = chess.square_file(square), chess.square_rank(square)
    for move in board.generate_legal_moves(from_mask=origins):
        files = sorted((chess.square_file(move.from_square), chess.square_file(move.to_square)))
        ranks = sorted((chess.square_rank(move.from_square), chess.square_rank(move.to_square)))
        if square != move.to_square and files[0] <= file <= files[1] and ranks[0] <= rank <= ranks[1]:
            return True
    return False


def matching_moves(
    board: chess.Board,
    occupied: chess.Bitboard,
    segment: Segment,
    shapes: tuple[CastlingShape, ...],
    shown: chess.Move | None = None,
    named: dict[chess.Square, chess.Piece] | None = None,
) -> list[chess.Move]:
    """Legal moves from `board` after which the sensors would read `occupied`, given the events
    (and the open move `shown`, which may be half a castling, and the pieces the board `named`).

    Castlings shown by the events come first: a king and rook in hand together
    that land on their castling squares are a castling even where an ordinary
    move leaves the same occupancy. So is a king the board names on its castling square;
    a castling is none where it names another piece on the king's square or the rook's.
    A castling the events do not show is still the move when no other explains a changed board.
    """
    before = board.occupied
    vacated = before & ~occupied
    filled = occupied & ~before
    named = named or {}
    king, rook = chess.Piece(chess.KING, board.turn), chess.Piece(chess.ROOK, board.turn)
    castlings = [
        shape for shape in shapes if shape.after == occupied
        and _may_stand(board, segment, named, shape.king_to, king)
        and _may_stand(board, segment, named, shape.rook_to, rook)
    ]
    moves = [shape.move for shape in castlings
             if castling_evidence(shape, segment, shown) or shape.king_to in named]
    ours = board.occupied_co[board.turn]
    if vacated.bit_count() == 1 and filled.bit_count() <= 1:
        from_square = chess.lsb(vacated)
        if ours & vacated:
            if filled:
                moves += with_promotions(board, from_square, chess.lsb(filled))
            else:
                for to in chess.scan_forward(segment.lifted & occupied & board.occupied_co[not board.turn]):
                    moves += with_promotions(board, from_square, to)
    elif vacated.bit_count() == 2 and filled.bit_count() == 1 and board.ep_square is not None:
        to = chess.lsb(filled)
        if to == board.ep_square:
            for from_square in chess.scan_forward(vacated & ours & board.pawns):
                move = chess.Move(from_square, to)
                if board.is_en_passant(move) and board.is_legal(move):
                    moves.append(move)
    if not moves and occupied != before:
        moves = [shape.move for shape in castlings]  # its evidence hidden by a piece placed long first
    return moves


def _may_stand(board: chess.Board, segment: Segment, named: dict[chess.Square, chess.Piece],
               square: chess.Square, piece: chess.Piece) -> bool:
    """Does the name the board gives `square`, if any, allow `piece` there? A name of the mover's that
    neither the piece standing there nor one lifted since can have is a misread (a worn piece): it does."""
    name = named.get(square, piece)
    return name == piece or (name.color == board.turn and board.piece_at(square) != name
                             and not board.pieces_mask(name.piece_type, name.color) & segment.ever)


def occupancy_after(
    board: chess.Board, move: chess.Move, shapes: tuple[CastlingShape, ...]
) -> chess.Bitboard:
    """What the sensors will read once `move` is made, without making it."""
    if board.is_castling(move):
        return shape_of(shapes, move).after
    occupied = board.occupied & ~chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
    if board.is_en_passant(move):
        occupied &= ~chess.BB_SQUARES[move.to_square ^ 8]
    return occupied


def touched_squares(board: chess.Board, move: chess.Move) -> tuple[chess.Bitboard, chess.Bitboard]:
    """(squares that may be empty mid-move, squares that may fill) for a legal move."""
    if board.is_castling(move):
        king_from, king_to, rook_from, rook_to = castling_squares(move)
        return (chess.BB_SQUARES[king_from] | chess.BB_SQUARES[rook_from],
                chess.BB_SQUARES[king_to] | chess.BB_SQUARES[rook_to])
    emptied = chess.BB_SQUARES[move.from_square]
    if board.is_en_passant(move):
        emptied |= chess.BB_SQUARES[move.to_square ^ 8]
    elif board.piece_at(move.to_square):
        emptied |= chess.BB_SQUARES[move.to_square]
    return emptied, chess.BB_SQUARES[move.to_square]


def taken_earlier(start: chess.Board, board: chess.Board, piece: chess.Piece) -> bool:
    """Has the game from `start` to `board` taken a piece like `piece` off the board? One may be put back."""
    return len(start.pieces(piece.piece_type, piece.color)) > len(board.pieces(piece.piece_type, piece.color))


def is_partial(board: chess.Board, occupied: chess.Bitboard, *, in_hand: int = 0) -> bool:
    """Could `occupied` be a legal move from `board` caught halfway, with up to `in_hand` more pieces
    picked up besides the move's own?"""
    vacated = board.occupied & ~occupied
    filled = occupied & ~board.occupied
    if vacated.bit_count() <= in_hand and not filled:
        return True
    for move in board.generate_legal_moves():
        emptied, fills = touched_squares(board, move)
        if (vacated & ~emptied).bit_count() <= in_hand and not filled & ~fills:
            return True
    return False


def successors(
    board: chess.Board, occupied: chess.Bitboard, pieces: dict[chess.Square, chess.Piece], depth: int,
    *, narrow: bool = False, movable: chess.Bitboard = chess.BB_ALL, landing: chess.Bitboard = chess.BB_ALL,
    rank: Callable[[list[chess.Move]], tuple[int, ...]] | None = None,
    keep: Callable[[list[chess.Move]], bool] | None = None,
) -> list[chess.Move] | None:
    """The shortest sequence of at most `depth` legal moves whose result the snapshot shows; of several
    that long, the first with the highest `rank` (by default, the first found); with `keep`, only a line it
    keeps.

    The last move of a line only ever starts where the snapshot shows an empty square, or is a castling
    (whose king may stay, or find its square filled by its rook), so only those moves are tried for it:
    the same lines, found at a fraction of the cost. `narrow` tries only such moves at every ply, which
    keeps a deeper search cheap; it misses a line that empties a square and fills it again. `movable` and
    `landing` keep it cheap too: only pieces standing on `movable` move, and only to `landing` (castlings
    aside).
    """
    frontier: list[list[chess.Move]] = [[]]
    for ply in range(depth):
        last = ply == depth - 1
        next_frontier, found = [], []
        for line in frontier:
            for move in line:
                board.push(move)
            if (board.occupied ^ occupied).bit_count() <= SQUARES_PER_MOVE * (depth - ply):  # else too far
                narrowed = narrow or last
                mask = (board.occupied & ~occupied if narrowed else chess.BB_ALL) & movable
                moves = list(board.generate_legal_moves(from_mask=mask, to_mask=landing))
                if narrowed and board.has_castling_rights(board.turn):  # the king stays, or its rook refills
                    moves += board.generate_castling_moves(from_mask=chess.BB_ALL & ~mask)
                for move in moves:
                    board.push(move)
                    if reads_as(board, occupied, pieces) and (keep is None or keep([*line, move])):
                        if rank is None:
                            for _ in range(len(line) + 1):
                                board.pop()
                            return [*line, move]
                        found.append([*line, move])
                    board.pop()
                    if not last:
                        next_frontier.append([*line, move])
            for _ in line:
                board.pop()
        if found:
            return max(found, key=rank)
        frontier = next_frontier
    return None
