"""python manage.py tune_deck: a tiny tuning of a test-set starter deck prints its progress and
its suggestions with their paired improvement; the same seed prints the same suggestions, and
bad options are refused with a message."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.decks.cardset import TEST_SET

TINY = ["--set", str(TEST_SET), "--deck", "Dawn Test", "--budget-games", "2000",
        "--verify-games", "100", "--max-swaps", "1", "--processes", "1", "--seed", "7"]


def test_the_command_prints_progress_and_suggestions():
    out, err = StringIO(), StringIO()
    call_command("tune_deck", *TINY, stdout=out, stderr=err)
    text = out.getvalue()
    assert "Unchanged: field win rate" in text and "vs Dusk Test" in text
    assert "Suggestion 1:" in text and "McNemar p" in text
    assert not re.search(r"\bT-[HMI]\d\d\b", text)             # card names, not codes
    again = StringIO()
    call_command("tune_deck", *TINY, "--json", stdout=again)
    data = json.loads(again.getvalue())
    assert data["opponents"] == ["Dusk Test"] and data["suggestions"]
    assert data["seed"] == 7


def test_bad_options_are_refused():
    with pytest.raises(CommandError, match="--max-swaps"):
        call_command("tune_deck", *TINY[:-4], "--max-swaps", "9", stdout=StringIO())
    with pytest.raises(CommandError, match="unknown deck"):
        call_command("tune_deck", "--set", str(TEST_SET), "--deck", "Nope", stdout=StringIO())


def test_the_command_tunes_against_a_patched_pool_and_a_weighted_field(tmp_path):
    patch = tmp_path / "patch.json"
    patch.write_text(json.dumps({"name": "Boar +2", "changes": [
        {"card": "T-M02", "field": "attack", "value": 5}]}))
    out = StringIO()
    call_command("tune_deck", *TINY, "--patch", str(patch), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["patch"]["diff"][0]["card"] == "T-M02"
    assert data["patch"]["diff"][0]["new"] == 5
    plain = StringIO()
    call_command("tune_deck", *TINY, "--json", stdout=plain)
    assert json.loads(plain.getvalue())["baseline"] != data["baseline"]   # other cards, games
    text = StringIO()
    call_command("tune_deck", *TINY, "--patch", str(patch), stdout=text)
    assert text.getvalue().startswith("Patched: ")
    shared = StringIO()
    call_command("tune_deck", *TINY, "--shares", "2", "--json", stdout=shared)
    assert json.loads(shared.getvalue())["shares"] == [1.0]
    with pytest.raises(CommandError, match="--shares"):
        call_command("tune_deck", *TINY, "--shares", "1,1", stdout=StringIO())
    with pytest.raises(CommandError, match="--patch"):
        call_command("tune_deck", *TINY, "--patch", str(tmp_path / "none.json"),
                     stdout=StringIO())
