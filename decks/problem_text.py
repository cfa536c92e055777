"""The site's one door for deck legality: a ``rules.decks.legality.Problem`` (a code and plain
parameters) said in the active language — its message and its fix, as the pages, the API, the
command line, the simulator and the balance lab show them.

The sentences are gettext msgids (each problem's English), translated in ``locale/``; lists,
"exactly 30", "2 to 4" and plurals are gettext too, so each language builds them its own way.
Card kinds are game words, named by their registry (``cards.game_words.game_word``). What the
format data names in English and Chinese (the format, its piles, its game's kinds and rarity
tiers, the game) and the cards' names are read in the reader's language here: this module is
the only place in deck legality that asks which language that is.

Invariant: every problem code the engine makes has its sentences here, and the words of a
problem are exactly what this module says (tests/decks/test_problem_text.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from django.utils.translation import gettext, ngettext, npgettext, pgettext

from cards.game_words import game_word
from common.language import data_form_value, localized_texts, reader_language
from decks.models import FORMAT_NAMES
from rules.decks.legality import CardLike, Format, Problem
from rules.engine import words as engine_words


@dataclass(frozen=True)
class ProblemText:
    """A legality problem as its reader reads it: the engine's code, rule and cards, and the
    message and fix in the language that was active when it was said."""

    code: str
    rule: str
    message: str
    fix: str
    cards: tuple[str, ...] = ()
    # The fix as one change the builder can make: (card code, copies to take out); None when
    # the fix is a choice the deck's owner makes (which hero, which cards to add).
    removal: tuple[str, int] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The problem as the API sends it."""
        return {"code": self.code, "rule": self.rule, "message": self.message,
                "fix": self.fix, "cards": list(self.cards)}


def problem_text(problem: Problem, *, fmt: Format, cards: Mapping[str, CardLike]
                 ) -> ProblemText:
    """``problem`` in the active language; ``fmt`` and ``cards`` are what the deck was checked
    with (they name the format, its piles and the cards)."""
    message, fix = _SAY[problem.code](_Words(fmt, cards), problem.params)
    return ProblemText(code=problem.code, rule=problem.rule, message=message, fix=fix,
                       cards=problem.cards, removal=_removal(problem))


# The problems whose fix is "remove N × card", and the parameter holding N.
_REMOVALS = {"copy_limit": "extra", "card_copy_limit": "extra", "restricted": "extra",
             "banned": "count", "set_not_legal": "count", "other_game": "count",
             "kind_not_allowed": "count"}


def _removal(problem: Problem) -> tuple[str, int] | None:
    """The copies a "remove N × card" fix takes out of the deck, or None."""
    key = _REMOVALS.get(problem.code)
    count = problem.params.get(key) if key else None
    card = problem.params.get("card")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1 or not card:
        return None
    return str(card), count


def problems_text(problems: Iterable[Problem], *, fmt: Format,
                  cards: Mapping[str, CardLike]) -> list[ProblemText]:
    return [problem_text(problem, fmt=fmt, cards=cards) for problem in problems]


def format_name(fmt: Format) -> str:
    """The format's name in the reader's language (the site's own formats' names translated)."""
    own = localized_texts({"name_zh": fmt.name_zh}, "name").get(reader_language())
    return own or str(FORMAT_NAMES.get(fmt.name, fmt.name))


def pile_name(fmt: Format, code: str) -> str:
    """The name of ``fmt``'s pile ``code`` in the reader's language (the code if it has none)."""
    pile = next((p for p in fmt.piles if p.code == code), None)
    if pile is None:
        return code
    return _in_reader_language(pile.name_en, pile.name_zh) or code


def _in_reader_language(*texts: str) -> str:
    """A name the rules library's data gives in English and Chinese (``name_en``, ``name_zh``),
    in the reader's language (English where it has none)."""
    return data_form_value(texts)


class _Words:
    """The names and phrases a problem's sentences need, for one format and its cards."""

    def __init__(self, fmt: Format, cards: Mapping[str, CardLike]) -> None:
        self.fmt = fmt
        self.cards = cards

    @property
    def format(self) -> str:
        return format_name(self.fmt)

    @property
    def game(self) -> str:
        en, zh = self.fmt.game_name
        return _in_reader_language(en, zh) or self.fmt.game

    def card(self, code: str) -> str:
        card = self.cards.get(code)
        if card is None:
            return code
        return _in_reader_language(card.name_en, card.name_zh) or code

    def pile(self, code: str) -> str:
        return pile_name(self.fmt, code)

    def rarity(self, code: str) -> str:
        names = self.fmt.rarity_names.get(code)
        return _in_reader_language(*names) if names else code

    def kind(self, code: str) -> str:
        """A card of the kind ``code`` inside a sentence: the game's own name for it where the
        format's game names its kinds, else the registry's ("minion", "随从卡")."""
        names = self.fmt.kind_names.get(code)
        return _in_reader_language(*names) if names else _kind_card(code)

    def a_kind(self, code: str) -> str:
        return _with_article(self.kind(code))


