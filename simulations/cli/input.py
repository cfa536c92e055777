"""What the ``simulate`` command reads before it plays: the options it checks, the starter decks
of a card set file, by name, and the ``--patch`` file. Each problem is a CommandError saying
what to fix."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from common.language import SOURCE_LANGUAGE, localized_value
from rules.ai.agents import agent_spec
from rules.decks.cardset import CORE_SET, TEST_SET, CardSet, CardSetError, load_card_set
from rules.engine.cards import CardDataError, CardDef, DeckList, Ruleset
from rules.lab.patches import (
    DiffRow,
    Patch,
    PatchError,
    load_patch,
    patch_card_defs,
    patch_diff,
)

SET_NOT_FOUND = "card set file not found: {path}"
TOO_FEW_GAMES = "--games must be at least 1"


def checked_options(opts: Mapping[str, Any]) -> Ruleset:
    """Agents, game count and ruleset checked before anything is played; the ruleset."""
    if opts["games"] < 1:
        raise CommandError(TOO_FEW_GAMES)
    for key in ("agent_a", "agent_b"):
        try:
            agent_spec(opts[key])
        except ValueError as exc:
            raise CommandError(f"--{key.replace('_', '-')}: {exc}") from None
    try:
        return Ruleset.from_dict(json.loads(opts["ruleset"]) if opts["ruleset"] else {})
    except (ValueError, CardDataError) as exc:
        raise CommandError(f"--ruleset: {exc}") from None


def load_card_set_for_cli(card_set: str | None) -> CardSet:
    """The ``--card-set`` file (the core set by default, else the test set); CommandError
    naming the file otherwise."""
    path = Path(card_set) if card_set else (CORE_SET if CORE_SET.exists() else TEST_SET)
    if not path.exists():
        raise CommandError(SET_NOT_FOUND.format(path=path))
    try:
        return load_card_set(path)
    except CardSetError as exc:
        raise CommandError(f"{path}: {exc}") from None


def load_decks_for_cli(name_a: str, name_b: str,
                       card_set: str | None) -> tuple[dict[str, CardDef], DeckList, DeckList]:
    """The cards and the two named starter decks of a card set file; CommandError with the
    known names otherwise."""
    cards = load_card_set_for_cli(card_set)
    decks = []
    for name in (name_a, name_b):
        try:
            decks.append(cards.deck(name))
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
    return cards.cards, decks[0], decks[1]


def load_patch_for_cli(path: str | None, option: str = "--patch") -> Patch | None:
    """The ``option`` file, or None; CommandError naming the option and every problem with
    the patch."""
    if not path:
        return None
    try:
        return load_patch(path)
    except PatchError as exc:
        raise CommandError(f"{option}: {exc}") from None


def card_set_words(card_set: CardSet) -> dict[str, str]:
    """The card set's faction and race names in English, by code: what a patch's rules text
    calls them on the command line, whose catalogue is a card set file (the site's is
    ``cards.models.text_names``): "Beast", never ``beast``."""
    return {code: localized_value(entry, "name", SOURCE_LANGUAGE) or code
            for code, entry in {**card_set.factions, **card_set.races}.items()}


def patched_cards_for_cli(cards: dict[str, CardDef], patch: Patch | None,
                          card_set: str | None = None
                          ) -> tuple[dict[str, CardDef], list[DiffRow] | None]:
    """The cards with ``patch`` applied and the patch's diff against them (None without a
    patch), its rules text naming races and factions as the ``card_set`` file does;
    CommandError when the patch does not fit these cards."""
    if patch is None:
        return cards, None
    words = card_set_words(load_card_set_for_cli(card_set))
    try:
        diff = patch_diff({c: cards[c].to_dict() for c in patch.cards if c in cards}, patch,
                          SOURCE_LANGUAGE, words)
        return patch_card_defs(cards, patch), diff
    except PatchError as exc:
        raise CommandError(f"--patch: {exc}") from None
