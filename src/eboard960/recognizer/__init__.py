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

__all__ = [
    "DrawClaimable",
    "GameOver",
    "IllegalPosition",
    "MoveProvisional",
    "MoveRecognized",
    "MoveTakenBack",
    "NewGame",
    "PositionRestored",
    "Recognizer",
    "Report",
]
