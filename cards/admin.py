"""The admin as a designer's tool: find cards fast, edit abilities as JSON checked by the
engine's validator (its message lands on the field), see the generated rules text and image,
and export or import whole card sets in the shipped file's YAML format."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext

from cards.art import card_art
from cards.card_stats import COUNT_FIELDS
from cards.declared_words import declared_words_of, kind_choices, rarity_choices
from cards.game_words import game_word_lazy, say
from cards.models import (
    Card,
    CardKind,
    CardSet,
    CardStatsSlice,
    Faction,
    Game,
    Kind,
    NamedInLanguages,
    Race,
    Rarity,
    RarityTier,
    keyword_choices,
)
from cards.services import card_save, card_set_export, card_set_import, card_tag_renamed
from common import converters  # noqa: F401  (registers <dbint:…>, numbers a database can hold)
from common.keyed_forms import KeyedTextsForm, searched_names, text_boxes, with_text_boxes
from common.language import (
    SOURCE_LANGUAGE,
    html_lang,
    language_own_name,
    reader_language,
    rules_texts,
)
from rules.decks.cardset import CardSetError

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

MSG_EXPORT_ONE = gettext_lazy("Choose exactly one card set to export.")
MSG_NOT_UTF8 = gettext_lazy("The file is not UTF-8 text.")
MSG_NOTHING = gettext_lazy("Upload a file or paste the YAML text.")
DOWNLOAD_YAML = gettext_lazy("Download YAML")


class PrettyJSONField(forms.JSONField):
    """JSON in a monospace textarea, indented so nested abilities are readable."""

    widget = forms.Textarea(attrs={"rows": 16, "cols": 90, "class": "vLargeTextField",
                                   "style": "font-family: monospace; font-size: 13px;",
                                   "spellcheck": "false"})

    def prepare_value(self, value: object) -> str:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, indent=2, ensure_ascii=False)


@with_text_boxes("name")
class CardAdminForm(KeyedTextsForm):
    abilities = PrettyJSONField(required=False, label=game_word_lazy("field", "abilities",
                                                                      prose=True))
    keywords = forms.MultipleChoiceField(label=game_word_lazy("field", "keywords", prose=True),
                                         choices=keyword_choices,
                                         required=False,
                                         widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = Card
        fields = ["code", "card_set", "position", "kind", "rarity", "cost", "attack", "hp",
                  "attribute", "faction", "race", "keywords", "abilities"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["abilities"].help_text = format_html(
            gettext("A JSON list of abilities, e.g. {example}. Saving runs the engine's "
                    "validator; see the {link}."),
            example=mark_safe('<code>[{"trigger": "awaken", "effects": [{"do": "draw", '
                              '"count": 1}]}]</code>'),
            link=format_html('<a href="{}" target="_blank">{}</a>', reverse("cards:vocabulary"),
                             gettext("vocabulary reference")))
        # The kinds and rarities of the card's game: this game's for its cards, the declared
        # ones for another game's card, every game's while a new card has no set yet.
        card_set = self.instance.card_set if self.instance.card_set_id else None
        game = card_set.game if card_set else None
        if card_set is None:
            kinds, rarities = kind_choices(), rarity_choices()
        elif game is None or game.engine:
            kinds, rarities = list(Kind.choices), list(Rarity.choices)
        else:
            lang = reader_language()
            kinds = [(t.code, t.name(lang)) for t in declared_words_of(CardKind, game)]
            rarities = [(t.code, t.name(lang)) for t in declared_words_of(RarityTier, game)]
        # Both are model fields with choices: the form made them choice fields.
        cast(forms.ChoiceField, self.fields["kind"]).choices = kinds
        cast(forms.ChoiceField, self.fields["rarity"]).choices = [("", "---------"), *rarities]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        card_set = data.get("card_set")
        if card_set is not None:
            # Another game's card: its game's words, not the engine's shapes (as loading does).
            self.instance.engine = card_set.game is None or card_set.game.engine
        return data

    def clean_abilities(self) -> list[Any]:
        value = self.cleaned_data.get("abilities")
        return [] if value is None else value


class KeywordListFilter(admin.SimpleListFilter):
    title = gettext_lazy("keyword")
    parameter_name = "keyword"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Card]
                ) -> list[tuple[str, str]]:
        return keyword_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet[Card]) -> QuerySet[Card]:
        value = self.value()
        return queryset.filter(keyword_tags__contains=f"|{value}|") if value else queryset


class NamesColumns:
    """An admin list's name columns: the English name (its sort key) and the names in the
    site's other languages."""

    @admin.display(description=gettext_lazy("English name"), ordering="names__en")
    def english_name(self, row: NamedInLanguages) -> str:
        return format_html('<span lang="en">{}</span>', row.english_name)   # on any page

    @admin.display(description=gettext_lazy("other names"))
    def other_names(self, row: NamedInLanguages) -> str:
        """Each name in another language, marked with its language."""
        return format_html_join(" · ", '<span lang="{}">{}</span>',
                                ((lang, text) for lang, text in row.names.items()
                                 if lang != SOURCE_LANGUAGE and text))


