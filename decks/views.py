"""Deck pages: the public list with search, a deck's page, its history with restore, fork,
copy to the builder, delete, downloads, the printable sheet, and compare.

Every page that names a deck gets it through ``deck_get``: another user's private deck is a
404, whatever the page; writes by someone who can see but not own a deck are a 403.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.users import request_user
from cards.ownership import owned_counts
from common.htmx import HtmxHttpRequest
from common.page_cache import cached_page, signed_in_user
from decks.builder.views import builder_url, download_response
from decks.codecs import CODECS
from decks.filters import ORDER_CHOICES, DeckFilter
from decks.models import Deck
from decks.selectors import (
    NO_DECK,
    deck_compare,
    deck_get,
    deck_history,
    deck_is_owner,
    deck_page_stamp,
    deck_view,
    decks_listed,
    draft_from_deck,
    formats_active,
)
from decks.services import DeckInputError, deck_delete, deck_fork, deck_restore
from decks.session import NEW, draft_store
from decks.sharing.services import decks_mark_buildable, decks_most_favoured, decks_with_favourites
from decks.starters.selectors import starter_decks
from rules.decks.deckcode import encode_deck_code

PAGE_SIZE = 24
ALREADY_CURRENT = gettext_lazy("Version {number} is already the deck's content.")
RESTORED = gettext_lazy("Restored version {number} as version {new}.")
FORKED = gettext_lazy("Forked into your own private deck “{name}”.")
COPY_SUFFIX = gettext_lazy("{name} (copy)")
COPIED = gettext_lazy("A copy of the deck is in the builder.")
DELETED = gettext_lazy("Deleted “{name}”.")


def _deck(request: HttpRequest, uid: str, *, edit: bool = False) -> Deck:
    try:
        return deck_get(uid=uid, user=request.user, edit=edit)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None


@require_safe
def deck_list(request: HtmxHttpRequest) -> HttpResponse:
    """Public decks (and your own), searchable by name, hero, attribute and cards."""
    filterset = DeckFilter(request.GET, request=request, queryset=decks_with_favourites(
        decks_listed(request.user)).prefetch_related("tags"))
    status = 200
    if filterset.is_valid():
        page = Paginator(filterset.qs, PAGE_SIZE).get_page(request.GET.get("page"))
        owned = owned_counts(request.user)
        if owned:   # the "buildable" badge: the visitor's own collection, never the owner's
            decks_mark_buildable(page.object_list, owned)
    else:
        page, status = None, 400
    searching = any(request.GET.get(k) for k in ("q", "hero", "attribute", "card", "format",
                                                 "tag", "buildable", "active"))
    mine = bool(request.GET.get("mine"))
    context: dict[str, Any] = {"filter": filterset, "page": page, "order_choices": ORDER_CHOICES,
               "section": "mine" if mine else "list", "formats": formats_active(),
               "searching": searching,
               "most_favoured": [] if mine or request.htmx else decks_most_favoured(),
               "starters": [] if mine or request.htmx else starter_decks(with_heroes=True)}
    template = "decks/_list_results.html" if request.htmx else "decks/list.html"
    return render(request, template, context, status=status)


@require_safe
def deck_detail(request: HttpRequest, uid: str) -> HttpResponse:
    try:
        stamp = deck_page_stamp(uid=uid, user=signed_in_user(request))
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None
    return cached_page(request, lambda: _deck_detail(request, _deck(request, uid)),
                       stamp=("deck", *stamp))


def _deck_detail(request: HttpRequest, deck: Deck) -> HttpResponse:
    view = deck_view(draft_from_deck(deck), fmt=deck.format)
    code = encode_deck_code(view.draft.legality_deck(), format_code=view.draft.format_code)
    return render(request, "decks/detail.html", {
        "deck": deck, "view": view, "entries": view.entries(),
        "history": deck_history(deck=deck)[:5], "is_owner": deck_is_owner(deck=deck,
                                                                           user=request.user),
        "codecs": CODECS, "deck_code": code,
        "share_url": request.build_absolute_uri(deck.get_absolute_url()),
        "share_private": deck.visibility == "private"})


@require_safe
def deck_versions(request: HttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid)
    return render(request, "decks/history.html", {
        "deck": deck, "history": deck_history(deck=deck),
        "is_owner": deck_is_owner(deck=deck, user=request.user)})


@require_POST
@login_required
def version_restore(request: HttpRequest, uid: str, number: int) -> HttpResponse:
    deck = _deck(request, uid, edit=True)
    try:
        version = deck_restore(deck=deck, number=number, by=request_user(request))
    except DeckInputError as exc:
        raise Http404(str(exc)) from None
    if version is None:
        messages.info(request, ALREADY_CURRENT.format(number=number))
    else:
        messages.success(request, RESTORED.format(number=number, new=version.number))
    return redirect(reverse("decks:versions", args=[uid]))


@require_POST
@login_required
def deck_fork_view(request: HttpRequest, uid: str) -> HttpResponse:
    fork = deck_fork(deck=_deck(request, uid), by=request_user(request))
    messages.success(request, FORKED.format(name=fork.name))
    return redirect(fork.get_absolute_url())


@require_POST
def deck_copy_to_builder(request: HttpRequest, uid: str) -> HttpResponse:
    """Open a copy of any deck you can see in the builder (no account needed)."""
    draft = draft_from_deck(_deck(request, uid))
    draft_store(request, NEW, replace(draft, name=COPY_SUFFIX.format(name=draft.name)[:100],
                                      visibility="private"))
    messages.info(request, COPIED)
    return redirect(builder_url(NEW))


@require_http_methods(["GET", "POST"])
def deck_delete_view(request: HttpRequest, uid: str) -> HttpResponse:
    deck = _deck(request, uid, edit=True)
    if request.method == "POST":
        name = deck.name
        deck_delete(deck=deck)
        messages.success(request, DELETED.format(name=name))
        return redirect(reverse("decks:list") + "?mine=true")
    return render(request, "decks/confirm_delete.html", {"deck": deck})


@require_safe
def deck_download(request: HttpRequest, uid: str, format_name: str) -> HttpResponse:
    return download_response(draft_from_deck(_deck(request, uid)), format_name)


@require_safe
def deck_print(request: HttpRequest, uid: str) -> HttpResponse:
    """A printable deck sheet: the list with checkboxes, the hero, the problems if any."""
    deck = _deck(request, uid)
    view = deck_view(draft_from_deck(deck), fmt=deck.format)
    code = encode_deck_code(view.draft.legality_deck(), format_code=view.draft.format_code)
    return render(request, "decks/print.html", {"deck": deck, "view": view,
                                                "entries": view.entries(), "code": code})


@require_safe
def deck_compare_view(request: HttpRequest) -> HttpResponse:
    """Two decks you can see, side by side, each picked from your decks and the public ones
    (or given by id or address). One deck alone (the deck page's "Compare…") is the form
    with A chosen, waiting for B: not an error."""
    a_uid = _uid_from(request.GET.get("a", "").strip())
    b_uid = _uid_from(request.GET.get("b", "").strip())
    user = request.user if request.user.is_authenticated else None
    listed = list(decks_listed(request.user).select_related("owner")[:200])
    mine = [d for d in listed if user is not None and d.owner_id == user.pk]
    public = [d for d in listed if d not in mine]
    context: dict[str, Any] = {"mine": mine, "public": public, "a_uid": a_uid, "b_uid": b_uid,
                               "section": "compare"}
    known = {d.uid for d in listed}
    # A deck given by address that no list holds (an unlisted deck): an option of its own.
    context["extra"] = [d for d in (_deck_or_none(request, u) for u in (a_uid, b_uid)
                                    if u and u not in known) if d is not None]
    if not (a_uid and b_uid):
        return render(request, "decks/compare.html", context)
    a, b = _deck(request, a_uid), _deck(request, b_uid)
    context.update(result=deck_compare(a=a, b=b))
    return render(request, "decks/compare.html", context)


def _deck_or_none(request: HttpRequest, uid: str) -> Deck | None:
    try:
        return deck_get(uid=uid, user=request.user)
    except Deck.DoesNotExist:
        return None


def _uid_from(text: str) -> str:
    """A deck id, also from a pasted deck address (…/decks/<uid>/)."""
    parts = [p for p in text.split("/") if p]
    return parts[-1] if parts else text
