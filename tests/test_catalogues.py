"""The translation catalogues stay complete, clean and compiled.

Terms:
    catalogue   locale/<language>/LC_MESSAGES/django.po, the translations of one language,
                and django.mo beside it, compiled from it. Both are committed: the .mo
                files let `make run` work on laptops without GNU gettext (Windows, macOS).
    message     one marked string of the product (gettext, {% translate %} and friends),
                with its plural form if it has one.
    extracted   the messages `makemessages` finds in the source now, run on a copy of
                the project so the checkout is never touched.
    fuzzy       gettext's flag for a translation it guessed from a similar message; it is
                not shown, so it counts as missing.

`make messages` extracts and compiles; README "Adding a language" says the rest.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

REPO_ROOT = Path(__file__).resolve().parents[1]
LOCALE = REPO_ROOT / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
}
# What a translation must carry over from its message, in any order.
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sdif]|%[sd]|\{[a-z_0-9]*\}|</?[a-z]+[^>]*>")
SOURCES = ("manage.py", "pyproject.toml", "tournament", "tables", "templates", "locale")
GETTEXT_MISSING = (
    "GNU gettext is needed for this check: `make test` installs it (apt-get install gettext)."
)


def _key(entry: polib.POEntry) -> tuple[str, str, str]:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural)


def _catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def _messages(catalogue: polib.POFile) -> set[tuple[str, str, str]]:
    return {_key(entry) for entry in catalogue if not entry.obsolete}


def _listed(keys: set[tuple[str, str, str]], limit: int = 15) -> str:
    shown = [f"  {msgid!r}" for _context, msgid, _plural in sorted(keys)[:limit]]
    more = len(keys) - limit
    return "\n".join(shown + ([f"  … and {more} more"] if more > 0 else []))


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, set[tuple[str, str, str]]]:
    """The messages in the source now, per language, from makemessages on a copy."""
    if not shutil.which("xgettext"):
        pytest.fail(GETTEXT_MISSING)
    copy = tmp_path_factory.mktemp("project")
    for name in SOURCES:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    languages = [argument for code in TRANSLATED for argument in ("-l", code)]
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, "--add-location=file"],
        cwd=copy,
        check=True,
        capture_output=True,
    )
    return {
        code: _messages(polib.pofile(str(copy / "locale" / code / "LC_MESSAGES" / "django.po")))
        for code in TRANSLATED
    }


def test_every_language_the_product_offers_has_a_catalogue():
    assert TRANSLATED, "settings.LANGUAGES offers only English"
    for code in TRANSLATED:
        assert (LOCALE / code / "LC_MESSAGES" / "django.po").is_file(), code
        assert (LOCALE / code / "LC_MESSAGES" / "django.mo").is_file(), f"{code}: run make messages"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_has_every_message_of_the_source(language, extracted):
    committed = _messages(_catalogue(language))
    missing = extracted[language] - committed
    gone = committed - extracted[language]
    assert not missing, (
        f"{len(missing)} message(s) of the source are not in locale/{language}: run "
        f"`make messages`, translate them, and run it again.\n{_listed(missing)}"
    )
    assert not gone, (
        f"{len(gone)} message(s) in locale/{language} are no longer in the source: run "
        f"`make messages`.\n{_listed(gone)}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_translates_every_message_and_guesses_none(language):
    catalogue = _catalogue(language)
    fuzzy = {_key(entry) for entry in catalogue if "fuzzy" in entry.flags and entry.msgid}
    empty = {
        _key(entry)
        for entry in catalogue
        if not entry.obsolete
        and (
            not all(entry.msgstr_plural.get(form) for form in range(2))
            if entry.msgid_plural
            else not entry.msgstr
        )
    }
    obsolete = {_key(entry) for entry in catalogue if entry.obsolete}
    assert not fuzzy, f"fuzzy in locale/{language} (check, then drop the flag):\n{_listed(fuzzy)}"
    assert not empty, f"untranslated in locale/{language}:\n{_listed(empty)}"
    assert not obsolete, f"obsolete in locale/{language}: run `make messages`.\n{_listed(obsolete)}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_keeps_every_placeholder_and_tag(language):
    broken = []
    for entry in _catalogue(language):
        if entry.msgid_plural:
            allowed = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
            forms = entry.msgstr_plural.values()
            if any(not set(PLACEHOLDER.findall(form)) <= allowed for form in forms):
                broken.append(entry.msgid)
        elif sorted(PLACEHOLDER.findall(entry.msgstr)) != sorted(PLACEHOLDER.findall(entry.msgid)):
            broken.append(entry.msgid)
    assert not broken, f"placeholders or tags changed in locale/{language}: {broken[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_declares_its_language_and_plural_rule(language):
    metadata = _catalogue(language).metadata
    assert metadata["Language"] == language
    assert metadata["Plural-Forms"] == PLURAL_FORMS[language]
    assert metadata["Content-Type"] == "text/plain; charset=UTF-8"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_compiles_and_the_committed_mo_is_current(language, tmp_path):
    if not shutil.which("msgfmt"):
        pytest.fail(GETTEXT_MISSING)
    folder = LOCALE / language / "LC_MESSAGES"
    compiled = tmp_path / "django.mo"
    check = subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(folder / "django.po")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, f"locale/{language} does not compile:\n{check.stderr}"
    with compiled.open("rb") as fresh, (folder / "django.mo").open("rb") as committed:
        assert (
            gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog
        ), f"locale/{language}/LC_MESSAGES/django.mo is stale: run `make messages`."
