"""Writes to the catalogue: importing and exporting card sets, saving cards, refreshing the
generated rules text (simulated per-card figures are ``cards.card_stats``).

Invariants: an import is all or nothing — the file is validated whole (the engine's
``load_card_set`` plus the database's own limits) before the first write, and everything runs
in one transaction; cards missing from the file are reported, never deleted; importing the same
file twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from cards.adapters import card_to_data, refresh_derived
from cards.generation import catalogue_changed
from cards.models import ENGINE_GAME, Card, CardSet, Faction, Game, Race, display_names
from common.language import data_form_names, localized_texts, source_value
from rules.decks.cardset import NOT_MAPPING, NOT_YAML, CardSetError, load_card_set
from rules.decks.cardset import CardSet as EngineCardSet
from rules.engine.text import written_languages
from rules.localized import Sentence

# What the engine accepts but the database cannot hold (rules.localized.Sentence: path, template).
MSG_TOO_LONG = gettext_noop("{name} is longer than {limit} characters")
MSG_TOO_BIG = gettext_noop("{name} is larger than {limit}")

CARD_FIELDS = ("card_set_id", "position", "kind", "names", "rarity", "cost",
               "attack", "hp", "attribute", "faction_id", "race_id", "keywords", "abilities")
DERIVED_FIELDS = ("texts", "keyword_tags")
SMALL_INT_MAX = 32767


@dataclass
class ImportReport:
    """What an import did (or, for a dry run, would do)."""

    set_code: str
    set_name: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)   # in the database, not in the file
    factions: int = 0
    races: int = 0
    dry_run: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated)

    def lines(self) -> list[str]:
        verb = "would load" if self.dry_run else "loaded"
        out = [f"{self.set_code} ({self.set_name}): {verb} {len(self.created)} new, "
               f"{len(self.updated)} updated, {len(self.unchanged)} unchanged cards "
               f"({self.factions} factions, {self.races} races)."]
        if self.updated:
            out.append("Updated: " + ", ".join(self.updated))
        if self.missing:
            out.append(f"{len(self.missing)} card(s) of this set are in the database but not "
                       "in the file (kept, not deleted): " + ", ".join(self.missing))
        return out


def _parse_yaml(text: str) -> Mapping[str, Any]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CardSetError([Sentence(NOT_YAML, {"error": str(exc)})]) from None
    if not isinstance(data, Mapping):
        raise CardSetError([Sentence(NOT_MAPPING)])
    return data


def _length_problems(engine_set: EngineCardSet) -> list[Sentence]:
    """What the engine accepts but the database columns cannot hold."""
    problems: list[Sentence] = []
    limits = {"code": 32, "name_en": 120, "name_zh": 120}
    if len(engine_set.code) > 32:
        problems.append(Sentence(MSG_TOO_LONG, {"name": "code", "limit": 32}, "set"))
    for card in engine_set.cards.values():
        where = f"card {card.code}"
        for name, limit in limits.items():
            if len(getattr(card, name)) > limit:
                problems.append(Sentence(MSG_TOO_LONG, {"name": name, "limit": limit}, where))
        for name in ("cost", "attack", "hp"):
            if getattr(card, name) > SMALL_INT_MAX:
                problems.append(Sentence(MSG_TOO_BIG, {"name": name, "limit": SMALL_INT_MAX},
                                         where))
    for kind, items in (("factions", engine_set.factions), ("races", engine_set.races)):
        for code, item in items.items():
            if len(code) > 40 or len(source_value(item, "name")) > 80:
                problems.append(Sentence(MSG_TOO_LONG, {"name": "code or name",
                                                        "limit": "40/80"}, f"{kind} {code}"))
    return problems


def _upsert_named(model: type[Faction] | type[Race], items: Mapping[str, Mapping[str, Any]]
                  ) -> dict[str, int]:
    """Create or rename factions/races; returns ``{code: id}`` of every one in the database."""
    existing = {obj.code: obj for obj in model.objects.all()}
    for code, item in items.items():
        # The file's name_en, name_zh (and a names: mapping for further languages), keyed.
        names = {"en": code, **localized_texts(item, "name")}
        obj = existing.get(code)
        if obj is None:
            existing[code] = model.objects.create(code=code, names=names)
        elif obj.names != names:
            obj.names = names
            obj.save(update_fields=["names"])
    return {code: obj.pk for code, obj in existing.items()}


def _wanted_fields(data: Mapping[str, Any], set_id: int, position: int,
                   faction_ids: Mapping[str, int], race_ids: Mapping[str, int]
                   ) -> dict[str, Any]:
    return {
        "card_set_id": set_id, "position": position, "kind": data["kind"],
        "names": localized_texts(data, "name"), "rarity": data["rarity"],
        "cost": data.get("cost"), "attack": data.get("attack"), "hp": data.get("hp"),
        "attribute": data.get("attribute"),
        "faction_id": faction_ids[data["faction"]] if data.get("faction") else None,
        "race_id": race_ids[data["race"]] if data.get("race") else None,
        "keywords": list(data.get("keywords") or []),
        "abilities": list(data.get("abilities") or []),
    }


@transaction.atomic
def card_set_import(*, source: str | Path | Mapping[str, Any],
                    dry_run: bool = False) -> ImportReport:
    """Load a card set file (a ``Path``, YAML text or parsed data) into the catalogue.

    Raises ``rules.decks.cardset.CardSetError`` listing every problem, before writing anything.
    A ``str`` is always the file's text, never a path (uploaded text must not name a file).
    """
    if isinstance(source, str):
        source = _parse_yaml(source)
    engine_set = load_card_set(source)
    problems = _length_problems(engine_set)
    if problems:
        raise CardSetError(problems)
    report = ImportReport(set_code=engine_set.code, set_name=engine_set.name_en,
                          dry_run=dry_run, factions=len(engine_set.factions),
                          races=len(engine_set.races))
    # A set file is this site's own game's: say so (a set of another game keeps its game).
    engine_game = Game.objects.filter(code=ENGINE_GAME).first()
    # The file's name_en, name_zh (the engine's data form) and a names: mapping for further
    # languages ({fr: …}), keyed; so for each card.
    names = {**localized_texts(engine_set, "name"),
             **localized_texts(engine_set.raw.get("set") or {}, "name")}
    raw_cards = {item["code"]: item for item in engine_set.raw.get("cards") or []
                 if isinstance(item, Mapping) and isinstance(item.get("code"), str)}
    card_set, _ = CardSet.objects.get_or_create(code=engine_set.code, defaults={
        "names": names, "game": engine_game})
    header: dict[str, object] = {"names": names,
                                 "starter_decks": list(engine_set.raw.get("decks") or [])}
    if card_set.game_id is None and engine_game is not None:
        header["game"] = engine_game
    if any(getattr(card_set, k) != v for k, v in header.items()):
        for key, value in header.items():
            setattr(card_set, key, value)
        card_set.save()
    faction_ids = _upsert_named(Faction, engine_set.factions)
    race_ids = _upsert_named(Race, engine_set.races)
    existing = {c.code: c for c in Card.objects.filter(code__in=list(engine_set.cards))}
    new: list[Card] = []
    changed: list[Card] = []
    for position, (code, card_def) in enumerate(engine_set.cards.items()):
        wanted = _wanted_fields({**card_def.to_dict(), "names": raw_cards.get(code, {}).get(
            "names") or {}}, card_set.pk, position, faction_ids, race_ids)
        card = existing.get(code)
        if card is None:
            new.append(Card(code=code, **wanted))
            report.created.append(code)
        elif any(getattr(card, k) != v for k, v in wanted.items()):
            for key, value in wanted.items():
                setattr(card, key, value)
            changed.append(card)
            report.updated.append(code)
        else:
            report.unchanged.append(code)
    now = timezone.now()
    for card in changed:
        card.updated_at = now
    Card.objects.bulk_create(new)
    Card.objects.bulk_update(changed, [f.removesuffix("_id") if f.endswith("_id") else f
                                       for f in CARD_FIELDS] + ["updated_at"])
    card_texts_refresh()
    report.missing = sorted(Card.objects.filter(card_set=card_set)
                            .exclude(code__in=list(engine_set.cards))
                            .values_list("code", flat=True))
    if dry_run:
        transaction.set_rollback(True)
    return report


@transaction.atomic
def card_texts_refresh() -> int:
    """Regenerate the derived columns of every card (after names or the text generator
    changed); returns how many cards changed."""
    names = {lang: display_names(lang) for lang in written_languages()}
    stale = []
    for card in Card.objects.select_related("faction", "race"):
        before = tuple(getattr(card, f) for f in DERIVED_FIELDS)
        refresh_derived(card, names)
        if tuple(getattr(card, f) for f in DERIVED_FIELDS) != before:
            stale.append(card)
    now = timezone.now()
    for card in stale:
        card.updated_at = now   # the card reads differently: images and caches must follow
    Card.objects.bulk_update(stale, [*DERIVED_FIELDS, "updated_at"], batch_size=500)
    catalogue_changed()   # bulk writes send no signals (an import and a tag rename end here)
    return len(stale)


@transaction.atomic
def card_tag_renamed(*, tag: Faction | Race) -> int:
    """After a faction or race changed its names: its cards' images show the new name (their
    ``updated_at`` moves on, so cached images expire) and rules text naming it is regenerated.
    Returns how many cards' rules text changed."""
    field = "faction" if isinstance(tag, Faction) else "race"
    Card.objects.filter(**{field: tag}).update(updated_at=timezone.now())
    return card_texts_refresh()


