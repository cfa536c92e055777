"""The floors of the house: imports flow tools → config → balance → play → simulations → work →
collection → decks → cards → accounts → common → rules, never back up; inside rules, lab → ai →
decks → engine. `tools` (benchmarks, stress tools, the workers' sandbox) measures the site and is
not part of it: it may import any floor, no floor imports it.

`rules` is a pure Python library (no Django, no Celery, none of the project's apps); each app
imports only the floors below it. Proved twice for `rules`: by importing for real in a clean
interpreter, and by reading the source with `ast` (which also sees imports inside functions that
an import-time check would miss); for the apps, by reading the source.

Inside a floor the arrows go one way too: the import graph of the project's modules, read from
the source (imports inside functions included), has no cycle.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RULES = ("django", "rest_framework", "celery", "kombu", "accounts", "common",
                      "cards", "decks", "collection", "work", "simulations", "play", "balance",
                      "config", "tools")
FORBIDDEN_IN_ACCOUNTS = ("cards", "decks", "collection", "work", "simulations", "play", "balance",
                         "config", "tools")
# What every app shares (the language door, stored pages, the throttles' machinery, deck
# references …) is the bottom app, just above rules: it names no app of the site.
FORBIDDEN_IN_COMMON = ("accounts", "cards", "decks", "collection", "work", "simulations", "play",
                       "balance", "config", "tools")
FORBIDDEN_IN_CARDS = ("decks", "collection", "work", "simulations", "play", "balance", "config",
                      "tools")
FORBIDDEN_IN_DECKS = ("collection", "work", "simulations", "play", "balance", "config", "tools")
FORBIDDEN_IN_COLLECTION = ("work", "simulations", "play", "balance", "config", "tools")
# The one work protocol (leases, fair dispatch, the reaper, the CPU cap) sits below every kind
# of work: simulations and balance register their kinds with it, it never names them.
FORBIDDEN_IN_WORK = ("simulations", "play", "balance", "config", "tools")
FORBIDDEN_IN_SIMULATIONS = ("play", "balance", "config", "tools")
# Games people play (play/) sit above the simulator, whose replay sentences and deck sources
# they reuse, and below the balance lab, which has no use for them.
FORBIDDEN_IN_PLAY = ("balance", "config", "tools")
FORBIDDEN_IN_BALANCE = ("config", "tools")
FORBIDDEN_IN_CONFIG = ("tools",)
PACKAGES = ("rules", "accounts", "common", "cards", "decks", "collection", "work", "simulations",
            "play",
            "balance", "config", "tools")

IMPORT_ALL_RULES = """
import importlib, json, pkgutil, sys
import rules
names = ["rules"]
for info in pkgutil.walk_packages(rules.__path__, prefix="rules."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def _top_level_imports(path: Path) -> set[str]:
    """Every module name imported anywhere in a file (absolute imports; relative ones stay inside
    the package and cannot cross a floor)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _violations(package: str, forbidden: tuple[str, ...], root: Path = REPO_ROOT) -> list[str]:
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for name in sorted(_top_level_imports(path)):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(root).as_posix()} imports {name}")
    return found


def _is_forbidden(module: str, forbidden: tuple[str, ...]) -> bool:
    return module.split(".")[0] in forbidden


def test_importing_the_whole_engine_loads_no_web_or_worker_code():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_RULES],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert "rules" in report["imported"]
    leaked = [m for m in report["loaded"] if _is_forbidden(m, FORBIDDEN_IN_RULES)]
    assert leaked == [], f"importing rules loaded {leaked}"


def test_rules_source_imports_no_web_worker_or_app_module():
    assert _violations("rules", FORBIDDEN_IN_RULES) == []


@pytest.mark.parametrize("package, forbidden", [
    ("accounts", FORBIDDEN_IN_ACCOUNTS),
    ("common", FORBIDDEN_IN_COMMON),
    ("cards", FORBIDDEN_IN_CARDS),
    ("decks", FORBIDDEN_IN_DECKS),
    ("collection", FORBIDDEN_IN_COLLECTION),
    ("work", FORBIDDEN_IN_WORK),
    ("simulations", FORBIDDEN_IN_SIMULATIONS),
    ("play", FORBIDDEN_IN_PLAY),
    ("balance", FORBIDDEN_IN_BALANCE),
    ("config", FORBIDDEN_IN_CONFIG),
])
def test_each_app_imports_only_the_floors_below_it(package, forbidden):
    assert _violations(package, forbidden) == []


@pytest.mark.parametrize("package", ["accounts", "common", "cards", "decks", "collection", "work",
                                     "simulations", "play", "balance", "tools"])
def test_apps_exist_as_packages(package):
    assert (REPO_ROOT / package / "__init__.py").is_file()


def test_the_static_check_sees_the_work_protocol_reaching_up_to_a_kind_of_work(tmp_path):
    """The work floor is guarded: a protocol module naming the chunks it serves is caught."""
    bad = tmp_path / "work" / "fair.py"
    bad.parent.mkdir()
    bad.write_text("def dispatch():\n    from simulations.models import Chunk\n")
    found = _violations("work", FORBIDDEN_IN_WORK, root=tmp_path)
    assert found == ["work/fair.py imports simulations.models"]


def test_the_work_protocol_lives_in_the_work_app_alone():
    """One home for the protocol: its modules are in work/, none left at simulations' old
    addresses."""
    assert {p.stem for p in (REPO_ROOT / "work").glob("*.py")} >= {
        "models", "protocol", "fair", "reaper", "quota", "conf"}
    assert not [name for name in ("work", "fair", "reaper")
                if (REPO_ROOT / "simulations" / f"{name}.py").exists()]


# The simulations app by feature, as balance/ is (search/, tuning/): the runs' core at the top of
# the app (Django's own modules among it), each feature built on runs a sub-package of its own.
SIMULATIONS_FEATURES = {
    "patches": {"text", "forms", "views"},
    "sweeps": {"services", "apis", "charts"},
    "meta": {"field", "charts", "view"},
    "replays": {"board", "text"},
    "agents": {"strength", "skill", "calibration", "apis"},
    "cli": {"simulate", "input", "round_robin"},
}
SIMULATIONS_OLD_ADDRESSES = ("sweeps", "replays", "cli", "strength", "skill", "calibration",
                             "field_meta")
SIMULATIONS_FEATURE_PREFIXES = ("patch_", "sweep_", "meta_", "replay_", "cli_", "agent_")


def test_the_simulations_features_live_in_their_sub_packages():
    """Each feature's modules are in its sub-package, none left flat beside the runs' core (a
    ``simulations/cli.py`` would also hide the ``cli/`` package from every import)."""
    app = REPO_ROOT / "simulations"
    for feature, modules in SIMULATIONS_FEATURES.items():
        assert {p.stem for p in (app / feature).glob("*.py")} >= modules, feature
    flat = {p.stem for p in app.glob("*.py")}
    assert [name for name in sorted(flat) if name.startswith(SIMULATIONS_FEATURE_PREFIXES)
            or name in SIMULATIONS_OLD_ADDRESSES] == []


# The decks app by feature, as simulations/ is: the decks' core at the top (models, services,
# selectors, drafts, the legality door, Django's own modules), each feature a sub-package.
DECKS_FEATURES = {
    "formats": {"standard", "loader", "problem_text"},
    "builder": {"views", "panel", "paste"},
    "sharing": {"services", "apis", "views", "image"},
    "starters": {"selectors", "views"},
    "transfer": {"services", "views", "placing"},
    "validation": {"services", "apis"},
}
DECKS_OLD_ADDRESSES = ("formats", "format_loader", "format_problem_text", "builder",
                       "builder_panel", "builder_paste", "sharing", "sharing_apis",
                       "sharing_views", "deck_image", "starters", "starter_views", "transfer",
                       "import_views", "placing", "validation", "apis_tools", "stats", "diffs")


def test_the_decks_features_live_in_their_sub_packages():
    """Each feature's modules are in its sub-package, none left flat beside the decks' core;
    the pure helpers (statistics, diffs) are the rules library's (``rules.decks``)."""
    app = REPO_ROOT / "decks"
    for feature, modules in DECKS_FEATURES.items():
        assert {p.stem for p in (app / feature).glob("*.py")} >= modules, feature
    flat = {p.stem for p in app.glob("*.py")}
    assert sorted(flat & set(DECKS_OLD_ADDRESSES)) == []


# The play app by feature: the core of a game (models, services, the one writer ``store``,
# selectors, the pages and API of a game against an agent or hot-seat) at the top, each feature a
# sub-package of its own.
PLAY_FEATURES = {
    "engine": {"adapter", "action_input", "deck_sources"},
    "seat": {"state", "board", "action_words", "log_text"},
    "ai": {"turn", "runner", "hint"},
    "friends": {"services", "apis", "views", "forms", "records"},
    "clock": {"periods", "presence", "enforce", "keep"},
    "streams": {"events", "watch", "schema"},
    "replays": {"context", "views"},
    "spectators": {"presence", "selectors", "services", "state", "apis", "views", "events",
                   "schema"},
}
PLAY_OLD_ADDRESSES = ("engine_adapter", "action_input", "deck_sources", "state", "board",
                      "action_words", "log_text", "runner", "hint", "friends", "apis_friends",
                      "views_friends", "forms_friends", "records", "clock", "live", "stream",
                      "watch", "schema", "replay")


def test_the_play_features_live_in_their_sub_packages():
    app = REPO_ROOT / "play"
    for feature, modules in PLAY_FEATURES.items():
        assert {p.stem for p in (app / feature).glob("*.py")} >= modules, feature
    flat = {p.stem for p in app.glob("*.py")}
    assert sorted(flat & set(PLAY_OLD_ADDRESSES)) == []


def _play_importers(graph: dict, module: str) -> set[str]:
    return {name for name, imported in graph.items()
            if module in imported and name.startswith("play.")}


def test_the_clock_is_enforced_through_one_door():
    """Every trigger (a read, the held stream, the watcher, the count of games in progress)
    calls ``play.clock.keep``; the enforcing module has that one importer."""
    assert _play_importers(import_graph(), "play.clock.enforce") == {"play.clock.keep"}


def _versioned_updates(path: Path) -> int:
    """Calls of ``.update(version=…)`` in a file: a version-checked write."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(1 for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == "update"
               and any(k.arg == "version" for k in node.keywords))


def test_a_game_has_one_version_checked_writer(tmp_path):
    writers = [p.relative_to(REPO_ROOT).as_posix() for p in sorted((REPO_ROOT / "play").rglob(
        "*.py")) if _versioned_updates(p)]
    assert writers == ["play/store.py"]
    planted = tmp_path / "clock.py"          # the check sees a second writer
    planted.write_text("def save(r):\n    Game.objects.filter(pk=1).update(version=2)\n")
    assert _versioned_updates(planted) == 1


def test_building_a_seats_state_schedules_no_work():
    """The seat's state is built in one module, which reaches no scheduler (the caller sets
    the agent playing), and no other module builds it."""
    graph = import_graph()
    reached, todo = set(), ["play.seat.state"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += sorted(graph.get(name, ()))
    assert "play.ai.runner" not in reached
    builders = [p.relative_to(REPO_ROOT).as_posix()
                for p in sorted((REPO_ROOT / "play").rglob("*.py"))
                if "def seat_state(" in p.read_text(encoding="utf-8")
                or "def state_data(" in p.read_text(encoding="utf-8")]
    assert builders == ["play/seat/state.py"]


def test_the_static_check_sees_a_forbidden_import(tmp_path):
    """The checker itself works: a file importing decks inside a function is caught."""
    bad = tmp_path / "cards" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from . import models\n\ndef f():\n    from decks.models import Deck\n")
    found = _violations("cards", FORBIDDEN_IN_CARDS, root=tmp_path)
    assert found == ["cards/bad.py imports decks.models"]


# ------------------------------------------------------------------------------ cycles


def _modules(root: Path, packages: tuple[str, ...]) -> dict[str, tuple[Path, bool]]:
    """``{dotted name: (file, is a package)}`` for every module of the packages."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _imported(node: ast.AST, package: str, modules) -> set[str]:
    """The project modules one import statement loads (``from m import name`` is the module
    ``m.name`` when there is one, else ``m`` itself). A parent package being initialised first
    is Python's own doing, not an arrow of this module."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if not isinstance(node, ast.ImportFrom):
        return set()
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    out = set()
    for alias in node.names:
        if f"{source}.{alias.name}" in modules:
            out.add(f"{source}.{alias.name}")
        elif source in modules:
            out.add(source)
    return out


def import_graph(root: Path = REPO_ROOT, packages: tuple[str, ...] = PACKAGES) -> dict:
    """``{module: modules it imports}`` from the source, imports inside functions included."""
    modules = _modules(root, packages)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = set().union(*(_imported(node, package, modules)
                                    for node in ast.walk(tree))) - {name}
    return graph


def import_cycle(graph: dict) -> list[str]:
    """One cycle of the graph (``[a, b, …, a]``), or [] when the arrows all go one way."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def test_no_import_cycle_in_the_engine_or_the_apps():
    graph = import_graph()
    assert {"rules.engine.game", "cards.models", "decks.services", "simulations.tasks"} <= \
        set(graph)
    assert import_cycle(graph) == []


