"""The deck page's players' box (favourite, active, tags) and the deck image.

The deck page is stored per visitor (cards/page_cache.py) and moves only with the deck; a
favourite moves no deck, so the box is fetched apart (htmx) and always current. Writes answer
the box again; without JavaScript they go back to the deck's page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST, require_safe

from decks.codecs import safe_filename
from decks.deck_image import deck_image_png
from decks.models import Deck
from decks.selectors import NO_DECK, deck_get, deck_is_owner
from decks.sharing import (
    SharingInputError,
    deck_active_set,
    deck_favourite_count,
    deck_favourite_set,
    deck_is_favourite,
    deck_tag_slugs,
    deck_tags_set,
)


def _deck(request: HttpRequest, uid: str, *, edit: bool = False) -> Deck:
    try:
        return deck_get(uid=uid, user=request.user, edit=edit)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None


def _box(request: HttpRequest, deck: Deck, *, error: str = "", tags_text: str | None = None
         ) -> HttpResponse:
    if not request.htmx:
        return redirect(deck.get_absolute_url())
    tags = deck_tag_slugs(deck)
    return render(request, "decks/_players_box.html", {
        "deck": deck, "is_owner": deck_is_owner(deck=deck, user=request.user),
        "favourite": deck_is_favourite(deck=deck, user=request.user),
        "favourite_count": deck_favourite_count(deck=deck), "tags": tags,
        "tags_text": ", ".join(tags) if tags_text is None else tags_text, "error": error},
        status=400 if error else 200)


@require_safe
def deck_players(request: HttpRequest, uid: str) -> HttpResponse:
    return _box(request, _deck(request, uid))


@require_POST
@login_required
def deck_favourite_view(request: HttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid)
    deck_favourite_set(deck=deck, user=request.user,
                       favourite=request.POST.get("favourite") == "on")
    return _box(request, deck)


@require_POST
@login_required
def deck_active_view(request: HttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid, edit=True)
    deck_active_set(deck=deck, active=request.POST.get("active") == "on")
    return _box(request, deck)


@require_POST
@login_required
def deck_tags_view(request: HttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid, edit=True)
    text = request.POST.get("tags", "")[:400]
    try:
        deck_tags_set(deck=deck, tags=text)
    except SharingInputError as exc:
        if not request.htmx:
            return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
        return _box(request, deck, error=str(exc), tags_text=text)
    response = _box(request, deck)
    response["HX-Refresh"] = "true"     # the tags show in the page's stored part too
    return response


@require_safe
def deck_image(request: HttpRequest, uid: str) -> HttpResponse:
    """The deck as a PNG to post: hero, cards with their art and counts, in the deck's
    language (``?lang=zh`` or ``en``; by default the page's)."""
    deck = _deck(request, uid)
    lang = request.GET.get("lang")
    png = deck_image_png(deck, lang=lang if lang in ("en", "zh") else None)
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = content_disposition_header(
        False, safe_filename(deck.name, "png"))
    response["Cache-Control"] = "private, max-age=300"
    return response
