"""A spectator, in a third browser: Ann (English, 1280 px) challenges Ben (Chinese, 390 px) and
both let anyone watch; the game shows in Cal's lobby on /play/ without a reload, with a Watch
link; Cal's page shows the board with neither hand nor any face-down minion (checked against
the game's true state), the game so far, no control; the players' boards count Cal, live; a
move reaches Cal's page without a reload; a player opening the spectator's address is at their
own seat; when Ben stops allowing spectators Cal's page says so. axe-core on the spectator's
page at 1280 and 390 px in English and Chinese, and no horizontal overflow at 390 px.

The test server is the production door (``config.asgi`` under uvicorn): every stream, Cal's
too, waits as a coroutine woken by the process's watcher."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, shot
from tests.e2e.test_play_friend import (  # noqa: F401
    DAWN,
    DUSK,
    _mover,
    _play_unless_the_clock_ends_the_turn,
    _player,
    site,
)
from tests.e2e.test_play_lobby import _clean_at_both_widths
from tests.play.test_spectator_leaks import hidden_cards, leaks

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


def _watchers_read(page, count: int) -> None:
    page.wait_for_function(
        f"() => [...document.querySelectorAll('[data-watchers]')]"
        f".some(el => el.textContent.trim() === '{count}')", timeout=10_000)


def _sees_no_hidden_card(page, record) -> None:
    record.refresh_from_db()
    shown = page.locator("main").inner_text()
    assert not leaks(shown, record, hidden_cards(record))
    assert page.locator("#watch-board form, #watch-board button").count() == 0   # no control


def _fits(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= \
        page.evaluate("() => document.documentElement.clientWidth")


def test_a_spectator_watches_live_and_sees_neither_hand(browser, site):  # noqa: F811
    from django.contrib.auth import get_user_model

    from play.models import PlayGame
    from tests.e2e.test_play import PASSWORD

    get_user_model().objects.create_user("cal", password=PASSWORD)
    ann_context, ann = _player(browser, site, "ann", width=1280, locale="en-GB")
    ben_context, ben = _player(browser, site, "ben", width=390, locale="zh-CN")
    cal_context, cal = _player(browser, site, "cal", width=1280, locale="en-GB")
    cal.goto(f"{site}/play/")
    assert cal.get_by_test_id("no-watch-games").count()

    # Ann challenges Ben and lets anyone watch; Ben accepts and lets them too.
    ann.goto(f"{site}/play/challenge/")
    ann.fill("#id_opponent", "ben")
    ann.select_option("#id_deck", DAWN)
    ann.select_option("#id_first", "me")
    ann.check("#id_spectators")
    ann.get_by_test_id("send-challenge").click()
    ann.wait_for_url(re.compile(r"/play/challenges/[\w-]+/$"))
    ben.goto(ann.url)
    ben.select_option("#id_deck", DUSK)
    ben.check("#id_spectators")
    ben.get_by_test_id("accept").click()
    ben.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    game_url = ben.url
    ann.wait_for_url(game_url, timeout=10_000)
    record = PlayGame.objects.get()
    assert record.watchable

    # It comes into Cal's lobby without a reload; Cal opens it.
    cal.get_by_test_id("watch-link").wait_for(timeout=10_000)
    row = cal.get_by_test_id("watch-game").inner_text()
    assert "ann" in row and "ben" in row and "turn" in row and "watching" in row
    _clean_at_both_widths(cal)
    cal.get_by_test_id("watch-link").click()
    cal.wait_for_url(f"{game_url}watch/")
    cal.get_by_test_id("watch").wait_for()
    _sees_no_hidden_card(cal, record)
    assert cal.get_by_test_id("events").locator("li").count() >= 1     # the game so far

    # The players count Cal, live.
    _watchers_read(ann, 1)
    _watchers_read(ben, 1)

    # A move reaches Cal's page without a reload, and still shows no hidden card.
    for _ in range(3):
        steps = int(cal.get_by_test_id("watch").get_attribute("data-steps"))
        _play_unless_the_clock_ends_the_turn(_mover([ann, ben]), record)
        cal.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=watch]')?.dataset.steps)"
            f" > {steps}", timeout=10_000)
        _sees_no_hidden_card(cal, record)
    _watchers_read(cal, 1)

    _clean_at_both_widths(cal)
    cal.set_viewport_size({"width": 390, "height": 900})
    _fits(cal)
    shot(cal, "play-watch-390", full_page=False)
    cal.locator(".lang-switch button[lang^=zh]").click()          # the header's switcher
    cal.wait_for_function("() => document.querySelector('h1')?.textContent.includes('观战')")
    cal.get_by_test_id("watch").wait_for()
    _fits(cal)
    _clean_at_both_widths(cal)
    cal.set_viewport_size({"width": 1280, "height": 900})
    shot(cal, "play-watch-1280-zh", full_page=False)
    cal.goto(f"{site}/play/")                                 # the lobby in Chinese
    assert "观战" in cal.get_by_test_id("watch-game").inner_text()
    _clean_at_both_widths(cal)
    cal.get_by_test_id("watch-link").click()
    cal.get_by_test_id("watch").wait_for()

    # A player opening the spectator's address is at their own seat.
    ann.goto(f"{game_url}watch/")
    assert ann.url == game_url and ann.get_by_test_id("board").count()

    # Ben stops allowing spectators: Cal's page says so at once.
    ben.get_by_test_id("spectators-stop").click()
    ben.get_by_test_id("spectators-allow").wait_for(timeout=10_000)
    cal.wait_for_selector("[data-testid=watch-status][data-closed]", timeout=10_000)
    record.refresh_from_db()
    assert not record.watchable
    for context in (ann_context, ben_context, cal_context):
        context.close()
