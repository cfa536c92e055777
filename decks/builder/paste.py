"""Paste a deck code straight into the builder: the code's hero and cards replace the draft's
(its name too when the draft has none), and the deck panel re-validates as after any change.
A damaged or unknown code leaves the draft as it was and says what is wrong."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpResponse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from common.htmx import HtmxHttpRequest
from decks.builder.views import _respond, _target
from decks.codecs import DeckImportError
from decks.session import draft_store
from decks.transfer.services import draft_import

NO_CODE = gettext_lazy("Paste a deck code (from a deck page's Copy code button or a code "
                       "download).")
PASTED = gettext_lazy("The deck code's hero and {size} cards are in the builder.")
MAX_PASTE = 4000      # characters: a deck code of the largest deck an import takes is shorter
PASTE_TOO_LONG = gettext_lazy(
    "What you pasted is {length} characters long; a deck code is at most {limit}. Paste the "
    "code alone (a deck list goes on the import page)."
)


@require_POST
def builder_paste_code(request: HtmxHttpRequest, key: str) -> HttpResponse:
    draft, deck = _target(request, key)
    text = request.POST.get("code", "").strip()
    if not text:
        return _respond(request, key, draft, deck, error=str(NO_CODE))
    if len(text) > MAX_PASTE:     # never cut: a cut code would be called damaged
        return _respond(request, key, draft, deck, error=PASTE_TOO_LONG.format(
            length=f"{len(text):,}", limit=f"{MAX_PASTE:,}"))
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
