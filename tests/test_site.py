"""The site's shell: the front page, the navigation, and the API schema and docs (offline)."""

from __future__ import annotations

import re

import yaml
from django.conf import settings
from django.contrib.staticfiles import finders
from drf_spectacular.validation import validate_schema

NAV_LINKS = {
    "Cards": "/cards/",
    "Decks": "/decks/",
    "Simulations": "/simulations/",
    "Balance search": "/balance/",
    "API docs": "/api/docs/",
}
STATIC_PREFIX = "/" + settings.STATIC_URL.lstrip("/")
ASSET_URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)


def _asset_urls(html: str) -> list[str]:
    return ASSET_URL.findall(html)


def _assert_served_locally(html: str) -> None:
    """Every src/href points at this site, and every static file it names exists."""
    urls = _asset_urls(html)
    external = [u for u in urls if re.match(r"^(https?:)?//", u)]
    assert external == [], f"the page loads from other hosts: {external}"
    for url in urls:
        if url.startswith(STATIC_PREFIX):
            path = url.split("?")[0].removeprefix(STATIC_PREFIX)
            assert finders.find(path), f"{url} is not a static file of this site"


def test_home_page_explains_the_site_and_links_every_section(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>" in html and "Cardlab" in html
    assert 'name="viewport"' in html  # readable on a phone
    for label, href in NAV_LINKS.items():
        assert re.search(rf'<a href="{re.escape(href)}"[^>]*>{re.escape(label)}</a>', html), label
    assert "simulated" in html.lower() and "deck" in html.lower()


def test_the_admin_link_is_in_the_header_of_staff_alone(client, django_user_model):
    admin_link = re.compile(r'<a href="/admin/"[^>]*>Admin</a>')
    assert not admin_link.search(client.get("/").content.decode())
    player = django_user_model.objects.create_user("player", password="x-Long-passphrase-1")
    client.force_login(player)
    assert not admin_link.search(client.get("/").content.decode())
    staff = django_user_model.objects.create_user("staff", password="x-Long-passphrase-1",
                                                  is_staff=True)
    client.force_login(staff)
    assert admin_link.search(client.get("/").content.decode())


def test_home_page_loads_htmx_and_css_from_this_site(client):
    html = client.get("/").content.decode()
    assert re.search(r'<script[^>]+src="/static/django_htmx/htmx[^"]*\.js"', html)
    assert "/static/css/site.css" in html
    _assert_served_locally(html)


def test_unknown_page_is_a_friendly_404_inside_the_layout(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html
    assert 'href="/cards/"' in html


def test_schema_is_a_valid_openapi_3_document(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == settings.SPECTACULAR_SETTINGS["TITLE"]
    validate_schema(schema)  # raises jsonschema.ValidationError if invalid


def test_schema_is_yaml_by_default(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.safe_load(response.content)["openapi"].startswith("3.")


def test_static_files_are_served_without_collectstatic(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"--accent" in b"".join(response.streaming_content)


def test_api_docs_work_offline(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "http://" not in html and "https://" not in html, "the docs page names a CDN"
    urls = _asset_urls(html)
    assert any("drf_spectacular_sidecar/swagger-ui-dist" in u for u in urls)
    _assert_served_locally(html)


def test_admin_asks_visitors_to_log_in(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_admin_opens_for_a_superuser(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    assert "Site administration" in response.content.decode()
