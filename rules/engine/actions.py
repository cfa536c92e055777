"""Actions: the only way anything changes in a game.

An action is a small immutable tuple ``(kind, a, b)`` so legal-action lists are cheap to build
and compare. ``to_dict``/``from_dict`` give the named JSON form used by the scenario API and
the event log (``{"kind": "attack", "slot": 0, "target": "hero"}``).

Invariant: an action means the same thing in the true game and in a player's view — it names
hand positions, slots and option numbers, never a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

HERO: Final = -1  # the target slot that means "the enemy hero"


class Action(NamedTuple):
    kind: str
    a: int = -1
    b: int = -1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, value in zip(ARGUMENTS[self.kind], (self.a, self.b), strict=False):
            out[name] = "hero" if (name == "target" and value == HERO) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | list[Any] | tuple[Any, ...]) -> Action:
        if isinstance(data, (list, tuple)):
            return cls(*data)
        kind = data["kind"]
        if kind not in ARGUMENTS:
            raise ValueError(f"unknown action kind {kind!r} (known: {', '.join(ARGUMENTS)})")
        values = []
        for name in ARGUMENTS[kind]:
            value = data[name]
            values.append(HERO if value == "hero" else int(value))
        return cls(kind, *values)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if k != "kind")
        return f"{self.kind}({args})"


# The named arguments of each action kind, in (a, b) order.
ARGUMENTS: dict[str, tuple[str, ...]] = {
    "mulligan": ("card",),        # R2.1.4: put this hand card on the bottom (then draw back)
    "keep": (),                   # R2.1.4: done choosing mulligan cards
    "place": ("card", "slot"),    # R2.1.5 / R2.2.3 b: hand card face down into an empty slot
    "ready": (),                  # R2.1.5: done placing at setup
    "awaken": ("slot",),          # R2.2.3 c
    "item": ("card",),            # R2.2.3 a
    "hero_skill": ("ability",),   # R2.2.3 d
    "skill": ("slot", "ability"),  # R2.2.3 e: an awakened minion's active skill
    "attack": ("slot", "target"),  # R2.3.1: target is an enemy slot or "hero"
    "end": (),                    # R2.2.3 f
    "discard": ("card",),         # R2.2.4: end phase, hand over the limit
    "discard_display": ("card",),  # R2.2.4: end phase, display zone over the limit
    "replenish": ("card",),       # R2.4.1: hand card into the slot where a minion died
    "pass": (),                   # R2.4.1: decline to replenish
    "target": ("player", "slot"),  # a chosen target for an effect
    "choose": ("option",),        # R4.11
    "pick": ("card",),            # a hand card an effect asks for (display, discard, summon)
    "use": (),                    # R4.4, R4.5: use the awaken skill or last words offered
    "decline": (),                # R4.4, R4.5: decline it (it does not resolve)
}

END = Action("end")
KEEP = Action("keep")
READY = Action("ready")
PASS = Action("pass")
USE = Action("use")
DECLINE = Action("decline")
