"""A pytest plugin that registers a toy keyword as a card designer would — in the engine's
keyword registry, before anything else of the site is imported — for the tests of
``tests/cards/toy_keyword_pages.py`` (run by ``tests/cards/test_new_keyword.py`` in a process of
their own: ``pytest -p tests.toy_keyword``). Loaded as a plugin, this module runs before
pytest-django sets Django up, so every module of the site first sees the registry with the toy
keyword in it, exactly as with a keyword added to ``rules/engine/keywords.py``."""

from __future__ import annotations

from rules.engine.keywords import Keyword, register_keyword

TOY = register_keyword(
    Keyword("stealth", "Stealth", "R4.12",
            "This minion cannot be chosen as the target of an enemy's attack while it sleeps.",
            synonyms=("sneaky",)),
    translations={"zh-hans": {"name": "潜行", "rule": "该随从沉睡时，不能被选为敌方攻击的目标。"}})
