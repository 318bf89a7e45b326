"""The seams between the layers, checked from the source (docs/ARCHITECTURE.md draws them).

Terms:
    layer    where a module sits, read from the folder it is in (``LAYER_OF_FOLDER``):
             ``common/`` plumbing, ``rules/`` the pure rules of the game, ``models/``,
             ``reads/`` what screens read, ``writes/`` what changes the database, ``forms/``,
             ``views/`` and, beside them, ``serving/`` (what runs the server); modules
             directly in an app folder and its Django-shaped folders (``management/``,
             ``templatetags/``...) wire the rest together. A module may
             import from its own layer and the layers below it, never from a layer above.
             A module in a folder that no layer places is an error: the tree must say
             where everything goes.
    cycle    two files that import each other, directly or through others; none is allowed.
    pure     standard library, other pure modules and the pure-Python libraries of
             ``PURE_LIBRARIES`` only, no Django. Every module under ``rules/`` is pure;
             plumbing the rules use must be pure too.

No module is named here by hand: moving a file to another folder changes its layer.
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

# Read models sit below the writes: a write may read, a read model never writes.
COMMON, RULES, MODELS, READS, WRITES, FORMS, VIEWS, WIRING = range(8)
LAYER_NAMES = ["common", "rules", "models", "reads", "writes", "forms", "views", "wiring"]
LAYER_OF_FOLDER = {
    "common": COMMON,
    "rules": RULES,
    "models": MODELS,
    "reads": READS,
    "writes": WRITES,
    "forms": FORMS,
    "views": VIEWS,
    # What runs the server (the entry points, the bridge to Django, the live channel, a
    # server's start and stop) answers requests as the views do: as high as they are, so
    # a view may stop the server and the live channel may push what a view draws.
    "serving": VIEWS,
    # Folders whose names Django or Python give: they wire the rest together.
    "management": WIRING,
    "templatetags": WIRING,
    "urls": WIRING,
    "sqlite3": WIRING,  # the database backend (settings.DATABASES names it)
    "formats": WIRING,  # FORMAT_MODULE_PATH
    "window": WIRING,  # the app's own window: starts, shows and stops the server
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


def folder_of(module: str) -> str | None:
    """The first folder under the app (None for a module directly in the app folder)."""
    path = MODULES[module].relative_to(REPO_ROOT)
    folders = path.parts[1:-1]
    return folders[0] if folders else None


def layer_of(module: str) -> int | None:
    """The module's layer from its folder; None where no layer places the folder."""
    folder = folder_of(module)
    if folder is None:
        # admin, apps, settings, urls, middleware, wsgi: they wire the rest together.
        return WIRING
    return LAYER_OF_FOLDER.get(folder)


def app_of(module: str) -> str:
    return module.split(".")[0]


def _resolve(name: str) -> str | None:
    """The project module an import names (a name imported from a package may be a module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> tuple[set[str], set[str]]:
    """(project modules, foreign top-level packages) a module imports, at any depth."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    foreign: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [f"<relative import in {module}>"]
        else:
            continue
        for name in names:
            if name.split(".")[0] in APPS:
                if (target := _resolve(name)) and target != module:
                    found.add(target)
            else:
                foreign.add(name.split(".")[0])
    return found, foreign


IMPORTS = {module: _imports(module) for module in MODULES}
# Third-party libraries the rules may use: pure Python, no Django, no I/O but their own data.
# anyascii spells names in Latin letters for the one alphabetical order (rules.ordering).
PURE_LIBRARIES = frozenset({"anyascii"})
ALLOWED_FOREIGN = set(sys.stdlib_module_names) | PURE_LIBRARIES
GRAPH = {module: project for module, (project, _) in IMPORTS.items()}


def is_pure(module: str, seen: frozenset[str] = frozenset()) -> bool:
    """Standard library and pure project modules only, all the way down."""
    project, foreign = IMPORTS[module]
    if not foreign <= ALLOWED_FOREIGN:
        return False
    return all(target in seen or is_pure(target, seen | {module}) for target in project)


RULES_MODULES = sorted(module for module in MODULES if layer_of(module) == RULES)


def test_every_module_sits_in_a_folder_that_names_its_layer():
    unplaced = sorted(module for module in MODULES if layer_of(module) is None)
    assert unplaced == [], (
        "these modules sit in a folder no layer places; move them, or give the folder a "
        f"layer in LAYER_OF_FOLDER: {unplaced}"
    )


