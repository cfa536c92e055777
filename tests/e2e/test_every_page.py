"""Every page a user can reach, in a real browser (Debian's headless Chromium driven by
Playwright), with something on it (``tests/e2e/site_pages.py``):

- every chart's texts stay inside the chart and apart from each other, in English and in
  Chinese, at desktop (1280 px) and phone (390 px) width;
- no page shows a card code where a reader expects the card's name (in a sentence, a list, an
  option: anywhere but alone in its own element, as an identifier beside the name), nor a patch
  written as ``CODE.field = value``;
- a page in Chinese shows no English word outside what a Chinese reader is meant to see in
  Latin letters (brand and technical names, units, rarities, card codes, names users typed,
  and text marked as another language with ``lang``, such as a card's English name beside its
  Chinese one).

Screenshots of every chart go to artifacts/charts/ for a human to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.layout import CHART_TEXTS, layout_problems
from tests.e2e.site_pages import DECK_NAMES, PASSWORD, STAFF, populate

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

# The pages whose charts the test must find (a page that lost its chart fails too).
CHART_PAGES = {"match", "round-robin", "patched run", "sweep", "balance search"}
# A test-set card code (T-M01), or a core one (C024).
CARD_CODE = r"\b(?:T-[HMI]\d{2}|C\d{3})\b"
PATCH_CODE = re.compile(CARD_CODE + r"\s*\.\s*\w+\s*=")
# Pages that show card codes on purpose: the code is what they are about.
CODES_SHOWN = {"card", "catalogue", "card search", "query help", "deck print", "import",
               "admin cards", "admin card"}
# Latin words a Chinese page may show: names of things, units, abbreviations every reader of
# the site knows, the card set's rarities, the user's own name, and words users typed.
LATIN_ALLOWED = {
    "Cardlab", "API", "OpenAPI", "JSON", "CSV", "SVG", "AI", "CPU", "UTC", "Elo", "McNemar",
    "Bradley-Terry", "Bradley", "Terry", "Django", "Celery", "Python", "EN", "ID", "URL",
    "HTML", "N", "R", "SR", "SSR", "UR", "HP", "ATK", "Nash", "Pareto", "vs", "ada", "txt",
    "json", "csv", "patch", "Chromium", "Wilson",
    "TEST",   # the test set's code: an identifier shown beside its name, as card codes are
}
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
        chunk = re.sub(CARD_CODE, " ", chunk)
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


def test_every_chart_keeps_its_labels_inside_and_apart(browser, pages):
    base, site = pages
    problems, seen = [], set()
    for locale in ("en-GB", "zh-CN"):
        for width in (1280, 390):
            context, page = _logged_in(browser, base, locale=locale, width=width)
            for site_page in site:
                page.goto(base + site_page.path)
                page.evaluate(OPEN_DETAILS)
                charts = page.locator("body").evaluate(CHART_TEXTS)
                if not charts:
                    continue
                seen.add(site_page.name)
                for found in layout_problems(charts):
                    problems.append(f"{site_page.name} ({locale}, {width} px): {found}")
                folder = ARTIFACTS / "charts"
                folder.mkdir(parents=True, exist_ok=True)
                for n, chart in enumerate(page.locator("svg.chart").all()):
                    chart.screenshot(path=str(folder / f"{site_page.name.replace(' ', '-')}"
                                                       f"-{locale[:2]}-{width}-{n}.png"))
            context.close()
    assert CHART_PAGES <= seen, f"pages without their charts: {CHART_PAGES - seen}"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN"])
def test_no_page_shows_a_card_code_where_its_name_belongs(browser, pages, locale):
    base, site = pages
    context, page = _logged_in(browser, base, locale=locale)
    problems = []
    for site_page in site:
        page.goto(base + site_page.path)
        problems += code_problems(site_page.name, page.evaluate(VISIBLE_TEXT))
    context.close()
    assert not problems, "\n".join(problems)


def test_every_page_in_chinese_is_chinese(browser, pages):
    base, site = pages
    context, page = _logged_in(browser, base, locale="zh-CN")
    problems = []
    for site_page in site:
        page.goto(base + site_page.path)
        lang = page.locator("html").get_attribute("lang")
        assert lang is None or lang.lower() == "zh-hans", site_page.name   # None: a fragment
        words = english_words(page.evaluate(VISIBLE_TEXT))
        if words:
            problems.append(f"{site_page.name} ({site_page.path}): {' '.join(sorted(words))}")
    context.close()
    assert not problems, "English words on Chinese pages:\n" + "\n".join(problems)


def test_the_checks_find_english_words_and_codes():
    """The checks themselves, on text made to fail them."""
    assert english_words(["余烬幼犬:attack 从 2 到 3", "Cardlab · API · 30 %", "T-M01"]) \
        == {"attack"}
    assert english_words(["Ada's Dawn 对 Stalker"]) == {"Stalker"}
    assert english_words(["Ada's Endless Crus… 对 Dawn"]) == set()     # a name cut short
    assert code_problems("sweep", ["T-M01.attack = 3"]) == [
        "sweep: a patch in codes: 'T-M01.attack = 3'"]
    assert code_problems("sweep", ["T-M01, T-M03", "T-H01 → T-H02"]) == [
        "sweep: card codes instead of names: 'T-M01, T-M03'",
        "sweep: card codes instead of names: 'T-H01 → T-H02'"]
    assert code_problems("match", ["T-M01", "余烬幼犬 (T-M01)", "T-M01 · 随从"]) == []
    assert code_problems("card", ["T-M01, T-M03"]) == []


PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


@pytest.mark.parametrize("width", [1280, 390])
def test_no_page_is_wider_than_the_window(browser, pages, width):
    """Wide tables scroll in their own box; the page itself never needs a sideways scroll
    (the admin's card page once overflowed a 1280 px window)."""
    base, site = pages
    problems = []
    for locale in ("en-GB", "zh-CN"):
        context, page = _logged_in(browser, base, locale=locale, width=width)
        for site_page in site:
            page.goto(base + site_page.path)
            page.evaluate(OPEN_DETAILS)
            wide, window = page.evaluate(PAGE_WIDTH)
            if wide > window + 1:
                problems.append(f"{site_page.name} ({locale}): {wide} px in a {window} px window")
        context.close()
    assert not problems, "\n".join(problems)
