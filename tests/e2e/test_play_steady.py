"""The table stays put at 1280 px while the AI's turn plays out: the hand along the bottom is
where it was when the turn was ended, though cards went on display and the AI's hand shrank
(it drifted 6-30 px as the display zone's line came and went and the bar under the board
changed height)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.test_play import _log_in, _play_on_board, _start, _wait_for_decision, site  # noqa: F401

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

HAND_TOP = ("() => Math.round(document.querySelector('[data-testid=my-hand]')"
            ".getBoundingClientRect().top + window.scrollY)")


def test_the_hand_does_not_move_as_the_ais_turn_is_shown(browser, site):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    _start(page, site)
    turns: list[tuple[int, int]] = []
    clicks = 0
    while _wait_for_decision(page) == "act" and clicks < 120:
        before = page.evaluate(HAND_TOP)
        kind = _play_on_board(page)
        clicks += 1
        if kind == "end" and _wait_for_decision(page) == "act":
            turns.append((before, page.evaluate(HAND_TOP)))
    assert len(turns) >= 2, turns
    moved = [(before, after) for before, after in turns if before != after]
    assert not moved, f"the hand moved after {len(moved)} of {len(turns)} AI turns: {moved}"
