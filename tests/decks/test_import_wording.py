"""The deck import and the collection import read lists through one reader, and say the same
problem in the same words from one source: a bad line, a file that is not UTF-8 (with its line),
a file too large, a paste and a file at once. Over a cap, the advice fits what was imported and
is given once."""

from __future__ import annotations

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from collection.selectors import collection_counts
from collection.transfer import COLLECTION_LIMITS
from decks.codecs import DEFAULT_LIMITS

PAGES = {"deck": "decks:import", "collection": "collection:import"}
LIMITS = {"deck": DEFAULT_LIMITS, "collection": COLLECTION_LIMITS}


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def problems_block(page: str) -> str:
    """The text of the page's list of import problems, tags and spacing left out."""
    found = re.search(r'<div class="import-problems" role="alert">(.*?)</div>', page, re.S)
    assert found, page[:3000]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def post(client, which: str, data: dict):
    return client.post(reverse(PAGES[which]), {"mode": "add", **data})


@pytest.mark.parametrize("which", PAGES)
def test_an_uploaded_lone_surrogate_is_named_with_its_line_and_column(signed_in, catalogue,
                                                                      which):
    upload = SimpleUploadedFile("list.txt", b"2x Ember Pup\n1x Thorn \xed\xa0\x80Boar\n")
    answer = post(signed_in, which, {"file": upload})
    assert answer.status_code == 400
    said = problems_block(answer.content.decode())
    assert "Line 2, column 10" in said and "U+D800" in said


@pytest.mark.parametrize("which", PAGES)
def test_a_file_that_is_not_utf8_is_named_with_its_line(signed_in, catalogue, which):
    upload = SimpleUploadedFile("list.txt", b"2x Ember Pup\n\n3x Thorn Boar \xff\n")
    answer = post(signed_in, which, {"file": upload})
    assert answer.status_code == 400
    said = problems_block(answer.content.decode())
    assert "Line 3, column 15" in said and "UTF-8" in said


def test_both_imports_word_a_bad_line_the_same(signed_in, catalogue):
    said = {which: problems_block(post(signed_in, which, {"text": "2x Ember Pupp\n"})
                                  .content.decode()) for which in PAGES}
    assert said["deck"] == said["collection"]
    assert "Line 1" in said["deck"] and "Ember Pup" in said["deck"]


def test_both_imports_refuse_a_paste_and_a_file_at_once_in_the_same_words(signed_in, alice,
                                                                          catalogue):
    said = {}
    for which in PAGES:
        upload = SimpleUploadedFile("list.txt", b"3x Ember Pup\n")
        answer = post(signed_in, which, {"file": upload, "text": "1x Thorn Boar"})
        assert answer.status_code == 400
        said[which] = problems_block(answer.content.decode())
    assert said["deck"] == said["collection"] and "not both" in said["deck"]
    assert collection_counts(user=alice) == {}


@pytest.mark.parametrize("which", PAGES)
def test_a_file_over_the_cap_is_a_413_naming_its_size_not_a_list_cut_short(signed_in, alice,
                                                                           catalogue, which):
    limit = LIMITS[which].max_bytes
    body = b"1x Ember Pup\n" * (limit // 13 + 2)
    answer = post(signed_in, which, {"file": SimpleUploadedFile("list.txt", body)})
    assert answer.status_code == 413
    said = problems_block(answer.content.decode())
    assert f"{len(body)} bytes" in said and f"{limit} bytes" in said
    assert collection_counts(user=alice) == {}


def test_a_collection_list_over_its_cap_is_not_told_to_paste_one_deck(signed_in, catalogue):
    text = "1x Ember Pup\n" * (COLLECTION_LIMITS.max_lines + 1)
    answer = post(signed_in, "collection", {"text": text})
    assert answer.status_code == 413
    page = answer.content.decode()
    assert "one deck" not in page.lower() and "in parts" in page


def test_the_sites_413_page_gives_its_advice_once_and_no_deck_advice_to_a_collection(
        alice, catalogue, settings):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get(reverse("collection:import"))
    huge = "1x Ember Pup\n" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 13 + 10)
    answer = client.post(reverse("collection:import"), {"text": huge})
    assert answer.status_code == 413
    page = html.unescape(answer.content.decode()).lower()
    assert "one deck" not in page
    assert page.count("send less at a time") == 1
