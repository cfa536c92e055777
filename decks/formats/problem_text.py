"""The site's one door for the format schema's problems (``rules.decks.formats``): a
``FormatProblem`` (a path, a code, plain parameters) in the active language, after its path
("rules.piles[1].max: is smaller than min (2 < 5)").

The sentences are gettext msgids, translated in ``locale/``; the engine keeps none. Rendered in
the active language, so the admin's form, the ``load_formats`` command (``--lang``) and a test
under ``translation.override`` each read their own."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, pgettext

from rules.decks import formats
from rules.decks.formats import FormatProblem


def _known(params: Mapping[str, Any]) -> str:
    known: Sequence[str] = params.get("known") or ()
    # Translators: the known codes of a list that has none ("known: none").
    return ", ".join(known) if known else pgettext("no known codes", "none")


def _high(params: Mapping[str, Any]) -> object:
    high = params.get("high")
    # Translators: a pile's size has no upper bound ("from 2 to any").
    return pgettext("no upper bound", "any") if high is None else high


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    formats.MAPPING: lambda p: gettext("must be a mapping"),
    formats.UNKNOWN_KEY: lambda p: gettext("unknown key (known: {known})").format(
        known=_known(p)),
    formats.LIST: lambda p: gettext("must be a list"),
    formats.REQUIRED: lambda p: gettext("is required"),
    formats.TEXT: lambda p: gettext("must be text"),
    formats.EMPTY: lambda p: gettext("must not be empty"),
    formats.CODE: lambda p: gettext("must be a code matching {pattern} (got {value!r})").format(
        pattern=p.get("pattern"), value=p.get("value")),
    formats.NUMBER: lambda p: gettext(
        "must be a whole number from {low} to 9999 (got {value!r})").format(
        low=p.get("low"), value=p.get("value")),
    formats.FLAG: lambda p: gettext("must be true or false"),
    formats.TWICE: lambda p: gettext("{code!r} is listed twice").format(code=p.get("code")),
    formats.NO_KINDS: lambda p: gettext("a game declares at least one card kind"),
    formats.NOT_KNOWN_KIND: lambda p: gettext(
        "{value!r} is not a card kind of this game (known: {known})").format(
        value=p.get("value"), known=_known(p)),
    formats.NOT_KNOWN_RARITY: lambda p: gettext(
        "{value!r} is not a rarity tier of this game (known: {known})").format(
        value=p.get("value"), known=_known(p)),
    formats.NO_PILES: lambda p: gettext("a format has at least one pile"),
    formats.TWO_HERO_PILES: lambda p: gettext("at most one pile is the hero slot (hero: true)"),
    formats.ONLY_HERO_PILE: lambda p: gettext("a format needs a pile that is not the hero slot"),
    formats.MAX_BELOW_MIN: lambda p: gettext("is smaller than min ({high} < {low})").format(
        high=p.get("high"), low=p.get("low")),
    formats.COMPOSITION_SIZE: lambda p: gettext(
        "holds {total} cards, outside the pile's size ({low} to {high})").format(
        total=p.get("total"), low=p.get("low"), high=_high(p)),
    formats.BAN_VALUE: lambda p: gettext("is 0 (banned), 1 (limited) or 2 (semi-limited)"),
    formats.OTHER_GAME: lambda p: gettext("the file's game is {game!r}").format(
        game=p.get("game")),
    formats.NO_FORMAT: lambda p: gettext("no format {format!r} in this file").format(
        format=p.get("format")),
}


def format_problem_text(problem: FormatProblem) -> str:
    """``problem`` in the active language, after its path when it has one."""
    sentence = _SENTENCES[problem.code](problem.params)
    return f"{problem.path}: {sentence}" if problem.path else sentence


def format_problems_text(problems: Sequence[FormatProblem]) -> list[str]:
    return [format_problem_text(problem) for problem in problems]
