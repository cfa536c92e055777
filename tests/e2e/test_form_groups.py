"""The forms drawn through the field groups (templates/forms/), in a real browser, at desktop
(1280 px) and phone (390 px) width: the log-in page, the profile's address and the deck import
(the paragraph group, refused), the radio buttons of a simulation's kind (new and patched), a
game's opponent and a balance search's objective (a fieldset named by its legend), and the
meta view's ε, a field group laid out as one row with its button.

A refused field shows its error in the error colour under its box, its label keeps the page's
text colour (the group is .has-error; .field-error is an error's text only), its box is
outlined, the page is no wider than the window, and axe-core finds no serious or critical
violation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.axe import axe_problems
from tests.e2e.conftest import CHROMIUM, log_in
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
