"""The commit-msg hook refuses a long subject or a message with no body."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location(
    "commit_msg", Path(__file__).resolve().parent.parent / "scripts" / "commit_msg.py")
assert SPEC is not None and SPEC.loader is not None
commit_msg = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(commit_msg)


def test_a_short_subject_with_a_body_passes():
    assert commit_msg.problems("Deck codes in rules\n\nThe format is pure.\n") == []


def test_a_long_subject_and_no_body_are_both_named():
    found = commit_msg.problems("x" * 73 + "\n")
    assert len(found) == 2 and "73 characters" in found[0] and "no body" in found[1]


def test_a_body_needs_the_blank_line_and_comments_do_not_count():
    assert commit_msg.problems("Subject\nno blank line\n") != []
    assert commit_msg.problems("Subject\n\n# a comment git strips\n") != []


def test_merges_git_writes_pass():
    assert commit_msg.problems("Merge branch 'main' into house\n") == []
