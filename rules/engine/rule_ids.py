"""The rule-id table: every id of the living rule book (``rules/RULES.md``) with its title.

An id is defined once, by its heading (``## R2 Flow of a game``) or by the bold lead-in that
opens a list item (``- **R2.3.3 Advantage multiplier.**``); everything else — a keyword's entry,
a game word, a term's doc, a ruleset option, a test's ``Rule:`` line — only cites ids, and a
cited id must be in this table. A keyword is a term the rule book defines: its entry's id is
the R4 line that names it (``**R4.8 Shield.**``), so a new keyword adds its line to RULES.md and
cites that id; one that cites an id another term owns (R4.11, Choose) fails
``tests/rules/test_rule_ids.py``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.engine.keywords import Keyword

RULES_BOOK = Path(__file__).resolve().parents[1] / "RULES.md"
ID_PATTERN = r"R\d+(?:\.\d+)*"
CITED_ID = re.compile(rf"\b{ID_PATTERN}\b")
_HEADING = re.compile(rf"^#+\s+({ID_PATTERN})\b\s*(.*)$")
_BOLD = re.compile(rf"^\s*[-*]\s+\*\*({ID_PATTERN})\b\s*([^*]*)\*\*")


@dataclass(frozen=True)
class RuleEntry:
    rule_id: str
    title: str            # the heading or bold lead-in after the id ("Shield", "" for "R3.1")
    line: int             # where RULES.md defines it (1-based)


class DuplicateRuleId(ValueError):
    """RULES.md defines one id twice."""


def parse_rule_book(text: str) -> dict[str, RuleEntry]:
    """``{id: entry}`` of a rule book's text, in book order; DuplicateRuleId names an id
    defined twice and both lines."""
    table: dict[str, RuleEntry] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADING.match(line) or _BOLD.match(line)
        if match:
            rule_id, title = match.group(1), match.group(2)
            if rule_id in table:
                raise DuplicateRuleId(f"{rule_id} is defined twice in the rule book: lines "
                                      f"{table[rule_id].line} and {number}")
            table[rule_id] = RuleEntry(rule_id, title.strip().rstrip(".:").strip(), number)
    return table


@lru_cache(maxsize=1)
def rule_table() -> dict[str, RuleEntry]:
    """The living rule book's ids, read once."""
    return parse_rule_book(RULES_BOOK.read_text(encoding="utf-8"))


def cited_ids(text: str) -> list[str]:
    """The ids a text cites, in order, without repeats."""
    found: list[str] = []
    for rule_id in CITED_ID.findall(text or ""):
        if rule_id not in found:
            found.append(rule_id)
    return found


def keyword_id_problems(keywords: Iterable[Keyword]) -> list[str]:
    """What is wrong with the ids keyword entries cite: an id the rule book does not define,
    one whose line names another term (a keyword owns the R4 line that names it), or one two
    keywords cite. Empty when every keyword owns its line."""
    table = rule_table()
    problems: list[str] = []
    owner: dict[str, str] = {}
    for keyword in keywords:
        entry = table.get(keyword.rule)
        if entry is None:
            problems.append(f"keyword {keyword.code!r} cites {keyword.rule}, which RULES.md "
                            "does not define: add its line to R4 first")
        elif entry.title.casefold() != keyword.name_en.casefold():
            problems.append(f"keyword {keyword.code!r} cites {keyword.rule}, which RULES.md "
                            f"gives to {entry.title!r} (line {entry.line})")
        if keyword.rule in owner:
            problems.append(f"keywords {owner[keyword.rule]!r} and {keyword.code!r} both cite "
                            f"{keyword.rule}")
        owner.setdefault(keyword.rule, keyword.code)
    return problems
