"""Fuzz the Pegasus codec for a while: random and mutated byte streams, garbage before good frames.

Checks on every input: nothing but `ProtocolError` escapes, the buffer never
exceeds one message, and every valid message placed after garbage comes out
(in order, among whatever the garbage itself happened to hold). Prints how
many inputs it tried and how many checks failed; exit status 1 on a failure.

    PYTHONPATH=src python tools/fuzz_pegasus.py --seconds 30 [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from eboard960.errors import ProtocolError
from eboard960.protocols.pegasus import MAX_MESSAGE, PegasusCodec

VECTORS = Path(__file__).parent.parent / "firmware_protocols/pegasus/vectors.json"


def valid_frames() -> list[bytes]:
    vectors = json.loads(VECTORS.read_text())
    return [bytes.fromhex(vector["hex"]) for vector in vectors["board_to_app"]]


def mutate(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if choice < 0.4 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif choice < 0.7 and out:
            del out[rng.randrange(len(out))]
        else:
            out.insert(rng.randrange(len(out) + 1), rng.randrange(256))
    return bytes(out)


def feed(codec: PegasusCodec, stream: bytes, rng: random.Random) -> list[object]:
    """Decode `stream` in random chunks, checking the buffer bound after each."""
    events: list[object] = []
    start = 0
    while start < len(stream):
        size = rng.randint(1, 64)
        events += codec.receive_data(stream[start : start + size])
        if codec.buffered > MAX_MESSAGE:
            raise AssertionError(f"buffer grew to {codec.buffered}")
        start += size
    return events


def one_input(rng: random.Random, frames: list[bytes]) -> str | None:
    """Run one input; a description of the failure, or None."""
    kind = rng.choice(("random", "mutated", "garbage+valid"))
    codec = PegasusCodec()
    try:
        if kind == "random":
            feed(codec, rng.randbytes(rng.randint(0, 400)), rng)
        elif kind == "mutated":
            feed(codec, b"".join(mutate(rng, rng.choice(frames)) for _ in range(4)), rng)
        else:
            pairs = [(rng.randbytes(rng.randint(0, 60)), rng.choice(frames)) for _ in range(5)]
            events = iter(feed(codec, b"".join(g + v for g, v in pairs), rng))
            for _garbage, valid in pairs:
                want = PegasusCodec().receive_data(valid)[0]
                if not any(event == want for event in events):
                    return f"missed {valid.hex(' ')} after garbage"
    except ProtocolError:
        return None
    except Exception as error:  # the whole point: report anything else
        return f"{kind}: {type(error).__name__}: {error}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng, frames = random.Random(seed), valid_frames()
    tried, failures = 0, []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        failure = one_input(rng, frames)
        tried += 1
        if failure is not None:
            failures.append(failure)
    print(f"seed {seed}: {tried} inputs in {args.seconds:g} s, {len(failures)} failures")
    for failure in failures[:10]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