def test_the_cycle_check_sees_a_cycle_closed_by_an_import_inside_a_function(tmp_path):
    package = tmp_path / "cards"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text("def save():\n    from cards.adapters import refresh\n")
    (package / "adapters.py").write_text("from . import models\n\ndef refresh():\n    pass\n")
    graph = import_graph(tmp_path, ("cards",))
    assert graph["cards.models"] == {"cards.adapters"}
    assert graph["cards.adapters"] == {"cards.models"}
    assert sorted(import_cycle(graph)[:-1]) == ["cards.adapters", "cards.models"]


# The game's modules, lowest first (rules/engine/core.py's docstring): each imports only modules
# before it, so no part of a game calls a part above it (what a lower part needs done above it,
# it pushes as a task for ``game`` to run).
ENGINE_LAYERS = ("core", "values", "targets", "moves", "legal", "effect_handlers", "effects",
                 "combat", "turns", "view", "game")


def test_the_games_modules_import_only_the_layers_below_them():
    graph = import_graph()
    names = [f"rules.engine.{layer}" for layer in ENGINE_LAYERS]
    for i, name in enumerate(names):
        above = set(names[i + 1:])
        assert graph[name] & above == set(), f"{name} imports a layer above it"


def test_no_engine_class_stands_in_for_a_method_defined_elsewhere():
    """No ``raise NotImplementedError`` stub: a function is defined where it is called from."""
    for layer in ENGINE_LAYERS:
        source = (REPO_ROOT / "rules" / "engine" / f"{layer}.py").read_text(encoding="utf-8")
        assert "NotImplementedError" not in source, layer


