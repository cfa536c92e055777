"""Every rule id of rules/RULES.md (the rule-id table, ``rules/engine/rule_ids.py``; a keyword's
id is the R4 line that names it) is proven by at least one test under tests/rules.

A test names the ids it proves in its name (``test_r2_3_3_...`` means R2.3.3) or in a
``Rule: R2.3.3, R4.8`` line of its docstring or of a comment inside it. A parent id (R2, R2.3)
counts as covered when any id below it is. A test naming an id that RULES.md does not have
fails too, so a typo cannot pass for coverage.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules.engine.rule_ids import ID_PATTERN as ID
from rules.engine.rule_ids import rule_table

HERE = Path(__file__).resolve().parent
TEST_NAME = re.compile(r"^test_r(\d+(?:_\d+)*)(?:_|$)")
RULE_LINE = re.compile(rf"Rules?:\s*({ID}(?:\s*(?:,|and|&)\s*{ID})*)")


def id_key(rule_id: str) -> list[int]:
    """Sort key: numbers compared as numbers (R2.3.10 after R2.3.9)."""
    return [int(n) for n in rule_id[1:].split(".")]



def rule_ids() -> list[str]:
    """Every id the living rule book defines (the rule-id table), in book order."""
    return sorted(rule_table(), key=id_key)


def named_ids(source: str) -> set[str]:
    """The rule ids the test functions of one module name (names, docstrings, comments)."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                or not node.name.startswith("test"):
            continue
        match = TEST_NAME.match(node.name)
        if match:
            named.add("R" + match.group(1).replace("_", "."))
        body = ast.get_source_segment(source, node) or ""
        for line in RULE_LINE.findall(body):
            named.update(re.findall(ID, line))
    return named


def covered_ids() -> dict[str, set[str]]:
    """{rule id: test modules naming it}, parents included."""
    covered: dict[str, set[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for rule in named_ids(path.read_text(encoding="utf-8")):
            parts = rule.split(".")
            for n in range(1, len(parts) + 1):
                covered.setdefault(".".join(parts[:n]), set()).add(path.name)
    return covered


def test_rules_md_ids_are_found():
    ids = rule_ids()
    for expected in ("R1", "R1.1", "R2.1", "R2.1.6", "R2.3.10", "R3.3", "R4.0", "R4.11",
                     "R5.4"):
        assert expected in ids
    assert len(ids) > 50


def test_the_parser_reads_names_docstrings_and_comments():
    source = ('def test_r2_3_3_x():\n    """Rule: R4.8, R2.3.4 (words)"""\n'
              'def test_other():\n    # Rule: R1.5\n    pass\n'
              'def helper():\n    """Rule: R3.1"""\n')
    assert named_ids(source) == {"R2.3.3", "R4.8", "R2.3.4", "R1.5"}


def test_every_rule_id_is_named_by_a_test():
    covered = covered_ids()
    missing = [i for i in rule_ids() if i not in covered]
    assert not missing, "rule ids no test names: " + ", ".join(missing)


def test_tests_name_only_ids_that_exist():
    known = set(rule_ids())
    unknown = {rule: sorted(files) for rule, files in covered_ids().items() if rule not in known}
    assert not unknown, f"tests name rule ids that RULES.md does not have: {unknown}"
