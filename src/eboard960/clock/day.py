"""The day's position: every clock in a hall derives the same position, offline.

The organiser publishes `commitment(secret)` before the event. On the day each
clock computes HMAC-SHA256(secret, message(date, round, counter)) and reads
the output 16 bits at a time, rejecting values at or above the largest
multiple of the number of allowed positions (so there is no modulo bias).
After the event the secret is revealed and anyone can check the commitment and
every round's position. The exact bytes are in the README ("The day's position").
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from eboard960.errors import Eboard960Error
from eboard960.numbering import COUNT

POSITION_TAG = b"eboard960 day position v1"
COMMIT_TAG = b"eboard960 secret commitment v1"
SECRET_BYTES = 32
MIN_SECRET_BYTES = 16


class DayError(Eboard960Error):
    """A secret file, date, round or exclusion that the day's position cannot use."""


def message(date: datetime.date, round_number: int, counter: int) -> bytes:
    """HMAC input: tag, 0x00, ISO date, 0x00, round in decimal, 0x00, 4-byte big-endian counter."""
    return b"\x00".join([
        POSITION_TAG, date.isoformat().encode("ascii"), str(round_number).encode("ascii"),
        counter.to_bytes(4, "big"),
    ])


def commitment(secret: bytes) -> str:
    """SHA-256 over the commitment tag, 0x00 and the secret, in hex: publish this first."""
    return hashlib.sha256(COMMIT_TAG + b"\x00" + secret).hexdigest()


def allowed_numbers(exclude: Iterable[int]) -> list[int]:
    excluded = frozenset(exclude)
    allowed = [n for n in range(COUNT) if n not in excluded]
    if not allowed:
        raise DayError(f"the exclusions leave none of the {COUNT} positions")
    return allowed


def day_position(
    secret: bytes, date: datetime.date, round_number: int, exclude: Iterable[int] = ()
) -> int:
    """The Scharnagl number (0..959) for this date and round, never an excluded one."""
    if round_number < 1:
        raise DayError(f"rounds are numbered from 1, not {round_number}")
    allowed = allowed_numbers(exclude)
    limit = 65536 - 65536 % len(allowed)
    counter = 0
    while True:  # each 16-bit value is rejected with probability < 1/68
        block = hmac.new(secret, message(date, round_number, counter), hashlib.sha256).digest()
        for i in range(0, len(block), 2):
            value = int.from_bytes(block[i:i + 2], "big")
            if value < limit:
                return allowed[value % len(allowed)]
        counter += 1


def event_positions(
    secret: bytes,
    date: datetime.date,
    rounds: int,
    exclude: Iterable[int] = (),
    *,
    no_repeat: bool = False,
) -> list[int]:
    """Rounds 1..`rounds`; with `no_repeat` each round also excludes the earlier rounds'."""
    excluded = set(exclude)
    if no_repeat and rounds > COUNT - len(excluded & set(range(COUNT))):
        raise DayError(f"{rounds} rounds without repeats need more than the allowed positions")
    positions: list[int] = []
    for round_number in range(1, rounds + 1):
        chosen = day_position(secret, date, round_number, excluded)
        positions.append(chosen)
        if no_repeat:
            excluded.add(chosen)
    return positions


def read_secret(path: str | os.PathLike[str]) -> bytes:
    """The secret file holds the secret as hex digits; whitespace is ignored, and so is a byte order mark
    (as Notepad saves), which is no part of the text."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise DayError(f"secret file {os.fspath(path)!r} does not exist") from None
    except UnicodeDecodeError:
        raise DayError(f"secret file {os.fspath(path)!r} must hold hex digits only") from None
    except OSError as error:
        raise DayError(f"cannot read secret file {os.fspath(path)!r}: {error}") from None
    digits = "".join(text.split())
    try:
        secret = bytes.fromhex(digits)
    except ValueError:
        raise DayError(f"secret file {os.fspath(path)!r} must hold hex digits only") from None
    if len(secret) < MIN_SECRET_BYTES:
        raise DayError(f"secret in {os.fspath(path)!r} has {len(secret)} bytes; "
                       f"use at least {MIN_SECRET_BYTES} (day new-secret makes {SECRET_BYTES})")
    return secret


def write_new_secret(path: str | os.PathLike[str]) -> bytes:
    """Write a fresh secret as hex to a new file readable only by its owner (0600)."""
    secret = secrets.token_bytes(SECRET_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise DayError(f"{os.fspath(path)!r} exists; a secret is never overwritten") from None
    except OSError as error:
        raise DayError(f"cannot create {os.fspath(path)!r}: {error.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(secret.hex() + "\n")
    os.chmod(path, 0o600)  # the umask may have narrowed it further; make it exact
    return secret


def parse_date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise DayError(f"{text!r} is not a date (want YYYY-MM-DD)") from None
