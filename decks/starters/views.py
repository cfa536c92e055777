"""Starter deck pages: open one like any deck, download it, copy it into the builder, simulate
it (the simulator names it by ``starter:<name>``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from decks.builder.views import builder_url, download_response
from decks.codecs import CODECS
from decks.selectors import deck_view
from decks.session import NEW, draft_store
from decks.starters.selectors import StarterDeck, starter_get
from rules.decks.deckcode import encode_deck_code

COPIED = gettext_lazy("A copy of the starter deck “{name}” is in the builder: change it and "
                      "save it as yours.")


def _starter(slug: str) -> StarterDeck:
    try:
        return starter_get(slug=slug)
    except LookupError:
        raise Http404("No starter deck here.") from None


@require_safe
def starter_detail(request: HttpRequest, slug: str) -> HttpResponse:
    starter = _starter(slug)
    view = deck_view(starter.draft())
    code = encode_deck_code(view.draft.legality_deck(), format_code=view.draft.format_code)
    return render(request, "decks/starter.html", {
        "starter": starter, "view": view, "entries": view.entries(), "codecs": CODECS,
        "deck_code": code, "share_url": request.build_absolute_uri(starter.get_absolute_url()),
        "section": "list"})


@require_POST
def starter_copy(request: HttpRequest, slug: str) -> HttpResponse:
    """Open a copy in the builder (no account needed; saving it needs one)."""
    starter = _starter(slug)
    draft_store(request, NEW, starter.draft())
    messages.info(request, str(COPIED).format(name=starter.display_name))
    return redirect(builder_url(NEW))


@require_safe
def starter_download(request: HttpRequest, slug: str, format_name: str) -> HttpResponse:
    return download_response(_starter(slug).draft(), format_name)
