"""The rule book page: ``rules/RULES.md`` (English, with the rulings the engine adopts) and
``rules/RULES.<language>.md`` in each other language (``RULES.zh.md``: the original Chinese rule
book), all carrying the same rule ids; a rule book in a further language is one more file.

Each rule's list item gets its id as an HTML anchor (``/rules/#R2.3.1``), and every rule id
mentioned in the text links to its rule, so the two languages link alike."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown

from rules.engine.rule_ids import parse_rule_book
from rules.localized import SOURCE_LANGUAGE, resolve_language

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
SOURCE_BOOK = RULES_DIR / "RULES.md"
ORIGINAL_BOOK = RULES_DIR / "RULES.zh.md"      # the game's own rule book, which RULES.md renders
# {language tag of the file name: rule book}: English's, then each RULES.<tag>.md.
RULE_BOOKS = {SOURCE_LANGUAGE: SOURCE_BOOK,
              **{path.name.split(".")[1]: path for path in sorted(RULES_DIR.glob("RULES.*.md"))}}
RULE_ID = r"R\d+(?:\.\d+)*"
# A rule's own item: "<li><strong>R2.3.1 Attack declaration.</strong>" (its id, then its name).
RULE_ITEM = re.compile(rf"<li>(\s*<p>)?<strong>({RULE_ID})\b")
RULE_HEADING = re.compile(rf"<(h[23])>({RULE_ID})\b")
# A mention elsewhere: "(R4.1)", "see R2.2.3" (ids with a dot; not the rule's own label).
RULE_MENTION = re.compile(r"(?<![\w.#\"'>])(R\d+(?:\.\d+)+)\b")


def rule_ids(text: str) -> list[str]:
    """The ids a rule book defines, in order (the rule-id table's reading: each section and
    each rule's bold label, every id once)."""
    return list(parse_rule_book(text))


@lru_cache(maxsize=4)
def _render(path: Path, mtime: float) -> tuple[str, tuple[tuple[str, str, int], ...]]:
    text = path.read_text(encoding="utf-8")
    # The rule books indent nested lists by two spaces; Python-Markdown nests at four.
    html = markdown.markdown(re.sub(r"^( +)", r"\1\1", text, flags=re.M),
                             extensions=["sane_lists"])
    html = RULE_MENTION.sub(r'<a href="#\1">\1</a>', html)
    html = RULE_ITEM.sub(lambda m: f'<li id="{m.group(2)}">{m.group(1) or ""}'
                               f"<strong>{m.group(2)}", html)
    html = RULE_HEADING.sub(lambda m: f'<{m.group(1)} id="{m.group(2)}">{m.group(2)}', html)
    sections = tuple((rule_id, title.strip(), level) for level, rule_id, title in
                     ((len(hashes), rid, rest) for hashes, rid, rest in
                      re.findall(rf"^(#{{2,3}}) ({RULE_ID})\b(.*)$", text, flags=re.M)))
    return html, sections


def rule_book_language(lang: str) -> str:
    """The tag of the rule book a reader of ``lang`` reads: the book in their language (or its
    primary language: ``zh-hans`` reads ``RULES.zh.md``), else English's."""
    wanted = resolve_language(lang)
    for tag in (wanted, wanted.split("-")[0]):
        if tag in RULE_BOOKS:
            return tag
    return SOURCE_LANGUAGE


def is_original(tag: str) -> bool:
    """Whether the rule book of ``tag`` is the game's original one (not a rendering of it)."""
    return RULE_BOOKS[tag] == ORIGINAL_BOOK


def rule_book(lang: str) -> tuple[str, tuple[tuple[str, str, int], ...]]:
    """The rule book a reader of ``lang`` reads as HTML, and its sections (id, title, level)
    for a table of contents; re-read when the file changes."""
    path = RULE_BOOKS[rule_book_language(lang)]
    return _render(path, path.stat().st_mtime)
