"""The guard rails hold: each check the lint leg runs (.ci/run) catches a mistake planted for it.

- ruff's ``INT`` sees every gettext function the code calls (``extend-function-names``): a
  message built inside ``gettext_lazy(…)`` or ``pgettext(…)`` is caught, not only in ``_()``;
- vulture reads every package of the site (``work/`` too), and its allow-list names each kept
  name with a reason and the modules that hold it — no file:line reference to drift — and
  holds no name vulture would not report without it;
- every commit a push adds is checked by scripts/commit_msg.py in CI, not only by a local hook.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.test_architecture import PACKAGES

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RUFF, VULTURE = ROOT / ".venv" / "bin" / "ruff", ROOT / ".venv" / "bin" / "vulture"
GETTEXT_FAMILY = re.compile(r"^n?p?gettext(_lazy|_noop)?$")
RUFF_DEFAULT_GETTEXT = ("_", "gettext", "ngettext")


def _tool(path: Path) -> str:
    return str(path) if path.exists() else path.name


# ------------------------------------------------------------------------------ ruff INT


def _gettext_names() -> list[str]:
    return [*RUFF_DEFAULT_GETTEXT,
            *CONFIG["tool"]["ruff"]["lint"]["flake8-gettext"]["extend-function-names"]]


def _gettext_functions_used() -> set[str]:
    """Every gettext function the site's Python imports from Django."""
    used = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            used |= {alias.name for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom)
                     and node.module == "django.utils.translation"
                     for alias in node.names if GETTEXT_FAMILY.match(alias.name)}
    return used


def test_ruff_checks_every_gettext_function_the_code_calls():
    assert {"gettext_lazy", "pgettext"} <= _gettext_functions_used()
    assert _gettext_functions_used() <= set(_gettext_names())


@pytest.mark.parametrize("function", ["gettext_lazy", "pgettext", "pgettext_lazy",
                                      "gettext_noop", "ngettext"])
def test_ruff_catches_a_message_built_inside_a_gettext_call(tmp_path, function):
    planted = tmp_path / "planted.py"
    # ruff reads the first argument alone: pgettext's context (its message: the test below)
    args = 'f"{name} wins"' + (', "wins"' if function.startswith("p") else "") \
        + (', "plural", 2' if function == "ngettext" else "")
    planted.write_text(f"from django.utils.translation import {function}\n\nname = 'x'\n"
                       f"TEXT = {function}({args})\n")
    found = subprocess.run([_tool(RUFF), "check", "--config", str(ROOT / "pyproject.toml"),
                            "--select", "INT", "--no-cache", "--output-format", "concise",
                            str(planted)], capture_output=True, text=True, cwd=tmp_path)
    assert found.returncode == 1 and "INT001" in found.stdout, found.stdout + found.stderr


CONTEXT_FIRST = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def built_messages(tree: ast.AST) -> list[int]:
    """Lines where a message after pgettext's context is built before the call (an f-string,
    ``.format`` or ``%``), which ruff's INT, reading the first argument only, does not see."""
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in CONTEXT_FIRST):
            continue
        for arg in node.args[1:3]:
            if isinstance(arg, ast.JoinedStr) or (
                    isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mod)) or (
                    isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                    and arg.func.attr == "format"):
                lines.append(node.lineno)
    return lines