def _kind_card(kind: str) -> str:
    if kind not in engine_words.KIND_WORDS:
        return kind             # a word the registry does not hold (another game's kind)
    # Translators: a card of a kind inside a sentence ("a minion", "随从卡"); {kind} is the
    # kind's name from the game's registry.
    return pgettext("a card of a kind", "{kind}").format(
        kind=game_word("kind", kind, prose=True))


def _kinds_cards(kind: str) -> str:
    """Cards of a kind in a list of what a deck may hold ("minions and items")."""
    if kind not in engine_words.KIND_WORDS:
        # Translators: cards of a kind the registry does not name, {kind} being its code.
        return pgettext("cards of an unnamed kind", "{kind}s").format(kind=kind)
    # Translators: cards of a kind in a list ("minions", "随从卡"); {kinds} is the registry's
    # name for several of them.
    return pgettext("cards of a kind", "{kinds}").format(
        kinds=game_word("kinds", kind, prose=True))


def _with_article(word: str) -> str:
    # English says "an" before a vowel; the choice is made on the word as the reader reads it,
    # and a language without articles translates both msgids alike.
    if word[:1].lower() in ("a", "e", "i", "o", "u"):
        return pgettext("a card of a kind, with an article", "an {kind}").format(kind=word)
    return pgettext("a card of a kind, with an article", "a {kind}").format(kind=word)


def _listed(words: Sequence[str]) -> str:
    """Names one after another ("Spellbook, Atlas")."""
    if not words:
        # Translators: what a pile admits when it admits nothing.
        return pgettext("what a deck may hold", "no cards")
    out = words[0]
    for word in words[1:]:
        out = pgettext("a list of names", "{list}, {item}").format(list=out, item=word)
    return out


def _listed_with_and(words: Sequence[str]) -> str:
    """Names as a sentence lists them ("minions and items")."""
    if len(words) < 2:
        return _listed(words)
    return pgettext("a list of names", "{list} and {last}").format(list=_listed(words[:-1]),
                                                                    last=words[-1])


def _range(want: Mapping[str, int | None]) -> str:
    """How many cards a pile or a kind wants: "at least 30", "exactly 1", "2 to 4"."""
    low, high = want["min"] or 0, want["max"]
    if high is None:
        return pgettext("how many cards", "at least {low}").format(low=low)
    if low == high:
        return pgettext("how many cards", "exactly {low}").format(low=low)
    if low == 0:
        return pgettext("how many cards", "at most {high}").format(high=high)
    return pgettext("how many cards", "{low} to {high}").format(low=low, high=high)


def _size(want: Mapping[str, int | None]) -> str:
    """How many cards a one-list deck wants: "exactly 30" or "40 to 60"."""
    low, high = want["min"] or 0, want["max"]
    if low == high:
        return pgettext("how many cards", "exactly {low}").format(low=low)
    return pgettext("how many cards", "{low} to {high}").format(low=low, high=high)


def _ban_label(limit: int) -> str:
    """What a ban list calls a card held to ``limit`` copies ("limited to 1")."""
    if limit == 0:
        return pgettext("a ban list's word", "banned")
    if limit == 2:
        return pgettext("a ban list's word", "semi-limited")
    return pgettext("a ban list's word", "limited")


Said: TypeAlias = tuple[str, str]          # (message, fix)
Params: TypeAlias = Mapping[str, Any]


def _hero_missing(w: _Words, p: Params) -> Said:
    # Translators: {hero} and {heroes} are the registry's names of one hero card and several.
    want = npgettext("how many heroes a format wants", "{count} {hero}", "{count} {heroes}",
                     p["want"]).format(count=p["want"],
                                       hero=game_word("kind", "hero", prose=True),
                                       heroes=game_word("kinds", "hero", prose=True))
    return (gettext("The deck has no hero; the {format} format needs exactly {want}.").format(
        format=w.format, want=want), gettext("pick a hero"))


def _hero_count(w: _Words, p: Params) -> Said:
    return (gettext("The deck has {count} heroes; the {format} format allows exactly "
                    "{want}.").format(count=p["count"], format=w.format, want=p["want"]),
            gettext("keep one hero and remove {names}").format(
                names=_listed([w.card(code) for code in p["extra"]])))


