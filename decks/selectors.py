"""Reads of decks and formats. Selectors own visibility: every deck a view or API touches comes
through ``deck_get``, which makes another user's private deck indistinguishable from a deck
that does not exist (``Deck.DoesNotExist`` → 404 everywhere)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeAlias

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from cards.examples import ImportExamples, import_examples
from cards.generation import catalogue_generation_column, catalogue_generation_read
from cards.models import ENGINE_GAME, Card
from common.language import localized_value, reader_language
from common.visitor import Visitor

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser
from cards.selectors import cards_label
from decks.adapters import cards_by_code, format_to_rules, game_of, set_of
from decks.drafts import DEFAULT_FORMAT, Draft
from decks.formats.standard import format_standard_create
from decks.models import Deck, DeckEntry, DeckVersion, Format, Visibility
from decks.problem_text import ProblemText, pile_name, problems_text
from rules.decks import legality
from rules.decks.diffs import Change, Comparison, card_changes, compare_counts
from rules.decks.legality import check_deck
from rules.decks.piles import MAIN_PILE
from rules.decks.stats import DeckStats, deck_stats

NO_DECK = gettext_lazy("No deck here.")
NOT_OWNER = gettext_lazy("Only the deck's owner can change it; fork it to make your own copy.")

# A deck page's stamp (deck_page_stamp): id, last change, visibility, whether the deck it was
# forked from is shown, the catalogue's generation.
DeckStamp: TypeAlias = tuple[int, datetime, str, bool, str]


def format_default() -> Format:
    """The ``standard`` format (created by a migration), or the first active one; if every
    format was deleted, the standard one is made again (the site cannot work without one)."""
    found = (Format.objects.filter(code=DEFAULT_FORMAT).first()
             or Format.objects.filter(is_active=True).order_by("pk").first()
             or Format.objects.order_by("pk").first())
    if found is None:
        found = format_standard_create()
    return found


def formats_active() -> QuerySet[Format]:
    return Format.objects.filter(is_active=True).order_by("name")


def format_heroes_in_deck(fmt: Format) -> bool:
    """Whether a format keeps its heroes among the deck's cards: it is in piles and none of
    them is a hero slot (斗巫师: "at least 1 hero inside the deck")."""
    piles = fmt.rules.get("piles") if isinstance(fmt.rules, dict) else None
    if not piles:
        return False
    return not any(isinstance(p, dict) and p.get("hero") for p in piles)


def formats_heroes_in_deck() -> frozenset[str]:
    """The codes of the formats whose heroes are cards of the deck (one query)."""
    return frozenset(f.code for f in Format.objects.only("code", "rules")
                     if format_heroes_in_deck(f))


def format_kind_headings(fmt: Format) -> list[tuple[str, str]] | None:
    """``(kind, heading)`` of a format's game in its declared order, for a written list
    ("Site", "Magic"); None for this site's own game (its own headings)."""
    game = fmt.game
    if game is None or game.engine:
        return None
    return [(kind.code, kind.english_name) for kind in game.kinds.all()]


def format_get(code: str | None) -> Format:
    """A format by code; the default format for an empty code; DoesNotExist otherwise."""
    if not code:
        return format_default()
    return Format.objects.get(code=code)


def format_or_default(code: str | None) -> Format:
    """The format ``code`` names, or the default one when it names none or one that has gone
    (a draft or a page remembers a format that may since have been deleted)."""
    try:
        return format_get(code)
    except Format.DoesNotExist:
        return format_get(None)


def formats_known() -> str:
    """Every format's code, comma-separated: what a refusal of an unknown format lists."""
    return ", ".join(Format.objects.values_list("code", flat=True))


def _user_q(user: Visitor) -> Q:
    if user is not None and user.is_authenticated:
        return Q(owner=user)
    return Q(pk__in=[])


def deck_rows() -> QuerySet[Deck]:
    """Decks with what every list shows, joined in: owner, hero, format, card count."""
    return (Deck.objects.select_related("owner", "hero", "format")
            .annotate(card_count=Sum("entries__count"))
            .order_by("-updated_at", "-id"))  # Meta.ordering is dropped in GROUP BY queries


def decks_listed(user: Visitor = None) -> QuerySet[Deck]:
    """What lists show a user: their own decks and everyone's public ones (never unlisted)."""
    return deck_rows().filter(Q(visibility=Visibility.PUBLIC) | _user_q(user))


