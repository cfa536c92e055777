"""The deck builder: one page, a card panel searched with the catalogue's query language and a
deck panel that re-validates on every change (htmx; every action also works as a plain form
post without JavaScript).

The builder edits a draft in the session (``decks.session``): ``new`` for a deck not saved yet
(anyone may build, validate and download it), or a saved deck's uid (its owner only; another
user's private deck is a 404 here as everywhere). Saving needs an account and keeps a version.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from accounts.users import request_user
from cards.game_words import game_word_lazy
from cards.generation import catalogue_generation
from cards.models import Card
from cards.ownership import ownership_stamp
from common.forms import RefuseNulForm
from common.htmx import HtmxHttpRequest
from common.language import in_english
from common.page_cache import cached_page
from decks.adapters import format_to_rules
from decks.builder.panel import card_panel, dom_id, format_game
from decks.codecs import CODECS
from decks.drafts import DEFAULT_NAME, Draft
from decks.models import Deck, Format, Visibility
from decks.selectors import (
    NO_DECK,
    deck_get,
    deck_view,
    draft_from_deck,
    format_get,
    format_or_default,
    formats_active,
)
from decks.services import DeckInputError, deck_create, deck_save
from decks.session import NEW, draft_drop, draft_load, draft_revision, draft_store
from decks.transfer.services import draft_export
from rules.decks import legality
from rules.decks.piles import MAIN_PILE
from rules.decks.stats import sample_hand

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

UNKNOWN_CARD = gettext_lazy("There is no card {code!r}; search the card panel and use its buttons.")
NOT_A_HERO = gettext_lazy("{name} is a {kind}, not a hero: pick one of the heroes.")
BAD_DELTA = gettext_lazy("A change is a whole number of copies, like 1 or -1.")
SIGN_IN_TO_SAVE = gettext_lazy(
    "Log in or sign up to save this deck; it stays in the builder meanwhile."
)
SAVED = gettext_lazy("Saved “{name}” (version {number}).")
NOTHING_CHANGED = gettext_lazy("Nothing changed since the last save.")
VISIBILITY_SAVED = gettext_lazy("Saved “{name}”: it is now {visibility}.")
SEARCH_EXAMPLES: list[tuple[str, StrOrPromise]] = [("k:hero", game_word_lazy("kinds", "hero")),
                   ("k:minion", game_word_lazy("kinds", "minion")),
                   ("k:item", game_word_lazy("kinds", "item")),
                   ("c<=2", gettext_lazy("Cost ≤ 2")),
                   ("a:fire", game_word_lazy("attribute", "fire")),
                   ("a:water", game_word_lazy("attribute", "water")),
                   ("a:grass", game_word_lazy("attribute", "grass")),
                   ("a:light", game_word_lazy("attribute", "light")),
                   ("a:dark", game_word_lazy("attribute", "dark")), ("r:UR", "UR")]
UNKNOWN_DOWNLOAD = gettext_lazy("Unknown download format {name!r}.")
DISCARDED = gettext_lazy("Unsaved changes discarded.")


def _target(request: HtmxHttpRequest, key: str) -> tuple[Draft, Deck | None]:
    """The draft being built and, when editing a saved deck, the deck (owner only)."""
    if key == NEW:
        return draft_load(request, NEW) or Draft(), None
    try:
        deck = deck_get(uid=key, user=request.user, edit=True)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None
    return draft_load(request, key) or draft_from_deck(deck), deck


def builder_url(key: str) -> str:
    return reverse("decks:build") if key == NEW else reverse("decks:edit", args=[key])


class MetaForm(RefuseNulForm):
    name = forms.CharField(max_length=100, required=False,
                           widget=forms.TextInput(attrs={"placeholder": DEFAULT_NAME}),
                           label=gettext_lazy("Name"))
    description = forms.CharField(max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}),
                                  label=gettext_lazy("Description"))
    format = forms.ChoiceField(choices=(), label=gettext_lazy("Format"))
    visibility = forms.ChoiceField(choices=Visibility.choices, label=gettext_lazy("Visibility"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["format"]).choices = [
            (f.code, f.display_name) for f in formats_active()]


def _meta_form(draft: Draft, data: QueryDict | None = None) -> MetaForm:
    return MetaForm(data, initial={"name": draft.name, "description": draft.description,
                                   "format": draft.format_code,
                                   "visibility": draft.visibility})


def panel_context(request: HtmxHttpRequest, key: str, draft: Draft, deck: Deck | None,
                  form: MetaForm | None = None) -> dict[str, Any]:
    view = deck_view(draft)
    hero_pile = view.rules.hero_pile if view.rules is not None else None
    heroes = Card.objects.filter(kind="hero", engine=True)
    if view.rules is not None and view.rules.piles:
        heroes = Card.objects.filter(kind__in=hero_pile.kinds if hero_pile else ())
        if view.format.game_id is not None:
            heroes = heroes.filter(card_set__game=view.format.game_id)
    sections = [(section, [(card, code, n, dom_id(code)) for card, code, n in section.rows])
                for section in view.pile_sections()]
    return {
        "key": key, "draft": draft, "deck": deck, "view": view, "sections": sections,
        "show_hero": not sections or hero_pile is not None,
        "hero_label": view.hero_pile_name,
        "entries": [(card, code, n, dom_id(code)) for card, code, n in view.entries()],
        "heroes": heroes.order_by(in_english()).only("code", "names", "attribute"),
        "meta_form": form or _meta_form(draft),
        "dirty": deck is not None and draft != draft_from_deck(deck),
        "codecs": CODECS, "builder_url": builder_url(key),
        "rev": draft_revision(request, key),
    }


def draft_format(draft: Draft) -> Format:
    """The draft's format row (the default format if it has gone)."""
    return format_or_default(draft.format_code)


