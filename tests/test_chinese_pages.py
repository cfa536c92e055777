"""Every main page, rendered for a Chinese browser, is Chinese: no English word is left in its
text or in the attributes people read (titles, labels, placeholders, alt texts).

What may stay: codes and numbers, a few acronyms (API, JSON, CSV, SVG, UTC, AI ...), the
query language's own words (what a user types: ``k:minion``, ``fire``; and anything in
``<code>``), input quoted back to the user (“…”), the names people gave their own data (deck
and user names), and text an element declares English with ``lang="en"`` (a card's English
name shown beside its Chinese one). A string added to a page without a translation fails here."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from cards.query.fields import FIELD_LIST
from decks.drafts import Draft
from decks.services import deck_create
from simulations.services import simulation_request
from tests.fixtures import (  # noqa: F401  (fixtures used by the tests here)
    LEGAL_CARDS,
    UserFactory,
    _empty_cache,
    catalogue,
)
from tests.simulations.helpers import DAWN, DUSK, play_all

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
ALLOWED = {
    # acronyms, formats and product names
    "Cardlab", "API", "OpenAPI", "JSON", "CSV", "SVG", "UTC", "AI", "EN", "ID", "HTTP", "YAML",
    "UTF", "Celery", "vs", "CPU",
    # statistical methods named after their authors (the Wilson interval, McNemar's test,
    # Newcombe's interval, the Bradley–Terry model)
    "Wilson", "McNemar", "Newcombe", "Bradley", "Terry", "Elo",
    # the original rule book's own loanword ("攻击力增益buff")
    "buff",
    # rarity codes (R5.3) and the seats of a replay
    "SR", "SSR", "UR",
    # the data of this test: user and deck names, the test set's starter decks and set code
    "xiaoming", "Dawn", "Dusk", "Test", "TEST",
}
# The query language's own words are codes a user types (field names, aliases, values).
QUERY_WORDS = {word for field in FIELD_LIST
               for word in (field.name, *field.aliases, *field.choices, *field.synonyms)}
ALLOWED |= QUERY_WORDS | {"or", "and", "not", "txt", "json", "csv"}
QUERY_TERM = re.compile(r"\S*[:<>=]\S*")      # k:minion, c<=3, r>=SSR: typed, not read
QUOTED = re.compile(r"“[^”]*”")                # what the user typed, quoted back to them
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SKIPPED_TAGS = {"script", "style", "code", "pre", "kbd", "samp"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class EnglishWords(HTMLParser):
    """Collect the English words a reader of the page would see."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []      # per open element: is its content skipped?
        self.found: list[str] = []

    @property
    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skip = self.skipping or tag in SKIPPED_TAGS or (attrs.get("lang") or "").startswith("en")
        if not skip:
            for name in READ_ATTRIBUTES:
                self._check(attrs.get(name) or "", f"{tag}[{name}]")
        if tag not in VOID:
            self.stack.append(skip)

    def handle_startendtag(self, tag, attrs):
        if not self.skipping:
            for name in READ_ATTRIBUTES:
                self._check(dict(attrs).get(name) or "", f"{tag}[{name}]")

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self.skipping:
            self._check(data, "text")

    def _check(self, text: str, where: str) -> None:
        for word in WORD.findall(QUERY_TERM.sub(" ", QUOTED.sub(" ", text))):
            if word not in ALLOWED and not re.fullmatch(r"[A-Z]-?[A-Z]?\d+|P\d?|[ivx]+", word):
                self.found.append(f"{word!r} in {where}: {text.strip()[:80]!r}")


def english_words(html: str) -> list[str]:
    parser = EnglishWords()
    parser.feed(html)
    return parser.found


@pytest.fixture
def site(client, catalogue):  # noqa: F811  (the imported fixture, requested by name)
    """A signed-in player with a saved deck and a finished simulation with a sample game."""
    user = UserFactory(username="xiaoming")
    deck = deck_create(owner=user, draft=Draft(name="我的火焰卡组", hero="T-H01",
                                               cards=dict(LEGAL_CARDS), visibility="public"))
    run = simulation_request(user=user, kind="match", deck_specs=[DAWN, DUSK], games=6,
                             agent_a="greedy", agent_b="random", seed=3, chunk_size=2)
    play_all(run)
    client.force_login(user)
    return {"deck": deck, "run": run}


def main_pages(site) -> list[str]:
    deck, run = site["deck"], site["run"]
    return [
        "/", "/cards/", "/cards/?view=table", "/cards/?q=k%3Aminion+a%3Afire", "/cards/T-M06/",
        "/cards/help/", "/decks/", "/decks/?mine=true", "/decks/build/", "/decks/import/",
        f"/decks/compare/?a={deck.uid}&b={deck.uid}", deck.get_absolute_url(),
        reverse("decks:versions", args=[deck.uid]), reverse("decks:print", args=[deck.uid]),
        reverse("decks:edit", args=[deck.uid]), "/simulations/", "/simulations/new/",
        run.get_absolute_url(), reverse("simulations:replay", args=[run.uid, 1]) + "?step=3",
        "/rules/", "/simulations/agents/",
    ]


def test_the_main_pages_have_no_english_words_in_chinese(client, site):
    problems = {}
    for url in main_pages(site):
        response = client.get(url, **ZH)
        assert response.status_code == 200, url
        found = english_words(response.content.decode())
        if found:
            problems[url] = found
    assert not problems, "\n".join(f"{url}:\n  " + "\n  ".join(words)
                                   for url, words in problems.items())


def test_the_meta_view_of_a_round_robin_has_no_english_words_in_chinese(client, site):
    """The meta section: its sentences, table, notes, ε form, charts (their text alternatives
    too) and the "Balance this field" button."""
    run = simulation_request(user=site["run"].owner, kind="round_robin",
                             deck_specs=[site["deck"].uid, DAWN, DUSK], games=6,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=6)
    play_all(run)
    for query in ("", "?epsilon=1", "?epsilon=bad"):
        page = client.get(run.get_absolute_url() + query, **ZH).content.decode()
        section = re.search(r'<section[^>]*data-testid="meta">.*?</section>', page, re.S)
        assert section, query
        assert "纳什均衡" in section.group(0) and "平衡这组卡组" in section.group(0)
        assert english_words(section.group(0)) == [], query


def test_the_account_pages_and_the_404_page_are_chinese(client, catalogue):  # noqa: F811
    for url, status in (("/accounts/login/", 200), ("/accounts/signup/", 200),
                        ("/no-such-page/", 404)):
        response = client.get(url, **ZH)
        assert response.status_code == status, url
        assert english_words(response.content.decode()) == [], url


def test_the_check_finds_english_that_is_left(client):
    """The check itself: an untranslated sentence is caught, a code or a lang="en" name is not."""
    assert english_words("<p>Save the deck</p>") != []
    assert english_words('<p><code>k:minion</code> R5.3 T-M01 <span lang="en">Ember Pup</span>'
                         " 卡组</p>") == []
    assert english_words('<input placeholder="Search cards">') != []


def test_the_admin_names_the_projects_apps_and_models_in_chinese(client, db):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("laowang", password="x-Long-pass-41")
    client.force_login(admin)
    page = client.get("/admin/", **ZH).content.decode()
    for name in ("卡牌图鉴", "卡牌系列", "阵营", "种族", "卡组", "赛制", "模拟"):
        assert name in page, name
    assert "Card catalogue" not in page and "Card sets" not in page
