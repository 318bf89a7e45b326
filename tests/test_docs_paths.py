"""Every module, name and file the docs point at is there.

Terms:
    docs         README.md and docs/*.md: what a new engineer reads first.
    dotted name  ``tournament.x.y``, ``tables.x.y.name`` or ``tournament.serving.asgi:
                 application`` in a doc: the longest leading part that is a project module
                 must exist, the next part must be a name that module defines or imports,
                 and the part after that, when the name is a class (found where it is
                 defined, following the imports), a name of its body. Further parts are not
                 followed. ``tournament.SignInAttempt``, a model's label, is looked up in
                 the app's models.
    path         ``tables/views/screen.py``, ``tournament/serving/``, ``static/js/screen.js``:
                 a path from the checkout's root (it starts with one of ``ROOT_FOLDERS``)
                 that must exist, file or folder. One with a placeholder in it
                 (``locale/<code>/...``, ``views/organizer/<feature>.py``) is not checked,
                 nor what the build makes (``BUILT``).
    short path   a file of the checkout written in backticks without its root
                 (``screen_play.py``, ``sqlite3/writers.py``, ``static/js/outbox.js``), as a
                 table row names the files of its folder: some file of the checkout must
                 end with it. Only the endings of the checkout's own files
                 (``FILE_ENDINGS``) are checked: ``server.json`` is written by the app.
    former       a path gone that a doc names as gone ("moved from ..."): ``FORMER``.
    link         ``[text](docs/DEPLOY.md#backups)``, ``[text](#settings)``: the file exists
                 (beside the doc) and the anchor is one of its headings, as GitHub spells
                 it (lower case, punctuation dropped, spaces as hyphens).
    command      ```make run```, ```make test WORKERS=1```: each target a rule of the
                 Makefile; ```manage.py serve```, ```fivetricks manage import_event NAME```:
                 a management command Django knows (ours or its own).

Checked from the text and the source (``ast``), importing no module of the project, so a
doc that names a module gone in a move fails here rather than misleading its reader.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.core.management import get_commands

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tournament", "tables", "bench", "tests")
APPS = ("tournament", "tables")
ROOT_FOLDERS = (*PACKAGES, "static", "templates", "docs", "locale", ".ci", ".github")
# Made by `make package` (setup.py's build step), never in the checkout.
BUILT = ("tournament/site",)
# The endings of the checkout's own files (a short path ending so names one of them; a
# short folder, or a file the app writes, such as ``server.json``, is not checked).
FILE_ENDINGS = (".py", ".js", ".html", ".css", ".md", ".spec")
# Names of the past that a doc gives as such ("moved from ..."), each with where it stands.
FORMER = {
    "tables/writes/report_reads.py": "docs/PERFORMANCE.md: where the prepared SQL came from",
}

_ROOTS = "|".join(re.escape(folder) for folder in PACKAGES)
DOTTED = re.compile(rf"(?<![\w./\-])((?:{_ROOTS})(?:\.[A-Za-z_]\w*)+)(?::([A-Za-z_]\w*))?")
_FOLDERS = "|".join(re.escape(folder) for folder in ROOT_FOLDERS)
PATH = re.compile(rf"(?<![\w./\-$~])((?:{_FOLDERS})/[\w./\-]*)([<*{{]?)")
BACKTICKED = re.compile(r"`([^`\s]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"#+ (.+)")
MAKE = re.compile(r"`(?:time )?make ((?:[a-z][\w\-]* ?)+)")
MANAGE = re.compile(r"(?:manage\.py|fivetricks manage) ([a-z_]+)")


def doc_files(root: Path = REPO_ROOT) -> list[Path]:
    """See Terms: docs."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def _modules(root: Path) -> dict[str, Path]:
    modules = {}
    for top in PACKAGES:
        for path in (root / top).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _names(body: list[ast.stmt]) -> set[str]:
    """The names a module or class body binds: defined, assigned or imported."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.If | ast.Try):
            names |= _names(node.body)
    return names


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def dotted_problem(name: str, modules: dict[str, Path]) -> str | None:
    """Why ``name`` (see Terms: dotted name) does not resolve, or None when it does."""
    parts = name.replace(":", ".").split(".")
    if len(parts) == 2 and parts[0] in APPS and parts[1][:1].isupper():
        return dotted_problem(f"{parts[0]}.models.{parts[1]}", modules)  # a model's label
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if module in modules:
            break
    else:
        return "no such module"
    rest = parts[cut:]
    if not rest:
        return None
    tree = ast.parse(modules[module].read_text(encoding="utf-8"))
    if rest[0] not in _names(tree.body):
        return f"{module} has no {rest[0]}"
    if len(rest) > 1 and (source := _imported_from(tree, module, rest[0], modules)):
        return dotted_problem(".".join([source, *rest]), modules)
    cls = _classes(tree).get(rest[0])
    if len(rest) > 1 and cls is not None and rest[1] not in _names(cls.body):
        return f"{module}.{rest[0]} has no {rest[1]}"
    return None


def _imported_from(tree: ast.Module, module: str, name: str, modules: dict) -> str | None:
    """The project module that ``module`` imports ``name`` from, if it does."""
    package = module if modules[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(
            (alias.asname or alias.name) == name and alias.name == name for alias in node.names
        ):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source = f"{base}.{node.module}" if node.level else node.module
            return source if source in modules else None
    return None


def _tracked(root: Path) -> list[str]:
    """The checkout's own files: those at its root and under ``ROOT_FOLDERS`` (so no
    virtualenv, data folder or build output), as paths from the root."""
    files = [path for path in root.iterdir() if path.is_file()]
    files += [path for folder in ROOT_FOLDERS for path in (root / folder).rglob("*")]
    return [path.relative_to(root).as_posix() for path in files if path.is_file()]


def path_problem(path: str, root: Path) -> str | None:
    """Why ``path`` (see Terms: path) is not there, or None when it is."""
    path = path.rstrip(".,;:")
    if path in FORMER:
        return None
    if any(path == built or path.startswith(built + "/") for built in BUILT):
        return None
    return None if (root / path).exists() else "no such file or folder"


def _looks_like_short_path(token: str) -> bool:
    if any(mark in token for mark in "<>*{}$~:#?=()\\") or token.startswith(("/", ".", "-")):
        return False
    if token.startswith(tuple(folder + "/" for folder in ROOT_FOLDERS)):
        return False  # a whole path, checked as such
    return bool(re.fullmatch(r"[\w\-]+(/[\w\-]+)*\.\w+", token)) and token.endswith(FILE_ENDINGS)


def short_path_problem(token: str, tracked: list[str]) -> str | None:
    """Why ``token`` (see Terms: short path) matches no file, or None."""
    if any(name == token or name.endswith("/" + token) for name in tracked):
        return None
    return "no file ends with it"


def anchors(doc: Path) -> set[str]:
    """The anchors of a Markdown file's headings (see Terms: link)."""
    found, fenced = set(), False
    for line in doc.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and (heading := HEADING.fullmatch(line)):
            words = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(words.replace(" ", "-"))
    return found


