"""One way to translate (docs/languages.md): code outside the translation door never compares a
language code. The door is the modules that pick a language for the reader; every other module
asks them. The modules below that still branch on Chinese are the ones left to move through the
door; their numbers may only go down, and a new branch anywhere fails this test."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# A string literal naming the Chinese language code, as a branch on the reader's language has it.
LANGUAGE_CODE_LITERAL = re.compile(r"""(["'])zh\1""")

# The door: where the reader's language is chosen (cards.language.card_lang) and where the
# rules library's codes become sentences (decks.problem_text).
DOOR = {"cards/language.py": 1, "decks/problem_text.py": 1}

# Left to move through the door (issue 44): the card image's per-language typesetting (its
# labels and the order of its name line), and the query help's example of a search in Chinese
# rules text.
LEFT_TO_MOVE = {
    "cards/art.py": 5,
    "cards/examples.py": 1,
}

SKIPPED_FOLDERS = {".venv", "tests", "build", "var", "staticfiles", "node_modules", "migrations"}


def _language_branches() -> dict[str, int]:
    found = {}
    for path in REPO.rglob("*.py"):
        relative = path.relative_to(REPO)
        if SKIPPED_FOLDERS & set(relative.parts):
            continue
        count = len(LANGUAGE_CODE_LITERAL.findall(path.read_text(encoding="utf-8")))
        if count:
            found[relative.as_posix()] = count
    return found


def test_no_module_outside_the_door_gains_a_language_branch():
    allowed = {**DOOR, **LEFT_TO_MOVE}
    grown = {path: count for path, count in _language_branches().items()
             if count > allowed.get(path, 0)}
    assert not grown, (
        f"{grown}: a new comparison with a language code. Show a game word with "
        "cards.game_words.game_word, a sentence with gettext, a deck problem with "
        "decks.problem_text; see docs/languages.md")


def test_the_list_of_modules_left_to_move_only_shrinks():
    found = _language_branches()
    shrunk = {path: (allowed, found.get(path, 0)) for path, allowed in LEFT_TO_MOVE.items()
              if found.get(path, 0) < allowed}
    assert not shrunk, (
        f"{shrunk} (listed, found): lower the numbers in LEFT_TO_MOVE (or drop the module) so "
        "no branch can come back")
