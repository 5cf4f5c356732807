"""The special timer: which start position the clock shows before a game.

Three ways to choose: a fair draw (CSPRNG by default, excluded numbers never
come up), the DGT960's manual setting (plus/minus step through the allowed
numbers), and dice entry (the arbiter keys in the rolls of a uniform manual
method, for a ceremony with real dice). Numbers are shown in Scharnagl's
0..959 or, as on the DGT960, 1..960 with 960 for Scharnagl's 0.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from eboard960.draw import allowed_numbers
from eboard960.errors import ClockError, MethodError
from eboard960.numbering import COUNT, STANDARD
from eboard960.position import StartPosition

if TYPE_CHECKING:
    from eboard960.methods import Method, MethodRun, Request


class SpecialTimer:
    """The position being chosen; `current` is None until something is shown."""

    def __init__(
        self,
        *,
        exclude: Iterable[int] = (),
        dgt960_numbers: bool = False,
        rng: random.Random | None = None,
    ) -> None:
        # Computed once: the special timer redraws from the same set many times.
        self.allowed: Sequence[int] = allowed_numbers(exclude)
        self.dgt960_numbers = dgt960_numbers
        self._rng = rng or secrets.SystemRandom()
        self.current: StartPosition | None = None
        self._dice: MethodRun | None = None  # while dice entry is under way
        self.dice_method: str | None = None

    def shown_number(self, position: StartPosition) -> int:
        """`position`'s number in the clock's numbering."""
        return position.dgt960_number if self.dgt960_numbers else position.number

    def draw(self) -> StartPosition:
        """A fresh uniform draw among the allowed numbers."""
        self.current = StartPosition.from_number(self._rng.choice(self.allowed))
        return self.current

    def step(self, delta: int) -> StartPosition:
        """Move `delta` places through the allowed numbers in display order, wrapping.

        With nothing shown yet, the first step lands on standard chess (or the
        allowed number nearest above it), as the DGT960 starts from its default.
        """
        order = sorted(self.allowed, key=self._display_key)
        if self.current is None:
            start = next((n for n in order if self._display_key(n) >= self._display_key(
                STANDARD)), order[0])
            index = order.index(start)
        else:
            index = (order.index(self.current.number) + delta) % len(order)
        self.current = StartPosition.from_number(order[index])
        return self.current

    def discard(self) -> None:
        self.current = None
        self._dice = self.dice_method = None

    # ----- dice entry -----------------------------------------------------------------

    def method_problem(self, method: str) -> str | None:
        """Why `method` cannot be used for dice entry, or None if it can."""
        methods = _methods()
        if method not in methods:
            return f"unknown method {method!r} (known: {', '.join(sorted(methods))})"
        if not methods[method].uniform:
            return (f"method {method!r} does not give every position the same chance; "
                    "dice entry takes only uniform methods")
        return None

    def begin_dice(self, method: str) -> str:
        """Start keying in the rolls of the uniform method `method`; returns the first request."""
        problem = self.method_problem(method)
        if problem is not None:
            raise ClockError(problem)
        self._dice, self.dice_method = _methods()[method].run(), method
        return _prompt(self._dice.request)

    @property
    def dice_request(self) -> str | None:
        return None if self._dice is None else _prompt(self._dice.request)

    def roll(self, value: int | str) -> StartPosition | None:
        """Feed one roll; returns the position once the method has one.

        A bad roll is refused and changes nothing. A finished run that lands on
        an excluded number starts over, because showing it would break the
        exclusion and silently re-rolling one die would bias the result.
        """
        if self._dice is None:
            raise ClockError("no dice entry under way")
        try:
            self._dice.feed(value)
        except MethodError as error:
            raise ClockError(f"roll {value} refused: {error}") from None
        if not self._dice.done:
            return None
        position = self._dice.position
        if position.number not in self.allowed:
            assert self.dice_method is not None  # set with the run
            self._dice = _methods()[self.dice_method].run()
            raise ClockError(
                f"the rolls give excluded position {self.shown_number(position)}: "
                "roll again from the start"
            )
        self._dice = self.dice_method = None
        self.current = position
        return position

    def _display_key(self, n: int) -> int:
        return (n or COUNT) if self.dgt960_numbers else n


def _methods() -> Mapping[str, Method]:
    """The manual methods table, imported only when dice entry is used."""
    from eboard960.methods import METHODS

    return METHODS


def _prompt(request: Request | None) -> str:
    assert request is not None  # a run under way asks for more: a finished one is dropped at once
    return f"{request.prompt} ({request.note})" if request.note else request.prompt