def link_problems(line: str, doc: Path):
    """Each link on one line of ``doc`` to a file or heading that is not there, with why."""
    for match in LINK.finditer(line):
        target = match.group(1)
        if ":" in target:
            continue  # https:, mailto:: another site's business
        path, _, anchor = target.partition("#")
        linked = (doc.parent / path) if path else doc
        if not linked.exists():
            yield f"{target} (no such file)"
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            yield f"{target} (no such heading)"


def make_targets(root: Path = REPO_ROOT) -> set[str]:
    """The Makefile's rules (see Terms: command)."""
    text = (root / "Makefile").read_text(encoding="utf-8")
    return {
        target
        for line in text.splitlines()
        if (rule := re.match(r"([\w\- ]+):(?!=)", line))
        for target in rule.group(1).split()
    }


def command_problems(line: str, targets: set[str]):
    """Each make target or management command on one line that is not there, with why."""
    for match in MAKE.finditer(line):
        for target in match.group(1).split():
            if target not in targets:
                yield f"make {target} (no such target)"
    commands = get_commands()
    for match in MANAGE.finditer(line):
        if match.group(1) not in commands:
            yield f"{match.group(0)} (no such command)"


def line_problems(line: str, root: Path, modules: dict[str, Path], tracked: list[str]):
    """Each name or path on one line of a doc that is not there, with why."""
    for match in DOTTED.finditer(line):
        name = match.group(1) + (f":{match.group(2)}" if match.group(2) else "")
        if why := dotted_problem(name, modules):
            yield f"{name} ({why})"
    for match in PATH.finditer(line):
        if match.group(2):
            continue  # a placeholder follows (see Terms: path)
        if why := path_problem(match.group(1), root):
            yield f"{match.group(1)} ({why})"
    for match in BACKTICKED.finditer(line):
        token = match.group(1)
        if _looks_like_short_path(token) and (why := short_path_problem(token, tracked)):
            yield f"{token} ({why})"


