"""The rules library reports a problem as a sentence template and its parameters
(``rules.localized.Sentence``), never as text in a language; the site says it in the reader's
language through gettext (``cards.game_words.say``). A refused card, patch, ruleset or card set
file reads in Chinese on a Chinese page, and every template the library marks is translated."""

from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest
from django.utils import translation

from cards.game_words import say, says
from rules.decks.cardset import CardSetError, load_card_set
from rules.engine.cards import CardDataError, Ruleset
from rules.lab.patches import Patch, PatchError
from rules.localized import Sentence

REPO = Path(__file__).resolve().parent.parent
CATALOGUE = REPO / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def _marked_templates() -> dict[str, str]:
    """Every ``gettext_noop("…")`` of the rules library: {template: where}."""
    found = {}
    for path in (REPO / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "gettext_noop" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found[node.args[0].value] = f"{path.relative_to(REPO)}:{node.lineno}"
    return found


def test_every_sentence_the_rules_library_marks_is_translated():
    templates = _marked_templates()
    assert len(templates) > 70       # validation, card sets, rulesets, games, snapshots, patches
    translated = {entry.msgid: entry.msgstr for entry in polib.pofile(str(CATALOGUE))
                  if entry.translated() and "fuzzy" not in entry.flags}
    missing = {template: where for template, where in templates.items()
               if template not in translated}
    assert not missing, f"{missing}: run python -m config.translations extract and translate"


def test_a_sentence_is_english_for_the_command_line_and_the_readers_language_on_a_page():
    with pytest.raises(PatchError) as caught:
        Patch.from_dict({"name": "", "changes": [{"card": "C001", "field": "colour"}]})
    problems = caught.value.problems
    assert all(isinstance(problem, Sentence) for problem in problems)
    assert str(problems[0]) == "name: give the patch a name (at most 100 characters)."
    with translation.override("zh-hans"):
        assert say(problems[0]) == "name：给补丁起个名字（最多 100 个字符）。"
        assert "changes[0].field：'colour' 不能修改" in says(problems)


def test_a_refused_ruleset_and_card_set_file_read_in_chinese():
    with pytest.raises(CardDataError) as ruleset:
        Ruleset.from_dict({"turn_limit": 0, "colour": 1})
    with pytest.raises(CardSetError) as card_set:
        load_card_set({"set": {"code": "X"}, "factions": [{"name_en": "No code"}],
                       "cards": [], "decks": []})
    with translation.override("zh-hans"):
        assert say(ruleset.value.problems[0]) == "未知的规则集选项 'colour'"
        assert say(card_set.value.problems[0]) == "factions[0]: 需要代码"


def test_a_card_kind_in_a_problem_is_named_in_the_readers_language():
    from rules.engine.ability_language import validate_card

    problems = validate_card({"code": "X", "kind": "item", "cost": 1, "hp": 3})
    assert str(problems[0]) == "card X.hp: item cards have no hp"
    with translation.override("zh-hans"):
        assert say(problems[0], path=False) == "道具没有 hp"


@pytest.mark.django_db
def test_a_simulation_with_a_bad_patch_says_so_in_chinese(alice, catalogue):
    from rest_framework.test import APIClient

    from tests.simulations.helpers import DAWN, DUSK

    api = APIClient()
    api.force_authenticate(alice)
    response = api.post("/api/simulations/", {
        "decks": [DAWN, DUSK], "games": 2,
        "patch": {"name": "p", "changes": [{"card": "T-M01", "field": "cost", "value": -1}]}},
        format="json", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 400
    assert "card T-M01.cost: 不能为负数" in str(response.json())
