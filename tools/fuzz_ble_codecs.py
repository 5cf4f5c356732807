"""Timed fuzzing of the Chessnut, GoChess and Square Off codecs; prints what it tried and found.

    python tools/fuzz_ble_codecs.py --seconds 30 [--seed 1]

For each codec, in equal shares of the time, it feeds random byte streams and
mutated streams of valid notifications in random chunks, and checks after
every chunk that nothing but the codec's own error escaped and that the
buffer stayed under one frame. It also counts how many valid messages were
lost after garbage: when the garbage came in its own notification and the
good ones follow (for Chessnut and Square Off after the codec's
`stale_after`; GoChess never carries bytes over) the count must be 0; when
garbage and good messages share one chunk, a garbage tail can swallow the
start of the next message, and the figure says how often that happens.
Exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from eboard960.errors import ProtocolError
from eboard960.protocols import chessnut as cn
from eboard960.protocols import gochess as gc
from eboard960.protocols import squareoff as so


def chessnut_frame(rng: random.Random, burst: bool = False) -> bytes:
    """A valid frame; in a `burst`, no position (its events depend on the previous one)."""
    kind = rng.randrange(1 if burst else 0, 5)
    if kind == 0:
        pieces = {sq: rng.choice(list(cn.NIBBLE_PIECES.values())) for sq in rng.sample(chess.SQUARES, 20)}
        return cn.position_frame(pieces, rng.randrange(0x10000))
    if kind == 1:
        return bytes([0x23, 0x01, rng.randrange(2)])
    if kind == 2:
        return cn.battery_bytes(rng.randrange(101), rng.random() < 0.5)
    if kind == 3:
        return bytes([0x0F, 0x01, rng.randrange(256)])
    name = "".join(rng.choice("ABCxyz 019_") for _ in range(rng.randint(1, 20))).encode()
    return bytes([0x2C, len(name)]) + name


def gochess_frame(rng: random.Random, burst: bool = False) -> bytes:
    """A valid notification; in a `burst`, only ASCII events (binary ones fill a notification)."""
    kind = rng.randrange(2 if burst else 5)
    if kind == 0:
        return gc.piece_event_bytes(rng.choice(chess.SQUARES), rng.random() < 0.5)
    if kind == 1:
        return gc.border_event_bytes(rng.choice(list(gc.SIDE_LETTERS)), rng.randint(1, 10), True)
    if kind == 2:
        return gc.board_state_bytes(rng.getrandbits(64) & rng.getrandbits(64))  # ~16 men
    if kind == 3:
        return gc.framed(0x01, bytes([rng.randrange(101)]))
    return b"Ver" + bytes([rng.randrange(256)])


def squareoff_frame(rng: random.Random, burst: bool = False) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:
        square = chess.square_name(rng.choice(chess.SQUARES))
        return so.message("0", square + rng.choice("ud"))
    if kind == 1:
        return so.message("30", so.occupancy_text(rng.getrandbits(64)))
    if kind == 2:
        return so.message("22", f"{rng.uniform(3, 4.2):.2f}")
    return so.message("14", "GO") + rng.choice([b"", b"\r\n"])


@dataclass(slots=True)
class Target:
    name: str
    make: Callable[[], object]
    frame: Callable[[random.Random, bool], bytes]
    limit: int
    error: type[ProtocolError]
    inputs: int = 0
    chunks: int = 0
    failures: list[str] = field(default_factory=list)
    sent_after_pause: int = 0
    lost_after_pause: int = 0
    sent_in_burst: int = 0
    lost_in_burst: int = 0


TARGETS = [
    Target("chessnut", cn.ChessnutCodec, chessnut_frame, cn.MAX_FRAME_SIZE, cn.ChessnutError),
    Target("gochess", gc.GoChessCodec, gochess_frame, gc.MAX_MESSAGE_SIZE, gc.GoChessError),
    Target("squareoff", so.SquareOffCodec, squareoff_frame, so.MAX_MESSAGE_SIZE, so.SquareOffError),
]


def mutate(rng: random.Random, data: bytes) -> bytes:
    stream = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        where = rng.randrange(len(stream))
        action = rng.randrange(3)
        if action == 0:
            stream[where] ^= rng.randint(1, 255)
        elif action == 1:
            stream.insert(where, rng.randrange(256))
        elif len(stream) > 1:
            del stream[where]
    return bytes(stream)


def feed(target: Target, codec: object, data: bytes, rng: random.Random, t: float) -> list:
    events: list = []
    start = 0
    while start < len(data):
        end = start + rng.randint(1, 40)
        try:
            events += codec.receive_data(data[start:end], t)  # type: ignore[attr-defined]
        except target.error:
            pass
        except Exception as error:  # the point of a fuzzer is to catch anything
            target.failures.append(f"{type(error).__name__}: {error} on {data.hex()}")
        if codec.buffered >= target.limit:  # type: ignore[attr-defined]
            target.failures.append(f"buffer {codec.buffered} on {data.hex()}")  # type: ignore[attr-defined]
        target.chunks += 1
        start = end
    return events


def common_suffix(a: list, b: list) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def one_round(target: Target, rng: random.Random) -> None:
    valid = [target.frame(rng, False) for _ in range(rng.randint(1, 6))]
    garbage = rng.randbytes(rng.randint(1, 100))
    feed(target, target.make(), rng.randbytes(rng.randint(1, 200)), rng, 0.0)
    feed(target, target.make(), mutate(rng, b"".join(valid)), rng, 0.0)
    clean = target.make()
    expected = [clean.receive_data(frame, 1.0) for frame in valid]  # type: ignore[attr-defined]
    # Garbage, a pause, then the good notifications: nothing may be lost.
    codec = target.make()
    feed(target, codec, garbage, rng, 0.0)
    if isinstance(codec, cn.ChessnutCodec):
        codec.resync()  # a position inside the garbage must not be the diff baseline
    got = [codec.receive_data(frame, 1.0) for frame in valid]  # type: ignore[attr-defined]
    target.sent_after_pause += len(valid)
    target.lost_after_pause += sum(a != b for a, b in zip(got, expected, strict=True))
    # Garbage and good messages in one chunk (for GoChess: in one notification):
    # count the expected events missing from the end of what came out.
    burst = [target.frame(rng, True) for _ in range(rng.randint(1, 6))]
    wanted = target.make().receive_data(b"".join(burst), 0.0)  # type: ignore[attr-defined]
    events = target.make().receive_data(garbage + b"".join(burst), 0.0)  # type: ignore[attr-defined]
    target.sent_in_burst += len(wanted)
    target.lost_in_burst += len(wanted) - common_suffix(events, wanted)
    target.inputs += 5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="total time (default 10)")
    parser.add_argument("--seed", type=int, default=None, help="repeat a run")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    print(f"seed {seed}, {args.seconds:g} s in {len(TARGETS)} equal shares")
    for target in TARGETS:
        deadline = time.perf_counter() + args.seconds / len(TARGETS)
        while time.perf_counter() < deadline:
            one_round(target, rng)
        burst = target.lost_in_burst / max(1, target.sent_in_burst)
        print(
            f"{target.name:10} {target.inputs:8d} inputs {target.chunks:9d} chunks  "
            f"failures {len(target.failures)}  "
            f"lost after a pause {target.lost_after_pause}/{target.sent_after_pause}  "
            f"lost in the same burst {target.lost_in_burst}/{target.sent_in_burst} ({burst:.2%})"
        )
        for failure in target.failures[:5]:
            print(f"    {failure}")
    bad = any(t.failures or t.lost_after_pause for t in TARGETS)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