def problems(root: Path = REPO_ROOT) -> list[str]:
    """Every name and path the docs point at that is not there, as "doc:line: what (why)"."""
    modules = _modules(root)
    tracked = _tracked(root)
    targets = make_targets(root)
    return [
        f"{doc.relative_to(root)}:{number}: {problem}"
        for doc in doc_files(root)
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for problem in [
            *line_problems(line, root, modules, tracked),
            *command_problems(line, targets),
            *link_problems(line, doc),
        ]
    ]


def test_every_module_name_and_path_the_docs_point_at_is_there():
    assert problems() == []


@pytest.mark.parametrize(
    ("broken", "why"),
    [
        ("`tournament.serving.nowhere`", "tournament.serving has no nowhere"),
        ("tables.writes.screen_play.take_a_seat", "tables.writes.screen_play has no take_a_seat"),
        (
            "`tables.models.Deal.no_such_field`",
            "tables.models.screen_play.Deal has no no_such_field",
        ),
        ("`tournament.serving.asgi:nothing`", "tournament.serving.asgi has no nothing"),
        ("`tournament.movement`", "tournament has no movement"),
        ("(`tables/views/nowhere.py`)", "no such file or folder"),
        ("tournament/gone/.", "no such file or folder"),
        ("`nowhere_at_all.py`", "no file ends with it"),
        ("`tournament.NoSuchModel`", "tournament.models has no NoSuchModel"),
    ],
)
def test_a_name_or_path_that_is_not_there_is_named(broken, why):
    line = f"See {broken} beside `tournament.serving.asgi:application`, `screen_play.py`."
    found = list(line_problems(line, REPO_ROOT, _modules(REPO_ROOT), _tracked(REPO_ROOT)))
    assert [problem.endswith(f"({why})") for problem in found] == [True]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("`make checks`", "make checks (no such target)"),
        ("`make smoke-package smoke-window`", "make smoke-window (no such target)"),
        ("`make test WORKERS=1` then `manage.py serv`", "manage.py serv (no such command)"),
        (
            "`fivetricks manage export_events 12`",
            "fivetricks manage export_events (no such command)",
        ),
    ],
)
def test_a_make_target_or_command_that_is_not_there_is_named(line, problem):
    assert list(command_problems(line, make_targets())) == [problem]


@pytest.mark.parametrize(
    ("link", "problem"),
    [
        ("[a](docs/NOWHERE.md)", "docs/NOWHERE.md (no such file)"),
        ("[a](docs/DEPLOY.md#no-such-heading)", "docs/DEPLOY.md#no-such-heading (no such heading)"),
        ("[a](#cards-on-screens)", "#cards-on-screens (no such heading)"),
    ],
)
def test_a_link_to_a_file_or_heading_that_is_not_there_is_named(link, problem):
    line = f"{link}, [b](docs/DEPLOY.md#backups), [c](#layout), [d](https://example.org/#x)"
    assert list(link_problems(line, REPO_ROOT / "README.md")) == [problem]


def test_a_placeholder_what_the_app_makes_or_a_former_name_is_not_checked():
    line = (
        "`locale/<code>/LC_MESSAGES/django.po`, `tournament/site/`, `views/organizer/<f>.py`,"
        " `DATA_DIR/server.json`, `tournament.SignInAttempt`, `tables/writes/report_reads.py`"
    )
    assert list(line_problems(line, REPO_ROOT, _modules(REPO_ROOT), _tracked(REPO_ROOT))) == []
