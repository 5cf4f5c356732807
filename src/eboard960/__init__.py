"""eboard960: electronic chessboard drivers, a Chess960 move recognizer and a randomizer clock."""

__version__ = "0.1.0"
