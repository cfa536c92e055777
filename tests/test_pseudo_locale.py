"""The pseudo-locale en-xa (config/pseudo_locale.py): its generated catalogues rewrite every
English text gettext may be asked for and keep what formats and renders it (placeholders, HTML
tags), plurals have both forms, the site speaks it when the settings turn it on, game words come
out rewritten as well, and production refuses it. The browser crawl over every page in it is
tests/e2e/test_pseudo_locale.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from string import Formatter

import polib
import pytest
from django.core import checks
from django.utils import translation

from config.pseudo_locale import (
    PSEUDO_LANGUAGE,
    PSEUDO_LANGUAGE_ENTRY,
    PSEUDO_LOCALE_FOLDER,
    pseudo_catalogue_folder,
    pseudo_locale_install,
    pseudo_locale_uninstall,
    pseudo_text,
)
from config.settings import PSEUDO_LOCALE_NOT_IN_PRODUCTION
from config.translations import DOMAINS, LOCALE, pseudo_catalogues
from rules.localized import LocalizedText, resolve_language

ROOT = Path(__file__).resolve().parent.parent
# What a translation must keep as it is, written here apart from the rewrite's own grammar:
# Python's %-placeholders (named or not), HTML tags and entities, addresses; str.format's fields
# are compared by Python's own parser.
PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[#0+-]*\d*(?:\.\d+)?[diouxXeEfFgGcrs%]"
                         r"|</?[a-z][a-z0-9-]*(?:\s[^<>]*)?/?>|&#?\w+;"
                         r"|https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+")
FIELD_NAME = re.compile(r"[A-Za-z0-9_.\[\]]*")
ASCII_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])")


def _placeholders(text: str) -> Counter[str]:
    return Counter(PLACEHOLDER.findall(text))


def _format_fields(text: str) -> list[str]:
    """str.format's fields of ``text`` as written (``{name!r:spec}``), by Python's own parser;
    braces around prose (a JSON shape in a help text: ``{pile: cards}``) are no field."""
    try:
        parsed = list(Formatter().parse(text))
    except ValueError:
        return []
    return ["{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            + "}" for _literal, name, spec, conversion in parsed
            if name is not None and FIELD_NAME.fullmatch(name)
            and not re.search(r"[\s{}]", spec or "")]


def _untransformed_words(text: str) -> list[str]:
    for field in _format_fields(text):
        text = text.replace(field, " ")
    return ASCII_WORD.findall(PLACEHOLDER.sub(" ", text))


@pytest.fixture(scope="module")
def catalogues(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pseudo_locale")
    pseudo_catalogues(folder)
    return folder


@pytest.fixture
def pseudo_on(settings, catalogues):
    """The site with the pseudo-locale on, as CARDLAB_PSEUDO_LOCALE=1 makes it."""
    settings.PSEUDO_LOCALE = True
    settings.LANGUAGES = [*settings.LANGUAGES, PSEUDO_LANGUAGE_ENTRY]
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, catalogues]
    pseudo_locale_install()
    yield
    pseudo_locale_uninstall()


def _entries(catalogues: Path, domain: str) -> list[polib.POEntry]:
    return list(polib.pofile(str(catalogues / PSEUDO_LOCALE_FOLDER / "LC_MESSAGES"
                                 / f"{domain}.po")))


def _texts(entry: polib.POEntry) -> list[tuple[str, str]]:
    """(English, pseudo) of each form of the entry."""
    if entry.msgid_plural:
        return [(entry.msgid, entry.msgstr_plural[0]), (entry.msgid_plural, entry.msgstr_plural[1])]
    return [(entry.msgid, entry.msgstr)]


def test_the_rewrite_keeps_placeholders_and_changes_every_letter():
    text = 'See <a href="/rules/#R5.3">%(rule)s</a>: {count} cards, %s and %d%% left'
    pseudo = pseudo_text(text)
    assert pseudo == ('Şḗḗ <a href="/rules/#R5.3">%(rule)s</a>: {count} ƈȧřḓş, %s ȧƞḓ %d%% '
                      'ŀḗƒŧ')
    assert pseudo_text("Shield") == "Şħīḗŀḓ"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_msgid_of_the_site_is_in_the_pseudo_catalogue(catalogues, domain):
    pseudo = {(e.msgctxt or "", e.msgid) for e in _entries(catalogues, domain)}
    site = {(e.msgctxt or "", e.msgid) for path in LOCALE.glob(f"*/LC_MESSAGES/{domain}.po")
            for e in polib.pofile(str(path)) if e.msgid and not e.obsolete}
    assert site and not site - pseudo, sorted(site - pseudo)[:20]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_text_is_rewritten_and_keeps_its_placeholders(catalogues, domain):
    """Every English text, the site's and Django's and the apps' (the admin's, the forms'
    errors), comes out with no plain ASCII word and with the placeholders it had."""
    problems = []
    for entry in _entries(catalogues, domain):
        for english, pseudo in _texts(entry):
            if (_placeholders(pseudo) != _placeholders(english)
                    or _format_fields(pseudo) != _format_fields(english)):
                problems.append(f"placeholders changed: {english!r} → {pseudo!r}")
            if _untransformed_words(pseudo):
                problems.append(f"not rewritten: {_untransformed_words(pseudo)} in {pseudo!r}")
    assert not problems, "\n".join(problems[:40])


def test_plural_entries_have_both_forms(catalogues):
    plurals = [e for e in _entries(catalogues, "django") if e.msgid_plural]
    assert plurals
    for entry in plurals:
        assert entry.msgstr_plural[0] == pseudo_text(entry.msgid)
        assert entry.msgstr_plural[1] == pseudo_text(entry.msgid_plural)


@pytest.mark.django_db
def test_the_site_speaks_the_pseudo_locale_when_it_is_on(pseudo_on, client):
    with translation.override(PSEUDO_LANGUAGE):
        assert translation.gettext("Cards") == pseudo_text("Cards") == "Ƈȧřḓş"
        # Django's own texts too (a form's error), so the admin is rewritten as the site is.
        assert translation.gettext("This field is required.") == "Ŧħīş ƒīḗŀḓ īş řḗɋŭīřḗḓ."
        assert translation.ngettext("%(num)d year", "%(num)d years", 2) % {"num": 2} \
            == "2 ẏḗȧřş"
        assert translation.get_language_info(PSEUDO_LANGUAGE)["name_local"] \
            == "Ƥşḗŭḓǿ-Ḗƞɠŀīşħ"
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en-XA").content.decode()
    assert '<html lang="en-XA">' in page
    assert f">{pseudo_text('Cards')}</a>" in page
    assert 'value="en-xa"' in page and "Ƥşḗŭḓǿ-Ḗƞɠŀīşħ</button>" in page


def test_a_game_word_in_the_pseudo_locale_is_rewritten(pseudo_on):
    shield = LocalizedText("keyword.shield.name", "Shield")
    assert resolve_language("en-XA") == PSEUDO_LANGUAGE
    assert shield.text(PSEUDO_LANGUAGE) == "Şħīḗŀḓ"
    assert shield.text("en") == "Shield"


def test_without_the_pseudo_locale_a_game_word_reads_in_english():
    assert LocalizedText("keyword.shield.name", "Shield").text(PSEUDO_LANGUAGE) == "Shield"


def test_the_check_says_when_the_catalogue_is_not_generated(settings, tmp_path):
    settings.PSEUDO_LOCALE = True
    settings.VAR_DIR = tmp_path
    warnings = [m for m in checks.run_checks() if m.id == "cardlab.W002"]
    assert len(warnings) == 1 and "python -m config.translations pseudo" in warnings[0].hint
    pseudo_catalogues(pseudo_catalogue_folder(tmp_path))
    assert not [m for m in checks.run_checks() if m.id == "cardlab.W002"]


def test_production_refuses_the_pseudo_locale():
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
           "DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "x" * 64,
           "CARDLAB_PSEUDO_LOCALE": "1"}
    result = subprocess.run([sys.executable, "-c", "import config.settings"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert PSEUDO_LOCALE_NOT_IN_PRODUCTION in result.stderr
