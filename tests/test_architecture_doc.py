"""docs/architecture.md is true to the code: every path, module and name it gives exists.

Read from the page: the backticked paths and modules (a floor's row of the floors table names
its own folders relative to the floor: ``transfer/`` in the decks row is ``decks/transfer/``),
and the files tree, whose folders nest by indentation and whose descriptions name files of the
folder they describe (``models.py`` under ``decks/`` is in ``decks/``, or below it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
APPS = ("rules", "accounts", "common", "cards", "decks", "collection", "work", "simulations",
        "play", "balance", "config", "tools", "tests")
PATH = re.compile(r"^[\w./-]+(/|\.py|\.md|\.json|\.svg)$")
MODULE = re.compile(rf"^({'|'.join(APPS)})(\.\w+)+$")
FILE = re.compile(r"\b[\w/]+\.py\b")


def module_problem(dotted: str, root: Path = ROOT) -> str | None:
    """None when ``dotted`` is a module, or a name defined in one (``work.models.LeasedWork``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:cut])
        found = base.with_suffix(".py") if base.with_suffix(".py").is_file() \
            else base / "__init__.py"
        if found.is_file():
            rest = parts[cut:]
            if not rest or re.search(rf"^\s*(def|class)?\s*{rest[0]}\b", found.read_text(
                    encoding="utf-8"), re.M):
                return None
            return f"{dotted}: {rest[0]} is not defined in {found.relative_to(root)}"
    return f"{dotted}: no such module"


def _backticked_problems(text: str, root: Path) -> list[str]:
    found = []
    for line in text.splitlines():
        row = re.match(r"^\| `(\w+)/` \|", line)
        base = root / row.group(1) if row else root
        for token in re.findall(r"`([^`\n]+)`", line)[1 if row else 0:]:
            if MODULE.match(token):
                problem = module_problem(token, root)
                if problem:
                    found.append(problem)
            elif PATH.match(token) and not token.startswith((".", "/")):
                where = root / token if (root / token.split("/")[0]).exists() \
                    and token.split("/")[0] in APPS + ("docs", "templates", "static", "scripts") \
                    else base / token
                if not where.exists():
                    found.append(f"`{token}`: no {where.relative_to(root)}")
    return found


def _tree_problems(text: str, root: Path) -> list[str]:
    block = text.split("## The files", 1)[1].split("```", 2)[1]
    found, top, sub = [], None, None
    for line in block.splitlines()[1:]:
        head = re.match(r"^(  )?([\w.-]+/)\s", line + " ")
        if head and not line.startswith("   "):
            if head.group(1):
                sub = top / head.group(2) if top else None
            else:
                top, sub = root / head.group(2), None
            folder = sub or top
            if folder is not None and not folder.is_dir():
                found.append(f"tree: no {folder.relative_to(root)}/")
        elif re.match(r"^  \S", line):
            sub = None                  # files of the folder above (``  loader.py, …``)
        elif re.match(r"^\S", line):
            top, sub = root, None       # a file at the top (``.ci/run``, ``manage.py``)
        folder = sub or top
        if folder is None or not folder.is_dir():
            continue
        for name in FILE.findall(line):
            if "/" in name:
                hits = [root / name] if (root / name).exists() else list(folder.rglob(
                    name.rsplit("/", 1)[-1]))
            else:
                hits = list(folder.rglob(name))
            if not hits:
                found.append(f"tree: no {name} under {folder.relative_to(root)}/")
    return found


def doc_problems(text: str, root: Path = ROOT) -> list[str]:
    return _backticked_problems(text, root) + _tree_problems(text, root)


def test_every_path_and_module_the_architecture_page_names_exists():
    text = PAGE.read_text(encoding="utf-8")
    assert "store.py" in text and "common.language" in text
    assert doc_problems(text) == []


def test_the_check_sees_a_moved_module_a_gone_folder_and_a_renamed_file():
    planted = ("| `play/` | the clock (`clock.py`), one writer (`store.py`) |\n"
               "the door (`common.language.no_such_door`), (`work.reaper`)\n"
               "## The files\n\n```\nplay/              live.py, store.py\n"
               "  gone/          x.py\n```\n")
    assert doc_problems(planted) == [
        "`clock.py`: no play/clock.py",
        "common.language.no_such_door: no_such_door is not defined in common/language.py",
        "tree: no live.py under play/",
        "tree: no play/gone/"]
