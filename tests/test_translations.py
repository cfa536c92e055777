"""The Chinese catalogue is complete and compiled: every string the site marks for translation
has a reviewed translation, and the committed ``.mo`` says what its ``.po`` says.

A contributor who adds a string and forgets to translate it, leaves a fuzzy guess from
``makemessages``, or edits a ``.po`` without compiling it, sees one of these tests fail."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
# Folders that hold no source of the site's own (installed packages, runtime state, outputs).
NOT_SOURCE = [".venv", "var", "staticfiles", "artifacts", "build", "node_modules", "tests"]


def _key(entry) -> tuple[str, str]:
    return entry.msgctxt or "", entry.msgid


def _problems(po: polib.POFile) -> list[str]:
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        elif not entry.translated():
            problems.append(f"untranslated: {entry.msgid!r}")
    return problems


def test_the_site_has_a_chinese_catalogue():
    assert LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po" in CATALOGUES


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_every_entry_is_translated_and_none_is_fuzzy(path):
    problems = _problems(polib.pofile(str(path)))
    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_the_compiled_catalogue_matches_its_source(path):
    mo_path = path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path.relative_to(ROOT)} is missing: compile the catalogue"
    po = {_key(e): e.msgstr_plural or e.msgstr for e in polib.pofile(str(path))
          if e.translated() and not e.obsolete}
    mo = {_key(e): e.msgstr_plural or e.msgstr for e in polib.mofile(str(mo_path)) if e.msgid}
    assert mo == po, (f"{mo_path.relative_to(ROOT)} is out of date with its .po: run "
                      "`python -m config.translations compile`")


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_every_marked_string_is_in_the_catalogue(tmp_path, monkeypatch):
    """Extract the strings afresh (as ``makemessages`` does) and check each has a translation:
    a string marked in a template or module but never added to the .po fails here.

    It runs on a copy of the source: makemessages writes to every ``locale`` folder above the
    files it reads, so run in place it would rewrite the real catalogue."""
    source = tmp_path / "src"
    skip = {*NOT_SOURCE, "locale"}
    for path in ROOT.iterdir():
        if path.is_dir() and path.name not in skip and not path.name.startswith("."):
            shutil.copytree(path, source / path.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    shutil.copytree(LOCALE, source / "locale", ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.chdir(source)
    with override_settings(LOCALE_PATHS=[source / "locale"]):
        call_command("makemessages", locale=["zh_Hans"], ignore_patterns=NOT_SOURCE,
                     no_obsolete=True, verbosity=0)
    extracted = polib.pofile(str(source / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"))
    problems = _problems(extracted)
    assert not problems, ("strings marked for translation but not translated in "
                          "locale/zh_Hans/LC_MESSAGES/django.po (run "
                          "`python -m config.translations extract`, translate, compile):\n"
                          + "\n".join(problems))


def test_no_gettext_tools_are_needed_to_serve_the_translations():
    """The committed .mo files are what Django reads: a bare machine needs no msgfmt."""
    env = {**os.environ, "PATH": "/nonexistent"}
    code = ("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'config.settings'); django.setup(); from django.utils import translation; "
            "translation.activate('zh-hans'); print(translation.gettext('Cards'))")
    out = subprocess.run([os.sys.executable, "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "卡牌"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_gettext_accepts_the_catalogue(path, tmp_path):
    """GNU msgfmt's own checks (duplicates, placeholders a translation dropped or invented),
    so `compilemessages` works on the catalogue too."""
    out = subprocess.run(["msgfmt", "--check-format", "--check-domain", "-o",
                          str(tmp_path / "django.mo"), str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