STATS_FIELDS = ["agent", "ruleset_key", "ruleset", "card_data_version", *COUNT_FIELDS,
                "updated_at"]


class CardStatsInline(admin.TabularInline[CardStatsSlice, Card]):
    model = CardStatsSlice
    can_delete = False
    extra = 0
    max_num = 0
    fields = ("agent_code", "ruleset_code", "version_code", "games_drawn", "games_played_in",
              "wins_when_played", "updated_at")
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("simulated stats (written by simulations)")

    # Identifiers, shown as such (in any language): the agent's, the ruleset's and the card
    # data's keys.
    @admin.display(description=gettext_lazy("agent"))
    def agent_code(self, stats: CardStatsSlice) -> str:
        return format_html("<code>{}</code>", stats.agent or "—")

    @admin.display(description=gettext_lazy("ruleset key"))
    def ruleset_code(self, stats: CardStatsSlice) -> str:
        return format_html("<code>{}</code>", stats.ruleset_key or "—")

    @admin.display(description=gettext_lazy("card data version"))
    def version_code(self, stats: CardStatsSlice) -> str:
        return format_html("<code>{}</code>", stats.card_data_version[:12] or "—")

    def get_queryset(self, request: HttpRequest) -> QuerySet[CardStatsSlice]:
        return super().get_queryset(request).select_related("card")   # rows titled by name

    def has_add_permission(self, request: HttpRequest, obj: Card | None = None) -> bool:
        return False   # the simulation service writes these, not designers


@admin.register(Card)
class CardAdmin(NamesColumns, admin.ModelAdmin[Card]):
    form = CardAdminForm
    list_display = ["code", "english_name", "other_names", "kind", "attribute", "rarity",
                    "cost", "attack", "hp", "faction", "race", "card_set"]
    list_display_links = ["code", "english_name"]
    list_filter = ["kind", "attribute", "rarity", KeywordListFilter, "card_set", "faction",
                   "race"]
    search_fields = ["code", *searched_names(), *searched_names(field="text")]
    list_select_related = ["faction", "race", "card_set"]
    list_per_page = 100
    ordering = ["code"]
    readonly_fields = ["rules_text", "image_preview", "updated_at"]
    inlines = [CardStatsInline]
    fieldsets = [
        (None, {"fields": ["code", "card_set", "position", "kind", "rarity"]}),
        (gettext_lazy("Names"), {"fields": tuple(text_boxes("name"))}),
        (gettext_lazy("Numbers and attribute (R1.4: heroes have HP; minions cost and attack; "
                      "items cost)"), {"fields": ["cost", "attack", "hp", "attribute"]}),
        (gettext_lazy("Tags"), {"fields": ["faction", "race", "keywords"]}),
        (game_word_lazy("field", "abilities"), {"fields": ["abilities", "rules_text"]}),
        (gettext_lazy("Card image"), {"fields": ["image_preview", "updated_at"]}),
    ]


    @admin.display(description=gettext_lazy("rules text, generated"))
    def rules_text(self, card: Card) -> str:
        """The generated rules text in every language, the reader's first, each headed by its
        language's own name."""
        return format_html_join(
            "", "<div lang='{}'><strong>{}</strong><div style='white-space: pre-line'>{}</div>"
                "</div>",
            ((html_lang(lang), language_own_name(lang), text or "—")
             for lang, text in rules_texts(card)))

    @admin.display(description=gettext_lazy("image"))
    def image_preview(self, card: Card) -> str:
        if not card.pk:
            return gettext("Saved cards show their generated image here.")
        svg = render_to_string("cards/card.svg", {"a": card_art(card, reader_language())})
        return format_html("<div style='width: 220px'>{}</div>", mark_safe(svg))

    def save_model(self, request: HttpRequest, obj: Card, form: forms.ModelForm[Card],
                   change: bool) -> None:
        card_save(card=obj)


class _CardCount(TypedDict):
    n_cards: int   # CardSetAdmin.get_queryset counts each set's cards


@with_text_boxes("name")
class CardSetAdminForm(KeyedTextsForm):
    class Meta:
        model = CardSet
        fields = ["code", "game", "sample", "starter_decks"]