def search_examples(fmt: Format) -> list[tuple[str, StrOrPromise]]:
    """The quick searches over the card panel: this game's, or one per kind another game
    declares (``k:site`` "Site"), named in the page's language."""
    game = fmt.game
    if game is None or game.engine:
        return SEARCH_EXAMPLES
    return [(f"k:{kind.code}", kind.display_name) for kind in game.kinds.all()]


@require_safe
def builder(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    draft, deck = _target(request, key)
    # The page is the draft (in the session), the deck it edits, and the catalogue.
    owned = ownership_stamp(request.user) if request.GET.get("owned") else None
    return cached_page(request, lambda: _builder(request, key, draft, deck), stamp=(
        "builder", key, repr(draft), deck.updated_at if deck else None, catalogue_generation(),
        owned, draft_revision(request, key)))


def _builder(request: HtmxHttpRequest, key: str, draft: Draft, deck: Deck | None) -> HttpResponse:
    context = panel_context(request, key, draft, deck)
    fmt = context["view"].format
    context.update(card_panel(request, draft, fmt), examples=search_examples(fmt),
                   section="build")
    status = 400 if context.get("query_error") else 200
    return render(request, "decks/builder.html", context, status=status)


@require_safe
def builder_cards(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    """The card panel's results (htmx), 400 with the query's problem when it is malformed."""
    draft, _ = _target(request, key)
    context = {"key": key, **card_panel(request, draft, draft_format(draft))}
    response = render(request, "decks/_card_results.html", context,
                      status=400 if context.get("query_error") else 200)
    if request.headers.get("HX-Trigger") != "card-results":   # a search, not a count refresh
        response["HX-Push-Url"] = context["panel"].page_url(builder_url(key))
    return response


def _respond(request: HtmxHttpRequest, key: str, draft: Draft, deck: Deck | None, *,
             changed: bool = False, error: StrOrPromise = "", form: MetaForm | None = None
             ) -> HttpResponse:
    """The deck panel (htmx), or back to the builder page. A change triggers "deck-changed",
    on which the card panel refreshes its counts and hero marks."""
    status = 400 if error or (form is not None and form.errors) else 200
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(builder_url(key))
    context = panel_context(request, key, draft, deck, form=form)
    context.update(error=error)
    response = render(request, "decks/_deck_panel.html", context, status=status)
    if changed:
        response["HX-Trigger"] = "deck-changed"
    return response


def _card_or_none(code: str) -> Card | None:
    if "\x00" in code:        # no card code holds one, and PostgreSQL refuses it in a query
        return None
    return Card.objects.filter(code=code).only("code", "kind", "names").first()


@require_POST
def builder_card(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    """Add (``delta`` 1) or remove (``delta`` -1, or ``set`` an exact count) copies of a card;
    a hero card goes to the hero slot."""
    draft, deck = _target(request, key)
    code = request.POST.get("code", "")[:32]
    card = _card_or_none(code)
    if card is None:
        return _respond(request, key, draft, deck, error=UNKNOWN_CARD.format(code=code))
    rules = format_rules(draft)
    pile = request.POST.get("pile", "")[:40]
    if rules.piles and pile not in {p.code for p in rules.piles}:
        pile = _pile_for(rules, draft, card, removing=request.POST.get("delta", "").startswith("-"))
    elif not rules.piles:
        pile = MAIN_PILE
    hero_pile = rules.hero_pile
    if pile and hero_pile is not None and pile == hero_pile.code:
        if request.POST.get("delta", "1") == "-1" or request.POST.get("set") == "0":
            draft = replace(draft, hero=None) if draft.hero == code else draft
        else:
            draft = replace(draft, hero=code)
        draft_store(request, key, draft)
        return _respond(request, key, draft, deck, changed=True)
    main = rules.main_pile.code if rules.main_pile else MAIN_PILE
    pile = MAIN_PILE if pile in ("", main) else pile
    try:
        delta = int(request.POST.get("delta", "1"))
        if "set" in request.POST:
            delta = int(request.POST["set"]) - draft.pile(pile).get(code, 0)
    except ValueError:
        return _respond(request, key, draft, deck, error=BAD_DELTA)
    if not rules.piles and card.kind == "hero" and delta > 0 and code not in draft.cards:
        draft = replace(draft, hero=code)
    else:
        draft = draft.with_card(code, max(-999, min(999, delta)), pile)
    draft_store(request, key, draft)
    return _respond(request, key, draft, deck, changed=True)


def format_rules(draft: Draft) -> legality.Format:
    """The draft's format as the engine reads it (the default format if it has gone)."""
    return format_to_rules(format_or_default(draft.format_code))


def _pile_for(rules: legality.Format, draft: Draft, card: Card, *, removing: bool) -> str:
    """Where a card goes in a format in piles: taking one away, the pile that holds it;
    adding, the hero pile when it admits the card, else the first pile that does."""
    if removing:
        if draft.hero == card.code and rules.hero_pile is not None:
            return rules.hero_pile.code
        main = rules.main_pile.code if rules.main_pile else MAIN_PILE
        for code, counts in [(main, draft.cards), *draft.piles.items()]:
            if card.code in counts:
                return code
    for pile in sorted(rules.piles, key=lambda p: not p.hero):
        if pile.admits(card):
            return pile.code
    return rules.main_pile.code if rules.main_pile else MAIN_PILE


@require_POST
def builder_hero(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    draft, deck = _target(request, key)
    code = request.POST.get("code", "")[:32]
    if code:
        card = _card_or_none(code)
        if card is None:
            return _respond(request, key, draft, deck, error=UNKNOWN_CARD.format(code=code))
        hero_pile = format_rules(draft).hero_pile
        admitted = hero_pile.admits(card) if hero_pile is not None else card.kind == "hero"
        if not admitted:
            return _respond(request, key, draft, deck,
                            error=NOT_A_HERO.format(name=card.display_name,
                                                             kind=card.get_kind_display()))
    draft = replace(draft, hero=code or None)
    draft_store(request, key, draft)
    return _respond(request, key, draft, deck, changed=True)


@require_POST
def builder_meta(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    draft, deck = _target(request, key)
    form = _meta_form(draft, request.POST)
    if not form.is_valid():
        return _respond(request, key, draft, deck, form=form,
                        error="Check the highlighted fields.")
    data = form.cleaned_data
    new_game = format_game(draft_format(draft)) != format_game(format_get(data["format"]))
    draft = replace(draft, name=" ".join(data["name"].split()), description=data["description"],
                    format_code=data["format"], visibility=data["visibility"])
    draft_store(request, key, draft)
    if new_game:
        # Another game: the card panel, its quick searches and the hero picker all change,
        # and a search written for the old game's words would find nothing.
        return _redirect(request, builder_url(key))
    return _respond(request, key, draft, deck, changed=True)


@require_POST
def builder_clear(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    draft, deck = _target(request, key)
    draft = replace(draft, hero=None, cards={})
    draft_store(request, key, draft)
    return _respond(request, key, draft, deck, changed=True)


@require_POST
def builder_discard(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """Forget unsaved edits of a saved deck (or empty the new-deck builder)."""
    _target(request, key)
    draft_drop(request, key)
    messages.info(request, DISCARDED)
    return _redirect(request, builder_url(key))


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_POST
def builder_save(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    draft, deck = _target(request, key)
    if not request.user.is_authenticated:
        messages.info(request, SIGN_IN_TO_SAVE)
        return _redirect(request, f"{reverse('accounts:login')}?next={builder_url(key)}")
    visibility = deck.visibility if deck is not None else ""
    try:
        if deck is None:
            deck = deck_create(owner=request_user(request), draft=draft)
            number: int | None = 1
        else:
            version = deck_save(deck=deck, by=request_user(request), draft=draft)
            number = version.number if version else None
            deck.refresh_from_db()     # the name it was saved under, not the one it had
    except DeckInputError as exc:
        return _respond(request, key, draft, deck, error=str(exc))
    draft_drop(request, key)
    if number is not None:
        messages.success(request, SAVED.format(name=deck.name, number=number))
    elif deck.visibility != visibility:    # saved, but not a version: it is not the content
        messages.success(request, VISIBILITY_SAVED.format(
            name=deck.name, visibility=deck.get_visibility_display()))
    else:
        messages.info(request, NOTHING_CHANGED)
    return _redirect(request, deck.get_absolute_url())


@require_safe
def builder_hand(request: HtmxHttpRequest, key: str = NEW) -> HttpResponse:
    """A sample opening hand of 10 from the draft; ``seed`` repeats one."""
    draft, _ = _target(request, key)
    try:
        seed = int(request.GET.get("seed", ""))
    except ValueError:
        seed = random.SystemRandom().randrange(1, 10**9)
    codes = sample_hand(draft.cards, seed=seed)
    cards = {c.code: c for c in Card.objects.filter(code__in=set(codes))}
    return render(request, "decks/_hand.html", {
        "hand": [cards.get(code) for code in codes], "seed": seed, "key": key,
        "size": draft.size})


def download_response(draft: Draft, format_name: str) -> HttpResponse:
    if format_name not in CODECS:
        raise Http404(UNKNOWN_DOWNLOAD.format(name=format_name[:20]))
    export = draft_export(draft, format_name)
    response = HttpResponse(export.content, content_type=export.media_type)
    response["Content-Disposition"] = content_disposition_header(True, export.filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def builder_download(request: HtmxHttpRequest, format_name: str, key: str = NEW) -> HttpResponse:
    draft, _ = _target(request, key)
    return download_response(draft, format_name)

