"""Play on from a replay's step, in a real browser: on a finished game's replay Tess opens "Play
on from here" at a step of her turn, picks an AI player and starts; the new game's board shows
the same visible position (both heroes' life, her hand, the other hand's size, the minions in
their slots), says where it came from with a link back, and she makes a move. A step of the
set-up shows the button disabled with the reason. axe-core on the replay page (its form open)
and on the new game at 1280 and 390 px, in English and Chinese."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, shot
from tests.e2e.test_play import PASSWORD, _start, site  # noqa: F401

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


def _context(browser, url: str, locale: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale,
                                  extra_http_headers={"Accept-Language": locale})
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
    return context, page


def _clean_at_both_widths(page) -> None:
    from tests.e2e.axe import axe_problems

    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        problems = axe_problems(page)
        assert not problems, (page.url, width, problems)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, (page.url, width, overflow)
    page.set_viewport_size({"width": 1280, "height": 900})


def _finished_game():
    """The game Tess started, played to its end by greedy in both seats (off the page: the
    replay, not the play, is under test here); the step of her turn to play on from."""
    from play.engine.adapter import game_history, history_forget, record_start
    from play.models import PlayGame, PlayStatus
    from rules.ai.agents import make_agent

    record = PlayGame.objects.get()
    game, agent, rng, actions = record_start(record), make_agent("greedy"), random.Random(3), []
    while not game.over:
        chosen = agent.choose(game.view(game.to_move), game.legal_actions(), rng)
        game.apply(chosen)
        actions.append(chosen.to_dict())
    # A version past any the AI's threads could still write at: their stale writes are refused.
    PlayGame.objects.filter(pk=record.pk).update(actions=actions, status=PlayStatus.FINISHED,
                                                 result=game.result, version=1000)
    history_forget()
    record.refresh_from_db()
    snapshots = game_history(record).snapshots
    step = next(k for k, s in enumerate(snapshots)
                if (s["decision"] or {}).get("kind") == "main" and s["active"] == 0
                and s["turn"] >= 5 and s["result"] is None)
    return record, snapshots[step], step


def test_play_on_from_a_replay_step_against_the_ai(browser, site):  # noqa: F811
    context, page = _context(browser, site, "en-GB")
    _start(page, site)
    record, snapshot, step = _finished_game()

    page.goto(f"{site}/play/{record.uid}/replay/?step=0")
    assert page.get_by_test_id("play-on-disabled").is_disabled()
    assert "set-up" in page.get_by_test_id("play-on").inner_text()

    page.goto(f"{site}/play/{record.uid}/replay/?step={step}")
    page.get_by_test_id("play-on-open").click()
    page.select_option("#id_agent", "greedy")
    assert not page.locator("#id_seat").count()            # her own seat, P1
    _clean_at_both_widths(page)
    shot(page, "play-on-form-1280", full_page=False)
    page.get_by_test_id("play-on-start").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))
    assert record.uid not in page.url

    # The same visible position as the replay's step.
    mine, theirs = snapshot["players"]
    assert page.get_by_test_id("hp-me").inner_text() == f"{mine['hp']} HP"
    assert page.get_by_test_id("hp-enemy").inner_text() == f"{theirs['hp']} HP"
    assert page.get_by_test_id("my-hand").locator("[data-testid^=tile-]").count() \
        == len(mine["hand"])
    assert f"Hand: {len(theirs['hand'])} card" in page.get_by_test_id("enemy-hand").inner_text()
    for side, player in (("me", mine), ("enemy", theirs)):
        slots = page.get_by_test_id(f"slots-{side}").locator(".tile:not(.tile-empty)").count()
        assert slots == sum(m is not None for m in player["minions"]), side
    hidden = page.get_by_test_id("slots-enemy").locator(".tile-hidden").count()
    assert hidden == sum(m is not None and not m["public"] for m in theirs["minions"])
    source = page.get_by_test_id("played-on")
    assert f"at step {step}." in source.inner_text()
    assert source.locator("a").get_attribute("href") == \
        f"/play/{record.uid}/replay/?step={step}"
    _clean_at_both_widths(page)

    # She makes a move: ends her turn (past the question about unused energy, if asked).
    board = page.get_by_test_id("board")
    version = board.get_attribute("data-version")
    page.get_by_test_id("command-end").click()
    if page.get_by_test_id("end-warning").is_visible():
        page.get_by_test_id("end-anyway").click()
    page.wait_for_function(
        "v => document.querySelector('[data-testid=board]').dataset.version !== v", arg=version,
        timeout=10_000)
    context.close()

    zh_context, zh = _context(browser, site, "zh-CN")
    zh.goto(f"{site}/play/{record.uid}/replay/?step={step}")
    zh.get_by_test_id("play-on-open").click()
    assert "从第" in zh.get_by_test_id("play-on").inner_text()
    _clean_at_both_widths(zh)
    zh.set_viewport_size({"width": 390, "height": 900})
    zh.get_by_test_id("play-on").scroll_into_view_if_needed()
    shot(zh, "play-on-form-390-zh", full_page=False)
    from play.models import PlayGame

    played = PlayGame.objects.get(played_on_from=record)
    zh.goto(f"{site}/play/{played.uid}/")
    assert "接着打自" in zh.get_by_test_id("played-on").inner_text()
    _clean_at_both_widths(zh)
    zh_context.close()
