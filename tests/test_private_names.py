"""No module of the project takes another module's private name.

Terms:
    project module  a ``.py`` file under ``tournament/``, ``tables/`` or ``bench/``
                    (migrations included), named by its dotted path.
    private name    a name that starts with one underscore and is not a dunder
                    (``_phone_id``, not ``__version__``): its module keeps it for itself
                    and may change it without telling anyone.
    private use     ``from a.b import _c`` in another module than ``a.b``, or ``b._c`` where
                    ``b`` is bound to another project module (``import a.b``, ``from a
                    import b``, or the dotted path ``a.b._c`` itself). What a module shares
                    is public, in a module whose name says what it is; a module's own
                    underscore names stay inside it. A private module's *public* names
                    (``from bench._client import Client``) are that package's business.

Checked from the source with ``ast``, as tests/test_architecture.py checks the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
ROOTS = ("tournament", "tables", "bench")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = REPO_ROOT) -> dict[str, Path]:
    """Every project module (see Terms) under ``root``, by its dotted name."""
    return {
        _module_name(path, root): path
        for top in ROOTS
        for path in sorted((root / top).rglob("*.py"))
    }


def is_private(name: str) -> bool:
    """See Terms: private name."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for the expression ``a.b.c`` made of names only, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (inner := _dotted(node.value)) is not None:
        return f"{inner}.{node.attr}"
    return None


def _bound_modules(tree: ast.Module, modules: dict[str, Path]) -> dict[str, str]:
    """Local names (or dotted paths) that stand for a project module in this source."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    bound[alias.asname] = alias.name
                elif not alias.asname:
                    # ``import a.b.c`` binds ``a`` and makes every prefix usable by its path.
                    parts = alias.name.split(".")
                    for end in range(1, len(parts) + 1):
                        if (prefix := ".".join(parts[:end])) in modules:
                            bound[prefix] = prefix
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if (full := f"{node.module}.{alias.name}") in modules:
                    bound[alias.asname or alias.name] = full
    return bound


def private_uses(module: str, source: str, modules: dict[str, Path]) -> list[str]:
    """Each private use (see Terms) in ``source``, the code of ``module``, as a line."""
    tree = ast.parse(source)
    bound = _bound_modules(tree, modules)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == module or node.module.split(".")[0] not in ROOTS:
                continue
            found += [
                f"{module}:{node.lineno} imports {node.module}.{alias.name}"
                for alias in node.names
                if is_private(alias.name)
            ]
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = bound.get(_dotted(node.value) or "")
            if owner is not None and owner != module:
                found.append(f"{module}:{node.lineno} uses {owner}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_name():
    modules = project_modules()
    found = [
        use
        for module, path in modules.items()
        for use in private_uses(module, path.read_text(encoding="utf-8"), modules)
    ]
    assert found == [], "\n".join(found)


FAKE_MODULES = {name: Path(name) for name in ("tables.views.phone", "tables.views.screen")}


@pytest.mark.parametrize(
    "source",
    [
        "from tables.views.phone import _phone_id",
        "from tables.views.phone import LIVE, _phone_id as phone_id",
        "from tables.views import phone\nphone._phone_id(request)",
        "from tables.views import phone as p\np._phone_id",
        "import tables.views.phone\ntables.views.phone._phone_id",
        "import tables.views.phone as p\np._phone_id",
    ],
)
def test_a_private_use_is_seen(source):
    assert private_uses("tables.views.screen", source, FAKE_MODULES) != []


@pytest.mark.parametrize(
    "source",
    [
        "from tables.views.phone import phone_id, __doc__",
        "from django.utils.translation import gettext as _",
        "from tables.views.phone import LIVE\nLIVE._private",  # a name, not a module
        "from tables.models import Table\nTable._meta",
        "import tables.views.phone\ntables.views.phone.__name__",
        "def f(self):\n    return self._own",
    ],
)
def test_public_names_and_own_privates_pass(source):
    assert private_uses("tables.views.screen", source, FAKE_MODULES) == []


def test_a_module_may_use_its_own_private_names():
    source = "import tables.views.phone\ntables.views.phone._cache"
    assert private_uses("tables.views.phone", source, FAKE_MODULES) == []
