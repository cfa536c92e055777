"""Every page a user can reach, in the pseudo-locale en-xa (config/pseudo_locale.py), in headless
Chromium: every text that passes through a translation — the site's gettext catalogues,
Django's own, the registries' game words — is rewritten there into look-alike letters
("Cards" → "Ƈȧřḓş"), so a word still in plain ASCII letters did not pass through one.

The crawl visits each page of ``tests/e2e/site_pages.py`` signed in (and those that need no
log-in signed out, and the error pages a form post ends on), reads what a reader sees — the
visible text, the placeholders, tooltips (``title``), ``aria-label``s, images' ``alt`` and
buttons' labels — and fails on a text of plain ASCII words that is neither allowed (below) nor
listed in ``KNOWN_UNTRANSLATED``, the ratchet of what is untranslated today; a second test fails
when an entry of the ratchet no longer appears on any page, so the list only shrinks.

Allowed as written: what users typed (deck, user and group names), identifiers the site made
(uids, card sets' codes, hashes, a masked password), numbers, card codes, files, web and e-mail
addresses, code (``code``, ``pre``, ``kbd``, ``samp``), stored data the admin shows as JSON,
text marked as another language with ``lang`` (a card's name in the other language beside its
name, the switcher's "EN") or ``translate="no"``, single letters (enumerations, the query
language's fields) and ``ACRONYMS``. ``artifacts/pseudo-locale.json`` keeps every page's
untranslated texts, each with the sentence it was found in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from config.pseudo_locale import (
    PSEUDO_LANGUAGE,
    PSEUDO_LANGUAGE_ENTRY,
    pseudo_locale_install,
    pseudo_locale_uninstall,
)
from config.translations import pseudo_catalogues
from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.site_pages import DECK_NAMES, ERROR_PAGES, STAFF, populate
from tests.e2e.test_every_page import (
    CARD_CODE,
    ERROR_CONSOLE,
    FILE_PATH,
    OPEN_DETAILS,
    SETTLED,
    _error_page,
    _logged_in,
    _signed_out,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

BROWSER_LOCALE = "en-XA"
# Every page's untranslated texts, known or not, for a human to look at.
REPORT = ARTIFACTS / "pseudo-locale.json"
# Words a reader of any language reads as written: names of formats, units and standards, and
# abbreviations the game prints on its cards. Keep it short: a word here is never checked.
ACRONYMS = {"Cardlab", "API", "OpenAPI", "JSON", "CSV", "SVG", "YAML", "AI", "UTC", "ID", "HP",
            "ATK",
            "SR", "SSR", "UR"}   # the game's rarities, printed on its cards as codes
# Web addresses and paths, e-mail addresses and a worker's name (name@host).
ADDRESS = re.compile(r"https?://\S+|[\w.+-]+@[\w.-]+|(?<!\w)/[\w./?=&%-]*")
# A file's name (patch.json), an identifier with a digit in it (a hash, md5, a uid), a secret
# shown masked (Django's password summary: "38bcc7****").
IDENTIFIER = (r"(?<![^\W_])[\w-]+\.(?:json|csv|txt|yaml|md|png|svg)\b"
              r"|(?<![^\W_])(?=[^\W_]*\d)[^\W_]+(?![^\W_])|\w*\*{4,}")
# A word of plain ASCII letters, not part of a rewritten word ("dǿƞḗ" is one word, rewritten).
ASCII_WORD = r"(?<![^\W\d_])[A-Za-z]+(?:['’][A-Za-z]+)*(?![^\W\d_])"
# Untranslated words next to each other (a name of several words) make one text.
UNTRANSLATED = re.compile(rf"{ASCII_WORD}(?:[ \-]+{ASCII_WORD})*")
SEPARATOR = " | "
SIGNED_OUT = " (signed out)"   # a page's name, visited signed out

# What a reader sees on the page, less what is meant to be read as written: code, text marked
# as another language or as not to be translated, and form inputs' values (what users type).
PAGE_TEXTS = """pseudo => {
  const skip = 'script, style, code, kbd, pre, samp, textarea, noscript, template, [translate=no]';
  const foreign = el => {
    const marked = el.closest('[lang]');
    return marked && marked.getAttribute('lang').toLowerCase() !== pseudo;
  };
  const chunks = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || el.closest(skip) || foreign(el)) continue;
    const tooltip = el.closest('svg title');
    const list = el.closest('select, datalist');   // a datalist's options are suggestions
    const shown = tooltip ? tooltip.parentElement.checkVisibility()
                : list ? list.tagName === 'DATALIST' || list.checkVisibility()
                : el.checkVisibility({visibilityProperty: true});
    if (shown) chunks.push(text);
  }
  const labelled = '[placeholder], [title], [aria-label], img[alt], input[type=submit], ' +
                   'input[type=button], input[type=reset]';
  for (const el of document.querySelectorAll(labelled)) {
    if (el.closest(skip) || foreign(el) || !el.checkVisibility()) continue;
    for (const a of ['placeholder', 'title', 'aria-label', 'alt'])
      if (el.getAttribute(a)) chunks.push(el.getAttribute(a));
    if (el.matches('input[type=submit], input[type=button], input[type=reset]') && el.value)
      chunks.push(el.value);
  }
  return chunks;
}"""

# The ratchet: texts no translation rewrites today, grouped by where they come from (issue 44;
# artifacts/pseudo-locale.json shows each on its page, in the sentence it was found in). A text
# listed here is allowed on any page; when one stops appearing,
# test_the_known_untranslated_texts_still_appear fails until it is removed, so the list only
# shrinks. Make a text pass through a translation (gettext, a registry's LocalizedText, a
# catalogue of data) and delete its line; never add one to silence the crawl.
KNOWN_UNTRANSLATED: dict[str, set[str]] = {
    # Django admin's own texts that its code does not translate: the yes/no icons' alt texts
    # (django.contrib.admin.templatetags.admin_list._boolean_icon).
    "Django admin": {"False", "True"},
}
# Texts allowed on one page only: words too common to allow everywhere.
KNOWN_UNTRANSLATED_ON_PAGES: dict[str, set[str]] = {
    # An example query as the builder's search box's placeholder ("k:minion a:fire c<=3").
    "builder": {"fire", "minion"},
    # The admin shows rows as they are kept: a format's code, a game's declared kinds and
    # rarities by code, a deck's stored format code and kind.
    "admin formats": {"standard"},
    "admin game": {"artifact", "aura", "avatar", "elite", "exceptional", "magic", "minion",
                   "ordinary", "site", "unique"},
    "admin deck": {"deck", "standard"},
    # A run's, a balance search's and a tuning's stored values: the agents by code, a worker's
    # claim ("pages"), the job's title written once in the submitter's language (runs keep one a
    # language, jobs do not), and the __str__ of a run's matchups and chunks ("1/0: 0 vs 1",
    # "run 1 chunk 0 (done)") beside its English label.
    "admin balance job": {"Balance search", "Dawn Test", "Dusk Test", "pages", "random"},
    "admin tuning job": {"Deck tuning", "against Dusk Test", "greedy", "pages"},
    "admin run": {"chunk", "done", "greedy", "random", "run", "vs", "vs Dusk Test"},
}


def _whole(word: str) -> str:
    return rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])"


def _typed(name: str) -> str:
    """A pattern for a name a user typed, whole or cut short by a chart ("Ada's Endless Cru…")."""
    cuts = [re.escape(name[:n]) + "…" for n in range(len(name) - 1, 2, -1)]
    return "|".join([re.escape(name), *cuts])


def as_written(typed: Iterable[str] = (), identifiers: Iterable[str] = ()) -> re.Pattern[str]:
    """What a page shows as written: the names users typed (``typed``: deck names, user and
    group names), the identifiers the site made (``identifiers``: uids), card codes, files,
    addresses, acronyms and single letters."""
    return re.compile("|".join([
        ADDRESS.pattern, FILE_PATH.pattern,     # first: a user's name starts their address
        *(_typed(name) for name in sorted({*DECK_NAMES, *typed}, key=len, reverse=True)),
        *(_whole(uid) for uid in sorted(identifiers, key=len, reverse=True)),
        _whole(STAFF), CARD_CODE, IDENTIFIER,
        *(_whole(word) for word in sorted(ACRONYMS)),
        r"(?<![^\W\d_])[A-Za-z](?![^\W\d_])",     # a single letter
    ]))


def _stored_data(chunk: str) -> bool:
    """A stored value shown as it is kept (the admin's JSON of a run's frozen decks and cards):
    data as written, as code is."""
    if not chunk.startswith(("{", "[")):
        return False
    try:
        json.loads(chunk)
    except ValueError:
        return False
    return True


def untranslated_texts(chunks: list[str], allowed: re.Pattern[str] | None = None
                       ) -> dict[str, str]:
    """{text: the chunk it was found in} for each text of plain ASCII words in ``chunks`` that
    is not ``allowed`` as written."""
    allowed = allowed or as_written()
    found: dict[str, str] = {}
    for chunk in chunks:
        if _stored_data(chunk):
            continue
        for text in UNTRANSLATED.findall(allowed.sub(SEPARATOR, chunk)):
            found.setdefault(text, chunk)
    return found


def known(page: str, text: str) -> bool:
    """Whether the ratchet lists ``text`` (anywhere, or on ``page`` signed in or out)."""
    on_page = KNOWN_UNTRANSLATED_ON_PAGES.get(page.removesuffix(SIGNED_OUT), set())
    return text in on_page or any(text in texts for texts in KNOWN_UNTRANSLATED.values())


def test_the_check_finds_untranslated_texts():
    """The check itself, on texts made to pass and to fail it."""
    assert untranslated_texts(["Ƈȧřḓş", "Ȧḓȧ'ş Dawn"]) == {"Dawn": "Ȧḓȧ'ş Dawn"}
    assert not untranslated_texts(["Ada's Dawn · ada · T-M01 · HP 3 · https://x.org/a b@c.org",
                                   "ada@example.com", "pages@host"])
    assert set(untranslated_texts(["Ada's Endless Cru… ŧħḗ Ember Pup, Ash Hound"])) \
        == {"Ember Pup", "Ash Hound"}
    assert set(untranslated_texts(["ŧŭřƞ 3 ǿƒ 20 (docs/formats.md)", "k:minion"])) == {"minion"}
    assert not untranslated_texts(["a dǿƞḗ"])    # one letter, and a rewritten word
    assert not untranslated_texts(['{"name": "Dawn"}', "patch.json", "md5 38bcc7****"])
    assert not untranslated_texts(["Dawn qXzT"], as_written(typed=["Dawn"], identifiers=["qXzT"]))


@pytest.fixture
def pseudo_locale(settings, tmp_path):
    """The live server speaks en-xa: its catalogues generated for this test, as
    ``CARDLAB_PSEUDO_LOCALE=1`` and ``python -m config.translations pseudo`` make it."""
    pseudo_catalogues(tmp_path)
    settings.PSEUDO_LOCALE = True
    settings.LANGUAGES = [*settings.LANGUAGES, PSEUDO_LANGUAGE_ENTRY]
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, tmp_path]
    pseudo_locale_install()
    yield
    pseudo_locale_uninstall()


def _page_texts(page) -> list[str]:
    page.wait_for_function(SETTLED)
    page.evaluate(OPEN_DETAILS)
    lang = page.locator("html").get_attribute("lang") or ""
    assert lang.lower() == PSEUDO_LANGUAGE, f"{page.url}: html lang is {lang!r}"
    return page.evaluate(PAGE_TEXTS, PSEUDO_LANGUAGE)


def _allowed_from_the_database() -> re.Pattern[str]:
    """What the filled site shows as written: its user and group names (typed by people), the
    uids it made for decks, runs, jobs and games, and the card sets' and games' codes (an
    identifier beside the name, as a card's code is beside the card's: "TEST — Ŧḗşŧ Şḗŧ"; the
    query's g:sorcery)."""
    from django.apps import apps
    from django.contrib.auth.models import Group, User

    from cards.models import CardSet, Game

    typed = [*User.objects.values_list("username", flat=True),
             *Group.objects.values_list("name", flat=True)]
    uids = [uid for model in apps.get_models() if any(f.name == "uid" for f in model._meta.fields)
            for uid in model.objects.values_list("uid", flat=True)]
    codes = [*CardSet.objects.values_list("code", flat=True),
             *Game.objects.values_list("code", flat=True)]
    return as_written(typed=typed, identifiers=[*uids, *codes])


def crawl(browser, base: str, site) -> dict[str, dict[str, str]]:
    """{page: {untranslated text: where on the page}} over every page, signed in and out."""
    allowed = _allowed_from_the_database()
    found: dict[str, dict[str, str]] = {}
    for signed_in in (True, False):
        if signed_in:
            context, page = _logged_in(browser, base, locale=BROWSER_LOCALE)
        else:
            context, page = _signed_out(browser, locale=BROWSER_LOCALE, width=1280)
        for site_page in site:
            if site_page.login and not signed_in:
                continue
            page.goto(base + site_page.path)
            name = site_page.name if signed_in else site_page.name + SIGNED_OUT
            found[name] = untranslated_texts(_page_texts(page), allowed)
        if signed_in:
            for error in ERROR_PAGES:
                assert _error_page(page, base, error) == error.status, error.name
                found[error.name] = untranslated_texts(_page_texts(page), allowed)
        context.close()
    return found


_CRAWLED: dict[str, dict[str, str]] = {}


@pytest.fixture
def untranslated(browser, live_server, transactional_db, settings, console, pseudo_locale):
    """{page: untranslated texts}, crawled once for both tests of this module: the site is
    filled (its simulations and searches played) and crawled by the first test that asks."""
    console.allow(r"NO-SUCH-CARD")   # the not-found page answers 404 on purpose
    console.allow(ERROR_CONSOLE)     # so do the error pages a form post ends on
    if not _CRAWLED:
        _CRAWLED.update(crawl(browser, live_server.url, populate(settings)))
        ARTIFACTS.mkdir(exist_ok=True)
        REPORT.write_text(json.dumps(_CRAWLED, ensure_ascii=False, indent=1, sort_keys=True),
                          encoding="utf-8")
    return _CRAWLED


def test_every_visible_text_passed_through_a_translation(untranslated):
    """No page shows a text that bypassed translation, but those the ratchet lists."""
    new = {page: sorted(text for text in texts if not known(page, text))
           for page, texts in untranslated.items()}
    new = {page: texts for page, texts in new.items() if texts}
    assert not new, ("Texts that did not pass through a translation (mark them for gettext, "
                     "show a game word with game_word; see docs/languages.md):\n"
                     + "\n".join(f"{page} → {texts}" for page, texts in new.items()))


def test_the_known_untranslated_texts_still_appear(untranslated):
    """The ratchet only shrinks: an entry no page shows any more is removed from it."""
    seen = {text for texts in untranslated.values() for text in texts}
    gone = [f"{group}: {sorted(texts - seen)}" for group, texts in KNOWN_UNTRANSLATED.items()
            if texts - seen]
    for page, texts in KNOWN_UNTRANSLATED_ON_PAGES.items():
        shown = set(untranslated.get(page, {})) | set(untranslated.get(page + SIGNED_OUT, {}))
        if texts - shown:
            gone.append(f"{page} (on its page): {sorted(texts - shown)}")
    assert not gone, ("Translated now — remove them from the ratchet: " + "; ".join(gone))