def _hero_not_hero(w: _Words, p: Params) -> Said:
    name = w.card(p["card"])
    return (gettext("{name} is {a_kind}, not a hero, so it cannot be the deck's hero.").format(
        name=name, a_kind=_with_article(_kind_card(p["kind"]))),
        gettext("pick a hero card as the hero instead of {name}").format(name=name))


def _unknown_card(w: _Words, p: Params) -> Said:
    return (gettext("No card has the code {code!r}.").format(code=p["card"]),
            gettext("remove {code}").format(code=p["card"]))


def _bad_count(w: _Words, p: Params) -> Said:
    name = w.card(p["card"])
    return (gettext("{name}: {count} copies is not a card count; a count is a whole number "
                    "from 1.").format(name=name, count=p["count"]),
            gettext("set {name} to 1 or more copies, or remove it").format(name=name))


def _remove(w: _Words, p: Params, count: str = "count") -> str:
    return gettext("remove {count} × {name}").format(count=p[count], name=w.card(p["card"]))


def _kind_not_allowed(w: _Words, p: Params) -> Said:
    name = w.card(p["card"])
    fix = (gettext("remove {count} × {name} (make it the deck's hero instead)").format(
        count=p["count"], name=name) if p["kind"] == "hero" else _remove(w, p))
    return (gettext("{name} is {a_kind}; a {format} deck may only hold {kinds}.").format(
        name=name, a_kind=_with_article(_kind_card(p["kind"])), format=w.format,
        kinds=_listed_with_and([_kinds_cards(k) for k in p["kinds"]])), fix)


def _deck_too_small(w: _Words, p: Params) -> Said:
    return (gettext("The deck has {count} cards; the {format} format needs {want}.").format(
        count=p["count"], format=w.format, want=_size(p["want"])),
        ngettext("add {missing} more card", "add {missing} more cards",
                 p["missing"]).format(missing=p["missing"]))


def _deck_too_large(w: _Words, p: Params) -> Said:
    return (gettext("The deck has {count} cards; the {format} format allows {want}.").format(
        count=p["count"], format=w.format, want=_size(p["want"])),
        ngettext("remove {extra} card", "remove {extra} cards", p["extra"]).format(
            extra=p["extra"]))


def _copy_limit(w: _Words, p: Params) -> Said:
    name = w.card(p["card"])
    if "rarity" in p:
        message = gettext("{name}: {count} copies — {rarity} cards are limited to "
                          "{limit}.").format(name=name, count=p["count"],
                                             rarity=w.rarity(p["rarity"]), limit=p["limit"])
    else:                       # the format's limit for cards of no listed tier
        message = _card_copy_limit(w, p)[0]
    return message, _remove(w, p, "extra")


def _card_copy_limit(w: _Words, p: Params) -> Said:
    return (gettext("{name}: {count} copies — the {format} format allows {limit} of "
                    "it.").format(name=w.card(p["card"]), count=p["count"], limit=p["limit"],
                                  format=w.format), _remove(w, p, "extra"))


def _banned(w: _Words, p: Params) -> Said:
    return (gettext("{name} is banned in the {format} format.").format(
        name=w.card(p["card"]), format=w.format), _remove(w, p))


def _restricted(w: _Words, p: Params) -> Said:
    return (gettext("{name}: {count} copies — it is {label} to {limit} in the {format} "
                    "format.").format(name=w.card(p["card"]), count=p["count"],
                                      label=_ban_label(p["limit"]), limit=p["limit"],
                                      format=w.format), _remove(w, p, "extra"))


def _set_not_legal(w: _Words, p: Params) -> Said:
    return (gettext("{name} is from the set {set}, which is not legal in the {format} "
                    "format.").format(name=w.card(p["card"]), set=p["set"], format=w.format),
            _remove(w, p))


def _other_game(w: _Words, p: Params) -> Said:
    return (gettext("{name} is not a {game} card; a {format} deck holds only {game} "
                    "cards.").format(name=w.card(p["card"]), game=w.game, format=w.format),
            _remove(w, p))


def _no_copy_tier(w: _Words, p: Params) -> Said:
    name = w.card(p["card"])
    return (gettext("{name} has no rarity tier, and the {format} format limits copies by tier "
                    "({tiers}).").format(name=name, format=w.format,
                                         tiers=_listed([w.rarity(r) for r in p["rarities"]])),
            gettext("give {name} a rarity tier in the catalogue, or remove it").format(
                name=name))


def _pile_unknown(w: _Words, p: Params) -> Said:
    piles = _listed([w.pile(code) for code in p["piles"]])
    return (gettext("The {format} format has no pile called {pile!r}; its piles are "
                    "{piles}.").format(format=w.format, pile=p["pile"], piles=piles),
            gettext("move the cards of {pile!r} into one of: {piles}").format(
                pile=p["pile"], piles=piles))