def decks_visible(user: Visitor = None) -> QuerySet[Deck]:
    """What a user may open by address: own decks, public and unlisted ones."""
    return Deck.objects.filter(Q(visibility__in=[Visibility.PUBLIC, Visibility.UNLISTED])
                               | _user_q(user))


def deck_is_visible(*, deck: Deck | None, user: Visitor = None) -> bool:
    """Whether ``user`` may open ``deck`` by address (the rule of ``decks_visible``), for
    references to another deck such as "forked from"."""
    if deck is None:
        return False
    return deck.visibility != Visibility.PRIVATE or deck_is_owner(deck=deck, user=user)


def deck_get(*, uid: str, user: Visitor = None, edit: bool = False) -> Deck:
    """The deck ``uid`` if ``user`` may see it (DoesNotExist otherwise, whoever owns it); with
    ``edit``, PermissionDenied when the user may see but not change it."""
    deck = (decks_visible(user).select_related("owner", "hero", "format", "forked_from")
            .prefetch_related(Prefetch("entries", DeckEntry.objects.select_related("card")))
            .get(uid=uid))
    if edit and not deck_is_owner(deck=deck, user=user):
        raise PermissionDenied(NOT_OWNER)
    return deck


def deck_page_stamp(*, uid: str, user: AbstractBaseUser | AnonymousUser | None = None
                    ) -> DeckStamp:
    """What a deck's page shows that can change, read in one light query (for the stored page,
    common/page_cache.py): the deck's last change, its visibility, whether the deck it was
    forked from is still visible, and the catalogue's generation (its cards' names and text).
    DoesNotExist when ``user`` may not see the deck (the rule of ``decks_visible``).

    It runs before every stored deck page is served, so it is one statement written out: the
    ORM took four times as long to build the same query as the database took to answer it, and
    the generation is read in the same statement when the cache is a table of this database.
    """
    table = connection.ops.quote_name(Deck._meta.db_table)
    generation, generation_params = catalogue_generation_column(using=connection.alias)
    # The cache's parameters are whatever its backend binds: the driver takes them as given.
    params: list[Any] = [*generation_params, uid]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT deck.id, deck.updated_at, deck.visibility, deck.owner_id, "
            f"parent.visibility, parent.owner_id, {generation} FROM {table} deck "
            f"LEFT JOIN {table} parent ON parent.id = deck.forked_from_id "
            f"WHERE deck.uid = %s", params)
        row = cursor.fetchone()
    viewer = user.pk if user is not None and user.is_authenticated else None
    if row is None or (row[2] == Visibility.PRIVATE and row[3] != viewer):
        raise Deck.DoesNotExist(NO_DECK)
    pk, updated_at, visibility, _owner, fork_visibility, fork_owner, stored = row
    fork_shown = fork_visibility is not None and (
        fork_visibility != Visibility.PRIVATE or (viewer is not None and fork_owner == viewer))
    return (pk, updated_at, visibility, fork_shown,
            catalogue_generation_read(stored, using=connection.alias))


def deck_is_owner(*, deck: Deck, user: Visitor) -> bool:
    return bool(user is not None and user.is_authenticated and deck.owner_id == user.pk)


def deck_counts(deck: Deck) -> dict[str, int]:
    """The deck's main list (pile ``deck``)."""
    return {e.card.code: e.count for e in deck.entries.all() if e.pile == MAIN_PILE}


def deck_piles(deck: Deck) -> dict[str, dict[str, int]]:
    """The deck's other piles, ``{pile: {code: count}}`` (empty for a one-list deck)."""
    out: dict[str, dict[str, int]] = {}
    for e in deck.entries.all():
        if e.pile != MAIN_PILE:
            out.setdefault(e.pile, {})[e.card.code] = e.count
    return out


def draft_from_deck(deck: Deck) -> Draft:
    draft = Draft(name=deck.name, description=deck.description,
                  hero=deck.hero.code if deck.hero is not None else None,
                  cards=deck_counts(deck),
                  format_code=deck.format.code, visibility=deck.visibility,
                  piles=deck_piles(deck))
    return draft_fit(draft, deck.format) if draft.piles else draft


def draft_fit(draft: Draft, fmt: Format) -> Draft:
    """``draft`` with its hero pile and main pile where the builder looks for them
    (``Draft.fitted``); unchanged for a one-list format."""
    if not fmt.has_piles:
        return draft
    rules = format_to_rules(fmt)
    return draft.fitted(hero_pile=rules.hero_pile.code if rules.hero_pile else None,
                        main_pile=rules.main_pile.code if rules.main_pile else MAIN_PILE)


