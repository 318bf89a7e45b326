"""Our own scripts and style sheets are collected minified, the same program in fewer bytes;
the apps' files and the ones that came minified are collected as they are.

Terms:
    syntax tree  a script as esprima parses it (ESTree), without positions or comments: two
                 scripts with the same tree are the same program to a browser.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import esprima
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from tournament.staticfiles import minify

STATIC = Path(settings.BASE_DIR) / "static"
OWN_SCRIPTS = sorted(STATIC.glob("js/*.js"))
OWN_STYLE_SHEETS = sorted(STATIC.glob("css/*.css"))
HTMX = "django_htmx/htmx-2.min.js"
HTMX_SOURCE = "django_htmx/htmx-2.js"  # an app's, not minified: left alone all the same
MANIFEST_STORAGE = "tournament.staticfiles.MinifiedManifestStaticFilesStorage"


def syntax_tree(script: str) -> dict:
    try:
        return esprima.parseScript(script).toDict()
    except esprima.Error as error:
        # esprima reads ECMAScript 2017; our scripts keep to it (old phones read them too).
        pytest.fail(f"esprima cannot parse the script ({error}); is it newer than ES2017?")


def _id(path: Path) -> str:
    return path.name


@pytest.mark.parametrize("source", OWN_SCRIPTS, ids=_id)
def test_an_own_script_shrinks_to_the_same_program_without_its_comments(source):
    text = source.read_text(encoding="utf-8")
    minified = minify(f"js/{source.name}", text)

    assert minified is not None
    assert len(minified) < len(text)
    assert "\n  " not in minified  # no indentation left
    assert syntax_tree(minified) == syntax_tree(text)
    assert not esprima.parseScript(minified, {"comment": True}).comments


@pytest.mark.parametrize(
    "script",
    [
        '"use strict";\n// why\nvar a = 1\nvar b = a\n',
        "function f() {\n  return\n  1;\n}\n",  # returns undefined: the line break stays
        "var a = 1\nvar b = a\n++a\n",
        "var s = 'a /* not a comment */ b'; var r = /\\/\\/ not one either/g;\n",
        "var x = 1 /* why */ - -1;\n",
    ],
    ids=["use-strict", "return-newline", "no-semicolons", "strings-and-regex", "minus-minus"],
)
def test_minifying_keeps_directives_line_breaks_strings_and_regular_expressions(script):
    minified = minify("js/example.js", script)

    assert syntax_tree(minified) == syntax_tree(script)
    assert "why" not in minified


def test_the_use_strict_directive_stays_first():
    assert minify("js/strict.js", '/* why */\n"use strict";\nvar a = 1;\n').startswith(
        '"use strict";'
    )


@pytest.mark.parametrize("source", OWN_STYLE_SHEETS, ids=_id)
def test_an_own_style_sheet_shrinks_and_loses_its_comments(source):
    text = source.read_text(encoding="utf-8")
    minified = minify(f"css/{source.name}", text)

    assert minified is not None
    assert len(minified) < len(text)
    assert "/*" not in minified
    # Every rule is kept: as many blocks open and close as outside the comments before.
    uncommented = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    assert minified.count("{") == uncommented.count("{")
    assert minified.count("}") == uncommented.count("}")
    assert minified.count(";") <= uncommented.count(";")


def test_files_that_came_minified_and_other_kinds_are_left_alone():
    assert minify(HTMX, "var a = 1; // kept\n") is None
    assert minify("img/favicon.svg", "<svg><!-- kept --></svg>") is None


def _collect(static_root: Path, **storage: str) -> None:
    overrides: dict[str, object] = {"STATIC_ROOT": static_root}
    if storage:
        overrides["STORAGES"] = {**settings.STORAGES, "staticfiles": storage}
    with override_settings(**overrides):
        call_command("collectstatic", interactive=False, verbosity=0)


def test_collectstatic_minifies_our_files_gzips_the_minified_text_and_leaves_apps_alone(
    tmp_path,
):
    _collect(tmp_path)

    source = (STATIC / "js" / "phone.js").read_text(encoding="utf-8")
    collected = (tmp_path / "js" / "phone.js").read_text(encoding="utf-8")
    assert collected == minify("js/phone.js", source)
    assert gzip.decompress((tmp_path / "js" / "phone.js.gz").read_bytes()).decode() == collected
    style = (STATIC / "css" / "phone.css").read_text(encoding="utf-8")
    assert (tmp_path / "css" / "phone.css").read_text(encoding="utf-8") == minify(
        "css/phone.css", style
    )
    for name in (HTMX, HTMX_SOURCE, "admin/css/base.css", "admin/js/core.js"):
        assert (tmp_path / name).read_bytes() == Path(finders.find(name)).read_bytes(), name


def test_collecting_again_minifies_from_the_source_not_from_the_copy(tmp_path):
    _collect(tmp_path)
    _collect(tmp_path)  # copies nothing (unchanged), minifies again

    source = (STATIC / "js" / "poll.js").read_text(encoding="utf-8")
    assert (tmp_path / "js" / "poll.js").read_text(encoding="utf-8") == minify("js/poll.js", source)


def test_the_package_hashes_the_minified_text(tmp_path):
    _collect(tmp_path, BACKEND=MANIFEST_STORAGE)

    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = manifest["js/phone.js"]
    text = (tmp_path / hashed).read_text(encoding="utf-8")
    source = (STATIC / "js" / "phone.js").read_text(encoding="utf-8")
    assert text == minify("js/phone.js", source)
    # Django's name: the first 12 hex digits of the MD5 of what the file holds.
    assert hashed == f"js/phone.{hashlib.md5(text.encode()).hexdigest()[:12]}.js"
    assert gzip.decompress((tmp_path / f"{hashed}.gz").read_bytes()).decode() == text
    assert (tmp_path / manifest[HTMX]).read_bytes() == Path(finders.find(HTMX)).read_bytes()
