"""The builder's card panel: sorted by cost, name or attack; filtered to the hero's attribute;
its query in the page's address, so a reload shows the same panel."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks.session import NEW

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def names(html: str) -> list[str]:
    return re.findall(r'class="card-link" data-preview="[^"]+">([^<]+)</a>', html)


def panel(client, **params) -> str:
    return client.get(reverse("decks:build-cards", args=[NEW]), params, **HTMX).content.decode()


def test_the_panel_sorts_by_cost_name_or_attack(client, catalogue):
    by_name = names(panel(client, q="k:minion", order="name"))
    assert by_name == sorted(by_name, key=str.casefold) and len(by_name) > 5
    from cards.models import Card

    attack = {c.name_en: c.attack for c in Card.objects.filter(kind="minion")}
    by_attack = [attack[n] for n in names(panel(client, q="k:minion", order="attack"))]
    assert by_attack == sorted(by_attack, reverse=True)
    cost = {c.name_en: c.cost for c in Card.objects.filter(kind="minion")}
    by_cost = [cost[n] for n in names(panel(client, q="k:minion", order="nonsense"))]
    assert by_cost == sorted(by_cost)                        # an unknown sort: by cost


def test_the_panel_shows_only_the_hero_s_attribute_and_items(client, catalogue):
    client.post(reverse("decks:build-hero", args=[NEW]), {"code": "T-H01"})   # a fire hero
    from cards.models import Card

    shown = Card.objects.filter(names__en__in=names(panel(client, hero_only="1")))
    assert shown.exists()
    assert {(c.kind, c.attribute) for c in shown} <= {("minion", "fire"), ("hero", "fire"),
                                                      ("item", None), ("item", "")}
    assert len(names(panel(client))) > shown.count()


def test_the_panel_query_lives_in_the_page_address(client, catalogue):
    response = client.get(reverse("decks:build-cards", args=[NEW]),
                          {"q": "a:fire", "order": "name", "hero_only": ""}, **HTMX)
    assert response["HX-Push-Url"] == "/decks/build/?q=a%3Afire&order=name"
    refresh = client.get(reverse("decks:build-cards", args=[NEW]), {"q": "a:fire"},
                         HTTP_HX_TRIGGER="card-results", **HTMX)
    assert "HX-Push-Url" not in refresh                 # a count refresh leaves the address
    page = client.get("/decks/build/?q=a%3Afire&order=attack&hero_only=1").content.decode()
    assert 'value="a:fire"' in page and '<option value="attack" selected>' in page
    assert 'name="hero_only" value="1" checked' in page


def test_each_panel_says_the_drafts_revision_and_carries_the_status_line(client, catalogue):
    """The page keeps the newest of two panels that arrive out of order (data-deck-rev) and
    copies the status line from the panel it shows: no out-of-band target to miss."""
    from django.urls import reverse

    url = reverse("decks:build-card", args=["new"])
    first = client.post(url, {"code": "T-M01", "delta": 1}, HTTP_HX_REQUEST="true").text
    second = client.post(url, {"code": "T-M01", "delta": 1}, HTTP_HX_REQUEST="true").text
    assert 'data-deck-rev="1"' in first and 'data-deck-rev="2"' in second
    assert "hx-swap-oob" not in second
    status = second[second.index("data-deck-status>"):]
    assert "<strong>2</strong>/30 cards" in status[:200]
