"""The import page: paste a list or a deck code, or upload a file; the deck opens in the
builder. Errors name their line with "did you mean" suggestions (400); over the caps, 413;
too many imports, 429."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from cards.examples import ImportExamples
from common.forms import RefuseNulForm
from common.throttles import IMPORT_PER_CLIENT, client_key, hit_wait, refused
from decks.builder.views import builder_url
from decks.codecs import CODECS, DEFAULT_LIMITS, DeckImportError
from decks.codecs.base import apply_fix
from decks.codecs.upload import read_upload
from decks.models import Format
from decks.selectors import format_import_examples, format_or_default, formats_active
from decks.session import NEW, draft_store
from decks.transfer.services import body_too_large, draft_import

IMPORTED = gettext_lazy("Imported “{name}” from {source}: {size} cards. Check it below, then save.")
PLACEHOLDER = gettext_lazy("Hero: {hero}\n3x {minion}\n{code}\n\n…or paste a deck code")
HEROES_IN_DECK_PLACEHOLDER = gettext_lazy(
    "2x {hero}\n3x {minion}\n{code}\n\n…or paste a deck code")
NO_HERO_PLACEHOLDER = gettext_lazy("3x {minion}\n{code}\n\n…or paste a deck code")
SOURCE_LABELS = {"text": gettext_lazy("a text list"), "json": gettext_lazy("a JSON file"),
                 "csv": gettext_lazy("a CSV file"), "code": gettext_lazy("a deck code")}


class ImportForm(RefuseNulForm):
    # The importer names the line and column of any character a deck list cannot hold.
    nul_named_by_cleaning = ("text",)

    text = forms.CharField(
        required=False, label=gettext_lazy("Deck list or deck code"), strip=False,
        widget=forms.Textarea(attrs={
            "rows": 12, "spellcheck": "false", "autocapitalize": "off"}))
    file = forms.FileField(required=False, label=gettext_lazy("…or a file (.txt, .json, .csv)"))
    format = forms.ChoiceField(
        choices=[("auto", gettext_lazy("Detect automatically")), *((c.name, c.label) for c in
                                                     CODECS.values())],
        initial="auto", required=False)
    deck_format = forms.ChoiceField(
        choices=(), required=False, label=gettext_lazy("Format"),
        help_text=gettext_lazy("The format of a list with no Format: line."),
        # Choosing another format shows the help's examples for its game.
        widget=forms.Select(attrs={"hx-get": reverse_lazy("decks:import"),
                                   "hx-target": "#import-help", "hx-select": "#import-help",
                                   "hx-swap": "outerHTML", "hx-trigger": "change"}))

    def __init__(self, *args: Any, examples: ImportExamples | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["deck_format"]).choices = [(f.code, f.display_name)
                                              for f in formats_active()]
        if examples is not None:
            placeholder = PLACEHOLDER
            if examples.heroes_in_deck:
                placeholder = (HEROES_IN_DECK_PLACEHOLDER if examples.hero_name
                               else NO_HERO_PLACEHOLDER)
            self.fields["text"].widget.attrs["placeholder"] = str(placeholder).format(
                hero=examples.hero_name, minion=examples.minion_name,
                code=examples.minion_code)
        # No NUL check on the field: the importer names the line and column of any character
        # a deck list cannot hold, which "Null characters are not allowed" does not.
        self.fields["text"].validators = []

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data   # what Form.clean returns
        data["format"] = data.get("format") or "auto"
        # The upload reader the collection import shares: its problems (DeckImportError) are
        # listed by the page as every import problem is.
        data["text"] = read_upload(data.get("file") or None, data.get("text", ""),
                                   DEFAULT_LIMITS)
        return data


def fixed_post(request: HttpRequest) -> QueryDict | None:
    """The posted form, with the "did you mean" its button names (``fix``) applied to the
    pasted list: one click, and the lines that were right are kept as they were."""
    if request.method != "POST":
        return None
    if "fix" not in request.POST:
        return request.POST
    data = request.POST.copy()
    data["text"] = apply_fix(data.get("text", ""), request.POST.get("fix", ""))
    return data


def chosen_format(request: HttpRequest) -> Format:
    """The format chosen on the page (``deck_format``), else the default one."""
    code = (request.POST if request.method == "POST" else request.GET).get("deck_format")
    return format_or_default(str(code or "")[:40] or None)


@require_http_methods(["GET", "POST"])
def deck_import(request: HttpRequest) -> HttpResponse:
    fmt = chosen_format(request)
    examples = format_import_examples(fmt)
    too_large = body_too_large(request) if request.method == "POST" else None
    # An oversized body is never read: its form starts empty.
    initial = {"deck_format": fmt.code}
    form = ImportForm(examples=examples, initial=initial) if too_large else ImportForm(
        fixed_post(request), request.FILES or None, examples=examples, initial=initial)
    context: dict[str, Any] = {"form": form, "limits": DEFAULT_LIMITS, "section": "import",
               "examples": examples}
    if request.method != "POST":
        return render(request, "decks/import.html", context)
    found = hit_wait(IMPORT_PER_CLIENT, client_key(request))
    if found:
        context["errors"] = [found[0]]
        return refused(render(request, "decks/import.html", context), found[1])
    if too_large:
        context["errors"] = [too_large]
        return render(request, "decks/import.html", context, status=413)
    try:
        if not form.is_valid():
            return render(request, "decks/import.html", context, status=400)
        imported = draft_import(form.cleaned_data["text"],
                                format_name=form.cleaned_data["format"],
                                deck_format=form.cleaned_data.get("deck_format") or None)
    except DeckImportError as exc:
        context["problems"] = exc.problems
        return render(request, "decks/import.html", context, status=exc.status)
    draft_store(request, NEW, imported.draft)
    messages.success(request, IMPORTED.format(name=imported.draft.display_name,
                                              source=SOURCE_LABELS[imported.source],
                                              size=imported.draft.size))
    for note in imported.notes:
        messages.warning(request, note)
    return redirect(builder_url(NEW))
