"""A body over the site's size cap is a 413 naming the limit, whatever door it comes through
and however it is typed (JSON, a form, a file, plain text), never a bare 400."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

FIVE_MB = 5 * 1024 * 1024
BODIES = {
    "application/json": '{"text": "' + "C001 1\\n" * (FIVE_MB // 8) + '"}',
    "text/plain": "C001 1\n" * (FIVE_MB // 7),
    "application/x-www-form-urlencoded": "text=" + "x" * FIVE_MB,
    "multipart/form-data; boundary=BoUnDaRy": (
        "--BoUnDaRy\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n"
        + "x" * FIVE_MB + "\r\n--BoUnDaRy--\r\n"),
}


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
@pytest.mark.parametrize("media_type", list(BODIES))
@pytest.mark.parametrize("path", ["/api/collection/import/", "/api/decks/import/",
                                  "/api/decks/validate/"])
def test_a_5_mb_body_to_the_api_is_a_413_naming_the_limit(alice, catalogue, settings, path,
                                                           media_type, debug):
    settings.DEBUG = debug
    client = Client()
    client.force_login(alice)
    response = client.post(path, data=BODIES[media_type], content_type=media_type)
    assert response.status_code == 413, (path, media_type, response.status_code,
                                          response.content[:300])
    detail = response.json()["detail"]
    # The limit in figures: the site's form cap, or an import's own (smaller) cap.
    said = re.search(r"at most ([\d,]+) bytes", detail)
    assert said and 0 < int(said[1].replace(",", "")) <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_a_5_mb_form_to_a_page_is_the_413_page(alice, catalogue, settings):
    client = Client()
    client.force_login(alice)
    response = client.post("/collection/import/", data=BODIES[
        "application/x-www-form-urlencoded"], content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in response.content.decode()
