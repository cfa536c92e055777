"""The site in Chinese, in a real browser (Debian's headless Chromium driven by Playwright):
switch the language in the header, browse the catalogue, build a deck (the live validation
speaks Chinese), download it, sign up and save it, then simulate it on a real Celery worker and
read the result and a replay. Screenshots go to artifacts/zh-*.png for a human to look at."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest

from tests.e2e.network import quiet, track_requests

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PASSWORD = "a-Long-and-unusual-passphrase-42"
# Ten non-UR cards of the test set, three of each: a legal 30-card standard deck.
LEGAL = ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06", "T-M07", "T-I01", "T-I02", "T-I03")
DECK_PAGE = re.compile(r"/decks/(?!build/|import/|compare/)[\w-]+/$")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def site(live_server, settings):
    """The test set in the catalogue and a Celery worker on a queue of this test's own."""
    from celery.contrib.testing.worker import start_worker

    from cards.services import card_set_import
    from config.celery import app
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    queue = f"cardlab-e2e-zh-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue],
                      shutdown_timeout=30):
        yield live_server.url


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"zh-{name}.png"), full_page=True)


def chinese_names() -> dict[str, str]:
    from rules.decks.cardset import TEST_SET, load_card_set

    return {code: card.name_zh for code, card in load_card_set(TEST_SET).cards.items()}


def problems(page) -> list[str]:
    return page.locator("#legality .problem").evaluate_all(
        "items => items.map(li => li.dataset.code)")


def add(page, name: str, times: int) -> None:
    """Press a card's + button (labelled in Chinese) until the deck holds ``times`` more."""
    from playwright.sync_api import expect

    button = page.get_by_role("button", name=f"加入一张{name}", exact=True).first
    count = page.locator(".card-row", has=button).locator(".in-deck span").first
    start = int(count.inner_text())
    for copy in range(start + 1, start + times + 1):
        quiet(page)
        button.click()
        expect(count).to_have_text(str(copy))


@pytest.mark.long
def test_browse_build_validate_download_and_simulate_in_chinese(browser, site, tmp_path):
    from playwright.sync_api import expect

    names = chinese_names()
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  accept_downloads=True, locale="en-GB")
    page = context.new_page()
    track_requests(page)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # An English browser; the header's switcher turns the site Chinese and stays on the page.
    page.goto(f"{site}/cards/?q=k%3Aminion")
    expect(page.get_by_role("heading", name="Card catalogue")).to_be_visible()
    page.get_by_role("button", name="中文").click()
    page.wait_for_url("**/cards/?q=k%3Aminion")
    expect(page.get_by_role("heading", name="卡牌图鉴")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator(".result-summary")).to_contain_text("张卡")
    expect(page.locator(".result-summary")).to_contain_text("类型为随从")
    shot(page, "1-catalogue")

    # A card page: its Chinese name first, its rules text and image in Chinese.
    page.locator(".gallery-card").first.click()
    expect(page.locator("h1")).to_have_text(names["T-M01"])
    expect(page.locator("#card-image svg")).to_contain_text(names["T-M01"])
    expect(page.get_by_role("heading", name="卡牌数据")).to_be_visible()
    shot(page, "2-card")

    # The builder: the live validation speaks Chinese, with the fix for each problem.
    page.get_by_role("link", name="卡组", exact=True).click()
    page.get_by_role("link", name="构建", exact=True).click()
    expect(page.get_by_role("heading", name="卡组构建器")).to_be_visible()
    assert problems(page) == ["hero_missing", "deck_too_small"]
    expect(page.locator("#legality")).to_contain_text("修正：选择一张英雄卡")
    shot(page, "3-builder-empty")
    page.get_by_label("英雄", exact=True).select_option(label=f"{names['T-H01']} (火)")
    expect(page.locator("#deck-status")).to_contain_text(names["T-H01"])
    for code in LEGAL:
        add(page, names[code], 3)
    expect(page.locator("#deck-status")).to_contain_text("30/30")
    expect(page.locator("#legality")).to_contain_text("这副卡组符合标准赛制的所有规则。")
    assert problems(page) == []
    page.get_by_role("button", name="模拟起手").click()
    expect(page.locator("#sample-hand .hand-card")).to_have_count(10)
    shot(page, "4-builder-legal")

    # Download it (no account needed), then sign up and save it.
    with page.expect_download() as info:
        page.locator(".downloads a[data-format='code']").click()
    code_file = tmp_path / info.value.suggested_filename
    info.value.save_as(code_file)
    assert code_file.read_text(encoding="utf-8").strip().isascii()
    page.get_by_text("名称、描述、赛制与可见性").click()
    page.get_by_label("名称").fill("我的晨曦卡组")
    page.get_by_role("button", name="应用").click()
    expect(page.locator("#deck-panel-title")).to_contain_text("我的晨曦卡组")
    page.get_by_role("button", name="登录后保存").click()
    page.wait_for_url("**/accounts/login/**")
    expect(page.get_by_role("heading", name="登录")).to_be_visible()
    page.get_by_role("link", name="注册").last.click()
    page.get_by_label("用户名").fill("xiaoming")
    page.get_by_label("密码", exact=True).fill(PASSWORD)
    page.get_by_label("密码确认").fill(PASSWORD)
    shot(page, "5-sign-up")
    page.get_by_role("button", name="创建账号").click()
    page.wait_for_url("**/decks/build/")
    page.get_by_role("button", name="保存卡组").click()
    page.wait_for_url(DECK_PAGE)
    expect(page.locator(".messages")).to_contain_text("已保存“我的晨曦卡组”（第 1 版）。")
    expect(page.get_by_role("heading", name="我的晨曦卡组", level=1)).to_be_visible()
    shot(page, "6-deck")

    # Simulate it against a starter deck on the worker, watch it finish, read the result.
    page.get_by_test_id("simulate-deck").click()
    expect(page.get_by_role("heading", name="模拟对战", level=1)).to_be_visible()
    page.get_by_label("暮色测试").check()   # a starter deck, by its Chinese name
    page.fill("#id_games", "20")
    page.fill("#id_seed", "5")
    shot(page, "7-simulate-form")
    page.get_by_role("button", name="开始模拟").click()
    page.wait_for_url(re.compile(r"/simulations/[\w-]+/$"))
    expect(page.get_by_test_id("headline")).to_be_visible(timeout=120_000)
    headline = page.get_by_test_id("headline").inner_text()
    assert re.search(r"我的晨曦卡组 在 20 局中的胜率为 \d+(\.\d)?%\(95% 区间", headline), headline
    expect(page.locator("#progress")).to_contain_text("已完成 20 / 20 局")
    assert page.locator("svg.chart").count() == 2
    expect(page.locator("svg.chart").first).to_contain_text("先手")
    shot(page, "8-result")

    # A kept game, turn by turn, narrated in Chinese.
    page.get_by_role("link", name="第 1 局").click()
    page.wait_for_url(re.compile(r"/replays/1/"))
    page.get_by_test_id("next-turn").click()
    expect(page.get_by_test_id("events")).to_contain_text("第 1 回合")
    shot(page, "9-replay")
    context.close()
    assert errors == []
