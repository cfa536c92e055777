"""The collection pages: the table with quick +/− (htmx), a card's count on its page, import
and export as text or CSV, and "add a whole set". Every page is the signed-in user's own
collection; views read the request, call services and selectors, and render."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.users import request_user
from cards.filters import CardFilter
from cards.models import Card
from cards.selectors import card_rows, cards_label
from collection.forms import CollectionImportForm
from collection.models import MAX_COPIES
from collection.selectors import (
    active_deck_claims,
    cards_with_owned,
    collection_set_totals,
    collection_version,
)
from collection.services import (
    Capped,
    CollectionInputError,
    collection_card,
    collection_card_add,
    collection_card_set,
    collection_set_add,
)
from collection.transfer import (
    COLLECTION_LIMITS,
    LIST_FORMATS,
    ListFile,
    collection_export,
    collection_import,
)
from common.htmx import HtmxHttpRequest
from common.language import reader_language
from common.throttles import IMPORT_PER_CLIENT, client_key, hit_wait, refused
from decks.codecs import DeckImportError, ImportProblem
from decks.codecs.upload import read_upload

PAGE_SIZE = 50
IMPORTED = gettext_lazy("Read {cards} cards: {copies} copies added, {changed} counts changed.")
REPLACED = gettext_lazy("Read {cards} cards: your collection is now these {copies} copies "
                        "({changed} counts changed).")
SET_ADDED = gettext_lazy("Added {copies} of each card of {name}: {changed} counts changed.")
CAPPED = gettext_lazy("A collection keeps at most {limit} copies of a card, so these were "
                      "kept at {limit}: {cards}.")
CAPPED_CARD = gettext_lazy("{name} ({asked} asked)")
SIGN_IN = gettext_lazy("Log in to keep count of the cards you own.")


def _table_context(request: HttpRequest) -> dict[str, Any]:
    filterset = CardFilter(request.GET, queryset=card_rows(), request=request)
    lang = reader_language()
    context = {"form": filterset.form, "lang": lang, "formats": LIST_FORMATS}
    if not filterset.is_valid():
        return {**context, "errors": filterset.errors}
    # The version before the counts: the counts are at least as new as it says.
    version = collection_version(user=request_user(request))      # behind login_required
    cards = cards_with_owned(filterset.qs, user=request_user(request))
    page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    cards_label(page.object_list, lang)
    return {**context, "page": page, "cards": page.object_list, "version": version}


@require_safe
@login_required
def collection_page(request: HtmxHttpRequest) -> HttpResponse:
    """The user's collection as a table of every card (``owned=true``: only those owned)."""
    context = _table_context(request)
    status = 400 if "errors" in context else 200
    if request.htmx and not request.htmx.boosted:
        return render(request, "collection/_table.html", context, status=status)
    context.update(sets=collection_set_totals(user=request_user(request)),
                   claims=active_deck_claims(user=request.user), section="collection")
    return render(request, "collection/page.html", context, status=status)


@require_safe
@login_required
def collection_sets(request: HtmxHttpRequest) -> HttpResponse:
    """The side panel's totals by set (htmx reloads it after each change of a count). Opened
    directly (a link, a reload), the address leads to the page the panel belongs to."""
    if not request.htmx:
        return redirect(reverse("collection:page") + "#own-sets")
    return render(request, "collection/_sets.html",
                  {"sets": collection_set_totals(user=request_user(request))})


def _card_answer(request: HttpRequest, card: Card, error: str = "") -> HttpResponse:
    """The count widget of one card: a table row, or the box on the card's page, with the
    collection's version read before its count (the page keeps the newer of two answers)."""
    version = collection_version(user=request_user(request))
    owned = cards_with_owned(card_rows().filter(pk=card.pk), user=request_user(request)).get()
    cards_label([owned], reader_language())
    template = ("collection/_row.html" if request.GET.get("as") == "row"
                else "collection/_card_box.html")
    response = render(request, template, {"card": owned, "error": error, "version": version},
                      status=400 if error else 200)
    if request.method == "POST" and not error:
        response["HX-Trigger"] = "collection-changed"   # the set totals reload themselves
    return response


