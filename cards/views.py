"""Catalogue pages: the gallery and table, the card page and its image, the query help and the
vocabulary reference. Views only read the request, call selectors and render."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.http import http_date
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_safe

from cards.art import card_art
from cards.card_stats import StatsFilter, card_stats, card_stats_slices
from cards.declared_words import game_choices, kind_choices, rarity_choices
from cards.examples import field_examples, query_examples
from cards.filters import CardFilter
from cards.game_words import game_word, game_word_lazy
from cards.generation import catalogue_generation
from cards.models import Attribute, Card, display_names, keyword_choices
from cards.ownership import ownership_stamp
from cards.query import FIELDS, describe
from cards.query.fields import FIELD_LIST
from cards.rows import table_row
from cards.rulesets import ruleset_words
from cards.selectors import (
    ORDER_CHOICES,
    card_neighbours,
    card_rows,
    card_search,
    cards_label,
    filter_choices,
)
from common.htmx import HtmxHttpRequest
from common.language import (
    image_language_query,
    reader_language,
    reader_reads_source,
    rules_texts,
)
from common.page_cache import cached_page
from rules.engine.cards import BEATS
from rules.engine.text import written_languages

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PAGE_SIZES = {"gallery": 48, "table": 50}
SVG_CACHE_SECONDS = 60 * 60 * 24
ART_VERSION = 3    # part of the image cache key: a change to the drawing repaints every card
# Malformed queries the help page shows with their messages, typed as a reader of the page
# would type them (the query language reads values by their names in every language).
ERROR_EXAMPLES = [
    pgettext_lazy("a malformed query: a bracket closed but never opened", "a:fire)"),
    pgettext_lazy("a malformed query: a word where a number belongs", "c<=three"),
    pgettext_lazy("a malformed query: a field the query language lacks", "colour:red"),
    pgettext_lazy("a malformed query: a bracket opened but never closed", "(k:minion or"),
]
TABLE_COLUMNS: list[tuple[str, StrOrPromise]] = [
    ("code", gettext_lazy("Code")), ("name", gettext_lazy("Name")),
    *((f, game_word_lazy("field", f))
      for f in ("kind", "attribute", "rarity", "cost", "attack", "hp")),
    ("", game_word_lazy("field", "faction")), ("", game_word_lazy("field", "race")),
    ("", gettext_lazy("Rules text"))]
NUMBER_FILTERS = [(f, game_word_lazy("field", f)) for f in ("cost", "attack", "hp")]
NO_SUCH_CARD = gettext_lazy("No card with code {code!r}.")
NOT_RECORDED = gettext_lazy("not recorded (earlier runs)")
VERSION_OF = gettext_lazy("card data played until {when}")


def agent_label(name: str) -> str:
    """An agent's name as the card page shows it ("" for totals recorded before agents)."""
    if not name:
        return str(NOT_RECORDED)
    return capfirst(game_word("agent", name))


def ruleset_label(key: str, changes: Mapping[str, Any]) -> str:
    """A ruleset in words: the standard rules, or the options that differ."""
    if not key:
        return str(NOT_RECORDED)
    words = ruleset_words(changes)
    return words.summary
MULTI_FILTERS = ("game", "kind", "attribute", "rarity", "keyword", "faction", "race", "set")
GALLERY_FIELDS = ("code", "names", "kind", "rarity", "updated_at", "engine",
                  "card_set")


@require_safe
def card_list(request: HtmxHttpRequest) -> HttpResponse:
    """Gallery or table (``view=table``) of the cards matching the filters and ``q``."""
    # "Only cards I own" is the visitor's collection: its stored copy moves with it.
    owned = ownership_stamp(request.user) if request.GET.get("owned") else None
    return cached_page(request, lambda: _card_list(request),
                       stamp=("cards", catalogue_generation(), owned))


def _card_list(request: HtmxHttpRequest) -> HttpResponse:
    view = "table" if request.GET.get("view") == "table" else "gallery"
    filterset = CardFilter(request.GET, queryset=card_rows(), request=request)
    context = {"view": view, "form": filterset.form, "lang": reader_language(),
               "order_choices": ORDER_CHOICES, **_filter_context(request)}
    if filterset.is_valid():
        query = filterset.form.cleaned_data.get("q")
        cards = filterset.qs
        if view == "gallery":   # the images carry the details: fetch only what the grid shows
            cards = cards.select_related(None).only(*GALLERY_FIELDS)
        page = Paginator(cards, PAGE_SIZES[view]).get_page(request.GET.get("page"))
        context.update(page=page, cards=_decorate(page.object_list, context["lang"],
                                                      table=view == "table"), meaning=(
            describe(query.node) if query and query.node is not None else ""),
            page_range=page.paginator.get_elided_page_range(page.number, on_each_side=2),
            table_columns=_table_columns(request.GET.get("order", "code")))
    else:
        context["errors"] = filterset.errors
        context["query_error"] = _query_error(filterset)
    if request.htmx and not request.htmx.boosted:
        # htmx swaps only 2xx answers: the error message must arrive as one to be shown.
        return render(request, "cards/_results.html", context)
    return render(request, "cards/list.html", context,
                  status=200 if filterset.is_valid() else 400)