@admin.register(CardSet)
class CardSetAdmin(NamesColumns, admin.ModelAdmin[CardSet]):
    form = CardSetAdminForm
    list_display = ["code", "english_name", "other_names", "game", "sample",
                    "card_count", "export_link", "updated_at"]
    list_filter = ["game", "sample"]
    search_fields = ["code", *searched_names()]
    readonly_fields = ["created_at", "updated_at"]
    actions = ["export_yaml"]
    change_list_template = "admin/cards/cardset/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[CardSet]:
        from django.db.models import Count

        return super().get_queryset(request).annotate(n_cards=Count("cards"))

    @admin.display(description=gettext_lazy("cards"), ordering="n_cards")
    def card_count(self, card_set: WithAnnotations[CardSet, _CardCount]) -> int:
        return card_set.n_cards

    @admin.display(description=gettext_lazy("export"))
    def export_link(self, card_set: CardSet) -> str:
        url = reverse("admin:cards_cardset_export", args=[card_set.pk])
        return format_html("<a href='{}'>{}</a>", url, DOWNLOAD_YAML)

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path("import/", self.admin_site.admin_view(self.import_view),
                 name="cards_cardset_import"),
            path("<dbint:pk>/export/", self.admin_site.admin_view(self.export_view),
                 name="cards_cardset_export"),
        ]
        return extra + super().get_urls()

    @admin.action(description=gettext_lazy("Export the selected card set as YAML"))
    def export_yaml(self, request: HttpRequest, queryset: QuerySet[CardSet]
                    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, MSG_EXPORT_ONE, messages.WARNING)
            return None
        return self._download(queryset.get())

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if not self.has_view_permission(request):
            return HttpResponseRedirect(reverse("admin:index"))
        return self._download(get_object_or_404(CardSet, pk=pk))

    def _download(self, card_set: CardSet) -> HttpResponse:
        response = HttpResponse(card_set_export(card_set=card_set),
                                content_type="application/yaml; charset=utf-8")
        filename = f"{card_set.code.lower()}.yaml"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            return HttpResponseRedirect(reverse("admin:index"))
        form = CardSetImportForm(request.POST or None, request.FILES or None)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": gettext("Import a card set"), "form": form, "report": None,
                   "problems": []}
        if request.method == "POST" and form.is_valid():
            dry_run = "preview" in request.POST
            try:
                report = card_set_import(source=form.cleaned_data["text"], dry_run=dry_run)
            except CardSetError as exc:
                context["problems"] = [say(problem) for problem in exc.problems]
            else:
                if not dry_run:
                    for line in report.lines():
                        self.message_user(request, line, messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:cards_cardset_changelist"))
                context["report"] = report
            # Keep the text in the box, so "Import" after "Preview" needs no second upload.
            context["form"] = CardSetImportForm(initial={"yaml_text": form.cleaned_data["text"]})
        return TemplateResponse(request, "admin/cards/cardset/import.html", context)


class CardSetImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File"), required=False,
                           help_text=gettext_lazy("A .yaml file in the shipped set format."))
    yaml_text = forms.CharField(label=gettext_lazy("or paste the YAML"), required=False,
                                widget=forms.Textarea(attrs={"rows": 12, "cols": 90,
                                                             "style": "font-family: monospace"}))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        text = data.get("yaml_text") or ""
        if upload:
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(MSG_NOT_UTF8) from None
        if not text.strip():
            raise forms.ValidationError(MSG_NOTHING)
        data["text"] = text
        return data


@with_text_boxes("name")
class NamedAdminForm(KeyedTextsForm):
    """A faction's or race's code and names."""

    class Meta:
        fields = ["code"]


class _NamedAdmin(NamesColumns, admin.ModelAdmin[Faction | Race]):
    form = NamedAdminForm
    list_display = ["code", "english_name", "other_names"]
    search_fields = ["code", *searched_names()]

    def save_model(self, request: HttpRequest, obj: Faction | Race,
                   form: forms.ModelForm[Faction | Race], change: bool) -> None:
        super().save_model(request, obj, form, change)
        changed = card_tag_renamed(tag=obj)   # names appear in rules text and on images
        if changed:
            self.message_user(request, ngettext(
                "Rules text of {count} card regenerated.",
                "Rules text of {count} cards regenerated.", changed).format(count=changed))


@admin.register(Faction)
class FactionAdmin(_NamedAdmin):
    pass


@admin.register(Race)
class RaceAdmin(_NamedAdmin):
    pass


@admin.register(CardStatsSlice)
class CardStatsAdmin(admin.ModelAdmin[CardStatsSlice]):
    list_display = ["card", "agent", "ruleset_key", "card_data_version", "games_drawn",
                    "games_played_in", "wins_when_played", "updated_at"]
    list_filter = ["agent", "ruleset_key"]
    list_select_related = ["card"]
    search_fields = ["card__code", *searched_names("card__")]
    readonly_fields = ["card", *STATS_FIELDS, "moments"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False




@with_text_boxes("name")
class GameTermForm(KeyedTextsForm):
    class Meta:
        fields = ["order", "code"]


@with_text_boxes("name", "description")
class GameForm(KeyedTextsForm):
    class Meta:
        model = Game
        fields = ["code", "engine"]


class CardKindInline(admin.TabularInline[CardKind, Game]):
    model = CardKind
    form = GameTermForm
    extra = 1
    fields = ["order", "code", *text_boxes("name")]


class RarityTierInline(admin.TabularInline[RarityTier, Game]):
    model = RarityTier
    form = GameTermForm
    extra = 1
    fields = ["order", "code", *text_boxes("name")]


@admin.register(Game)
class GameAdmin(NamesColumns, admin.ModelAdmin[Game]):
    """A game of the catalogue with its card kinds and rarity tiers (names in both languages,
    in order). ``python manage.py load_formats FILE`` loads the same from YAML."""

    form = GameForm
    fields = [*text_boxes("name"), "code", "engine", *text_boxes("description")]
    list_display = ["english_name", "other_names", "code", "engine"]
    search_fields = ["code", *searched_names()]
    inlines = [CardKindInline, RarityTierInline]
