"""Every page a user can reach, in a real browser (Debian's headless Chromium driven by
Playwright), with something on it (``tests/e2e/site_pages.py``):

- no page is wider than its window, at desktop (1280 px) and phone (390 px) width, signed in
  and out, in English and in Chinese (the error pages a form post ends on too), and the site's
  header on it is at most 64 px high;
- every chart's texts stay inside the chart and apart from each other, and on a phone are
  drawn at least 10 px high;
- axe-core (``tests/e2e/axe.py``) finds no serious or critical violation on a phone;
- no page shows a card code where a reader expects the card's name (in a sentence, a list, an
  option: anywhere but alone in its own element, as an identifier beside the name), nor a patch
  written as ``CODE.field = value``;
- a page in Chinese shows no English word outside what a Chinese reader is meant to see in
  Latin letters (brand and technical names, units, rarities, card codes, names users typed,
  and text marked as another language with ``lang``, such as a card's English name beside its
  Chinese one).

Each page is visited once a language and width with every check in that visit (``VISITS``).
Screenshots of every chart go to artifacts/charts/ for a human to look at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.axe import axe_problems
from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.layout import CHART_TEXTS, layout_problems
from tests.e2e.site_pages import DECK_NAMES, ERROR_PAGES, PASSWORD, STAFF, ErrorPage, populate

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

# The pages whose charts the test must find (a page that lost its chart fails too).
CHART_PAGES = {"match", "round-robin", "patched run", "sweep", "balance search",
               "meta balance search"}
# A test-set card code (T-M01), a core one (C024), or another game's (Sorcery's SC-A01).
CARD_CODE = r"\b(?:T-[HMI]\d{2}|C\d{3}|SC-[A-Z]\d{2})\b"
PATCH_CODE = re.compile(CARD_CODE + r"\s*\.\s*\w+\s*=")
# Pages that show card codes on purpose: the code is what they are about.
CODES_SHOWN = {"card", "catalogue", "card search", "query help", "deck print", "import",
               "admin cards", "admin card", "admin new card", "admin balance job",
               "admin tuning job", "admin run", "admin deck", "admin format"}
# Admin pages of a row's stored data as written (a job's or run's frozen decks and cards as
# JSON, a deck's version notes, run ids, Django's permission names as its migrations stored
# them): what an admin edits, not prose for a reader.
# So are the admin's lists of games, formats and card sets, which show each row's code and its
# names in both languages side by side, and its users' addresses and groups.
STORED_AS_WRITTEN = {"admin balance job", "admin tuning job", "admin run", "admin runs",
                     "admin deck", "admin user", "admin groups", "admin users", "admin games",
                     "admin game", "admin formats", "admin card sets"}
# Latin words a Chinese page may show: names of things, units, abbreviations every reader of
# the site knows, the card set's rarities, the user's own name, and words users typed.
LATIN_ALLOWED = {
    "Cardlab", "API", "OpenAPI", "JSON", "CSV", "SVG", "AI", "CPU", "UTC", "Elo", "McNemar",
    "Bradley-Terry", "Bradley", "Terry", "Django", "Celery", "Python", "EN", "ID", "URL",
    "HTML", "N", "R", "SR", "SSR", "UR", "HP", "ATK", "Nash", "Pareto", "vs", "ada", "txt",
    "json", "csv", "patch", "Chromium", "Wilson", "YAML", "yaml",
    "TEST",   # the test set's code: an identifier shown beside its name, as card codes are
    "sorcery-sample",   # Sorcery's sample set's code, the same
    "sorcery",   # the game's code in the query the user typed (g:sorcery)
    "Control", "Command", "Mac",   # keys, in Django's own Chinese help of a multiple choice
}
# A file's path (docs/formats.md) is a name, read as written.
FILE_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)+\.\w+")
# Enumerations (a), (b), i, ii, iii and a query's one-letter fields count as symbols.
SYMBOL = re.compile(r"^(?:[A-Za-z]|i{1,3}|iv|vi{0,3})$")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*[A-Za-z]|[A-Za-z]")

# Visible text of the page, less what is meant to be read as written: code samples, text
# marked as another language (lang="en"), and form inputs' values. Placeholders, options and
# tooltips count as visible.
VISIBLE_TEXT = """() => {
  const skip = 'script, style, code, kbd, pre, samp, textarea, noscript, template';
  const chunks = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || el.closest(skip)) continue;
    const lang = ((el.closest('[lang]') || document.documentElement).getAttribute('lang')
                  || '').toLowerCase();
    if (lang && !lang.startsWith('zh') && document.documentElement.lang.startsWith('zh'))
      continue;
    const list = el.closest('select, datalist');   // a datalist's options are suggestions
    const shown = list ? list.tagName === 'DATALIST' || list.checkVisibility()
                       : el.checkVisibility({visibilityProperty: true});
    if (shown) chunks.push(text);
  }
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (el.closest('code, svg title') || !el.checkVisibility()) continue;
    for (const a of ['placeholder', 'title', 'aria-label'])
      if (el.getAttribute(a)) chunks.push(el.getAttribute(a));
  }
  return chunks;
}"""


OPEN_DETAILS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"


@pytest.fixture
def pages(live_server, transactional_db, settings, console):
    console.allow(r"NO-SUCH-CARD")   # the not-found page answers 404 on purpose
    return live_server.url, populate(settings)


def _logged_in(browser, base: str, *, locale: str, width: int = 1280):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", STAFF)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
    return context, page


def english_words(chunks: list[str]) -> set[str]:
    """Latin words in the chunks that a Chinese reader is not meant to read in English."""
    typed = {w for name in DECK_NAMES for w in LATIN_WORD.findall(name)}
    words = set()
    for chunk in chunks:
        chunk = FILE_PATH.sub(" ", re.sub(CARD_CODE, " ", chunk))
        for word in LATIN_WORD.findall(chunk):
            if word in LATIN_ALLOWED or SYMBOL.match(word) or _typed(word, typed):
                continue
            words.add(word)
    return words


def _typed(word: str, typed: set[str]) -> bool:
    """A word of a name a user typed, or its start where a chart shortens the name ("Crus…")."""
    return word in typed or (len(word) >= 3 and any(t.startswith(word) for t in typed))


def codes_without_names(chunk: str) -> bool:
    """Codes with nothing to read beside them ("T-M01, T-M03", "T-H01 → T-H02"); a code alone
    in its element is an identifier column beside the name, and "余烬幼犬 (T-M01)" names it."""
    if not re.search(CARD_CODE, chunk) or re.fullmatch(CARD_CODE, chunk):
        return False
    return not re.search(r"[^\W\d_]", re.sub(CARD_CODE, " ", chunk))


def code_problems(name: str, chunks: list[str]) -> list[str]:
    found = [f"{name}: a patch in codes: {c!r}" for c in chunks if PATCH_CODE.search(c)]
    if name not in CODES_SHOWN:
        found += [f"{name}: card codes instead of names: {c!r}" for c in chunks
                  if codes_without_names(c)]
    return found


def test_the_checks_find_english_words_and_codes():
    """The checks themselves, on text made to fail them."""
    assert english_words(["余烬幼犬:attack 从 2 到 3", "Cardlab · API · 30 %", "T-M01"]) \
        == {"attack"}
    assert english_words(["Ada's Dawn 对 Stalker"]) == {"Stalker"}
    assert english_words(["牌堆（见 docs/formats.md）"]) == set()
    assert english_words(["Ada's Endless Crus… 对 Dawn"]) == set()     # a name cut short
    assert code_problems("sweep", ["T-M01.attack = 3"]) == [
        "sweep: a patch in codes: 'T-M01.attack = 3'"]
    assert code_problems("sweep", ["T-M01, T-M03", "T-H01 → T-H02"]) == [
        "sweep: card codes instead of names: 'T-M01, T-M03'",
        "sweep: card codes instead of names: 'T-H01 → T-H02'"]
    assert code_problems("match", ["T-M01", "余烬幼犬 (T-M01)", "T-M01 · 随从"]) == []
    assert code_problems("card", ["T-M01, T-M03"]) == []


PAGE_WIDTH = "() => document.documentElement.scrollWidth"
# The site's header: one bar of at most 64 px on every page and width (on a phone its links
# fold into a menu), so a sticky header never eats the screen.
# (A page without it — the API docs, a print sheet — has none to measure.)
HEADER_HEIGHT = """() => {
  const header = document.querySelector('.site-header');
  return header ? header.getBoundingClientRect().height : 0;
}"""
MAX_HEADER = 64
MIN_CHART_TEXT = 10   # px: the smallest chart text a phone may draw
# Chart texts drawn smaller than the limit: the font size times the chart's scale on screen.
SMALL_CHART_TEXT = """limit => [...document.querySelectorAll('svg.chart')].map(svg =>
    [...svg.querySelectorAll('text')]
    .filter(t => t.textContent.trim() && t.checkVisibility())
    .map(t => [t.textContent.trim(),
               parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])
    .filter(([label, size]) => size < limit - 0.05)
    .sort((a, b) => a[1] - b[1]))
  .filter(small => small.length)
  .map(small => `${small.length} texts, the smallest ${small[0][1].toFixed(1)} px ` +
                `(${JSON.stringify(small[0][0])})`)"""
# htmx requests the page makes as it loads (a deck's favourites, a card's count) have answered.
SETTLED = "() => !document.querySelector('.htmx-request')"
# One visit of each page per language and width, every check in that visit: signed in at
# 1280 px (charts, codes, Chinese words, width) and at 390 px (charts, width, chart text size,
# axe, where the layout is tightest), signed out at 390 px (width, chart text, axe).
@dataclass(frozen=True)
class Visit:
    width: int
    signed_in: bool
    axe: bool = False
    words: bool = False     # card codes without names; English on a Chinese page
    charts: bool = True     # the charts' texts inside and apart (and a screenshot of each)


VISITS = (Visit(1280, True, words=True), Visit(390, True, axe=True),
          Visit(390, False, axe=True, charts=False))
# The error pages' answers are deliberate: the console says the post failed.
ERROR_CONSOLE = r"/decks/import/: console\.error: Failed to load resource"
POST_FORM = """([path, token, size]) => {
  const form = document.createElement('form');
  form.method = 'post'; form.action = path; form.enctype = 'multipart/form-data';
  const text = document.createElement('textarea');
  text.name = 'text'; text.value = size ? 'x'.repeat(size) : '3x Nothing';
  form.append(text);
  const csrf = document.querySelector('input[name=csrfmiddlewaretoken]');
  if (token && csrf) form.append(csrf.cloneNode());
  document.body.append(form);
  form.submit();
}"""


def _signed_out(browser, *, locale: str, width: int):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    return context, context.new_page()


def visit_problems(page, name: str, locale: str, visit: Visit) -> list[str]:
    """What is wrong with the page as it stands: wider than the window (a phone's browser
    zooms such a page out, so the window's own width is the measure), chart texts clipped,
    overlapping or too small to read on a phone, card codes where names belong, English on a
    Chinese page, and axe-core's serious and critical violations."""
    page.wait_for_function(SETTLED)
    page.evaluate(OPEN_DETAILS)
    found = []
    wide = page.evaluate(PAGE_WIDTH)
    if wide > visit.width + 1:
        found.append(f"{wide} px wide in a {visit.width} px window")
    header = page.evaluate(HEADER_HEIGHT)
    if header > MAX_HEADER:
        found.append(f"the site's header is {header:.0f} px high (at most {MAX_HEADER})")
    if visit.charts:
        found += layout_problems(page.locator("body").evaluate(CHART_TEXTS))
        _chart_shots(page, name, locale, visit.width)
    if visit.width < 500:
        found += [f"a chart draws {text}, under {MIN_CHART_TEXT} px"
                  for text in page.evaluate(SMALL_CHART_TEXT, MIN_CHART_TEXT)]
    if visit.words:
        chunks = page.evaluate(VISIBLE_TEXT)
        found += code_problems(name, chunks)
        if locale.startswith("zh") and name not in STORED_AS_WRITTEN:
            lang = page.locator("html").get_attribute("lang")
            if lang is not None and lang.lower() != "zh-hans":
                found.append(f"html lang is {lang!r}")
            words = english_words(chunks)
            if words:
                found.append(f"English words: {' '.join(sorted(words))}")
    if visit.axe:
        found += [f"axe: {problem}" for problem in axe_problems(page)]
    return found


def _chart_shots(page, name: str, locale: str, width: int) -> None:
    """Screenshots of every chart in artifacts/charts/, for a human to look at."""
    charts = page.locator("svg.chart").all()
    if not charts:
        return
    folder = ARTIFACTS / "charts"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{name.replace(' ', '-')}-{locale[:2]}-{width}"
    for n, chart in enumerate(charts):
        chart.screenshot(path=str(folder / f"{stem}-{n}.png"))
    # A chart's screenshot scrolls it into view; the checks after it (axe-core's touch-target
    # sizes among them) read the page as it opens, not with links under the sticky header.
    page.evaluate("window.scrollTo(0, 0)")


def _error_page(page, base: str, error: ErrorPage) -> int:
    page.goto(base + error.path)
    with page.expect_navigation() as navigation:
        page.evaluate(POST_FORM, [error.path, error.token, error.body])
    return navigation.value.status


@pytest.mark.long
def test_every_page_in_both_languages_on_a_desktop_and_a_phone(browser, pages, console):
    """Every page, signed in (at 1280 and 390 px) and signed out (at 390 px), in English and in
    Chinese, each visited once a language and width with every check in that visit: no page
    needs a sideways scroll (wide tables and charts scroll in their own box); every chart's
    texts stay inside it and apart, at least 10 px on a phone; no card code stands where its
    name belongs; a Chinese page shows no English word; axe-core finds no serious or critical
    violation. The error pages a form post can end on are checked the same way."""
    base, site = pages
    console.allow(ERROR_CONSOLE)
    problems, charted = [], set()
    for locale in ("en-GB", "zh-CN"):
        for visit in VISITS:
            if visit.signed_in:
                context, page = _logged_in(browser, base, locale=locale, width=visit.width)
            else:
                context, page = _signed_out(browser, locale=locale, width=visit.width)
            where = f"{locale}, {visit.width} px{'' if visit.signed_in else ', signed out'}"
            for site_page in site:
                if site_page.login and not visit.signed_in:
                    continue
                page.goto(base + site_page.path)
                problems += [f"{site_page.name} ({where}): {found}" for found
                             in visit_problems(page, site_page.name, locale, visit)]
                if page.locator("svg.chart").count():
                    charted.add(site_page.name)
            for error in ERROR_PAGES:
                status = _error_page(page, base, error)
                assert status == error.status, (error.name, status)
                problems += [f"{error.name} ({where}): {found}"
                             for found in visit_problems(page, error.name, locale, visit)]
            context.close()
    assert CHART_PAGES <= charted, f"pages without their charts: {CHART_PAGES - charted}"
    assert not problems, "\n".join(problems)


def test_on_a_phone_the_sites_links_fold_into_a_menu_a_keyboard_opens(browser, live_server):
    """At 390 px the header is one bar (brand, languages, a menu button); the button opens the
    links by keyboard, Escape closes them and gives the focus back; axe-core finds nothing
    serious with the menu open."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/cards/")
    assert page.evaluate(HEADER_HEIGHT) <= MAX_HEADER
    toggle = page.get_by_test_id("nav-toggle")
    assert not page.locator(".site-nav").is_visible()
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator(".site-nav a[href='/decks/']").is_visible()
    assert page.evaluate(HEADER_HEIGHT) <= MAX_HEADER    # the panel opens over the page
    assert not axe_problems(page)
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('.site-nav') !== null")
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "nav-toggle"
    context.close()
