"""The site's own error pages: navigation, a sentence, a way back; JSON under /api/."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import path

from config import urls as site_urls
from config.views import NOT_FOUND
from decks.drafts import Draft
from decks.selectors import NOT_OWNER
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def _boom(request):
    raise RuntimeError("a bug")


urlpatterns = [*site_urls.urlpatterns, path("boom/", _boom)]
handler500 = site_urls.handler500


def _is_site_page(page: str) -> bool:
    return ('<nav class="site-nav"' in page and 'href="/cards/"' in page
            and 'href="/"' in page)


def test_a_missing_page_is_the_sites_404(client):
    response = client.get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404 and _is_site_page(page) and "Page not found" in page
    assert "URLconf" not in page


def test_a_missing_api_address_answers_json(client):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response.json() == {"detail": NOT_FOUND}


def test_a_private_deck_is_the_same_404(client, alice, catalogue):
    deck = deck_create(owner=alice, draft=Draft(name="Hidden", hero="T-H01", cards={}))
    response = client.get(deck.get_absolute_url())
    assert response.status_code == 404 and "Hidden" not in response.content.decode()


def test_a_forbidden_page_is_the_sites_403(client, alice, bob, catalogue):
    deck = deck_create(owner=alice, draft=Draft(name="Public", hero="T-H01", cards={},
                                                visibility="public"))
    client.force_login(bob)
    response = client.get(f"/decks/{deck.uid}/delete/")
    page = response.content.decode()
    assert response.status_code == 403 and _is_site_page(page) and "Not allowed" in page
    assert NOT_OWNER.split(";")[0] in page.replace("&#x27;", "'")


def test_a_server_error_is_the_sites_500(settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    page = response.content.decode()
    assert response.status_code == 500 and _is_site_page(page)
    assert "Something went wrong" in page and "a bug" not in page


def test_an_expired_form_is_the_sites_403_page(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 403
    assert _is_site_page(response.content.decode())
    assert "This form has expired" in response.content.decode()
