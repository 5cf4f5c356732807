"""Sans-IO codecs, one module per board protocol.

A codec never touches a port: `receive_data(data, t)` takes the bytes a board
sent and returns the events they carry (square events from
`eboard960.events`, plus protocol-specific messages); `send(command)` returns
the bytes for a command. A codec keeps partial frames between calls, discards
garbage up to the next frame it can recognise, and never holds more than one
frame's worth of unparsed bytes.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Protocol

from eboard960.errors import ProtocolError

CODECS: dict[str, str] = {
    "dgt": "eboard960.protocols.dgt:DgtCodec",
    "chesslink": "eboard960.protocols.chesslink:ChessLinkCodec",
    "pegasus": "eboard960.protocols.pegasus:PegasusCodec",
    "chessnut": "eboard960.protocols.chessnut:ChessnutCodec",
    "gochess": "eboard960.protocols.gochess:GoChessCodec",
    "squareoff": "eboard960.protocols.squareoff:SquareOffCodec",
}


class Codec(Protocol):
    def receive_data(self, data: bytes, t: float = 0.0) -> list[Any]:
        """Decode the bytes the board sent at time `t`; returns events in the board's order."""
        ...

    def send(self, command: Any) -> bytes:
        """Encode one command for the board."""
        ...


def codec_for(name: str, **settings: Any) -> Codec:
    """A fresh codec for the protocol called `name` (the capture header's `board`), with `settings`
    (the header's `codec` object, e.g. a DGT clock's `white_side`)."""
    codec_class = _codec_class(name)
    if settings and (problem := unknown_settings(name, settings)):
        raise ProtocolError(problem)
    return codec_class(**settings)


def unknown_settings(name: str, settings: dict[str, Any]) -> str | None:
    """What is wrong with `settings` for the codec of protocol `name`: the ones it does not take, named
    with those it does; None when it takes them all."""
    known = codec_settings(name)
    if unknown := sorted(set(settings) - set(known)):
        return f"the {name} codec has no setting {', '.join(unknown)} (its settings: {', '.join(known)})"
    return None


def codec_settings(name: str) -> list[str]:
    """The settings the codec for protocol `name` takes, in its own order."""
    parameters = inspect.signature(_codec_class(name)).parameters.values()
    return [parameter.name for parameter in parameters if parameter.kind is inspect.Parameter.KEYWORD_ONLY]


def _codec_class(name: str) -> type:
    try:
        module_name, class_name = CODECS[name].split(":")
    except KeyError:
        known = ", ".join(sorted(CODECS))
        raise ProtocolError(f"unknown board protocol {name!r} (known: {known})") from None
    return getattr(importlib.import_module(module_name), class_name)