# The game's package by purpose, lowest first: the engine plays a game; decks says which decks
# a format allows; ai holds the players; lab plays matches between them and measures them. Each
# imports only the parts before it. The two modules at the top of rules/ decide how the engine
# is loaded (loader, compiled) and the two old addresses (match, cardset) serve outside tools.
RULES_FLOORS = ("engine", "decks", "ai", "lab")


def _rules_part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "rules" and parts[1] in RULES_FLOORS \
        else None


def test_the_parts_of_rules_import_only_the_parts_below_them():
    graph = import_graph()
    upward = []
    for module, imported in graph.items():
        part = _rules_part(module)
        if part is None:
            continue
        allowed = set(RULES_FLOORS[: RULES_FLOORS.index(part) + 1])
        upward += [f"{module} imports {name}" for name in sorted(imported)
                   if _rules_part(name) and _rules_part(name) not in allowed]
    assert upward == []


def test_rules_keeps_no_module_beside_its_parts_but_the_loader_and_old_addresses():
    """Beside the parts: the loader, old addresses, and ``localized`` — the game words'
    languages, a foundation under every part (the engine's words name themselves with it),
    which imports nothing of the rules library."""
    top = sorted(p.stem for p in (REPO_ROOT / "rules").glob("*.py"))
    assert top == ["__init__", "cardset", "compiled", "loader", "localized", "match"]
    assert not [name for name in import_graph().get("rules.localized", ())
                if name.startswith("rules")]


