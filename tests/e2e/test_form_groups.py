"""The forms drawn through the field groups (templates/forms/), in a real browser, at desktop
(1280 px) and phone (390 px) width: the log-in page, the profile's address and the deck import
(the paragraph group, refused), the radio buttons of a simulation's kind (new and patched), a
game's opponent and a balance search's objective (a fieldset named by its legend), the
meta view's ε, a field group laid out as one row with its button, and, in English and Chinese,
the what-if form (live as its choices change, a missing swap-in refused under its list), the
tuning's deck picker (a refused ?deck= under its menu) and the collection import (a refused
line listed, the list kept, its suggestion one click away).

A refused field shows its error in the error colour under its box, its label keeps the page's
text colour (the group is .has-error; .field-error is an error's text only), its box is
outlined, the page is no wider than the window, and axe-core finds no serious or critical
violation.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.axe import axe_problems
from tests.e2e.conftest import CHROMIUM, log_in, shot
from tests.e2e.network import quiet, track_requests
from tests.e2e.test_meta import round_robin  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

WIDTHS = [1280, 390]
STYLE = """el => { const s = getComputedStyle(el);
                   return {color: s.color, border: s.borderTopColor}; }"""


def _refused_field(page, name: str) -> None:
    """The refused field ``name``: its error is shown, in another colour than its label."""
    group = page.locator(f"p.field.has-error:has([name={name}])")
    assert group.count() == 1
    box = group.locator(f"[name={name}]")
    assert box.get_attribute("aria-invalid") == "true"
    error = group.locator(".error-text").first
    assert error.is_visible()
    label = group.locator("label").first
    label_style, error_style = label.evaluate(STYLE), error.evaluate(STYLE)
    body = page.locator("body").evaluate(STYLE)
    assert label_style["color"] == body["color"], "the label is drawn as an error"
    assert error_style["color"] != body["color"], "the error is drawn as plain text"
    assert box.evaluate(STYLE)["border"] == error_style["color"]
    for named in (box.get_attribute("aria-describedby") or "").split():
        assert page.locator(f"#{named}").count() == 1, named


def _fits(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert axe_problems(page) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_refused_log_in_says_so_under_the_empty_field(site, browser, console, width):
    console.allow(r"status of 400")   # a refused form answers 400 on purpose
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    assert page.get_by_label("User name").count() == 1
    assert page.get_by_label("Password").count() == 1
    _fits(page, width)
    page.fill("input[name=username]", "tess")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    _refused_field(page, "password")
    _fits(page, width)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_profile_refuses_an_address_and_keeps_its_help(site, browser, console, width):
    console.allow(r"status of 400")   # a refused form answers 400 on purpose
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    log_in(page, site)
    page.goto(f"{site}/accounts/profile/")
    assert page.locator("label.check input[name=email_challenges]").count() == 1
    _fits(page, width)
    page.fill("input[name=email]", "not an address")
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_load_state()
    _refused_field(page, "email")
    assert page.locator("#id_email_helptext").is_visible()   # it says who sees the address
    _fits(page, width)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_deck_import_labels_its_fields_in_its_own_words(site, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    log_in(page, site)
    page.goto(f"{site}/decks/import/")
    assert page.get_by_label("Read it as").count() == 1
    assert page.locator("#id_deck_format_helptext.muted.small").is_visible()
    _fits(page, width)
    context.close()


RADIO_GROUPS = [("/simulations/new/", "Kind of run", "Round-robin"),
                ("/play/", "Opponent", None),
                ("/balance/new/", "Objective", None),
                ("/simulations/patch/?card=T-M01", "Kind of run", "Gauntlet")]


@pytest.mark.parametrize("width", WIDTHS)
def test_radio_buttons_are_a_group_named_by_its_legend(site, browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    log_in(page, site)
    for path, name, choice in RADIO_GROUPS:
        page.goto(f"{site}{path}")
        group = page.get_by_role("group", name=name, exact=True)
        assert group.count() == 1, path
        radios = group.get_by_role("radio")
        assert radios.count() >= 2, path
        assert group.evaluate("el => el.tagName") == "FIELDSET"
        if choice:
            group.get_by_label(choice).check()
            assert group.get_by_label(choice).is_checked()
        _fits(page, width)
    context.close()


ROW = """form => [...form.querySelectorAll('label, input, button, .field-error')].map(el => {
    const r = el.getBoundingClientRect();
    return {tag: el.tagName, top: Math.round(r.top), bottom: Math.round(r.bottom)};
})"""


@pytest.mark.parametrize("width", WIDTHS)
def test_a_refused_epsilon_says_so_under_its_row(browser, round_robin, console, width):  # noqa: F811
    console.allow(r"status of 400")   # a refused ε answers 400 on purpose
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(f"{round_robin}?epsilon=abc")
    form = page.get_by_test_id("meta-epsilon")
    box = form.locator("input[name=epsilon]")
    assert box.get_attribute("aria-invalid") == "true"
    assert page.locator(f"#{box.get_attribute('aria-describedby')}").is_visible()
    items = {item["tag"]: item for item in form.evaluate(ROW)}
    button, entry, error = items["BUTTON"], items["INPUT"], items["SPAN"]
    assert button["top"] < entry["bottom"] and entry["top"] < button["bottom"]   # one row
    assert error["top"] >= max(button["bottom"], entry["bottom"])   # the error under it
    _fits(page, width)
    context.close()


# --- the what-if form, the tuning's deck picker and the collection import, in both languages --

LOCALES = [("en-GB", "en"), ("zh-CN", "zh-hans")]


def _said(language: str, message) -> str:
    """``message`` as the site says it in ``language``."""
    from django.utils import translation

    with translation.override(language):
        return str(message)


def _announced(page, group, described, text: str) -> None:
    """``described`` (a control, or a fieldset) names its error, which says ``text`` inside its
    group ``group``, in the error colour, the group's label keeping the page's text colour."""
    named = (described.get_attribute("aria-describedby") or "").split()
    for name in named:
        assert page.locator(f"#{name}").count() == 1, name
    errors = [name for name in named if name.endswith("_error")]
    assert len(errors) == 1, named
    error = group.locator(f"#{errors[0]}")
    assert error.is_visible() and error.inner_text().strip() == text
    body = page.locator("body").evaluate(STYLE)
    assert error.locator(".field-error").first.evaluate(STYLE)["color"] != body["color"]
    assert group.locator("label, legend").first.evaluate(STYLE)["color"] == body["color"]


def _reads_well(page, locale: str, width: int, typed: tuple[str, ...] = ()) -> None:
    """The checks of every page (tests/e2e/test_every_page.py): no wider than the window, no
    card code where a name belongs, no English word on a Chinese page but the user's own
    (``typed``, and her name in the header), axe-core clean."""
    from tests.e2e.test_every_page import (
        VISIBLE_TEXT,
        Visit,
        code_problems,
        english_words,
        visit_problems,
    )

    visit = Visit(width, signed_in=True, axe=True, charts=False)
    assert visit_problems(page, "form", locale, visit) == []
    chunks = page.evaluate(VISIBLE_TEXT)
    assert code_problems("form", chunks) == []
    if locale.startswith("zh"):
        assert english_words(chunks) - {"tess", *typed} == set()


def _context(browser, locale: str, width: int):
    return browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                               is_mobile=width < 500)


@pytest.fixture
def played(site) -> str:
    """The address of a played match of the two starter decks of the test set, Tess's."""
    from django.contrib.auth import get_user_model

    from simulations.services import simulation_request
    from tests.simulations.helpers import play_all

    run = simulation_request(user=get_user_model().objects.get(username="tess"),
                             deck_specs=["starter:Dawn Test", "starter:Dusk Test"],
                             kind="match", games=4, agent_a="greedy", agent_b="random",
                             seed=4, chunk_size=4)
    play_all(run)
    return f"{site}{run.get_absolute_url()}"


