"""Sans-IO codecs, one module per board protocol.

A codec never touches a port: `receive_data(data, t)` takes the bytes a board
sent and returns the events they carry (square events from
`eboard960.events`, plus protocol-specific messages); `send(command)` returns
the bytes for a command. A codec keeps partial frames between calls, discards
garbage up to the next frame it can recognise, and never holds more than one
frame's worth of unparsed bytes.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import reprlib
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
    if settings and (problem := unknown_settings(name, settings) or _mistyped(codec_class, settings)):
        raise ProtocolError(problem)
    return codec_class(**settings)


def _mistyped(codec_class: type, settings: dict[str, Any]) -> str | None:
    """The first setting whose value is not of its default's kind, named. A capture header's JSON may
    hold anything: `"rotated": "no"` would read as true, a list where a number belongs crash the codec."""
    parameters = inspect.signature(codec_class).parameters
    for key, value in settings.items():
        default = parameters[key].default
        if not _fits(value, default):
            return f"{key} must be {_expected(default)}, not {reprlib.repr(value)}"
    return None


def _fits(value: Any, default: Any) -> bool:
    if isinstance(default, enum.Enum):
        values = [member.value for member in type(default)]  # a list: the value may be unhashable
        return not isinstance(value, bool) and value in values
    if isinstance(default, bool) or isinstance(value, bool):  # a bool is an int to Python, not to a header
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, tuple):
        same_length = isinstance(value, list | tuple) and len(value) == len(default)
        return same_length and all(map(_fits, value, default))
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))


def _expected(default: Any) -> str:
    if isinstance(default, enum.Enum):
        return "one of " + ", ".join(str(member.value) for member in type(default))
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, tuple):
        return f"a list like {list(default)}"
    if isinstance(default, int):
        return "a whole number"
    return "a number" if isinstance(default, float) else "a string"


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
        raise ProtocolError(f"unknown board protocol {reprlib.repr(name)} (known: {known})") from None
    return getattr(importlib.import_module(module_name), class_name)
