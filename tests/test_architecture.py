"""The seams between the layers, checked from the source (docs/ARCHITECTURE.md draws them).

Terms:
    layer    where a module sits: shared plumbing, the pure rules core, models, bridges
             (writes), read models, forms, views, wiring. A module may import from its
             own layer and the layers below it, never from a layer above.
    cycle    two files that import each other, directly or through others; none is allowed.
    pure     a core module: standard library and other core modules only, no Django.

The rules of the game (table, seat, round, game, move up / move down) live in the pure core;
everything else is built around it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
APPS = ("tournament", "tables")

# Read models sit below the bridges: a write may read, a read model never writes.
COMMON, CORE, MODELS, READ_MODELS, BRIDGES, FORMS, VIEWS, WIRING = range(8)
LAYER_NAMES = ["common", "core", "models", "read models", "bridges", "forms", "views", "wiring"]

CORE_MODULES = {
    "tournament.ordering",
    "tournament.movement",
    "tournament.table_plan",
    "tournament.roster",
    "tournament.board_layout",
    "tournament.clash",
    "tournament.charts",
    "tournament.debrief_questions",
    "tables.variants",
    "tables.deal",
    "tables.rule_sheets",
    "tables.players_guide",
    "tables.scoring",
    "tables.tally",
}
# The core may use these from the plumbing: they import the standard library only.
PURE_PLUMBING = {"tournament.common", "tournament.common.i18n"}
LAYER_BY_MODULE = {
    **dict.fromkeys(CORE_MODULES, CORE),
    "tournament.models": MODELS,
    "tables.models": MODELS,
    "tournament.seating": BRIDGES,
    "tournament.rounds": BRIDGES,
    "tournament.signin": BRIDGES,
    "tables.reporting": BRIDGES,
    "tables.corrections": BRIDGES,
    "tournament.record_import": BRIDGES,
    "tournament.backups": BRIDGES,
    "tournament.finishing": BRIDGES,
    "tournament.event_settings": BRIDGES,
    "tournament.debrief_bank": BRIDGES,
    "tournament.cofacilitators": BRIDGES,
    "tournament.notes": BRIDGES,
    "tournament.console": READ_MODELS,
    "tournament.records": READ_MODELS,
    "tournament.projector": READ_MODELS,
    "tournament.close_preview": READ_MODELS,
    "tournament.debrief": READ_MODELS,
    "tournament.debrief_report": READ_MODELS,
    "tournament.radar": READ_MODELS,
    "tables.screens": READ_MODELS,
    "tournament.forms": FORMS,
    "tables.forms": FORMS,
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in sorted((REPO_ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


MODULES = _project_modules()


def layer_of(module: str) -> int:
    if module in LAYER_BY_MODULE:
        return LAYER_BY_MODULE[module]
    if module.startswith("tournament.common"):
        return COMMON
    if ".views" in module:
        return VIEWS
    # urls, admin, apps, settings, wsgi, management commands: they wire the rest together.
    return WIRING


def _resolve(name: str) -> str | None:
    """The project module an import names (a name imported from a package may be a module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def project_imports(module: str) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in APPS and (target := _resolve(name)) and target != module:
                found.add(target)
    return found


GRAPH = {module: project_imports(module) for module in MODULES}


def test_every_layer_has_modules():
    assert {layer_of(module) for module in MODULES} == set(range(len(LAYER_NAMES)))
    assert set(LAYER_BY_MODULE) <= set(MODULES), "a module named here no longer exists"


def test_no_module_imports_from_a_higher_layer():
    upward = [
        f"{module} ({LAYER_NAMES[layer_of(module)]}) imports {target} "
        f"({LAYER_NAMES[layer_of(target)]})"
        for module, targets in GRAPH.items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert upward == []


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that returns to its start, or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_between_files():
    assert find_cycle(GRAPH) is None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_tables_takes_from_tournament_only_models_core_and_plumbing():
    allowed = {"tournament.models", *CORE_MODULES}
    borrowed = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module.startswith("tables")
        for target in sorted(targets)
        if target.startswith("tournament")
        and target not in allowed
        and not target.startswith("tournament.common")
    ]
    assert borrowed == []


def test_tournament_models_do_not_reach_into_tables_models():
    assert "tables.models" not in GRAPH["tournament.models"]


# --- the pure core: standard library only, no Django ------------------------------------


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("module", sorted(CORE_MODULES))
def test_core_module_imports_only_the_standard_library_and_the_core(module):
    foreign = {root for root in _imported_roots(MODULES[module]) if root not in APPS}
    assert foreign <= set(sys.stdlib_module_names)
    assert GRAPH[module] <= CORE_MODULES | PURE_PLUMBING


@pytest.mark.parametrize("module", sorted(CORE_MODULES))
def test_core_module_opens_with_a_docstring_defining_its_terms(module):
    docstring = ast.get_docstring(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    assert docstring is not None
    assert "Terms" in docstring


def _loaded_modules(imports: str) -> list[str]:
    code = (
        f"import sys, {imports}\n"
        "print('\\n'.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_the_core_imports_nothing_from_django():
    assert "django" not in _loaded_modules(", ".join(sorted(CORE_MODULES)))


def test_django_detection_is_not_vacuous():
    assert "django" in _loaded_modules("django.utils.translation")
