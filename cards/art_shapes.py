"""The shapes card art is drawn with: a figure per race, an object per kind of item, a mark per
keyword. Each path is drawn in a 100 × 100 box (``fill-rule="evenodd"``: inner shapes are holes).
A race a designer adds in the admin and the drawing does not know yet gets the wisp; a keyword
registered without a mark of its own here gets the star (``keyword_mark``), so a new keyword
shows on the card before anyone draws it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any


def _gear(teeth: int = 8, outer: float = 44, inner: float = 34, hole: float = 14) -> str:
    """A cog wheel: ``teeth`` square teeth round a disc with a hole."""
    points = []
    step = 2 * math.pi / teeth
    for i in range(teeth):
        a = i * step
        for angle, radius in ((a - step * 0.3, inner), (a - step * 0.18, outer),
                              (a + step * 0.18, outer), (a + step * 0.3, inner)):
            x, y = 50 + radius * math.cos(angle), 50 + radius * math.sin(angle)
            points.append(f"{x:.1f} {y:.1f}")
    ring = "M" + " L".join(points) + " Z"
    return (f"{ring} M{50 - hole} 50 a{hole} {hole} 0 1 0 {2 * hole} 0 "
            f"a{hole} {hole} 0 1 0 {-2 * hole} 0 Z")


WISP = ("M50 6 C70 20 78 40 72 60 C68 74 58 82 52 96 C50 86 42 80 34 74 C22 64 22 46 32 34 "
        "C34 44 40 48 46 48 C42 36 42 20 50 6 Z")

FIGURES: dict[str, str] = {
    # a helmeted bust, the visor a slit
    "human": ("M50 8 C36 8 28 18 28 32 L28 44 C28 52 34 58 40 60 L40 66 C26 68 14 76 10 92 "
              "L90 92 C86 76 74 68 60 66 L60 60 C66 58 72 52 72 44 L72 32 C72 18 64 8 50 8 Z "
              "M36 34 H64 V40 H36 Z"),
    # a head with long pointed ears
    "elf": ("M50 10 C38 10 30 20 30 34 C30 40 31 44 33 48 L10 34 L30 58 C34 66 42 72 50 72 "
            "C58 72 66 66 70 58 L90 34 L67 48 C69 44 70 40 70 34 C70 20 62 10 50 10 Z "
            "M30 94 C34 82 42 77 50 77 C58 77 66 82 70 94 Z"),
    # a wolf's head with eyes
    "beast": ("M18 12 L36 36 C40 34 45 33 50 33 C55 33 60 34 64 36 L82 12 L80 46 C86 54 88 62 "
              "84 70 L60 92 L50 86 L40 92 L16 70 C12 62 14 54 20 46 Z M34 52 L45 58 L35 61 Z "
              "M66 52 L55 58 L65 61 Z"),
    # a spread wing
    "dragon": ("M10 80 C20 50 40 20 70 8 C66 20 66 28 70 34 C76 30 84 30 92 32 C84 38 80 44 "
               "80 52 C86 52 92 56 94 62 C84 62 76 64 70 70 C74 74 76 80 76 88 C64 80 50 78 "
               "36 82 C28 84 18 86 10 80 Z"),
    # a skull
    "undead": ("M50 8 C28 8 14 24 14 44 C14 56 20 64 28 68 L28 82 C28 86 31 90 36 90 L64 90 "
               "C69 90 72 86 72 82 L72 68 C80 64 86 56 86 44 C86 24 72 8 50 8 Z M30 42 C30 34 "
               "36 30 42 32 C46 34 46 44 42 50 C38 54 30 52 30 42 Z M70 42 C70 34 64 30 58 32 "
               "C54 34 54 44 58 50 C62 54 70 52 70 42 Z M50 56 L56 66 L44 66 Z M38 76 H42 V88 "
               "H38 Z M48 76 H52 V88 H48 Z M58 76 H62 V88 H58 Z"),
    # a cluster of crystals
    "elemental": ("M50 4 L66 34 L58 96 L42 96 L34 34 Z M22 40 L33 52 L30 86 L18 80 L12 58 Z "
                  "M78 40 L88 58 L82 80 L70 86 L67 52 Z"),
    # a fish tail rising from the waves
    "merfolk": ("M50 6 C62 18 64 34 58 50 C54 60 52 68 54 76 C60 74 72 74 88 84 C76 86 66 92 "
                "60 98 C56 92 52 90 50 90 C48 90 44 92 40 98 C34 92 24 86 12 84 C28 74 40 74 "
                "46 76 C48 68 46 60 42 50 C36 34 38 18 50 6 Z"),
    "construct": _gear(),
    # a haloed figure with wings
    "celestial": ("M50 30 C56 30 60 34 60 40 C60 46 56 50 50 50 C44 50 40 46 40 40 C40 34 44 "
                  "30 50 30 Z M46 54 H54 L58 92 H42 Z M42 58 C30 40 16 32 4 34 C10 44 12 54 "
                  "22 60 C14 62 10 68 10 74 C22 70 32 68 42 66 Z M58 58 C70 40 84 32 96 34 C90 "
                  "44 88 54 78 60 C86 62 90 68 90 74 C78 70 68 68 58 66 Z M32 18 C32 12 68 12 "
                  "68 18 C68 24 32 24 32 18 Z M38 18 C38 15 62 15 62 18 C62 21 38 21 38 18 Z"),
    "spirit": WISP,
}

ITEM_OBJECTS: dict[str, str] = {
    "blade": ("M46 4 H54 L56 60 H44 Z M28 60 H72 V69 H28 Z M45 69 H55 V84 H45 Z M50 84 "
              "m-8 0 a8 8 0 1 0 16 0 a8 8 0 1 0 -16 0 Z"),
    "flask": ("M42 6 H58 V14 H56 V32 C72 38 84 52 84 68 C84 84 70 95 50 95 C30 95 16 84 16 68 "
              "C16 52 28 38 44 32 V14 H42 Z M25 66 C34 61 42 71 50 66 C58 61 66 71 75 66 C75 79 "
              "64 87 50 87 C36 87 25 79 25 66 Z"),
    "scroll": ("M24 14 H70 C78 14 82 20 82 26 V86 H32 C25 86 19 82 19 76 C19 70 25 66 32 66 "
               "H34 V18 Z M42 30 H72 V36 H42 Z M42 44 H72 V50 H42 Z M42 58 H64 V64 H42 Z"),
    "bolt": "M60 4 L20 56 H46 L36 96 L80 40 H54 Z",
    "banner": "M26 6 H34 V96 H26 Z M34 12 L84 28 L34 46 Z M34 50 L70 62 L34 74 Z",
    "rune": ("M50 4 A46 46 0 1 0 50.1 4 Z M50 14 A36 36 0 1 1 49.9 14 Z M50 20 L58 44 L84 44 "
             "L63 59 L71 84 L50 68 L29 84 L37 59 L16 44 L42 44 Z"),
    "orb": ("M50 8 A40 40 0 1 0 50.1 8 Z M34 30 C40 22 52 20 60 24 C50 26 42 32 38 42 Z"),
}

# The first effect of an item's first ability decides the object it shows.
ITEM_BY_EFFECT = {
    "damage": "blade", "damage_hero": "blade", "destroy": "blade",
    "heal_hero": "flask", "heal": "flask", "regenerate": "flask",
    "draw": "scroll", "discard": "scroll", "display": "scroll", "return_to_hand": "scroll",
    "energy": "bolt", "skip_draw": "bolt", "skip_combat": "bolt",
    "attack": "banner", "grant_keyword": "banner", "remove_keyword": "banner",
    "summon": "rune", "mind_control": "rune", "choose": "rune",
}

KEYWORD_MARKS: dict[str, str] = {
    "shield": "M50 14 L80 26 V50 C80 70 66 82 50 88 C34 82 20 70 20 50 V26 Z",
    "react": ("M18 28 L42 50 L18 72 L27 80 L58 50 L27 20 Z M44 28 L68 50 L44 72 L53 80 L84 50 "
              "L53 20 Z"),
    "regenerate": ("M50 16 A34 34 0 1 1 16 50 H28 A22 22 0 1 0 50 28 V40 L32 22 L50 4 Z"),
}

# A four-pointed star: the mark of a keyword that has none of its own.
STAR_MARK = "M50 8 L60 40 L92 50 L60 60 L50 92 L40 60 L8 50 L40 40 Z"


def keyword_mark(code: str) -> str:
    """The mark a keyword shows on card art: its own, or the star."""
    return KEYWORD_MARKS.get(code, STAR_MARK)


def _effects(abilities: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    for ability in abilities:
        for effect in ability.get("effects") or []:
            if isinstance(effect, Mapping) and effect.get("do"):
                yield str(effect["do"])


def item_object(abilities: Iterable[Mapping[str, Any]]) -> str:
    """The object an item shows: by its first effect, or an orb when it has none we know."""
    for do in _effects(abilities):
        if do in ITEM_BY_EFFECT:
            return ITEM_OBJECTS[ITEM_BY_EFFECT[do]]
    return ITEM_OBJECTS["orb"]
