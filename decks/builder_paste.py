"""Paste a deck code straight into the builder: the code's hero and cards replace the draft's
(its name too when the draft has none), and the deck panel re-validates as after any change.
A damaged or unknown code leaves the draft as it was and says what is wrong."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from decks.builder import _respond, _target
from decks.codecs import DeckImportError
from decks.session import draft_store
from decks.transfer import draft_import

NO_CODE = gettext_lazy("Paste a deck code (from a deck page's Copy code button or a code "
                       "download).")
PASTED = gettext_lazy("The deck code's hero and {size} cards are in the builder.")


@require_POST
def builder_paste_code(request: HttpRequest, key: str) -> HttpResponse:
    draft, deck = _target(request, key)
    text = request.POST.get("code", "").strip()[:4000]
    if not text:
        return _respond(request, key, draft, deck, error=str(NO_CODE))
    try:
        imported = draft_import(text, format_name="code").draft
    except DeckImportError as exc:
        return _respond(request, key, draft, deck, error=str(exc))
    draft = replace(draft, hero=imported.hero, cards=dict(imported.cards),
                    name=draft.name or imported.name, format_code=imported.format_code,
                    piles=dict(imported.piles))
    draft_store(request, key, draft)
    if not request.htmx:
        messages.success(request, str(PASTED).format(size=draft.size))
    return _respond(request, key, draft, deck, changed=True)
