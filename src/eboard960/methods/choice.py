"""Northam's joint placement (seed 004): no randomness, the players choose.

Black first, the players take turns putting a bishop, a bishop, a knight, a
knight and the queen on White's back rank (the second bishop on the other
colour); the king takes the middle of the three squares left, rooks the
others. As a procedure it consumes the players' choices of file.
"""

from __future__ import annotations

import chess

from eboard960.methods.base import (
    Place,
    Sequential,
    Source,
    any_square,
    opposite_to_bishop,
)


class NorthamJoint(Sequential):
    name = "northam-joint"
    title = "Northam's joint placement by the players"
    inputs = "the players' choices of square (file letters)"
    source = "seed 004"
    STEPS = (
        Place("B", any_square, "Black's choice for a bishop"),
        Place("B", opposite_to_bishop, "White's choice for the other bishop (other colour)"),
        Place("N", any_square, "Black's choice for a knight"),
        Place("N", any_square, "White's choice for the other knight"),
        Place("Q", any_square, "Black's choice for the queen"),
    )

    def source_for(self, place: Place, squares: tuple[int, ...]) -> Source:
        return Source("square", {chess.FILE_NAMES[s]: i for i, s in enumerate(squares, 1)})