@require_http_methods(["GET", "POST"])
def collection_card_view(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """GET: the count box of a card. POST ``delta`` (±1) or ``count``: change it."""
    if not request.user.is_authenticated:
        return render(request, "collection/_sign_in.html", {"message": SIGN_IN},
                      status=200 if request.method == "GET" else 403)
    try:
        card = collection_card(code[:40])
    except CollectionInputError as exc:
        return HttpResponse(str(exc), status=404, content_type="text/plain; charset=utf-8")
    if request.method == "GET" and not request.htmx:
        # Opened directly: the card's page, where its count box lives.
        return redirect(card.get_absolute_url())
    error = ""
    if request.method == "POST":
        try:
            if "delta" in request.POST or "count" not in request.POST:   # a − or + button
                delta = -1 if request.POST.get("delta") == "-1" else 1
                collection_card_add(user=request_user(request), card=card, delta=delta)
            else:
                collection_card_set(user=request_user(request), card=card,
                                    count=request.POST["count"])
        except CollectionInputError as exc:
            error = str(exc)
        if not request.htmx:
            if error:
                messages.error(request, error)
            return redirect(request.POST.get("next") or reverse("collection:page"))
    return _card_answer(request, card, error)


@require_http_methods(["GET", "POST"])
@login_required
def collection_import_view(request: HttpRequest) -> HttpResponse:
    form = (CollectionImportForm(request.POST, request.FILES or None)
            if request.method == "POST" else CollectionImportForm())
    context: dict[str, Any] = {"form": form, "section": "collection"}
    if request.method == "GET":
        return render(request, "collection/import.html", context)
    found = hit_wait(IMPORT_PER_CLIENT, client_key(request))   # the import API's budget too
    if found:
        context["problems"] = [ImportProblem(found[0])]
        return refused(render(request, "collection/import.html", context), found[1])
    if not form.is_valid():
        return render(request, "collection/import.html", context, status=400)
    try:
        result = collection_import(
            user=request_user(request), format_name=form.cleaned_data["format"],
            text=read_upload(form.cleaned_data["file"], form.cleaned_data["text"],
                             COLLECTION_LIMITS), replace=form.replacing)
    except (DeckImportError, CollectionInputError) as exc:
        # Only a pasted list is shown again: a file's text may hold what no page can.
        context["problems"] = getattr(exc, "problems", None) or [ImportProblem(str(exc))]
        return render(request, "collection/import.html", context,
                      status=getattr(exc, "status", 400))
    said = REPLACED if form.replacing else IMPORTED
    messages.success(request, said.format(cards=result.cards, copies=result.copies,
                                          changed=result.changed))
    _say_capped(request, result.capped)
    return redirect(reverse("collection:page"))


@require_safe
@login_required
def collection_export_view(request: HttpRequest, format_name: str) -> HttpResponse:
    try:
        listing = collection_export(user=request_user(request), format_name=format_name)
    except KeyError:
        return HttpResponse(str(gettext_lazy("Download as text or csv.")), status=404,
                            content_type="text/plain; charset=utf-8")
    return list_download(listing)


def _say_capped(request: HttpRequest, capped: Sequence[Capped]) -> None:
    """A warning naming each card kept at the cap, and the count it would have had."""
    if not capped:
        return
    names = {card.code: card.display_name
             for card in Card.objects.filter(code__in=[c.code for c in capped])}
    cards = ", ".join(CAPPED_CARD.format(name=names.get(c.code, c.code), asked=c.asked)
                      for c in capped)
    messages.warning(request, CAPPED.format(limit=MAX_COPIES, cards=cards))


def list_download(listing: ListFile) -> HttpResponse:
    response = HttpResponse(listing.content, content_type=listing.media_type)
    response["Content-Disposition"] = content_disposition_header(True, listing.filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_POST
@login_required
def collection_set_add_view(request: HttpRequest) -> HttpResponse:
    """Add copies of every card of a set (the set's code and the copies are posted)."""
    code = request.POST.get("set", "")[:40]
    try:
        added = collection_set_add(user=request_user(request), set_code=code,
                                   copies=request.POST.get("copies", "1"))
    except CollectionInputError as exc:
        context = _table_context(request)
        context.update(sets=collection_set_totals(user=request_user(request)), set_error=str(exc),
                       claims=active_deck_claims(user=request.user), section="collection")
        return render(request, "collection/page.html", context, status=400)
    messages.success(request, SET_ADDED.format(copies=added.copies,
                                               name=added.card_set.display_name,
                                               changed=added.changed))
    _say_capped(request, added.capped)
    return redirect(reverse("collection:page") + "?" + urlencode({"set": added.card_set.code}))