def test_every_layer_has_modules():
    assert {layer_of(module) for module in MODULES} == set(range(len(LAYER_NAMES)))


def test_no_relative_imports():
    # A relative import would hide an arrow from this test.
    relative = [
        module for module, (_, foreign) in IMPORTS.items() if any("<" in f for f in foreign)
    ]
    assert relative == []


def test_no_module_imports_from_a_higher_layer():
    upward = [
        f"{module} ({LAYER_NAMES[layer_of(module)]}) imports {target} "
        f"({LAYER_NAMES[layer_of(target)]})"
        for module, targets in GRAPH.items()
        if layer_of(module) is not None
        for target in sorted(targets)
        if layer_of(target) is not None and layer_of(target) > layer_of(module)
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


def test_tables_takes_from_tournament_only_models_rules_and_plumbing():
    borrowed = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if app_of(module) == "tables"
        for target in sorted(targets)
        if app_of(target) == "tournament"
        and layer_of(target) not in {COMMON, RULES, MODELS}
        and folder_of(target) is not None  # the settings, through django.conf, are fine
    ]
    assert borrowed == []


def test_tournament_rules_and_models_do_not_import_tables():
    # tables builds on tournament; an arrow back from its models or rules would tie them.
    back = [
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if app_of(module) == "tournament" and layer_of(module) in {RULES, MODELS}
        for target in sorted(targets)
        if app_of(target) == "tables"
    ]
    assert back == []


# --- the pure rules: standard library only, no Django -----------------------------------


@pytest.mark.parametrize("module", RULES_MODULES)
def test_rules_module_imports_only_the_standard_library_and_pure_modules(module):
    project, foreign = IMPORTS[module]
    assert foreign <= ALLOWED_FOREIGN, f"{module} imports {foreign}"
    assert is_pure(module), f"{module} imports a module that is not pure: {sorted(project)}"


@pytest.mark.parametrize("module", RULES_MODULES)
def test_rules_module_opens_with_a_docstring_defining_its_terms(module):
    if MODULES[module].name == "__init__.py" and not MODULES[module].read_text().strip():
        return  # an empty package marker defines nothing
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


def test_the_rules_import_nothing_from_django():
    assert "django" not in _loaded_modules(", ".join(RULES_MODULES))


def test_django_detection_is_not_vacuous():
    assert "django" in _loaded_modules("django.utils.translation")


# --- the test's own machinery, so that none of the checks above can pass vacuously -------


def test_the_layers_are_read_from_the_folders():
    assert layer_of("tournament.rules.movement") == RULES
    assert layer_of("tables.writes.reporting") == WRITES
    assert layer_of("tournament.settings") == WIRING
    assert layer_of("tournament.serving.live_channel") == VIEWS
    assert RULES_MODULES, "no rules found: the folder was renamed?"


def test_purity_sees_django_through_another_module(monkeypatch):
    monkeypatch.setitem(IMPORTS, "x.pure", ({"x.impure"}, {"math"}))
    monkeypatch.setitem(IMPORTS, "x.impure", (set(), {"django"}))
    assert not is_pure("x.pure")
    monkeypatch.setitem(IMPORTS, "x.impure", (set(), {"itertools"}))
    assert is_pure("x.pure")


# --- rooms of a readable size -------------------------------------------------------------

MODULE_LINES, FUNCTION_LINES = 500, 80


def oversized(path: Path) -> list[str]:
    """What in one file is over the house's sizes: the module's lines, and each function's
    from its first decorator to its last line."""
    source = path.read_text(encoding="utf-8")
    lines = len(source.splitlines())
    found = [f"{lines} lines"] if lines > MODULE_LINES else []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None  # ast.parse sets it on every statement
            length = node.end_lineno - start + 1
            if length > FUNCTION_LINES:
                found.append(f"{node.name}() at line {node.lineno}: {length} lines")
    return found


def test_every_module_and_function_is_a_readable_size():
    too_big = {
        str(path.relative_to(REPO_ROOT)): found
        for path in MODULES.values()
        if (found := oversized(path))
    }
    assert too_big == {}, f"over {MODULE_LINES} lines a module or {FUNCTION_LINES} a function"


def test_the_size_check_sees_a_long_function(tmp_path):
    body = "\n".join(f"    x{n} = {n}" for n in range(FUNCTION_LINES))
    path = tmp_path / "long.py"
    path.write_text(f"@decorated\ndef long():\n{body}\n")
    assert oversized(path) == [f"long() at line 2: {FUNCTION_LINES + 2} lines"]
