"""A model form that edits a keyed text field (``names``, ``descriptions``: ``{language code:
text}``) as one text box per language of the site, so the admin edits every language the site
speaks and a third language in ``LANGUAGES`` gets its box with no change here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from common.language import SOURCE_LANGUAGE, data_languages, keyed_field, language_name

LABELS = {"name": gettext_lazy("Name ({language})"),
          "description": gettext_lazy("Description ({language})")}


def text_box(field: str, lang: str) -> str:
    """The form field that edits ``field`` in ``lang`` (``name_en``, ``name_zh-hans``)."""
    return f"{field}_{lang}"


def _box(field: str, lang: str) -> forms.CharField:
    # A row is named in English at least (the source language); its description may be empty.
    required = field == "name" and lang == SOURCE_LANGUAGE
    widget = forms.Textarea(attrs={"rows": 3}) if field == "description" else None
    # Lazy: the boxes are made once, at import; their labels are read in each reader's language.
    label = format_lazy(LABELS[field], language=lazy(language_name, str)(lang))
    return forms.CharField(label=label, required=required,
                           widget=widget, strip=True)


class KeyedTextsForm(forms.ModelForm[Any]):
    """Edits a model's keyed fields as a box per language; ``with_text_boxes`` declares the
    boxes on a subclass (``boxes``: box name → the field it stores and its language)."""

    boxes: ClassVar[dict[str, tuple[str, str]]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for box, (field, lang) in self.boxes.items():
            texts = getattr(self.instance, keyed_field(field), None) or {}
            self.initial.setdefault(box, texts.get(lang, ""))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        keyed: dict[str, dict[str, str]] = {}
        for box, (field, lang) in self.boxes.items():
            # Keys this form has no box for (a language the site no longer lists) are kept.
            texts = keyed.setdefault(field, dict(
                getattr(self.instance, keyed_field(field), None) or {}))
            text = (data.get(box) or "").strip()
            if text:
                texts[lang] = text
            else:
                texts.pop(lang, None)
        for field, texts in keyed.items():
            setattr(self.instance, keyed_field(field), texts)
        return data


FormClass = TypeVar("FormClass", bound=type[KeyedTextsForm])


def with_text_boxes(*keyed: str, other_languages_only: bool = False
                    ) -> Callable[[FormClass], FormClass]:
    """Declare a box per language of each of ``keyed`` on a ``KeyedTextsForm`` (the admin's
    ``fields`` and ``fieldsets`` may name declared fields only, and the site's languages are
    known once settings are). ``other_languages_only``: the row keeps its English in a
    column of its own (a format's ``name``)."""
    def declare(form: FormClass) -> FormClass:
        boxes = {text_box(field, lang): (field, lang) for field in keyed
                 for lang in _languages(other_languages_only)}
        fields = {box: _box(field, lang) for box, (field, lang) in boxes.items()}
        form.base_fields = {**fields, **form.base_fields}
        form.declared_fields = {**fields, **form.declared_fields}
        form.boxes = boxes
        return form
    return declare


def _languages(other_languages_only: bool) -> tuple[str, ...]:
    languages = data_languages()
    return languages[1:] if other_languages_only else languages


def text_boxes(*fields: str, other_languages_only: bool = False) -> list[str]:
    """Every text box of ``fields``, for an admin's ``fields`` or ``fieldsets``."""
    return [text_box(field, lang) for field in fields
            for lang in _languages(other_languages_only)]


def searched_names(path: str = "", field: str = "name") -> list[str]:
    """An admin's ``search_fields`` for a row's names (or another keyed ``field``: a card's
    rules text) in every language (``path``: the relation, ``"card__"``): each language's
    text, not the stored JSON (whose escapes a search would not find)."""
    return [f"{path}{keyed_field(field)}__{lang}" for lang in data_languages()]