def test_no_pgettext_message_is_built_before_the_call():
    found = [f"{path.relative_to(ROOT)}:{line}" for package in PACKAGES
             for path in sorted((ROOT / package).rglob("*.py"))
             for line in built_messages(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def test_the_pgettext_check_catches_a_built_message():
    planted = ast.parse('T = pgettext("score", f"{n} wins")\n'
                        'U = npgettext_lazy("score", "{n} win".format(n=1), "wins", 2)\n'
                        'V = pgettext("score", "%d wins" % 2)\nW = pgettext("score", "wins")\n')
    assert built_messages(planted) == [1, 2, 3]


# ------------------------------------------------------------------------------ vulture

ENTRY = re.compile(r"^(?P<name>[\w.]+)  # (?P<why>.+) \(in (?P<modules>[\w., ]+)\)$")
LINE_REFERENCE = re.compile(r"\.py:\d+")


def allowlist_entries(text: str) -> list[str]:
    """The allow-list's entries: its lines after ``# fmt: off`` but blanks and comments."""
    body = text.split("# fmt: off\n", 1)[-1]
    return [line for line in body.splitlines() if line.strip() and not line.startswith("#")]


def allowlist_problems(entries: list[str], reported: set[str], root: Path = ROOT) -> list[str]:
    """What is wrong with the allow-list's entries: no reason, a file:line reference, a name
    twice, a module that does not exist or does not hold the name, a name vulture would not
    report without the list (``reported``: the names it reports then)."""
    found, seen = [], set()
    for line in entries:
        match = ENTRY.match(line)
        if match is None or LINE_REFERENCE.search(line):
            found.append(f"not 'name  # reason (in modules)': {line}")
            continue
        name = match["name"].removeprefix("_.")
        if name in seen:
            found.append(f"{name} is listed twice")
        seen.add(name)
        for module in match["modules"].split(", "):
            base = root / module.replace(".", "/")
            path = base.with_suffix(".py") if base.with_suffix(".py").exists() \
                else base / "__init__.py"
            if not path.exists() or name not in path.read_text(encoding="utf-8"):
                found.append(f"{name}: not in {module}")
        if name not in reported:
            found.append(f"{name}: vulture finds it used without the list (stale)")
    return found


def _reported_without_the_list() -> set[str]:
    paths = [p for p in CONFIG["tool"]["vulture"]["paths"] if p != "vulture_allowlist.py"]
    out = subprocess.run([_tool(VULTURE), *paths], capture_output=True, text=True,
                         cwd=ROOT).stdout
    return set(re.findall(r"unused \w+ '([\w.]+)'", out))


def test_vulture_reads_every_package_of_the_site():
    assert set(PACKAGES) <= set(CONFIG["tool"]["vulture"]["paths"])


def test_every_allowlisted_name_has_a_reason_its_modules_and_is_still_needed():
    text = (ROOT / "vulture_allowlist.py").read_text(encoding="utf-8")
    entries = allowlist_entries(text)
    assert len(entries) > 150
    assert allowlist_problems(entries, _reported_without_the_list()) == []


def test_the_allowlist_check_catches_a_drifted_a_stale_and_a_bare_entry():
    planted = allowlist_entries("# fmt: off\n"
                                "old_name  # read by a template (in play.seat.board)\n"
                                "seat_state  # read by a template (in play.seat.state)\n"
                                "_.direct  # unused property (play/board.py:175)\n"
                                "kind_named\n")
    found = allowlist_problems(planted, reported={"old_name", "direct", "kind_named"})
    assert found == ["old_name: not in play.seat.board",
                     "seat_state: vulture finds it used without the list (stale)",
                     "not 'name  # reason (in modules)': _.direct  # unused property "
                     "(play/board.py:175)",
                     "not 'name  # reason (in modules)': kind_named"]


def test_vulture_catches_a_dead_function_in_the_work_protocol(tmp_path):
    planted = tmp_path / "work" / "protocol.py"
    planted.parent.mkdir()
    planted.write_text("def kind_named(name):\n    return name\n")
    out = subprocess.run([_tool(VULTURE), str(planted.parent)], capture_output=True, text=True,
                         cwd=ROOT).stdout
    assert "unused function 'kind_named'" in out


# ------------------------------------------------------------------------------ commits


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                          capture_output=True, text=True).stdout.strip()


def test_ci_checks_the_messages_of_the_commits_a_push_adds():
    assert "scripts/commit_msg.py --pushed" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_commit_check_catches_a_pushed_commit_with_no_body(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import commit_msg
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.delenv("CARDLAB_PUSH_BASE", raising=False)
    _git(tmp_path, "init", "-q")
    (tmp_path / "a").write_text("a")
    _git(tmp_path, "add", "a")
    _git(tmp_path, "commit", "-q", "-m", "Old subject\n\nOld body.")
    base = _git(tmp_path, "rev-parse", "HEAD")
    (tmp_path / "a").write_text("b")
    _git(tmp_path, "commit", "-q", "-am", "A subject alone")
    (tmp_path / "a").write_text("c")
    _git(tmp_path, "commit", "-q", "-am", "A good subject\n\nBecause it says why.")
    found = commit_msg.pushed_problems(base, cwd=str(tmp_path))
    assert len(found) == 1 and "A subject alone" in found[0] and "no body" in found[0]
    assert commit_msg.pushed_problems(_git(tmp_path, "rev-parse", "HEAD"),
                                      cwd=str(tmp_path)) == []
    assert len(commit_msg.pushed_problems(None, cwd=str(tmp_path))) == 1   # the last LAST
