"""Fuzz the ChessLink codec for a while and report how many inputs it tried.

Each round builds a stream of valid board frames (statuses from a random game,
replies with random values), mixes in random garbage, flips and deletions,
feeds it to a fresh codec in random chunks, and checks three things: nothing
escapes (the contract allows `ProtocolError`; this codec never needs it), the unparsed buffer
never holds a whole frame, and every frame that reached the codec intact and
with garbage only around it is decoded.

    python tools/fuzz_chesslink.py --seconds 30 [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import chess

from eboard960.errors import ProtocolError
from eboard960.protocols import chesslink as cl

REPLY_LETTERS = "vlxwr"


def random_frame(rng: random.Random, board: chess.Board) -> bytes:
    letter = rng.choice("s" + REPLY_LETTERS)
    if letter == "s":
        if not board.is_game_over() and rng.random() < 0.8:
            board.push(rng.choice(list(board.legal_moves)))
        return cl.encode_frame("s", cl.status_text(board.piece_map()))
    size = cl.BOARD_FRAMES[letter].length // 2
    return cl.encode_frame(letter, "".join(f"{rng.randrange(256):02X}" for _ in range(size)))


def spoil(rng: random.Random, frame: bytes) -> tuple[bytes, bool]:
    """The frame, maybe damaged; True when it is still intact."""
    roll = rng.random()
    if roll < 0.1:
        index = rng.randrange(len(frame))
        return frame[:index] + bytes([rng.randrange(256)]) + frame[index + 1 :], False
    if roll < 0.2:
        index = rng.randrange(len(frame))
        return frame[:index] + frame[index + 1 :], False
    if roll < 0.3:
        return bytes(b & 0x7F for b in frame), True
    return frame, True


def one_round(rng: random.Random) -> int:
    board = chess.Board.from_chess960_pos(rng.randrange(960))
    stream, expected = b"", []
    for _ in range(rng.randrange(1, 12)):
        stream += bytes(rng.randrange(256) for _ in range(rng.choice((0, 0, 1, 5, 40))))
        frame, intact = spoil(rng, random_frame(rng, board))
        stream += frame
        if intact:
            text = bytes(b & 0x7F for b in frame).decode()
            expected.append((text[0], text[1:-2]))
    reader = cl.FrameReader(cl.BOARD_FRAMES)
    codec = cl.ChessLinkCodec()
    decoded: list[tuple[str, str]] = []
    position = 0
    while position < len(stream):
        step = rng.randrange(1, 80)
        chunk = stream[position : position + step]
        position += step
        decoded += reader.feed(chunk)
        try:
            codec.receive_data(chunk)
        except ProtocolError as error:  # allowed by the contract, but this codec never should
            raise SystemExit(f"codec raised {error!r} on input {stream.hex()}") from error
        if reader.buffered >= reader.max_frame or codec.buffered >= 67:
            raise SystemExit(f"buffer grew past one frame on seed input {stream.hex()}")
    remaining = iter(decoded)
    # a damaged frame just before an intact one may swallow its start only if the damage
    # left a plausible prefix; garbage never can, because the reader restarts one byte later
    missing = [frame for frame in expected if frame not in remaining]
    return len(missing)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    tried = missed = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        missed += one_round(rng)
        tried += 1
    print(f"seed {seed}: {tried} inputs in {args.seconds:g} s, {missed} intact frames missed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