def _pile_too_small(w: _Words, p: Params) -> Said:
    pile = w.pile(p["pile"])
    return (gettext("{pile}: {count} cards; the {format} format needs {want}.").format(
        pile=pile, count=p["count"], format=w.format, want=_range(p["want"])),
        ngettext("add {missing} more card to {pile}", "add {missing} more cards to {pile}",
                 p["missing"]).format(missing=p["missing"], pile=pile))


def _pile_too_large(w: _Words, p: Params) -> Said:
    pile = w.pile(p["pile"])
    return (gettext("{pile}: {count} cards; the {format} format allows {want}.").format(
        pile=pile, count=p["count"], format=w.format, want=_range(p["want"])),
        ngettext("remove {extra} card from {pile}", "remove {extra} cards from {pile}",
                 p["extra"]).format(extra=p["extra"], pile=pile))


def _not_in_pile(w: _Words, p: Params) -> Said:
    name, pile = w.card(p["card"]), w.pile(p["pile"])
    admitted = [w.kind(k) for k in p["pile_kinds"]] + [w.card(c) for c in p["pile_cards"]]
    if p["target"] is not None:
        fix = gettext("move {count} × {name} from {pile} to {target}").format(
            count=p["count"], name=name, pile=pile, target=w.pile(p["target"]))
    else:
        fix = gettext("remove {count} × {name} from {pile}").format(count=p["count"],
                                                                     name=name, pile=pile)
    return (gettext("{name} is {a_kind}; {pile} may only hold {kinds}.").format(
        name=name, a_kind=w.a_kind(p["kind"]), pile=pile, kinds=_listed(admitted)), fix)


def _kind_too_few(w: _Words, p: Params) -> Said:
    pile, kind = w.pile(p["pile"]), w.kind(p["kind"])
    return (gettext("{pile} holds {count} × {kind}; the {format} format needs {want}.").format(
        pile=pile, count=p["count"], kind=kind, format=w.format, want=_range(p["want"])),
        gettext("add {missing} × {kind} to {pile}").format(missing=p["missing"], kind=kind,
                                                           pile=pile))


def _kind_too_many(w: _Words, p: Params) -> Said:
    pile, kind = w.pile(p["pile"]), w.kind(p["kind"])
    return (gettext("{pile} holds {count} × {kind}; the {format} format allows "
                    "{want}.").format(pile=pile, count=p["count"], kind=kind, format=w.format,
                                      want=_range(p["want"])),
            gettext("remove {extra} × {kind} from {pile}").format(extra=p["extra"], kind=kind,
                                                                  pile=pile))


def _composition_missing(w: _Words, p: Params) -> Said:
    pile, name = w.pile(p["pile"]), w.card(p["card"])
    return (gettext("{pile} is a fixed set: it needs {want} × {name}, it has {count}.").format(
        pile=pile, want=p["want"], name=name, count=p["count"]),
        gettext("add {missing} × {name} to {pile}").format(missing=p["missing"], name=name,
                                                           pile=pile))


def _composition_extra(w: _Words, p: Params) -> Said:
    pile, name = w.pile(p["pile"]), w.card(p["card"])
    return (gettext("{pile} is a fixed set: it holds {count} × {name}, the set has "
                    "{want}.").format(pile=pile, count=p["count"], name=name, want=p["want"]),
            gettext("remove {extra} × {name} from {pile}").format(extra=p["extra"], name=name,
                                                                  pile=pile))


_SAY: dict[str, Callable[[_Words, Params], Said]] = {
    "hero_missing": _hero_missing,
    "hero_count": _hero_count,
    "hero_not_hero": _hero_not_hero,
    "unknown_card": _unknown_card,
    "bad_count": _bad_count,
    "kind_not_allowed": _kind_not_allowed,
    "deck_too_small": _deck_too_small,
    "deck_too_large": _deck_too_large,
    "copy_limit": _copy_limit,
    "card_copy_limit": _card_copy_limit,
    "banned": _banned,
    "restricted": _restricted,
    "set_not_legal": _set_not_legal,
    "other_game": _other_game,
    "no_copy_tier": _no_copy_tier,
    "pile_unknown": _pile_unknown,
    "pile_too_small": _pile_too_small,
    "pile_too_large": _pile_too_large,
    "not_in_pile": _not_in_pile,
    "kind_too_few": _kind_too_few,
    "kind_too_many": _kind_too_many,
    "composition_missing": _composition_missing,
    "composition_extra": _composition_extra,
}
PROBLEM_CODES = frozenset(_SAY)
