#!/usr/bin/env python3
"""Timed fuzzing of the DGT codec: random and mutated streams, checked after every chunk.

Checks per input: nothing but `DgtError` escapes (in fact nothing should),
the framer never holds more than one message's worth of bytes, and every
well-formed message that follows garbage comes out of the framer intact.
Prints how many inputs, bytes and frames it tried and how many checks failed.

    PYTHONPATH=src python3 tools/fuzz_dgt.py --seconds 30 [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from eboard960.protocols import dgt
from eboard960.protocols.dgt import DgtCodec, DgtError, DgtFramer, Frame
from eboard960.protocols.dgt_clock import ClockAck, ClockTimes


def valid_frame(rng: random.Random) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:
        return dgt.encode_field_update(rng.randrange(64), rng.randrange(16))
    if kind == 1:
        return dgt.encode_dump([rng.randrange(13) for _ in range(64)])
    if kind == 2:
        return dgt.encode_message(ClockTimes(left=rng.randrange(36000),
                                             right=rng.randrange(36000),
                                             right_lever_up=rng.random() < 0.5))
    if kind == 3:
        return dgt.encode_message(ClockAck(a0=0x10, a1=rng.randrange(256), a2=rng.randrange(256),
                                           a3=rng.randrange(256)))
    if kind == 4:
        return dgt.encode_message(dgt.SerialNumber(text=f"{rng.randrange(100000):05d}"))
    return dgt.encode_message(dgt.EeMoves(data=bytes(rng.randrange(0x80)
                                                     for _ in range(rng.randrange(300)))))


def chunks(data: bytes, rng: random.Random) -> list[bytes]:
    out, i = [], 0
    while i < len(data):
        step = rng.choice((1, 2, 3, 7, 64, 4096))
        out.append(data[i:i + step])
        i += step
    return out


def mutate(data: bytes, rng: random.Random) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        if not buffer:
            break
        position = rng.randrange(len(buffer))
        choice = rng.randrange(3)
        if choice == 0:
            buffer[position] = rng.randrange(256)
        elif choice == 1:
            del buffer[position]
        else:
            buffer.insert(position, rng.randrange(256))
    return bytes(buffer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    inputs = total_bytes = frames_checked = failures = 0
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        inputs += 1
        good = [valid_frame(rng) for _ in range(rng.randrange(1, 6))]
        style = inputs % 3
        if style == 0:
            garbage = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        elif style == 1:
            garbage = mutate(b"".join(valid_frame(rng) for _ in range(3)), rng)
        else:
            garbage = valid_frame(rng)[: rng.randrange(1, 5)]  # a cut frame
        stream = garbage + b"".join(good)
        total_bytes += len(stream)
        codec, framer, framed = DgtCodec(), DgtFramer(), []
        try:
            for chunk in chunks(stream, rng):
                codec.receive_data(chunk)
                framed += [f for f in framer.receive_data(chunk) if isinstance(f, Frame)]
                if codec.buffered > dgt.MAX_FRAME or framer.buffered > dgt.MAX_FRAME:
                    failures += 1
                    print(f"buffer grew past one frame on {stream.hex()}")
        except DgtError:
            pass
        except Exception as error:  # the point of a fuzzer: report anything else
            failures += 1
            print(f"{type(error).__name__}: {error} on {stream.hex()}")
            continue
        expected = [Frame(f[0] & 0x7F, f[3:]) for f in good]
        frames_checked += len(expected)
        if framed[len(framed) - len(expected):] != expected:
            failures += 1
            print(f"lost a good frame after garbage: {stream.hex()}")
    print(f"{inputs} inputs, {total_bytes} bytes, {frames_checked} good frames checked "
          f"in {args.seconds:.0f} s: {failures} failures")


if __name__ == "__main__":
    main()
