"""Admin for formats (with their ban/limited list) and decks (with entries and versions).

Formats are the designer's data: deck sizes, allowed kinds, copies per rarity, the ban list
and legal sets. Decks are shown for support; their content changes through the site, which
keeps versions, so entries and versions are read-only here.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from common.keyed_forms import KeyedTextsForm, text_boxes, with_text_boxes
from decks.models import Deck, DeckEntry, DeckVersion, Format, FormatCardLimit
from decks.version_notes import version_note


class FormatCardLimitInline(admin.TabularInline[FormatCardLimit, Format]):
    model = FormatCardLimit
    extra = 1
    autocomplete_fields = ["card"]
    verbose_name = _("ban / limited list entry")
    verbose_name_plural = _("ban / limited list (per card name)")


@with_text_boxes("name", other_languages_only=True)
class FormatAdminForm(KeyedTextsForm):
    """A format: its English name is ``name``; its name in the other languages, a box each."""

    class Meta:
        model = Format
        exclude = ["names"]


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin[Format]):
    form = FormatAdminForm
    list_display = ["format_name", "code", "game", "hero_count", "deck_min", "deck_max",
                    "limit_ur", "is_active"]
    list_filter = ["is_active", "game"]
    search_fields = ["code", "name"]
    prepopulated_fields = {"code": ["name"]}
    filter_horizontal = ["legal_sets"]
    inlines = [FormatCardLimitInline]
    fieldsets = [
        (None, {"fields": ["name", *text_boxes("name", other_languages_only=True), "code",
                           "game", "description", "is_active"]}),
        (_("Rules as data (piles)"), {"fields": ["rules"], "description": _(
            "Piles with their sizes and admitted kinds, per-kind counts, fixed compositions "
            "and copy limits, as JSON (docs/formats.md); checked on save.")}),
        (_("Deck shape"), {"fields": ["hero_count", ("deck_min", "deck_max"),
                                   ("minions_allowed", "items_allowed",
                                    "heroes_allowed_in_deck")]}),
        (_("Copies per card name, by rarity"), {"fields": [
            ("limit_n", "limit_r", "limit_sr", "limit_ssr", "limit_ur")]}),
        (_("Legal sets"), {"fields": ["legal_sets"]}),
    ]


    @admin.display(description=_("name"), ordering="name")
    def format_name(self, fmt: Format) -> str:
        """The format's name in the reader's language (its Chinese name on a Chinese page)."""
        return fmt.display_name


class DeckEntryInline(admin.TabularInline[DeckEntry, Deck]):
    model = DeckEntry
    extra = 0
    fields = ("pile", "card", "count")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Deck | None = None) -> bool:
        return False


class DeckVersionInline(admin.TabularInline[DeckVersion, Deck]):
    model = DeckVersion
    extra = 0
    fields = ("number", "name", "hero_code", "format_code", "shown_note", "created_by",
              "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ["-number"]

    @admin.display(description=_("note"))
    def shown_note(self, version: DeckVersion) -> str:
        """The note in the reader's language where the site wrote it ("Created", "Saved"), as
        the deck's history page shows it; a note a person wrote as written."""
        return version_note(version.note)

    def has_add_permission(self, request: HttpRequest, obj: Deck | None = None) -> bool:
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin[Deck]):
    list_display = ["name", "owner", "hero", "format", "visibility", "updated_at"]
    list_filter = ["visibility", "format"]
    search_fields = ["name", "uid", "owner__username"]
    list_select_related = ["owner", "hero", "format"]
    readonly_fields = ["uid", "owner", "hero", "format", "forked_from", "created_at",
                       "updated_at"]
    fields = ["uid", "name", "description", "owner", "hero", "format", "visibility",
              "forked_from", "created_at", "updated_at"]
    inlines = [DeckEntryInline, DeckVersionInline]