def card_save(*, card: Card) -> Card:
    """Validate with the engine (``full_clean``) and save; derived text is refreshed."""
    card.full_clean()
    card.save()
    return card


class _SetDumper(yaml.SafeDumper):
    pass


def _flow(data: Any) -> str:
    return yaml.dump(data, Dumper=_SetDumper, default_flow_style=True, allow_unicode=True,
                     sort_keys=False, width=96).strip()


def _block(key: str, items: list[Any]) -> list[str]:
    if not items:
        return [f"{key}: []"]
    lines = [f"{key}:"]
    for item in items:
        text = _flow(item).replace("\n", "\n    ")
        lines.append(f"  - {text}")
    return lines


# Keys that lead their object in the file, as a designer writes them. PostgreSQL's jsonb does
# not keep key order, so the export restores it.
LEADING_KEYS = ("trigger", "do", "pick", "zone")


def _readable(value: Any) -> Any:
    if isinstance(value, Mapping):
        lead = [k for k in LEADING_KEYS if k in value]
        rest = [k for k in value if k not in lead]
        tail = [k for k in ("effects", "options") if k in rest]
        keys = lead + [k for k in rest if k not in tail] + tail
        return {k: _readable(value[k]) for k in keys}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    return value


def card_set_export(*, card_set: CardSet) -> str:
    """The set as YAML in the shipped file's format (``load_card_set`` reads it back)."""
    cards = [_readable(card_to_data(c)) for c in card_set.cards
             .select_related("faction", "race").order_by("position", "code")]
    # The file's format names a row in English and Chinese, name_en and name_zh.
    named = [{"code": o.code, **data_form_names(o)} for o in Faction.objects.order_by("code")]
    races = [{"code": o.code, **data_form_names(o)} for o in Race.objects.order_by("code")]
    english, chinese = data_form_names(card_set).values()
    header = {"code": card_set.code, "name_en": english, "name_zh": chinese or english}
    lines = [f"# Card set {card_set.code}, exported from Cardlab "
             f"{timezone.now():%Y-%m-%d %H:%M} UTC. Load it with: "
             "python manage.py load_cards FILE",
             f"set: {_flow(header)}", *_block("factions", named), *_block("races", races),
             *_block("cards", cards), *_block("decks", list(card_set.starter_decks or []))]
    return "\n".join(lines) + "\n"
