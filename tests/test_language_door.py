"""One way to translate (docs/languages.md): code and templates outside the translation door
never compare a language code. The door is the module that picks a language for the reader and
reads the rules library's data form; every other module asks it, and a new branch anywhere
fails this test."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# A string literal naming the Chinese language code (``"zh"``, ``"zh-hans"``), as a branch on
# the reader's language has it.
LANGUAGE_CODE_LITERAL = re.compile(r"""(["'])zh(?:-hans)?\1""")
# In a template: a literal naming a site language (``'zh-hans'``, ``"en"``), or a comparison
# with the active language (``LANGUAGE_CODE == …``).
TEMPLATE_LANGUAGE_BRANCH = re.compile(
    r"""(["'])(?:zh|zh-hans|zh-Hans|en)\1|LANGUAGE_CODE\s*(?:==|!=)\s*(["'])""")

# The door: where the reader's language is chosen and the rules library's data form (a column
# per language: ``name_en``, ``name_zh``) is read (common.language.DATA_COLUMNS).
DOOR = {"common/language.py": 2}
# Where a language is named rather than branched on: the site's LANGUAGES, and the keyed
# fields' help text and documentation showing their form ({"en": …, "zh-hans": …}).
DECLARATIONS = {"config/settings.py": 1, "cards/models.py": 1, "decks/models.py": 1,
                "rules/localized.py": 1}

SKIPPED_FOLDERS = {".venv", "tests", "build", "var", "staticfiles", "node_modules", "migrations"}


def _language_branches() -> dict[str, int]:
    found = {}
    scanned = [(path, LANGUAGE_CODE_LITERAL) for path in REPO.rglob("*.py")]
    scanned += [(path, TEMPLATE_LANGUAGE_BRANCH) for pattern in ("*.html", "*.svg", "*.txt")
                for path in (REPO / "templates").rglob(pattern)]
    scanned += [(path, TEMPLATE_LANGUAGE_BRANCH) for path in REPO.glob("*/templates/**/*.html")]
    for path, branch in scanned:
        relative = path.relative_to(REPO)
        if SKIPPED_FOLDERS & set(relative.parts):
            continue
        count = len(branch.findall(path.read_text(encoding="utf-8")))
        if count:
            found[relative.as_posix()] = count
    return found


def test_no_module_outside_the_door_gains_a_language_branch():
    grown = {path: count for path, count in _language_branches().items()
             if count > {**DOOR, **DECLARATIONS}.get(path, 0)}
    assert not grown, (
        f"{grown}: a new comparison with a language code. Show a game word with "
        "cards.game_words.game_word, a sentence with gettext, a deck problem with "
        "decks.problem_text; see docs/languages.md")
