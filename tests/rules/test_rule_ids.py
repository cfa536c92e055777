"""The rule-id table (``rules/engine/rule_ids.py``): every id of the living rule book is
defined once, every keyword owns the R4 line that names it, and every id the code, templates,
translations and docs cite is one the book defines."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rules.engine.keywords import Keyword, all_keywords
from rules.engine.rule_ids import (
    CITED_ID,
    DuplicateRuleId,
    cited_ids,
    keyword_id_problems,
    parse_rule_book,
    rule_table,
)

ROOT = Path(__file__).resolve().parents[2]
# Tests register toy keywords and effects under ids no book has (R4.99, R9.99), and the guide
# to adding a keyword shows one that is not in the book yet (R4.12, stealth).
NOT_SCANNED = ("tests/", "docs/adding-terms.md")
SCANNED_SUFFIXES = {".py", ".md", ".html", ".txt", ".po", ".js", ".yaml", ".json"}


def test_the_table_reads_headings_and_bold_lead_ins():
    table = rule_table()
    assert table["R2"].title == "Flow of a game"
    assert table["R2.3.3"].title == "Advantage multiplier"
    assert table["R4.8"].title == "Shield"
    assert table["R4.11"].title == "Choose"
    assert table["R3.1"].title == ""
    assert len(table) > 60


def test_an_id_defined_twice_is_refused_with_both_lines():
    book = "## R1 Components\n- **R1.1 Zones.** Five slots.\n- **R1.1 Hands.** Ten cards.\n"
    with pytest.raises(DuplicateRuleId, match=r"R1\.1 is defined twice in the rule book: "
                                              r"lines 2 and 3"):
        parse_rule_book(book)


def test_a_citation_inside_a_sentence_defines_nothing():
    book = "- **R2.3.8 Dying.** A dying minion with regenerate (R4.10) revives; see **R4.3**.\n"
    assert list(parse_rule_book(book)) == ["R2.3.8"]


def test_every_keyword_owns_the_r4_line_that_names_it():
    """Rule: R4.8, R4.9, R4.10"""
    assert keyword_id_problems(all_keywords()) == []
    for keyword in all_keywords():
        assert rule_table()[keyword.rule].title.casefold() == keyword.name_en.casefold()


def test_a_keyword_citing_another_terms_id_is_caught():
    """A keyword registered as R4.11 (which the book gives to Choose) would list two R4.11
    entries on the vocabulary page."""
    toy = Keyword("stealth", "Stealth", "R4.11")
    assert keyword_id_problems([*all_keywords(), toy]) == [
        f"keyword 'stealth' cites R4.11, which RULES.md gives to 'Choose' "
        f"(line {rule_table()['R4.11'].line})"]


def test_a_keyword_citing_an_id_the_book_lacks_or_anothers_is_caught():
    unknown = Keyword("stealth", "Stealth", "R4.12")
    twin = Keyword("guard", "Shield", "R4.8")
    problems = keyword_id_problems([*all_keywords(), unknown, twin])
    assert problems == [
        "keyword 'stealth' cites R4.12, which RULES.md does not define: add its line to R4 first",
        "keywords 'shield' and 'guard' both cite R4.8"]


def test_cited_ids_keep_order_without_repeats():
    assert cited_ids("R2.3.3 then R4.8 (R2.3.3 again), R2.10") == ["R2.3.3", "R4.8", "R2.10"]


def test_every_id_the_project_cites_is_in_the_rule_book():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    table = rule_table()
    unknown: dict[str, list[str]] = {}
    for name in files:
        path = ROOT / name
        if path.suffix not in SCANNED_SUFFIXES or name.startswith(NOT_SCANNED) \
                or not path.is_file():
            continue
        for rule_id in CITED_ID.findall(path.read_text(encoding="utf-8", errors="replace")):
            if rule_id not in table:
                unknown.setdefault(rule_id, []).append(name)
    assert not unknown, f"ids cited but not defined in rules/RULES.md: {unknown}"