@dataclass
class PileSection:
    code: str
    name: str
    low: int
    high: int | None
    hero: bool
    size: int
    rows: list[tuple[Card | None, str, int]]
    problem: bool = False

    @property
    def range_text(self) -> str:
        if self.high is None:
            return f"≥ {self.low}"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


def pile_names(fmt: Format) -> dict[str, str]:
    """``{pile code: its name in the page's language}`` of a format in piles, in order."""
    lang = reader_language()
    piles = (fmt.rules or {}).get("piles", []) if isinstance(fmt.rules, dict) else []
    return {p.get("code", ""): localized_value(p, "name", lang) or p.get("code", "")
            for p in piles if isinstance(p, dict)}


@dataclass
class DeckView:
    """Everything a page needs to show a deck or a draft, fetched in a few queries."""

    draft: Draft
    format: Format
    cards: dict[str, Card]
    problems: list[ProblemText]
    stats: DeckStats
    rules: legality.Format | None = None

    @property
    def hero(self) -> Card | None:
        """The hero slot's card: the draft's hero or, in a format with a hero pile, the
        first card that pile holds (a deck saved with ``piles: {"avatar": ...}``)."""
        if self.draft.hero:
            return self.cards.get(self.draft.hero)
        pile = self.rules.hero_pile if self.rules is not None else None
        held = self.draft.piles.get(pile.code, {}) if pile is not None else {}
        return next((self.cards[c] for c in sorted(held) if c in self.cards), None)

    @property
    def heroes_in_deck(self) -> bool:
        """A format in piles without a hero slot: its heroes are cards of the deck."""
        return self.rules is not None and bool(self.rules.piles) and (
            self.rules.hero_pile is None)

    @property
    def is_legal(self) -> bool:
        return not self.problems

    @property
    def hero_pile_name(self) -> str:
        """The name of the format's hero pile ("Avatar") in the page's language; "" when a
        format in piles has none (its heroes are inside the deck) or for a one-list format."""
        if self.rules is None or self.rules.hero_pile is None:
            return ""
        return pile_name(self.rules, self.rules.hero_pile.code)

    @property
    def total_size(self) -> int:
        """Cards in every pile, the hero slot of a format in piles included."""
        size = self.draft.size + sum(sum(p.values()) for p in self.draft.piles.values())
        hero_pile = self.rules.hero_pile if self.rules is not None else None
        return size + (1 if hero_pile is not None and self.draft.hero else 0)

    def entries(self) -> list[tuple[Card | None, str, int]]:
        """(card, code, count) sorted minions then items, by cost then name."""
        order = {"minion": 0, "item": 1, "hero": 2}

        def key(item: tuple[str, int]) -> tuple[int, int, str, str]:
            card = self.cards.get(item[0])
            if card is None:
                return (9, 0, item[0], item[0])
            return (order.get(card.kind, 9), card.cost or 0, card.english_name.casefold(), item[0])

        return [(self.cards.get(code), code, n)
                for code, n in sorted(self.draft.cards.items(), key=key)]

    def pile_rows(self) -> list[tuple[str, list[tuple[Card | None, str, int]]]]:
        """(pile name, [(card, code, count)]) of the piles besides the main list, in the
        format's order (names in the page's language)."""
        names = pile_names(self.format)
        order = list(names)
        piles = sorted(self.draft.piles.items(),
                       key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0]))
        return [(names.get(pile) or pile, [(self.cards.get(code), code, n)
                                           for code, n in sorted(counts.items())])
                for pile, counts in piles]

    def pile_sections(self) -> list[PileSection]:
        """The format's piles as the builder shows them (empty for a one-list format): each
        with its name, size range, size now and rows ``(card, code, count)``; the hero pile's
        row is the draft's hero."""
        if self.rules is None or not self.rules.piles:
            return []
        piles = self.draft.legality_deck().pile_counts(self.rules)
        out: list[PileSection] = []
        for pile in self.rules.piles:
            counts = piles.get(pile.code, {})
            rows = [(self.cards.get(code), code, n) for code, n in sorted(
                counts.items(), key=lambda kv: (self.cards[kv[0]].english_name.casefold()
                                                if kv[0] in self.cards else kv[0]))]
            out.append(PileSection(code=pile.code, name=pile_name(self.rules, pile.code),
                                   low=pile.min, high=pile.max, hero=pile.hero,
                                   size=sum(n for n in counts.values()), rows=rows,
                                   problem=any(p.rule == pile.rule and p.rule for p in
                                               self.problems)))
        return out

    def every_pile_counts(self) -> dict[str, int]:
        """``{code: copies}`` over every pile but the hero slot (a format in piles)."""
        piles = self.draft.legality_deck().pile_counts(self.rules) if self.rules else {}
        hero = self.rules.hero_pile.code if self.rules and self.rules.hero_pile else None
        out: dict[str, int] = {}
        for pile, counts in piles.items():
            if pile == hero:
                continue
            for code, n in counts.items():
                if isinstance(n, int) and n > 0:
                    out[code] = out.get(code, 0) + n
        return out

    @property
    def stats_pile_names(self) -> str:
        """The piles the statistics of a format in piles count ("Spellbook, Atlas")."""
        if self.rules is None:
            return ""
        separator = pgettext("between the items of a list", ", ")
        return separator.join(pile_name(self.rules, p.code) for p in self.rules.piles
                              if not p.hero)

    def pile_kind_rows(self) -> list[tuple[str, int]]:
        """(kind in the game's words, copies) over every pile but the hero slot, in the
        game's order of kinds."""
        lang = reader_language()
        names = dict(self.rules.kind_names) if self.rules is not None else {}
        totals: dict[str, int] = {}
        for code, n in self.every_pile_counts().items():
            card = self.cards.get(code)
            if card is not None:
                totals[card.kind] = totals.get(card.kind, 0) + n
        order = list(names)
        rows = sorted(totals.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order
                                                      else len(order), kv[0]))
        return [(localized_value({"name_en": names[k][0], "name_zh": names[k][1]}, "name", lang)
                 if k in names else k, n) for k, n in rows]

    def odds_rows(self) -> list[tuple[Card | None, str, int, float]]:
        """(card, code, copies, P(at least one in the opening hand)), likeliest first."""
        return [(self.cards.get(code), code, n, p) for code, n, p in self.stats.odds]

    @property
    def problem_cards(self) -> set[str]:
        """Codes of the cards some problem names (the builder highlights their rows)."""
        return {code for p in self.problems for code in p.cards}


