"""The collection import page's form: a pasted list or a file, how to read it, and whether its
counts add to the collection or replace it.

The form only carries the fields, drawn through the site's field groups; what the list holds,
and whether its format is one the importer reads, is ``collection.transfer.collection_import``'s
to say (its problems are listed on the page as the deck import lists them). So the menu and the
radio buttons take what is posted as the page always did: the importer names an unknown format,
and anything but "replace" adds.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from common.forms import RefuseNulForm
from decks.codecs.base import apply_fix

FORMAT_CHOICES = [("auto", gettext_lazy("Detect")), ("text", gettext_lazy("Plain text")),
                  ("csv", gettext_lazy("CSV (spreadsheet)"))]
MODE_CHOICES = [("add", gettext_lazy("add to my collection")),
                ("replace", gettext_lazy("replace my collection (cards not listed are removed)"))]


class CollectionImportForm(RefuseNulForm):
    # The importer names the line and column of any character a list cannot hold.
    nul_named_by_cleaning = ("text",)

    text = forms.CharField(required=False, strip=False, label=gettext_lazy("List"),
                           widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}))
    # An empty file is the importer's to refuse ("nothing to import"), as a pasted blank is.
    file = forms.FileField(required=False, allow_empty_file=True,
                           label=gettext_lazy("…or a file (text or CSV)"),
                           widget=forms.FileInput(
                               attrs={"accept": ".txt,.csv,text/plain,text/csv"}))
    format = forms.CharField(required=False, strip=False, empty_value="auto",
                             label=gettext_lazy("Read as"),
                             widget=forms.Select(choices=FORMAT_CHOICES), initial="auto")
    mode = forms.CharField(required=False, label=gettext_lazy("The counts in the list"),
                           widget=forms.RadioSelect(choices=MODE_CHOICES), initial="add")

    def __init__(self, data: QueryDict | None = None, *args: Any, **kwargs: Any) -> None:
        if data is not None and "fix" in data:
            # A "did you mean" button: its suggestion put on its line of the pasted list, the
            # lines that were right kept as typed, and the list shown so if it is refused again.
            data = data.copy()
            data["text"] = apply_fix(data.get("text", ""), data.get("fix", ""))
        super().__init__(data, *args, **kwargs)
        # No NUL check on the field: the importer names the line and column of any character
        # a list cannot hold, which "Null characters are not allowed" does not.
        self.fields["text"].validators = []

    @property
    def replacing(self) -> bool:
        """Whether the list's counts replace the collection (else they add to it)."""
        return self.cleaned_data.get("mode") == "replace"
