"""Imperatives to a board that every protocol understands in its own bytes.

Codecs turn these into bytes with `send`; protocol-specific commands live
beside their codec.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestBoard:
    """Ask for a full board dump (at start and after every reconnect)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnableUpdates:
    """Ask the board to report every square change from now on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SetLeds:
    """Light exactly these squares (an empty set turns every LED off)."""

    squares: frozenset[chess.Square] = frozenset()


BoardCommand = RequestBoard | EnableUpdates | SetLeds