def deck_view(draft: Draft, *, fmt: Format | None = None) -> DeckView:
    """Validate and describe a draft (legality from rules/decks/legality.py); the problems and
    the cards' labels are in the active language."""
    if fmt is None:
        fmt = format_or_default(draft.format_code)
    rules = format_to_rules(fmt)
    # A fixed set's cards are named even when the deck lacks them ("needs 1 × Mountain").
    fixed = [code for pile in rules.piles for code in (pile.composition or {})]
    cards = cards_by_code([*draft.all_codes(), draft.hero or "", *fixed])
    problems = check_deck(draft.legality_deck(), cards, rules, set_of=set_of(cards),
                          game_of=game_of(cards))
    cards_label(cards.values(), reader_language())
    return DeckView(draft=draft, format=fmt, cards=cards,
                    problems=problems_text(problems, fmt=rules, cards=cards),
                    stats=deck_stats(draft.cards, cards), rules=rules)


def deck_rule_problems(deck: legality.Deck, *, fmt: Format) -> list[ProblemText]:
    """Every rule of ``fmt`` that ``deck`` breaks, as validation lists them, for a deck a draft
    cannot hold (an imported list with two heroes); in the active language."""
    codes = [*deck.heroes, *deck.counts, *(c for pile in deck.piles.values() for c in pile)]
    cards = cards_by_code(codes)
    rules = format_to_rules(fmt)
    return problems_text(check_deck(deck, cards, rules, set_of=set_of(cards)), fmt=rules,
                         cards=cards)


@dataclass
class VersionRow:
    version: DeckVersion
    changes: list[Change]
    other: list[str]     # "hero: A → B", "renamed", ...


