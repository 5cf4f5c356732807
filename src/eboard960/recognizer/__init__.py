"""The move recognizer: square events in, Chess960 moves out."""

from eboard960.recognizer.machine import Recognizer
from eboard960.recognizer.reports import (
    DrawClaimable,
    GameOver,
    IllegalPosition,
    MoveProvisional,
    MoveRecognized,
    MoveTakenBack,
    NewGame,
    PositionRestored,
    Report,
)
from eboard960.recognizer.table import Mode

__all__ = [
    "DrawClaimable",
    "GameOver",
    "IllegalPosition",
    "Mode",
    "MoveProvisional",
    "MoveRecognized",
    "MoveTakenBack",
    "NewGame",
    "PositionRestored",
    "Recognizer",
    "Report",
]
