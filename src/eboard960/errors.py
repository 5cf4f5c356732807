"""The one error tree: every failure a user can cause is an `Eboard960Error`.

The CLI turns these into one-line messages; anything else is a bug and keeps
its traceback.
"""


class Eboard960Error(Exception):
    """Base of every error this package raises on purpose."""


class PositionError(Eboard960Error, ValueError):
    """A start position, numbering, FEN or back rank that is not valid."""


class MethodError(Eboard960Error, ValueError):
    """A manual randomization method was fed a roll, toss or card it cannot use."""


class ProtocolError(Eboard960Error):
    """The remote side sent bytes that do not follow its protocol."""


class TransportError(Eboard960Error):
    """A serial port or Bluetooth link could not be opened, or dropped."""


class RecognitionError(Eboard960Error):
    """The move recognizer was misused (not: the board shows an illegal position)."""


class CaptureError(Eboard960Error):
    """A capture file is malformed; the message names the line."""


class ClockError(Eboard960Error):
    """A time control that cannot be parsed, or a clock button used in the wrong mode."""
