"""The play command's own error."""

from __future__ import annotations

from eboard960.errors import Eboard960Error


class PlayError(Eboard960Error):
    """A play option, typed command or journal that cannot be used."""
