"""The lobby and the end of a game between people, in two browsers: Ann makes an open challenge;
it shows in Ben's lobby on /play/ without a reload (format, how long it has waited, who moves
first; her deck hidden); Ben accepts it; on a 390 px phone the clock is one line; Ann concedes
and each board says the outcome from its own seat ("You lost", "你赢了") and what next; Ann
offers a rematch and it shows on the finished game Ben is looking at, marked as a rematch.
axe-core on the lobby and the end of the game at 1280 and 390 px, in English and Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, shot
from tests.e2e.test_play_friend import DAWN, DUSK, _player, site  # noqa: F401

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


def _clean_at_both_widths(page, height: int = 900) -> None:
    from tests.e2e.axe import axe_problems

    size = page.viewport_size
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": height})
        problems = axe_problems(page)
        assert not problems, (page.url, width, problems)
    page.set_viewport_size(size)


def test_strangers_meet_in_the_lobby_and_a_finished_game_says_what_next(browser, site):  # noqa: F811
    ann_context, ann = _player(browser, site, "ann", width=1280, locale="en-GB")
    ben_context, ben = _player(browser, site, "ben", width=390, locale="zh-CN")

    ben.goto(f"{site}/play/")
    assert ben.get_by_test_id("no-open-challenges").count()
    ann.goto(f"{site}/play/challenge/")
    ann.select_option("#id_deck", DAWN)
    ann.select_option("#id_first", "them")
    ann.get_by_test_id("send-challenge").click()
    ann.wait_for_url(re.compile(r"/play/challenges/[\w-]+/$"))

    # It comes into Ben's lobby without a reload, Ann's deck not said.
    ben.get_by_test_id("open-challenge").wait_for(timeout=10_000)
    row = ben.get_by_test_id("open-challenges").inner_text()
    assert "ann" in row and "Dawn" not in row and "你先行动" in row
    _clean_at_both_widths(ben)
    shot(ben, "play-lobby-390-zh", full_page=False)
    ann.goto(f"{site}/play/")
    _clean_at_both_widths(ann)
    ann.go_back()

    ben.get_by_test_id("open-challenge").click()
    ben.wait_for_url(re.compile(r"/play/challenges/[\w-]+/$"))
    assert "ann" in ben.get_by_test_id("who-first").inner_text()
    ben.select_option("#id_deck", DUSK)
    ben.get_by_test_id("accept").click()
    ben.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    game_url = ben.url
    ann.wait_for_url(game_url, timeout=10_000)

    # On the phone the clock is one line above the board.
    ben.get_by_test_id("play-clock").wait_for(timeout=10_000)
    height = ben.evaluate("() => document.querySelector('[data-testid=play-clock]')"
                          ".getBoundingClientRect().height")      # read at once: the board
    assert 0 < height < 48, height                                  # may be put in anew

    # Ann concedes: each board says the outcome from its own seat, and what next.
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.get_by_test_id("concede").click()
    ann.get_by_test_id("outcome").wait_for(timeout=10_000)
    assert ann.get_by_test_id("outcome").inner_text() == "You lost"
    ben.get_by_test_id("outcome").wait_for(timeout=10_000)
    assert ben.get_by_test_id("outcome").inner_text() == "你赢了"
    for page in (ann, ben):
        assert page.get_by_test_id("back-to-lobby").count()
        assert page.get_by_test_id("end-replay").count()

    # Ann offers a rematch: it shows on the finished game Ben is looking at.
    ann.get_by_test_id("rematch").click()
    ann.wait_for_url(re.compile(r"/play/challenges/[\w-]+/$"))
    ben.get_by_test_id("rematch-offer").wait_for(timeout=10_000)
    assert "ann" in ben.get_by_test_id("rematch-offer").inner_text()
    shot(ben, "play-end-rematch-390-zh", full_page=False)
    _clean_at_both_widths(ben)
    ann.goto(game_url)
    assert ann.get_by_test_id("rematch-waiting").count()
    _clean_at_both_widths(ann)
    ben.get_by_test_id("rematch-answer").click()
    ben.wait_for_url(re.compile(r"/play/challenges/[\w-]+/$"))
    assert ben.get_by_test_id("challenge-rematch").count()
    ann_context.close()
    ben_context.close()
