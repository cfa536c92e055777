"""The deck page's players' box (favourite, active, tags) and the deck image.

The deck page is stored per visitor (common/page_cache.py) and moves only with the deck; a
favourite moves no deck, so the box is fetched apart (htmx) and always current. Writes answer
the box again; without JavaScript they go back to the deck's page."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.views.decorators.http import require_POST, require_safe

from accounts.users import request_user
from common.htmx import HtmxHttpRequest
from common.page_cache import signed_in_user
from common.throttles import DECK_IMAGE_PER_IP, client_ip, hit_wait, refused
from decks.codecs import safe_filename
from decks.models import Deck
from decks.selectors import NO_DECK, deck_get, deck_is_owner, deck_page_stamp
from decks.sharing.image import deck_image_stored
from decks.sharing.services import (
    SharingInputError,
    deck_active_set,
    deck_favourite_count,
    deck_favourite_set,
    deck_is_favourite,
    deck_tag_slugs,
    deck_tags_set,
)


def _deck(request: HtmxHttpRequest, uid: str, *, edit: bool = False) -> Deck:
    try:
        return deck_get(uid=uid, user=request.user, edit=edit)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None


def _box(request: HtmxHttpRequest, deck: Deck, *, error: str = "", tags_text: str | None = None
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
def deck_players(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    return _box(request, _deck(request, uid))


@require_POST
@login_required
def deck_favourite_view(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid)
    deck_favourite_set(deck=deck, user=request_user(request),
                       favourite=request.POST.get("favourite") == "on")
    return _box(request, deck)


@require_POST
@login_required
def deck_active_view(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid, edit=True)
    deck_active_set(deck=deck, active=request.POST.get("active") == "on")
    return _box(request, deck)


@require_POST
@login_required
def deck_tags_view(request: HtmxHttpRequest, uid: str) -> HttpResponse:
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
def deck_image(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """The deck as a PNG to post: hero, cards with their art and counts, in the deck's
    language (``?lang=zh`` or ``en``; by default the page's). Drawn once per deck version and
    language (``deck_image_stored``); a revalidation with its ETag is a 304; visitors who are
    not signed in are throttled per address (429 with ``Retry-After``)."""
    user = signed_in_user(request)
    if user is None:
        found = hit_wait(DECK_IMAGE_PER_IP, client_ip(request))
        if found:
            return refused(HttpResponse(found[0], content_type="text/plain; charset=utf-8"),
                           found[1])
    try:
        stamp = deck_page_stamp(uid=uid, user=user)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None
    image = deck_image_stored(stamp=stamp, lang=image_language(request.GET.get("lang")))
    response = get_conditional_response(request, etag=image.etag) or HttpResponse(
        image.png, content_type="image/png")
    response["ETag"] = image.etag
    response["Cache-Control"] = "private, max-age=300"
    disposition = content_disposition_header(False, safe_filename(image.name, "png"))
    if response.status_code == 200 and disposition is not None:   # None: no file name
        response["Content-Disposition"] = disposition
    return response


def image_language(asked: str | None) -> str:
    """The language an image is drawn in: one of the site's (``zh`` names 简体中文, as the
    language's own code does), else the page's."""
    for code, _name in settings.LANGUAGES:
        if asked and asked.lower() in (code, code.split("-")[0]):
            return code
    return get_language() or settings.LANGUAGE_CODE
