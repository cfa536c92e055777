"""What a deck needs from the visitor's collection: the missing cards (a fragment the deck's
page loads outside its stored copy, and a page of its own) and the shopping list to download.
Another user's private deck is a 404 here as everywhere (``deck_get``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.users import request_user
from collection.selectors import deck_missing
from collection.transfer import LIST_FORMATS, UNKNOWN_LIST_FORMAT, shopping_list
from collection.views import SIGN_IN, list_download
from common.htmx import HtmxHttpRequest
from decks.models import Deck
from decks.selectors import NO_DECK, deck_get


def _deck(request: HttpRequest, uid: str) -> Deck:
    try:
        return deck_get(uid=uid, user=request.user)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None


@require_safe
def deck_missing_view(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """The deck's cards the visitor lacks (htmx: the fragment; else a page)."""
    deck = _deck(request, uid)
    fragment = bool(request.htmx) and not request.htmx.boosted
    if not request.user.is_authenticated:
        return render(request, "collection/_sign_in.html", {"message": SIGN_IN})
    rows = deck_missing(deck=deck, user=request.user)
    context = {"deck": deck, "rows": rows, "formats": LIST_FORMATS,
               "missing_total": sum(r.missing for r in rows), "section": "collection"}
    template = "collection/_missing.html" if fragment else "collection/missing.html"
    return render(request, template, context)


@require_safe
@login_required
def shopping_list_view(request: HttpRequest, uid: str, format_name: str) -> HttpResponse:
    deck = _deck(request, uid)
    if format_name not in LIST_FORMATS:
        raise Http404(UNKNOWN_LIST_FORMAT.format(name=format_name[:20]))
    return list_download(shopping_list(deck=deck, user=request_user(request),
                                       format_name=format_name))
