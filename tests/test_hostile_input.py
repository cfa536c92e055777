"""What an attacker probing the site sends gets a 4xx that says what to fix, never a 500:
bodies nested thousands of levels deep, numbers in addresses too large for any column, methods
the site does not serve, over-long query strings. (Run on PostgreSQL too: several of these
failed only there.)"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.utils import translation
from rest_framework.test import APIClient

from balance.models import BalanceJob, JobKind
from common.converters import DB_INT_MAX, DatabaseIntConverter
from common.parsers import MAX_DEPTH, TOO_DEEP
from config.middleware import MAX_QUERY_STRING
from decks.drafts import Draft
from decks.services import deck_create
from simulations.services import simulation_request
from tests.fixtures import LEGAL_CARDS

pytestmark = pytest.mark.django_db
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN"}


def _lists(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _objects(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


@pytest.fixture
def public_deck(alice, catalogue):
    return deck_create(owner=alice, draft=Draft(name="Open Deck", hero="T-H01",
                                                cards=dict(LEGAL_CARDS), visibility="public"))


@pytest.fixture
def public_run(alice, public_deck):
    return simulation_request(user=alice, deck_specs=[public_deck.uid, "starter:Dusk Test"],
                              kind="match", games=4, agent_a="random", agent_b="random",
                              seed=1, is_public=True)


# --- 1. bodies nested deeper than any field -------------------------------------------------

TOO_DEEP_EN = str(TOO_DEEP).format(limit=MAX_DEPTH)


@pytest.mark.parametrize("body", [_lists(1000), _lists(900), _lists(MAX_DEPTH + 1),
                                  _objects(5000), _lists(30_000)],
                         ids=["lists-1000", "lists-900", "lists-33", "objects-5000",
                              "lists-30000"])
@pytest.mark.parametrize("path", ["/api/decks/validate/", "/api/decks/import/"])
def test_a_deeply_nested_body_is_a_400_without_an_account(client, catalogue, path, body):
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": TOO_DEEP_EN}


@pytest.mark.parametrize("method, path", [
    ("post", "/api/decks/"), ("patch", "deck"), ("put", "deck"), ("post", "/api/simulations/"),
    ("post", "/api/simulations/sweeps/"), ("post", "/api/balance-searches/"),
    ("post", "/api/deck-tunings/"), ("post", "run-what-if")])
@pytest.mark.parametrize("body", [_lists(1000), _objects(5000)], ids=["lists", "objects"])
def test_a_deeply_nested_body_is_a_400_on_every_endpoint(alice, public_run, method, path, body):
    path = {"deck": f"/api/decks/{public_run.deck.uid}/",
            "run-what-if": f"/api/simulations/{public_run.uid}/what-if/"}.get(path, path)
    api = APIClient()
    api.force_authenticate(alice)
    response = getattr(api, method)(path, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": TOO_DEEP_EN}


def test_the_depth_message_is_in_the_clients_language(client, catalogue):
    response = client.post("/api/decks/validate/", _lists(3000),
                           content_type="application/json", **ZH)
    assert response.status_code == 400
    assert "层" in response.json()["detail"] and str(MAX_DEPTH) in response.json()["detail"]


def test_a_body_as_deep_as_the_limit_reaches_the_fields(client, catalogue):
    body = b'{"hero": "T-H01", "cards": ' + _lists(MAX_DEPTH - 1) + b"}"
    response = client.post("/api/decks/validate/", body, content_type="application/json")
    assert response.status_code == 400
    assert "cards" in response.json()     # the field's own error, not the depth's


# --- 2. numbers in addresses beyond any column ----------------------------------------------

def _patterns(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def test_no_address_takes_an_unbounded_number():
    for route, pattern in _patterns(get_resolver().url_patterns):
        for name, converter in getattr(pattern.pattern, "converters", {}).items():
            if isinstance(converter, IntConverter):
                assert isinstance(converter, DatabaseIntConverter), (route, name)


@pytest.fixture
def every_numbered_address(alice, public_deck, public_run):
    jobs = {kind: BalanceJob.objects.create(
        kind=kind, owner=alice, label="job", is_public=True, decks=[], cards={},
        card_data_version="1", agent="greedy", budget_games=1, seed=1)
        for kind in (JobKind.BALANCE, JobKind.TUNING)}
    # The admin's addresses are checked by the converter test (its catch-all sends anyone
    # signed out to the log-in page, whatever the address).
    routes = [route for route, pattern in _patterns(get_resolver().url_patterns)
              if "<dbint:" in route and not route.startswith("admin/")]
    assert len(routes) >= 10, routes

    def address(route: str, number: str) -> str:
        uid = (public_run.uid if "simulations" in route
               else jobs[JobKind.TUNING].uid if "tun" in route
               else jobs[JobKind.BALANCE].uid if "balance" in route else public_deck.uid)
        path = re.sub(r"<dbint:\w+>", number, "/" + route)
        return re.sub(r"<str:\w+>", uid, path)

    return routes, address


@pytest.mark.parametrize("number", ["99999999999999999999", str(DB_INT_MAX + 1)])
def test_a_number_too_large_for_the_database_is_a_404_everywhere(
        client, alice, every_numbered_address, number):
    routes, address = every_numbered_address
    client.force_login(alice)
    for route in routes:
        path = address(route, number)
        for method in ("get", "post"):
            response = getattr(client, method)(path)
            assert response.status_code == 404, (method, route, response.status_code)


def test_the_public_replay_address_with_a_huge_number_is_the_sites_404(client, public_run):
    page = client.get(f"/simulations/{public_run.uid}/replays/99999999999999999999/")
    assert page.status_code == 404 and "Page not found" in page.content.decode()
    api = client.get(f"/api/simulations/{public_run.uid}/replays/99999999999999999999/")
    assert api.status_code == 404 and api.json()["detail"]


def test_the_largest_number_a_column_holds_still_reaches_the_view(client, public_run):
    response = client.get(f"/api/simulations/{public_run.uid}/replays/{DB_INT_MAX}/")
    assert response.status_code == 404
    assert response.json()["detail"] != "There is nothing at this address."   # the view's own


# --- 3. NUL in the fields of the signed-in forms --------------------------------------------

def _form_pages(deck, run) -> dict[str, list[str]]:
    """Every page form that a signed-in user posts, and the fields it reads (its form's fields
    and the values its view reads itself)."""
    from balance.search.forms import BalanceSearchForm
    from balance.tuning.forms import TuningForm
    from simulations.forms import SimulationForm
    from simulations.patches.forms import PatchForm, PlayForm
    from simulations.what_if_form import WhatIfForm

    def fields(*forms) -> list[str]:
        return sorted({name for form in forms for name in form.base_fields})

    return {
        "/simulations/new/": fields(SimulationForm),
        "/simulations/patch/": ["card", *fields(PatchForm, PlayForm)],
        "/balance/new/": fields(BalanceSearchForm),
        "/balance/tune/new/": ["deck"],
        f"/balance/tune/new/?deck={deck.uid}": fields(TuningForm),
        f"/simulations/{run.uid}/what-if/": fields(WhatIfForm),
        "/decks/build/new/meta/": ["name", "description", "format", "visibility"],
        "/decks/import/": ["text", "format"],
        "/accounts/profile/": ["email"],
    }


NUL_SAYS = ("NUL character", "Null characters are not allowed")


@pytest.mark.parametrize("page", range(9))
def test_a_nul_in_any_field_of_a_signed_in_form_is_a_form_error(client, alice, public_run,
                                                                 page):
    path, names = list(_form_pages(public_run.deck, public_run).items())[page]
    client.force_login(alice)
    htmx = {"HTTP_HX_REQUEST": "true"} if path.startswith("/decks/build/") else {}
    patching = path.startswith("/simulations/patch/")
    for name in names:
        # The patch page shows the fields its card has: a hero's HP, a minion's attack.
        base = {"card": "T-H01" if name == "hp" else "T-M01"} if patching else {}
        response = client.post(path, {**base, name: "\x00"}, **htmx)
        text = response.content.decode()
        assert response.status_code == 400, (path, name, response.status_code)
        assert any(say in text for say in NUL_SAYS), (path, name)
    everything = client.post(path, {name: "x\x00" for name in names}, **htmx)
    assert everything.status_code == 400, path


@pytest.mark.parametrize("page", range(9))
def test_a_body_over_the_upload_cap_on_any_form_is_the_sites_413_page_with_debug_on(
        alice, public_run, settings, page):
    """A form's text field pasted far over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: with DEBUG on,
    Django would answer its technical RequestDataTooBig page (CSRF reads the body first)."""
    settings.DEBUG = True
    path, names = list(_form_pages(public_run.deck, public_run).items())[page]
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get(path)                                      # the CSRF cookie, as a browser has
    huge = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    response = client.post(path, {names[0]: huge, "csrfmiddlewaretoken": "from-the-page"})
    page_text = response.content.decode()
    assert response.status_code == 413, (path, response.status_code)
    assert "RequestDataTooBig" not in page_text and '<nav class="site-nav"' in page_text
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in page_text
    assert alice.username in page_text                    # still signed in, as on every page
    assert f'href="{path}"' in page_text.replace("&amp;", "&")   # back to the form


@pytest.mark.parametrize("path, field", [("/simulations/patch/", "card"),
                                         ("/balance/tune/new/", "deck")])
def test_the_card_and_deck_a_form_starts_from_refuse_a_nul_in_the_page(client, alice,
                                                                      catalogue, path, field):
    from common.forms import NUL_IN_FIELD

    client.force_login(alice)
    response = client.post(path, {field: "\x00"})
    page = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 400
    assert str(NUL_IN_FIELD) in page and '<nav class="site-nav"' in page


def test_a_patchs_abilities_refuse_a_nul_written_as_a_json_escape(client, alice, catalogue):
    from common.forms import NUL_IN_FIELD

    client.force_login(alice)
    response = client.post("/simulations/patch/", {
        "card": "T-M01", "abilities": '[{"when": "play", "do": "x\\u0000"}]'})
    assert response.status_code == 400
    assert str(NUL_IN_FIELD) in response.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize("abilities, says", [
    ("[" * 5000 + "]" * 5000, "Abilities must be a JSON list"),
    ("[" + "1" * 5000 + "]", "Abilities must be a JSON list"),
    ("[" * 900 + "]" * 900, "The engine cannot play this card")],
    ids=["nested-5000", "long-number", "nested-900"])
def test_a_patchs_abilities_that_cannot_be_read_or_played_are_a_form_error(
        client, alice, catalogue, abilities, says):
    client.force_login(alice)
    response = client.post("/simulations/patch/", {"card": "T-M01", "abilities": abilities})
    assert response.status_code == 400
    assert says in response.content.decode()


# --- 4. the API's contract in the details --------------------------------------------------


@pytest.mark.parametrize("path", ["/api/decks/validate/", "/api/decks/", "/api/decks/import/",
                                  "/api/cards/", "/api/simulations/", "/api/decks/formats/"])
def test_trace_on_the_api_is_a_405_naming_the_methods_it_serves(client, catalogue, path):
    response = client.generic("TRACE", path)
    assert response.status_code == 405, response.content
    assert "TRACE" in response.json()["detail"]
    assert "TRACE" not in response["Allow"] and "OPTIONS" in response["Allow"]


@pytest.mark.parametrize("value", [0, 1.5, True, ["T-H01"], {"code": "T-H01"}])
def test_a_hero_that_is_not_text_is_a_400_naming_the_field(client, catalogue, value):
    response = client.post("/api/decks/validate/", {"hero": value, "cards": dict(LEGAL_CARDS)},
                           content_type="application/json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["hero"]


@pytest.mark.parametrize("method", ["post", "patch"])
def test_a_deck_note_that_is_not_text_is_a_400_naming_the_field(alice, public_deck, method):
    client = APIClient()
    client.force_authenticate(alice)
    path = "/api/decks/" if method == "post" else f"/api/decks/{public_deck.uid}/"
    body = {"name": "Noted", "hero": "T-H01", "cards": dict(LEGAL_CARDS), "note": 0}
    response = getattr(client, method)(path, body, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["note"]
    assert public_deck.versions.count() == 1                  # nothing was saved


@pytest.mark.parametrize("path", ["/cards/", "/api/cards/", "/decks/", "/api/decks/"])
@pytest.mark.parametrize("language, says", [("en", "this site reads at most 4,096"),
                                            ("zh-hans", "本站最多读取 4,096 个")])
def test_a_query_string_over_the_limit_is_the_sites_own_414(client, catalogue, path, language,
                                                            says):
    query = "q=" + "a" * 5000
    with translation.override("en"):
        response = client.get(f"{path}?{query}", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 414
    text = response.json()["detail"] if path.startswith("/api/") else response.content.decode()
    assert says in text and "5,002" in text
    if not path.startswith("/api/"):
        assert '<nav class="site-nav"' in text


def test_a_query_string_at_the_limit_still_reaches_the_page(client, catalogue):
    query = "ref=" + "a" * (MAX_QUERY_STRING - 4)        # a parameter the page ignores
    assert client.get(f"/cards/?{query}").status_code == 200


def test_a_public_run_shows_no_id_of_a_deck_its_owner_made_private_since(client, alice, bob,
                                                                       public_run):
    deck = public_run.deck
    type(deck).objects.filter(pk=deck.pk).update(visibility="private")
    for viewer in (None, bob):
        if viewer is not None:
            client.force_login(viewer)
        data = client.get(f"/api/simulations/{public_run.uid}/").json()
        assert data["decks"][0]["uid"] is None and data["decks"][0]["version"] is None
        assert data["decks"][0]["name"] == "Open Deck"                 # as snapshotted
        assert data["decks"][0]["cards"] == dict(LEGAL_CARDS)
        page = client.get(f"/simulations/{public_run.uid}/").content.decode()
        assert "Open Deck" in page and deck.uid not in page
    client.force_login(alice)                                         # its owner still sees it
    assert client.get(f"/api/simulations/{public_run.uid}/").json()["decks"][0]["uid"] == deck.uid
    assert deck.uid in client.get(f"/simulations/{public_run.uid}/").content.decode()
