"""What a person reads about a run: the ruleset in sentences, the replay log with names (never
card codes), players labelled P1/P2 like the board, keywords by their printed names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cards.rulesets import ruleset_words
from rules.engine import replay_states
from rules.engine.cards import CardDef, Ruleset
from rules.engine.ruleset_words import RULESET_OPTIONS
from simulations.replays.board import _segments
from simulations.replays.text import Describer
from simulations.services import simulation_request
from tests.simulations.helpers import DAWN, DUSK, play_all

ENGINE = Path(__file__).resolve().parents[2] / "rules" / "engine"


@pytest.fixture(autouse=True)
def _english():
    """The sentences in English, whatever language an earlier request left active."""
    from django.utils import translation

    with translation.override("en"):
        yield
CODE = re.compile(r"\bT-[HMI]\d\d\b")


def engine_event_kinds() -> set[str]:
    """Every event kind the engine can log, read from its source."""
    kinds = set()
    for module in ENGINE.glob("*.py"):
        # ``event(game, "kind", …)`` (rules/engine/core.py), whatever the state is called
        kinds |= set(re.findall(r'\bevent\(\w+, "([a-z_]+)"', module.read_text(encoding="utf-8")))
    return kinds | {"action"}


def test_every_engine_event_has_a_sentence():
    kinds = engine_event_kinds()
    assert {"ability", "combat", "game_over", "keyword_removed"} <= kinds
    assert kinds <= set(Describer({}).texts()), kinds - set(Describer({}).texts())


def test_an_ability_names_its_card_and_the_player_as_the_board_does():
    describe = Describer({"C7": "Admiral Ironhull"})
    line = describe({"t": "ability", "player": 1, "source": "C7", "trigger": "turn_end"})
    assert line == "P2's Admiral Ironhull: end-of-turn ability."
    assert describe({"t": "keyword_granted", "card": "C7", "keyword": "react"}) == \
        "Admiral Ironhull gains Re-act."


@pytest.mark.django_db
def test_a_whole_game_reads_in_names_and_sentences(alice, catalogue):
    run = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=4)
    play_all(run)
    sample = run.samples.first()
    defs = {code: CardDef.from_dict(data) for code, data in run.cards.items()}
    names = {code: data["name_en"] for code, data in run.cards.items()}
    states = list(replay_states(sample.log, defs))
    lines = []
    for step, events in enumerate(_segments(sample.log)):
        describe = Describer(names, states[step - 1] if step else {})
        lines += [describe(event) for event in events]
    text = "\n".join(lines)
    assert "▶ P1: " in text and "▶ P2: " in text and "Game over" in text
    assert not CODE.search(text), CODE.search(text)
    assert "player" not in text and "_" not in text
    assert re.search(r"▶ P[12]: (places|attacks|awakens|uses|ends)", text)


def test_the_standard_ruleset_is_one_sentence():
    assert ruleset_words({"name": "standard"}).summary == "Standard rules, as in the rule book."
    words = ruleset_words({"name": "standard", "hero_advantage": True, "turn_limit": 30})
    assert words.changes == [] and len(words.every) == len(Ruleset().to_dict()) - 1


def test_every_ruleset_option_has_a_sentence():
    for option in Ruleset().to_dict():
        assert option == "name" or option in RULESET_OPTIONS, option


def test_a_changed_ruleset_says_what_differs_in_words():
    words = ruleset_words({"name": "no-advantage", "hero_advantage": False, "turn_limit": 20})
    assert words.summary == ("No-advantage rules: attribute advantage does not count against "
                             "heroes (R2.3.10); a draw after 20 turns per player (R2.2.6).")
    assert not any("_" in sentence for sentence in words.every)


@pytest.mark.django_db
def test_the_run_page_shows_the_ruleset_in_words(client, alice, catalogue):
    run = simulation_request(user=alice, deck_specs=[DAWN, DUSK], kind="match", games=4,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=4)
    client.force_login(alice)
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Standard rules, as in the rule book." in page
    assert "hero_advantage" not in page and "attack_or_skill" not in page


@pytest.mark.django_db
def test_card_pages_name_keywords_as_printed(client, catalogue):
    page = client.get("/cards/T-M05/").content.decode()
    assert ">Re-act</a>" in page and ">react</a>" not in page


def test_an_optional_skill_reads_as_used_or_declined_in_both_languages():
    """Rule R6.1: the answer names the card and the skill offered, from the decision."""
    from django.utils import translation

    before = {"decision": {"kind": "optional", "player": 1, "card": "C7",
                           "trigger": "last_words"}}
    describe = Describer({"C7": "Admiral Ironhull"}, before)
    assert describe({"t": "action", "player": 1, "kind": "decline"}) == \
        "▶ P2: declines Admiral Ironhull's last-words ability"
    assert describe({"t": "action", "player": 1, "kind": "use"}) == \
        "▶ P2: uses Admiral Ironhull's last-words ability"
    assert describe({"t": "declined", "player": 1, "source": "C7", "trigger": "last_words"}) \
        == "P2's Admiral Ironhull: last-words ability declined."
    with translation.override("zh-hans"):
        assert describe({"t": "action", "player": 1, "kind": "decline"}) == \
            "▶ P2: 放弃发动Admiral Ironhull的战死技"
        assert describe({"t": "declined", "player": 1, "source": "C7",
                         "trigger": "awaken"}) == "P2 的Admiral Ironhull：放弃发动唤醒。"


def test_the_optional_skills_option_has_sentences_both_ways():
    words = ruleset_words({"always_use_optional_skills": True})
    assert words.changes == ["awaken skills and last words always resolve, unasked (R6.1)"]
    assert "a player may decline an awaken skill or last words (R6.1)" in \
        ruleset_words({}).every
