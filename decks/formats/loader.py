"""Load a rule book file (``python manage.py load_formats FILE``; schema in docs/formats.md):
a game with its card kinds and rarity tiers, its card sets (sample sets marked as such) and its
formats with their ban lists and legal sets.

Invariants: the file is read by the engine's pure schema (``rules.decks.formats``) and refused
whole, with every problem in the active language (``RuleBookRefused``), before anything is
written; the write is one transaction; loading the same file again changes nothing (rows are
matched by code and updated). A card of another game is
stored with ``engine=False``: the engine's shapes and validator do not apply to it. A card code
that belongs to another game's set is refused rather than moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from django.db import transaction
from django.utils.translation import gettext_lazy

from cards.models import ENGINE_GAME, Card, CardKind, CardSet, Game, RarityTier
from common.language import localized_texts, translations
from decks.formats.problem_text import format_problems_text
from decks.models import Format, FormatCardLimit
from rules.decks.formats import (
    CardSetData,
    FormatDataError,
    RuleBook,
    rule_book_from_data,
    rules_problems,
)

# What a load says, in the active language (the command's --lang).
NOT_YAML = gettext_lazy("not YAML: {error}")
GAME_CREATED = gettext_lazy("game {code}: created ({kinds} kinds, {tiers} rarity tiers)")
GAME_UPDATED = gettext_lazy("game {code}: updated ({kinds} kinds, {tiers} rarity tiers)")
CARD_SET_LOADED = gettext_lazy("card set {code}: {count} cards")
SAMPLE_CARD_SET_LOADED = gettext_lazy("card set {code}: {count} cards (sample data)")
FORMAT_CREATED = gettext_lazy("format {code}: created")
FORMAT_UPDATED = gettext_lazy("format {code}: updated")
NO_SUCH_CARD = gettext_lazy("{where}: no card has this code")
NO_SUCH_SET = gettext_lazy("{where}: no card set {code!r}")
CARD_OF_ANOTHER_SET = gettext_lazy("{where}: {code} belongs to the set {set}")


class RuleBookRefused(ValueError):
    """A rule book file refused whole; ``problems`` says every mistake in the active
    language."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass
class LoadReport:
    lines: list[str] = field(default_factory=list)


def rule_book_read(text: str) -> RuleBook:
    """The parsed file, or ``RuleBookRefused`` with every problem (YAML syntax included)."""
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RuleBookRefused([NOT_YAML.format(error=exc)]) from None
    try:
        return rule_book_from_data(data)
    except FormatDataError as exc:
        raise RuleBookRefused(format_problems_text(exc.problems)) from None


@transaction.atomic
def rule_book_load(book: RuleBook) -> LoadReport:
    """Write the book's rows; the report and any problem (``RuleBookRefused``) in the active
    language."""
    report = LoadReport()
    game = _game(book, report)
    problems: list[str] = []
    for i, data in enumerate(book.card_sets):
        _card_set(data, game, problems, f"card_sets[{i}]", report)
    kinds: set[str] | None = None
    rarities: set[str] | None = None
    target = game or Game.objects.filter(code=ENGINE_GAME).first()
    if target is not None:
        kinds = set(target.kinds.values_list("code", flat=True))
        rarities = set(target.rarities.values_list("code", flat=True))
    for i, format_data in enumerate(book.formats):
        where = f"formats[{i}]"
        problems += format_problems_text(
            rules_problems(format_data.rules, kinds, rarities, f"{where}.rules"))
        fmt, created = Format.objects.update_or_create(code=format_data.code, defaults={
            "name": format_data.name_en, "names": translations(format_data, "name"),
            "description": format_data.description_en, "game": game,
            "rules": dict(format_data.rules),
            "is_active": format_data.active})
        cards = {c.code: c for c in Card.objects.filter(code__in=list(format_data.bans))}
        fmt.card_limits.all().delete()
        for code, limit in sorted(format_data.bans.items()):
            if code not in cards:
                problems.append(NO_SUCH_CARD.format(where=f"{where}.bans.{code}"))
            else:
                FormatCardLimit.objects.create(format=fmt, card=cards[code], limit=limit)
        if format_data.legal_sets is None:
            fmt.legal_sets.clear()
        else:
            sets = list(CardSet.objects.filter(code__in=format_data.legal_sets))
            for code in sorted(set(format_data.legal_sets) - {s.code for s in sets}):
                problems.append(NO_SUCH_SET.format(where=f"{where}.legal_sets", code=code))
            fmt.legal_sets.set(sets)
        report.lines.append((FORMAT_CREATED if created else FORMAT_UPDATED).format(
            code=format_data.code))
    if problems:
        raise RuleBookRefused(problems)
    return report


def _game(book: RuleBook, report: LoadReport) -> Game | None:
    spec = book.game
    if spec is None:
        return None
    game, created = Game.objects.update_or_create(code=spec.code, defaults={
        "names": localized_texts(spec, "name"), "engine": spec.engine,
        "descriptions": localized_texts(spec, "description")})
    for model, declared in ((CardKind, spec.kinds), (RarityTier, spec.rarities)):
        model.objects.filter(game=game).exclude(code__in=[t.code for t in declared]).delete()
        for order, term in enumerate(declared):
            model.objects.update_or_create(game=game, code=term.code, defaults={
                "names": localized_texts(term, "name"), "order": order})
    report.lines.append((GAME_CREATED if created else GAME_UPDATED).format(
        code=spec.code, kinds=len(spec.kinds), tiers=len(spec.rarities)))
    return game


def _card_set(data: CardSetData, game: Game | None, problems: list[str], where: str,
              report: LoadReport) -> None:
    card_set, _ = CardSet.objects.update_or_create(code=data.code, defaults={
        "names": localized_texts(data, "name"), "game": game, "sample": data.sample})
    existing = {c.code: c for c in Card.objects.filter(code__in=[c.code for c in data.cards])
                .select_related("card_set")}
    engine = game is None or game.engine
    for position, spec in enumerate(data.cards):
        card = existing.get(spec.code)
        if card is not None and card.card_set_id != card_set.pk:
            problems.append(CARD_OF_ANOTHER_SET.format(
                where=f"{where}.cards[{position}].code", code=spec.code,
                set=card.card_set.code))
            continue
        card = card or Card(code=spec.code, card_set=card_set)
        card.position, card.kind, card.rarity = position, spec.kind, spec.rarity
        card.names, card.engine = localized_texts(spec, "name"), engine
        card.save()
    report.lines.append((SAMPLE_CARD_SET_LOADED if data.sample else CARD_SET_LOADED).format(
        code=data.code, count=len(data.cards)))
