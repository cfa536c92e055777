"""manage.py validate_deck, export_deck and bench_deck_validation, as a user runs them."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import CommandError, call_command

from rules.decks.cardset import TEST_SET

LEGAL_TEXT = ("Deck: Ember Rush\nHero: Flame Warden\n3x Ember Pup\n3x Thorn Boar\n3x Reef Guard\n"
              "3x Dawn Squire\n3x Dusk Stalker\n3x Ash Phoenix\n3x Grave Whisper\n3x Fire Bolt\n"
              "3x Second Wind\n3x Battle Cry\n")


def run(*args) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    except CommandError as exc:
        code = exc.returncode
        err.write(str(exc))
    return code, out.getvalue(), err.getvalue()


def test_validate_deck_exit_0_for_a_legal_deck(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text(LEGAL_TEXT, encoding="utf-8")
    code, out, _ = run("validate_deck", str(path))
    assert code == 0 and out.strip() == f"{path}: Ember Rush (30 cards, Standard): legal."


def test_validate_deck_exit_1_prints_every_problem_with_its_fix(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text("Hero: Flame Warden\n2x Night Wyrm\n", encoding="utf-8")
    code, out, _ = run("validate_deck", str(path))
    assert code == 1
    assert "2 problem(s):" in out
    assert ("[deck_too_small, R5.2] The deck has 2 cards; the Standard format needs exactly 30. "
            "Fix: add 28 more cards.") in out
    assert "[copy_limit, R5.3] Night Wyrm: 2 copies — UR cards are limited to 1." in out


def test_validate_deck_exit_2_for_an_unreadable_file(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text("3x Embr Pup\n", encoding="utf-8")
    code, _, err = run("validate_deck", str(path))
    assert code == 2 and "line 1: No card is called 'Embr Pup'. Did you mean 'Ember Pup'?" in err
    assert run("validate_deck", str(tmp_path / "missing.txt"))[0] == 2
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert run("validate_deck", str(binary))[0] == 2


def test_validate_deck_against_a_card_set_file_needs_no_catalogue(tmp_path, db):
    path = tmp_path / "deck.txt"
    path.write_text(LEGAL_TEXT.replace("3x Battle Cry", "3x 战吼"), encoding="utf-8")
    code, out, _ = run("validate_deck", str(path), "--cards", str(TEST_SET), "--lang", "zh")
    assert code == 0 and "legal" in out


def test_validate_deck_reads_json_csv_and_codes(tmp_path, catalogue, alice, make_deck):
    deck = make_deck(alice)
    for fmt in ("json", "csv", "code"):
        path = tmp_path / f"deck.{fmt}"
        call_command("export_deck", deck.uid, "--format", fmt, "-o", str(path),
                     stderr=StringIO())
        assert run("validate_deck", str(path))[0] == 0, fmt


def test_export_deck_prints_every_format(catalogue, alice, make_deck):
    deck = make_deck(alice)
    code, out, _ = run("export_deck", deck.uid, "--format", "text")
    assert code == 0 and "Hero: Flame Warden" in out and "3x Ember Pup" in out
    assert json.loads(run("export_deck", str(deck.pk), "--format", "json")[1])["name"] == (
        "Ember Rush")
    code, _, err = run("export_deck", "nope")
    assert code == 1 and "No deck has the id 'nope'" in err


def test_bench_deck_validation_prints_its_figures(catalogue):
    code, out, _ = run("bench_deck_validation", "--runs", "40", "--set", str(TEST_SET),
                       "--json")
    report = json.loads(out)
    assert code == 0 and report["legality"]["runs"] == 40 and report["service"]["runs"] == 20
    assert report["legality"]["median_ms"] > 0


def test_a_deck_uid_never_reads_as_a_command_line_option(monkeypatch):
    from decks import models

    tokens = iter(["-dashfirst12", "plainuid1234"])
    monkeypatch.setattr(models.secrets, "token_urlsafe", lambda n: next(tokens))
    assert models.new_uid() == "plainuid1234"