@lru_cache(maxsize=8)
def _url_pattern(name: str) -> str:
    return reverse(name, args=["__CODE__"])


def _decorate(cards: Iterable[Card], lang: str, table: bool = False) -> list[Card]:
    """Attach each card's links and alt text: one reverse() per page instead of two per card
    keeps the list's rendering time flat (reverse dominated the gallery's profile)."""
    detail, image = _url_pattern("cards:detail"), _url_pattern("cards:image")
    query = image_language_query(lang)
    suffix = f"&{query}" if query else ""
    out = list(cards)
    # another game's kind and tier in its own words (none: no query)
    cards_label(out, reader_language())
    for card in out:
        code = quote(card.code, safe="")
        card.href = detail.replace("__CODE__", code)
        card.img = f"{image.replace('__CODE__', code)}?v={int(card.updated_at.timestamp())}{suffix}"
        card.alt = (_("{name} ({other}), {rarity} {kind}") if lang == "en" else
                    _("{name}, {rarity} {kind}")).format(   # a Chinese page: the Chinese name
            name=card.display_name, other=card.other_name, rarity=card.rarity_label,
            kind=card.kind_label)
        if table:
            card.row = table_row(card, lang)
    return out


def _choices(options: Iterable[tuple[str, str]], selected: list[str]) -> list[dict[str, Any]]:
    return [{"value": value, "label": label, "checked": value in selected}
            for value, label in options]


def _filter_context(request: HttpRequest) -> dict[str, Any]:
    """What the filter panel needs to show the current choices (the URL is the state)."""
    selected = {name: request.GET.getlist(name) for name in MULTI_FILTERS}
    choices = filter_choices()
    return {
        "selected": selected,
        "choice_filters": [
            {"name": "game", "label": _("Game"),
             "items": _choices(game_choices(), selected["game"])},
            {"name": "kind", "label": game_word("field", "kind"),
             "items": _choices(kind_choices(), selected["kind"])},
            {"name": "attribute", "label": game_word("field", "attribute"), "dot": True,
             "items": _choices(Attribute.choices, selected["attribute"])},
            {"name": "rarity", "label": game_word("field", "rarity"), "tag": True,
             "items": _choices(rarity_choices(), selected["rarity"])},
            {"name": "keyword", "label": _("Keyword"),
             "items": _choices(keyword_choices(), selected["keyword"])},
        ],
        "number_filters": [{"name": n, "label": label,
                            "min": request.GET.get(f"{n}_min", ""),
                            "max": request.GET.get(f"{n}_max", "")}
                           for n, label in NUMBER_FILTERS],
        "tag_filters": [
            {"name": name, "label": label, "items": [
                {"value": o.code, "label": o.display_name, "other": o.other_name,
                 "lang": o.other_lang,
                 "checked": o.code in selected[name]} for o in choices[key]]}
            for name, label, key in (("faction", game_word("field", "faction"), "factions"),
                                     ("race", game_word("field", "race"), "races"),
                                     ("set", _("Set"), "sets"))
        ],
    }


def _table_columns(order: str) -> list[dict[str, StrOrPromise]]:
    columns = []
    for key, label in TABLE_COLUMNS:
        sorted_ = ""
        if key and order.lstrip("-") == key:
            sorted_ = "descending" if order.startswith("-") else "ascending"
        next_ = f"-{key}" if sorted_ == "ascending" else key
        columns.append({"label": label, "next": next_, "sorted": sorted_})
    return columns


def _query_error(filterset: CardFilter) -> dict[str, Any] | None:
    """The query-language error with the query split around the problem (for the caret)."""
    errors = filterset.form.errors.get("q")
    if not errors:
        return None
    error = errors.as_data()[0]
    cause = getattr(error, "query_error", None)
    if cause is None:
        return {"message": error.message, "position": 0, "before": "", "at": "", "after": ""}
    position, length = cause.position, cause.length
    text = cause.query
    return {"message": cause.message, "position": position + 1,
            "before": text[:position], "at": text[position:position + length] or " ",
            "after": text[position + length:]}


@require_safe
def card_detail(request: HttpRequest, code: str) -> HttpResponse:
    return cached_page(request, lambda: _card_detail(request, code),
                       stamp=("card", code, catalogue_generation()))


def _card_detail(request: HttpRequest, code: str) -> HttpResponse:
    try:
        card = card_rows().get(code=code)
    except Card.DoesNotExist:
        raise Http404(NO_SUCH_CARD.format(code=code)) from None
    lang = reader_language()
    cards_label([card], lang)    # another game's kind and tier by its own names
    only = stats_filter(request)
    context = {
        "card": card, "lang": lang, "art": card_art(card, lang),
        # the other language's name beside the name in the title and images' alt text, for a
        # reader of the source language (the other's name is shown beside, marked, elsewhere)
        "name_beside": reader_reads_source(lang), "image_query": image_language_query(lang),
        "rules_texts": rules_texts(card),
        "neighbours": card_neighbours(card=card), "stats": card_stats(card=card, only=only),
        "stats_only": only, "stats_choices": stats_choices(card),
        "abilities_json": json.dumps(card.abilities, indent=2, ensure_ascii=False),
        "data_json": json.dumps(card.to_data(), indent=2, ensure_ascii=False),
        "advantage": _advantage(card.attribute),
    }
    return render(request, "cards/detail.html", context)


