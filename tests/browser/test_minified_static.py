"""Chromium reads our minified scripts and style sheets as it reads their sources: every
script compiles, and every style sheet gives the same rules, as Chromium writes them back
(tests/tournament/test_staticfiles.py compares the scripts' syntax trees)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tournament.staticfiles import minify

pytestmark = pytest.mark.browser

STATIC = Path(settings.BASE_DIR) / "static"
COMPILE = "source => { new Function(source); }"
RULES = """source => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(source);
  return Array.from(sheet.cssRules, rule => rule.cssText);
}"""


@pytest.fixture
def page(new_context):
    return new_context().new_page()


def test_every_minified_script_compiles_in_chromium(page):
    for source in sorted(STATIC.glob("js/*.js")):
        minified = minify(f"js/{source.name}", source.read_text(encoding="utf-8"))
        page.evaluate(COMPILE, minified)  # a SyntaxError fails the test, naming the script

    with pytest.raises(Exception, match="SyntaxError"):
        page.evaluate(COMPILE, "var a = ;")


def _rules(page, style_sheet: str) -> list[str]:
    """The rules as Chromium writes them back. A custom property's value (``--font: a, b``)
    comes back as written, so the spaces after its commas, which rcssmin drops and which
    mean nothing there, are dropped on both sides."""
    return [re.sub(r",\s+", ",", rule) for rule in page.evaluate(RULES, style_sheet)]


def test_every_minified_style_sheet_gives_chromium_the_same_rules(page):
    for source in sorted(STATIC.glob("css/*.css")):
        text = source.read_text(encoding="utf-8")
        rules = _rules(page, text)
        assert rules, source.name
        assert _rules(page, minify(f"css/{source.name}", text)) == rules, source.name