@pytest.mark.parametrize(("locale", "language"), LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_what_if_form_follows_its_choices_and_refuses_a_missing_swap_in(
        site, played, browser, console, width, locale, language):
    from playwright.sync_api import expect

    from simulations.what_if_form import PICK_A_CARD

    console.allow(r"status of 400")   # a refused what-if answers 400 on purpose
    context = _context(browser, locale, width)
    page = context.new_page()
    track_requests(page)
    log_in(page, site)
    page.goto(played)
    form = page.locator("#what-if-form")
    for name in ("deck", "card_out", "q"):
        assert form.locator(f".field:has(> label[for=id_{name}]) #id_{name}").count() == 1
    assert form.locator("#id_q").get_attribute("aria-describedby") == "id_q_helptext"
    assert page.locator("#id_q_helptext a").is_visible()      # the query language's help
    _reads_well(page, locale, width)
    # Live: the other deck's cards to swap out, then the swap-ins a query finds.
    form.locator("#id_deck").select_option("1")
    expect(form.locator("#id_card_out option[value=T-M09]")).to_have_count(1)
    quiet(page)
    page.locator("#id_card_out").select_option("T-M09")
    quiet(page)
    page.locator("#id_q").fill("a:fire k:minion")
    quiet(page)
    candidates = page.locator("#what-if-candidates fieldset")
    expect(candidates.locator("input[type=radio]")).to_have_count(2)
    assert candidates.locator("legend strong").inner_text()     # the card swapped out, named
    # Run without a swap-in: refused, its list says why, the choices kept.
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    candidates = page.locator("#what-if-candidates fieldset.has-error")
    assert candidates.count() == 1
    _announced(page, candidates, candidates, _said(language, PICK_A_CARD))
    assert page.locator("#id_card_out").input_value() == "T-M09"
    assert page.locator("#id_q").input_value() == "a:fire k:minion"
    _reads_well(page, locale, width)
    candidates.scroll_into_view_if_needed()
    shot(page, f"form-what-if-refused-{locale[:2]}-{width}", full_page=False)
    context.close()


@pytest.mark.parametrize(("locale", "language"), LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_tuning_deck_picker_says_why_it_refused_the_deck_asked_for(
        site, browser, console, width, locale, language):
    from django.http import QueryDict
    from django.utils import translation

    from common.forms import PickForm

    console.allow(r"status of 400")   # a refused deck answers 400 on purpose
    asked = "x" * 201                  # longer than a deck's spec may be
    with translation.override(language):
        _, (refusal,) = PickForm.read(QueryDict(f"deck={asked}"), "deck")
    context = _context(browser, locale, width)
    page = context.new_page()
    log_in(page, site)
    page.goto(f"{site}/balance/tune/new/?deck={asked}")
    picker = page.locator("#id_deck")
    assert picker.get_attribute("aria-invalid") == "true"
    _announced(page, page.locator(".field.has-error:has(#id_deck)"), picker, refusal)
    _reads_well(page, locale, width)
    shot(page, f"form-tuning-picker-refused-{locale[:2]}-{width}", full_page=False)
    # The picker still picks: a deck chosen opens the tuning form for it.
    picker.select_option(index=0)
    page.locator("form.sim-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/balance/tune/new/\?deck="))
    assert page.locator("form.sim-form input[type=hidden][name=deck]").count() == 1
    context.close()


@pytest.mark.parametrize(("locale", "language"), LOCALES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_collection_import_lists_a_refused_line_and_keeps_the_list(
        site, browser, console, width, locale, language):
    from collection.forms import CollectionImportForm

    console.allow(r"status of 400")   # a refused list answers 400 on purpose
    context = _context(browser, locale, width)
    page = context.new_page()
    log_in(page, site)
    page.goto(f"{site}/collection/import/")
    form = page.locator("#own-import-form")
    for name in ("text", "file", "format"):
        assert form.locator(f"p.field:has(> label[for=id_{name}]) #id_{name}").count() == 1
    counts = page.get_by_role(
        "group", name=_said(language, CollectionImportForm.base_fields["mode"].label))
    assert counts.get_by_role("radio").count() == 2
    for radio in counts.get_by_role("radio").all():     # in its label, at its own size
        assert radio.bounding_box()["width"] < 40
    assert counts.evaluate("el => el.tagName") == "FIELDSET"
    _reads_well(page, locale, width)
    page.fill("#id_text", "2x Ember Pupp\n")
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    problems = page.locator(".import-problems[role=alert]")
    assert problems.is_visible() and problems.locator(".line-no").count() == 1
    assert page.locator("#id_text").input_value() == "2x Ember Pupp\n"
    _reads_well(page, locale, width, typed=("Ember", "Pup", "Pupp"))
    shot(page, f"form-collection-import-refused-{locale[:2]}-{width}")
    # The suggestion is a button: one click imports the list with it.
    problems.locator(".fix-button").first.click()
    page.wait_for_url(re.compile(r"/collection/$"))
    context.close()
