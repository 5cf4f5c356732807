"""The seeds' manual randomization methods, by stable name.

`METHODS[name].run()` starts a ceremony: read `.request`, `.feed(value)`
until `.done`, then `.position`. `eboard960.analysis` proves which are fair.
"""

from __future__ import annotations

from types import MappingProxyType

from eboard960.methods.base import Input, Method, MethodRun, Request
from eboard960.methods.cards import CoffinBag, EightCards, HorizontalSymmetry, PermutationCards
from eboard960.methods.choice import NorthamJoint
from eboard960.methods.coins import NorthamTwoCoins, SingleCoin, ThreeCoins
from eboard960.methods.dice import (
    BodlaenderDie,
    OptimisedDie,
    PolyhedralD10,
    PolyhedralD20D12,
    PolyhedralDiv4,
    PolyhedralDiv5,
    RovidaDie,
)
from eboard960.methods.digits import ThreeBoxes, ThreeBoxesLimited

_ALL: tuple[Method, ...] = (
    BodlaenderDie(),
    OptimisedDie(),
    PolyhedralDiv4(),
    PolyhedralDiv5(),
    PolyhedralD10(),
    PolyhedralD20D12(),
    RovidaDie(),
    NorthamTwoCoins(),
    ThreeCoins(),
    SingleCoin(),
    EightCards(),
    CoffinBag(),
    PermutationCards(),
    HorizontalSymmetry(),
    ThreeBoxes(),
    ThreeBoxesLimited(),
    NorthamJoint(),
)

METHODS: MappingProxyType[str, Method] = MappingProxyType({m.name: m for m in _ALL})

__all__ = ["METHODS", "Input", "Method", "MethodRun", "Request"]