def test_no_lazy_export_shares_a_submodules_name():
    """A package attribute named like its submodule changes meaning when the submodule is
    imported first (Python sets the submodule as the attribute): no lazy export may do that."""
    import importlib
    import pkgutil

    import rules

    clashes = []
    for info in pkgutil.walk_packages(rules.__path__, prefix="rules."):
        if not info.ispkg:
            continue
        package = importlib.import_module(info.name)
        exported = set(getattr(package, "_EXPORTS", {})) | set(getattr(package, "__all__", ()))
        submodules = {m.name for m in pkgutil.iter_modules(package.__path__)}
        clashes += [f"{info.name}.{name}" for name in sorted(exported & submodules)]
    assert clashes == []


BENCHMARK_NAMES = ("bench_", "loadtest", "broker_stress", "sandbox", "play_bench")


def test_the_tools_that_measure_the_site_live_in_tools_alone():
    """Benchmarks, the load test, the broker's stress race and the workers' sandbox are in
    tools/, not inside the apps they measure."""
    misplaced = [p.relative_to(REPO_ROOT).as_posix()
                 for package in PACKAGES if package != "tools"
                 for p in (REPO_ROOT / package).rglob("*.py")
                 if p.stem.startswith(BENCHMARK_NAMES) and package != "rules"]
    assert misplaced == []
    commands = {p.stem for p in (REPO_ROOT / "tools" / "management" / "commands").glob("*.py")}
    assert {"bench_catalogue", "bench_deck_validation", "loadtest", "bench_simulations",
            "bench_fairness", "bench_estimates", "bench_balance", "play_bench"} <= commands
