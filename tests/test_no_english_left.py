"""Every rule sheet and the players' guide speak their language: no English is left.

Terms:
    English left  a string of the printed rules that is the same in English and in another
                  language (the product's and the game's names aside).

Only a message that was never marked for translation, or one built from English pieces,
can leave English on a page whose catalogue is complete (tests/test_catalogues.py). The
screens are checked the same way, at every step of an event, by the browser walk
(tests/browser/test_walk.py and tests/browser/screen_checks.py).
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext

from tables.rules.players_guide import players_guide
from tables.rules.rule_sheets import rule_sheet
from tables.rules.variants import EVERY_VARIANT

LANGUAGES = ("fr", "es", "de")
WORD = re.compile(r"[A-Za-z]{3,}")
ALWAYS_SHARED = {"Five Tricks", "Barnga", "English", "Français", "Español", "Deutsch", "Abc"}


def _strings(value) -> list[str]:
    """Every string inside a rule sheet or guide (dataclasses, tuples, strings)."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        # A section's key names it for the templates; nobody reads it.
        fields = [field.name for field in dataclasses.fields(value) if field.name != "key"]
        return [s for name in fields for s in _strings(getattr(value, name))]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def _worded(texts: list[str]) -> list[str]:
    return [text for text in texts if WORD.search(text) and text not in ALWAYS_SHARED]


# --- the printed rules --------------------------------------------------------------------


# A table's size changes only the sheet's deal line and the deal table's home row
# (tests/tables/rules/test_rule_sheets.py): every variant bare, and every size on one sheet.
SHEETS = [(variant, None) for variant in EVERY_VARIANT] + [
    (EVERY_VARIANT[0], players) for players in range(1, 29)
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_sheet_variant_is_translated_whole(language):
    left = []
    for variant, players in SHEETS:
        english = _worded(_strings(rule_sheet(variant, players=players, translate=gettext)))
        with translation.override(language):
            other = set(_strings(rule_sheet(variant, players=players, translate=gettext)))
        left += [f"{variant.code} at {players}: {text!r}" for text in english if text in other]
    assert not left, f"English left on {language} rule sheets:\n" + "\n".join(left[:20])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("winner_by_sheet", [False, True])
def test_the_players_guide_is_translated_whole(language, winner_by_sheet):
    def guide():
        return players_guide(
            study_minutes=5,
            practice_minutes=3,
            round_minutes=8,
            translate=gettext,
            winner_by_sheet=winner_by_sheet,
        )

    english = _worded(_strings(guide()))
    with translation.override(language):
        other = set(_strings(guide()))
    assert not [text for text in english if text in other]