STATS_PARAMS = (("agent", "agent"), ("ruleset", "ruleset"), ("version", "card_data_version"))


def stats_filter(request: HttpRequest) -> StatsFilter:
    """The card page's stats filter from its query string (a blank value: any)."""
    values = {field: request.GET.get(param) or None for param, field in STATS_PARAMS}
    return StatsFilter(**values)


def stats_choices(card: Card) -> dict[str, list[dict[str, Any]]]:
    """The filter's options with readable labels (agents by name, rulesets in sentences)."""
    choices = card_stats_slices(card=card)
    for entry in choices["agent"]:
        entry["label"] = agent_label(entry["value"])
    for entry in choices["ruleset"]:
        entry["label"] = ruleset_label(entry["value"], entry["changes"])
    for entry in choices["card_data_version"]:   # newest first; named by when it last played
        entry["label"] = (VERSION_OF.format(when=date_format(entry["latest"], "DATETIME_FORMAT"))
                          if entry["value"] else str(NOT_RECORDED))
    return choices


def _advantage(attribute: str | None) -> str:
    """R1.5 in words: what this attribute beats and loses to."""
    if attribute is None:
        return ""
    beats = BEATS.get(attribute)
    loses = next((a for a, b in BEATS.items() if b == attribute), None)
    if beats is None:
        return _("no advantage relation with any attribute (R1.5)")
    return _("beats {beats}, loses to {loses} (R1.5)").format(
        beats=game_word("attribute", beats), loses=game_word("attribute", loses))


@require_safe
def card_image(request: HttpRequest, code: str) -> HttpResponse:
    """The card's SVG image, generated from its data (``?lang=zh`` for Chinese text)."""
    try:
        card = card_rows().get(code=code)
    except Card.DoesNotExist:
        raise Http404(NO_SUCH_CARD.format(code=code)) from None
    lang = reader_language()
    # The image depends on the card row and its tags, which move updated_at when they change.
    key = f"cards:svg:{ART_VERSION}:{card.pk}:{card.updated_at.timestamp()}:{lang}"
    svg = cache.get(key)
    if svg is None:
        svg = render_to_string("cards/card.svg", {"a": card_art(card, lang)})
        cache.set(key, svg, timeout=SVG_CACHE_SECONDS)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Last-Modified"] = http_date(card.updated_at.timestamp())
    # The gallery links images with ?v=<updated_at>, so a changed card gets a new URL.
    response["Cache-Control"] = "public, max-age=86400" if request.GET.get("v") else \
        "public, max-age=60"
    return response


@require_safe
def query_help(request: HttpRequest) -> HttpResponse:
    # Each example's count is a query: the page is stored until the catalogue changes.
    return cached_page(request, lambda: _query_help(request),
                       stamp=("help", catalogue_generation()))


def _query_help(request: HttpRequest) -> HttpResponse:
    examples = [{"query": ex.query, "meaning": ex.meaning,
                 "count": card_search(query=ex.query).count()} for ex in query_examples()]
    loaded = field_examples()
    fields = [{"aliases": f.aliases, "doc": f.help, "example": loaded.get(f.name, f.example)}
              for f in FIELD_LIST]
    errors = []
    for query in map(str, ERROR_EXAMPLES):
        form = CardFilter({"q": query}).form
        # A translation of an example may read as a valid query (the pseudo-locale's does):
        # the page shows only the examples that are refused, with their messages.
        if not form.is_valid() and "q" in form.errors:
            errors.append({"query": query, "message": form.errors["q"][0]})
    return render(request, "cards/help.html", {"fields": fields, "examples": examples,
                                               "error_examples": errors,
                                               "field_count": len(FIELDS)})


@require_safe
def vocabulary_page(request: HttpRequest) -> HttpResponse:
    """The effect vocabulary reference: every term with an example and its generated text."""
    return cached_page(request, lambda: _render_vocabulary_page(request),
                       stamp=("vocabulary", catalogue_generation()))


def _render_vocabulary_page(request: HttpRequest) -> HttpResponse:
    from rules.engine.reference import example_texts, reference_entries

    # the catalogue's factions, in each language its data is written in
    names = {lang: display_names(lang) for lang in written_languages()}
    sections: dict[str, dict[str, Any]] = {}
    for entry in reference_entries():
        section = sections.setdefault(entry["section"], {
            "key": entry["section"], "entries": [],
            "title": game_word("vocabulary_section", entry["section"])})
        if entry.get("example") is not None and entry.get("example_form") in ("ability",
                                                                            "effect"):
            entry = {**entry, **example_texts(entry["example"], entry["example_form"], names)}
        entry = dict(entry)
        entry["example_json"] = json.dumps(entry["example"], ensure_ascii=False)
        section["entries"].append(entry)
    return render(request, "cards/vocabulary.html", {"sections": list(sections.values())})