def deck_history(*, deck: Deck) -> list[VersionRow]:
    """Every version, newest first, each with what changed from the one before."""
    versions = list(deck.versions.select_related("created_by").order_by("number"))
    codes = {c for v in versions for c in v.cards} | {v.hero_code for v in versions}
    codes |= {c for v in versions for pile in (v.piles or {}).values() for c in pile}
    names = {code: localized_value({"names": texts}, "name") for code, texts in
             Card.objects.filter(code__in=codes).values_list("code", "names")}
    piles_named = pile_names(deck.format)   # "+1 Windy Hill · Atlas", not "· atlas"
    rows: list[VersionRow] = []
    previous: DeckVersion | None = None
    for version in versions:
        old = previous.cards if previous else {}
        other = []
        if previous is None:
            other.append(_("created"))
        else:
            if previous.hero_code != version.hero_code:
                other.append(_("hero: {old} → {new}").format(
                    old=names.get(previous.hero_code) or previous.hero_code or "—",
                    new=names.get(version.hero_code) or version.hero_code or "—"))
            if previous.name != version.name:
                other.append(_("renamed from “{name}”").format(name=previous.name))
            if previous.format_code != version.format_code:
                other.append(_("format: {old} → {new}").format(old=previous.format_code,
                                                                new=version.format_code))
            if previous.description != version.description:
                other.append(_("description edited"))
        changes = card_changes(old, version.cards, lambda c: names.get(c) or c)
        old_piles = (previous.piles or {}) if previous else {}
        new_piles = version.piles or {}
        for pile in sorted(set(old_piles) | set(new_piles)):
            label = piles_named.get(pile) or pile
            changes += card_changes(old_piles.get(pile, {}), new_piles.get(pile, {}),
                                    _pile_card_label(names, label))
        rows.append(VersionRow(version, changes, other))
        previous = version
    return rows[::-1]


def _pile_card_label(names: Mapping[str, str], pile: str) -> Callable[[str], str]:
    """How a change in ``pile`` names its card: "Windy Hill · Atlas"."""
    def label(code: str) -> str:
        return f"{names.get(code) or code} · {pile}"
    return label


@dataclass
class DeckComparison:
    a: Deck
    b: Deck
    comparison: Comparison
    cards: Mapping[str, Card]
    every_pile: bool = False
    """The comparison counts every pile of the decks, not only their main lists."""

    def rows(self) -> list[tuple[Card | None, str, int, int, str]]:
        """(card, code, count in A, count in B, the difference in words)."""
        out = []
        for code, x, y in self.comparison.rows:
            diff = "same" if x == y else (f"A +{x - y}" if x > y else f"B +{y - x}")
            out.append((self.cards.get(code), code, x, y, diff))
        return out


def deck_every_pile(deck: Deck) -> dict[str, int]:
    """``{code: copies}`` over every pile of a deck (its main list and its named piles)."""
    out: dict[str, int] = {}
    for entry in deck.entries.all():
        out[entry.card.code] = out.get(entry.card.code, 0) + entry.count
    return out


def deck_compare(*, a: Deck, b: Deck) -> DeckComparison:
    """Two decks card by card: the main list, or every pile when either deck's format is in
    piles (a Sorcery deck's atlas counts as much as its spellbook)."""
    piles = a.format.has_piles or b.format.has_piles
    read = deck_every_pile if piles else deck_counts
    counts_a, counts_b = read(a), read(b)
    cards = {e.card.code: e.card for d in (a, b) for e in d.entries.all()}
    comparison = compare_counts(counts_a, counts_b)
    comparison.rows.sort(key=lambda r: (cards[r[0]].kind != "minion", cards[r[0]].cost or 0,
                                        cards[r[0]].english_name.casefold()))
    return DeckComparison(a=a, b=b, comparison=comparison, cards=cards, every_pile=piles)


def format_import_examples(fmt: Format) -> ImportExamples | None:
    """The help's examples from the cards of the format's game: the hero slot's kinds (or,
    for a format whose heroes are in the deck, the kinds it counts there) and a card of the
    main pile; and a pile besides the main list for the ``Pile:`` example."""
    rules = format_to_rules(fmt)
    game = fmt.game.code if fmt.game is not None else ENGINE_GAME
    if not rules.piles:
        return import_examples(game=game, format_code=fmt.code)
    main, hero = rules.main_pile, rules.hero_pile
    heroes_in_deck = hero is None
    hero_kinds = hero.kinds if hero is not None else tuple(
        k.kind for k in (main.kind_counts if main else ()))
    card_kinds = tuple(k for k in (main.kinds if main else ()) if k not in hero_kinds)
    other = next((p.code for p in rules.piles if p is not main and p is not hero), "")
    return import_examples(game=game, format_code=fmt.code, hero_kinds=hero_kinds,
                           card_kinds=card_kinds, heroes_in_deck=heroes_in_deck, pile=other)
