"""The builder's card panel: a catalogue query, a sort, an "only my hero's attribute" switch
and an "only cards I own" switch (with the copies left after the deck), all in the page's
address so a reload (or a shared link) shows the same panel.

The panel's fragment answers carry ``HX-Push-Url`` with the builder page's own address and
the panel's parameters, never the fragment's address, so the address bar is always a page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from cards.declared_words import game_q
from cards.examples import localised_query
from cards.game_words import game_word_lazy
from cards.models import ENGINE_GAME, Card
from cards.ownership import owned_counts
from cards.query import QuerySyntaxError
from cards.selectors import card_search, cards_label
from common.language import reader_language
from decks.adapters import INDEX_FIELDS
from decks.drafts import Draft
from decks.models import Format

CARD_RESULTS = 60
# value → (label, the catalogue's sort)
PANEL_ORDERS = {"cost": (game_word_lazy("field", "cost"), "cost"),
                "name": (gettext_lazy("Name"), "name"),
                "attack": (gettext_lazy("Attack (high first)"), "-attack")}
DEFAULT_ORDER = "cost"


@dataclass(frozen=True)
class PanelQuery:
    q: str = ""
    order: str = DEFAULT_ORDER
    hero_only: bool = False
    owned: bool = False    # only the visitor's own cards, with the copies left after the deck
    page: int = 1          # CARD_RESULTS cards a page

    @classmethod
    def from_request(cls, request: HttpRequest) -> PanelQuery:
        order = request.GET.get("order", DEFAULT_ORDER)
        return cls(q=request.GET.get("q", "")[:300],
                   order=order if order in PANEL_ORDERS else DEFAULT_ORDER,
                   hero_only=request.GET.get("hero_only") in ("1", "on", "true"),
                   owned=request.GET.get("owned") in ("1", "on", "true"),
                   page=_page_number(request.GET.get("page", "")))

    def params(self) -> dict[str, str]:
        """The non-default parameters, for the page's address."""
        out = {}
        if self.q:
            out["q"] = self.q
        if self.order != DEFAULT_ORDER:
            out["order"] = self.order
        if self.hero_only:
            out["hero_only"] = "1"
        if self.owned:
            out["owned"] = "1"
        if self.page > 1:
            out["page"] = str(self.page)
        return out

    def page_query(self, page: int) -> str:
        """The panel's parameters for another page of the same search."""
        return urlencode({**self.params(), "page": str(page)})

    def page_url(self, base: str) -> str:
        params = self.params()
        return f"{base}?{urlencode(params)}" if params else base


def _page_number(text: str) -> int:
    """A page number from the address: 1 for anything that is not a whole number from 1."""
    return int(text) if text.isdigit() and 0 < int(text) < 10_000 else 1


def dom_id(code: str) -> str:
    """An HTML id fragment for a card code (codes may hold any character)."""
    return re.sub(r"[^A-Za-z0-9_-]", lambda m: f"_{ord(m.group()):x}", code)


def hero_attribute(draft: Draft) -> str | None:
    if not draft.hero:
        return None
    return Card.objects.filter(code=draft.hero).values_list("attribute", flat=True).first()


def format_game(fmt: Format) -> str:
    """The code of the game whose cards a format's decks hold (no game: this site's own)."""
    return fmt.game.code if fmt.game is not None else ENGINE_GAME


def card_panel(request: HttpRequest, draft: Draft, fmt: Format) -> dict[str, Any]:
    """The panel's cards for the request's query, sort and hero filter: the cards of the
    format's game only, so every + button adds a card the deck may hold."""
    panel = PanelQuery.from_request(request)
    engine_game = format_game(fmt) == ENGINE_GAME
    attribute = hero_attribute(draft) if engine_game else None
    context: dict[str, Any] = {"query": panel.q, "panel": panel, "panel_orders": PANEL_ORDERS,
               "hero_attribute": attribute, "hero_code": draft.hero, "results": [],
               "engine_game": engine_game,
               "query_example": localised_query("k:minion a:fire") + " c<=3"}
    try:
        cards = card_search(query=panel.q, order=PANEL_ORDERS[panel.order][1])
    except QuerySyntaxError as exc:
        return {**context, "query_error": exc}
    cards = cards.filter(game_q([format_game(fmt)]))
    if panel.hero_only and attribute:
        # The hero's own attribute, and items (which have none): what the hero can field.
        cards = cards.filter(Q(attribute=attribute) | Q(kind="item"))
    owned = owned_counts(request.user) if panel.owned else {}
    if panel.owned:
        cards = cards.filter(code__in=sorted(owned))
    # The rows show a few columns: no joins, no abilities or rules text to decode.
    total = cards.count()
    pages = max(1, -(-total // CARD_RESULTS))
    page = min(panel.page, pages)
    start = (page - 1) * CARD_RESULTS
    found = list(cards.select_related(None).only(*INDEX_FIELDS, "card_set")
                 [start:start + CARD_RESULTS])
    cards_label(found, reader_language())
    # Copies in every pile, the hero slot's card included (an avatar shows 1 once added).
    rows: list[tuple[Card, int, str, int | None]] = []
    for card in found:
        in_deck = (draft.cards.get(card.code, 0)
                   + sum(p.get(card.code, 0) for p in draft.piles.values())
                   + (1 if card.code == draft.hero else 0))
        # The visitor's own copies left after the deck (None: the panel does not show them).
        owned_left = owned.get(card.code, 0) - in_deck if panel.owned else None
        rows.append((card, in_deck, dom_id(card.code), owned_left))
    return {**context, "results": rows, "signed_in": request.user.is_authenticated,
            "paging": _paging(panel, page, pages, start, len(rows), total)}


def _paging(panel: PanelQuery, page: int, pages: int, start: int, shown: int,
            total: int) -> dict[str, Any] | None:
    """Where this page of the panel is among the search's cards, and the other pages' query
    strings (None: the search fits on one page)."""
    if pages == 1:
        return None
    return {"page": page, "pages": pages, "first": start + 1, "last": start + shown,
            "total": total,
            "previous": panel.page_query(page - 1) if page > 1 else "",
            "next": panel.page_query(page + 1) if page < pages else ""}
