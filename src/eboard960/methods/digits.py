"""Three boxes of digit cards 0-9 read as a Scharnagl number."""

from __future__ import annotations

from eboard960.methods.base import BLANK, Method, Request, State, Value
from eboard960.numbering import scharnagl_rank

_DIGITS = tuple(range(10))
_PLACES = ("hundreds", "tens", "units")


class ThreeBoxes(Method):
    """Draw a hundreds, a tens and a units digit; 960-999 draws all three again."""

    name = "three-boxes"
    title = "Three boxes of digits 0-9 (redraw over 959)"
    inputs = "three boxes of digit cards 0-9"
    source = "issue 2"

    def digits(self, drawn: tuple[int, ...]) -> tuple[int, ...]:
        return _DIGITS

    def request(self, state: State) -> Request | None:
        if state.step:
            return None
        drawn = state.memo
        prompt = f"digit card from the {_PLACES[len(drawn)]} box"
        return Request(kind="digit", outcomes=self.digits(drawn), prompt=prompt)

    def advance(self, state: State, value: Value) -> tuple[State, str]:
        drawn = (*state.memo, int(value))
        if len(drawn) < len(_PLACES):
            return State(BLANK, 0, drawn), ""
        number = int("".join(map(str, drawn)))
        if number > 959:
            return self.start(), f"{number} is over 959: draw all three again"
        return State(scharnagl_rank(number), 1), f"position {number}"


class ThreeBoxesLimited(ThreeBoxes):
    """After a 9 from the first box the tens box holds only 0-5, so no redraw
    is ever needed; but 900-959 then come up more often than the rest."""

    name = "three-boxes-limited"
    title = "Three boxes of digits, tens limited to 0-5 after a 9"

    def digits(self, drawn: tuple[int, ...]) -> tuple[int, ...]:
        return _DIGITS[:6] if drawn == (9,) else _DIGITS
