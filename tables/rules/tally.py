"""Reading a paper tally sheet as the organizer types it in: one row per game.

Terms:
    tally sheet  the paper a table fills in when it has no phone: the seated names, and a
                 row per game in which the players tick the winner, or write each player's
                 tricks for the game cut off by the clock.
    row          one game of the sheet as typed: its game number (the sheet's row number)
                 and one line of text, the *entry*.
    entry        either a winner ("JM", "Jamal", "Jam") or the tricks of a game cut off by
                 the clock, as pairs of a player and a count ("JM 3 AL 2 BO 1"). A blank
                 entry is a game not written on the sheet.
    initials     the first letter of each word of a name that starts with a letter, in
                 Latin letters and upper-case: "Jamal Moore" is "JM", "Łukasz Wróbel"
                 "LW", "Zoe Adams (Leeds)" "ZA". A name can also be typed in full, by its
                 first name, by the start of its name or of a later word of it, as long as
                 only one seated name fits.
    typed        compared as the one alphabetical order reads names (tournament.rules.
                 ordering): in Latin letters, accents and case ignored, so "lw", "ŁW" and
                 "Lukasz" all find Łukasz Wróbel, and "lucia" Lucía Fernández.
    ambiguous    an entry that fits two seated names or more: refused, naming them, so the
                 organizer types more letters. Never guessed.
    shortcut     what the printed sheet and the entry page show beside each name: the first
                 of its initials, first name and full name, in Latin letters, that reads
                 back as this name alone at this table, typed in any case; only for two
                 names spelled alike in Latin letters ("Lukasz", "Łukasz") the exact name.
    existing game a game of this table-round already recorded (by a phone, or an earlier
                 paper entry) before this form was saved.
    skipped game a filled row whose game number has neither an existing game nor a filled
                 row before it: "game 3" can only follow "game 2".

Every problem is named on its own row; parsing never drops a row. Messages are English
marked with gettext_noop and passed through a ``translate`` callable (as in tables.rules.scoring).

Standard library and pure modules only: this module must stay importable without Django.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from tables.rules.scoring import check_tricks, game_winner
from tables.rules.variants import DECK_SIZE
from tournament.common.i18n import Translate, gettext_noop, untranslated
from tournament.rules.ordering import latin_spelling, name_key

# A player then a count: "JM 3", "Jamal=3", "Jamal Moore: 3".
_PAIR = re.compile(r"([^\d\s,;=:]+(?:\s+[^\d\s,;=:]+)*)\s*[=:]?\s*(-?\d+)")


def _words(name: str) -> list[str]:
    # Hyphens part words too: "Anne-Marie" has the initials "AM".
    return [word for word in re.split(r"[\s\-]+", name.strip()) if word]


def initials(name: str) -> str:
    """The first letter of each word of ``name`` in Latin letters, upper-case ("Jamal Moore"
    is "JM", "Łukasz Wróbel" "LW", "Tomás Ó Súilleabháin" "TOS"). A word that does not
    start with a letter, such as "(Leeds)" or "2", has no initial: "Zoe Adams (Leeds)" is
    "ZA". So initials never hold a digit, which would read as a count of tricks."""
    letters = []
    for word in _words(name):
        if not word[0].isalpha():
            continue
        # Its first Latin letter: Arabic "علي" is spelled "`ly", so "L".
        spelled = (char for char in latin_spelling(word) if char.isascii() and char.isalpha())
        letters.append(next(spelled, ""))
    return "".join(letters).upper()


def first_name(name: str) -> str:
    return name.strip().split()[0] if name.strip() else ""


def _folded(text: str) -> str:
    """How typed text and names compare: spaces made one, in Latin letters, case ignored
    (tournament.rules.ordering), so "lucia" finds Lucía and "lw" Łukasz Wróbel."""
    return " ".join(latin_spelling(text).casefold().split())


def shortcuts(names: Sequence[str]) -> dict[str, str]:
    """What to print under each name for typing it back: the shortest of its initials, its
    first name and its full name that reads back as this name alone at this table, in Latin
    letters so any keyboard types it, in any case. Only when two seated names are spelled
    the same in Latin letters ("Lukasz" and "Łukasz") is the exact spelling printed."""
    result = {}
    for name in names:
        candidates = (
            initials(name),
            latin_spelling(first_name(name)),
            " ".join(latin_spelling(name).split()),
            name,
        )
        for candidate in candidates:
            if candidate and [match_player(candidate, names).name] == [name]:
                result[name] = candidate
                break
        else:
            result[name] = name
    return result


@dataclass(frozen=True)
class Match:
    """One entry read as a seated name: ``name`` when exactly one fits, else ``candidates``
    (two or more: ambiguous; none: unknown)."""

    name: str | None
    candidates: tuple[str, ...] = ()


def _starts_a_word(folded_name: str, wanted: str) -> bool:
    """Whether ``wanted`` starts at one of the name's words (both folded)."""
    return any(folded_name[at:].startswith(wanted) for at in _word_starts(folded_name))


def _word_starts(folded_name: str) -> list[int]:
    return [at for at, letter in enumerate(folded_name) if at == 0 or folded_name[at - 1] == " "]


def match_player(text: str, names: Collection[str]) -> Match:
    """The seated name that ``text`` stands for: its full name as spelled (case aside); else
    its full name, a first name or initials in Latin letters (exact, so "AL" beside Al
    Brown and Alice Lee is ambiguous); else the start of one name ("Jam", "luc" for Lucía);
    else the start of a later word of it ("fernandez", "fern" for Lucía Fernández), as the
    console's name search finds a name by any part. Accents and case never matter, except
    that the exact spelling tells apart two names spelled the same in Latin letters.
    The first tier that fits anyone decides."""
    exact = " ".join(text.split()).casefold()
    wanted = _folded(text)
    if not exact:
        return Match(None)
    tiers = (
        [name for name in names if " ".join(name.split()).casefold() == exact],
        [name for name in names if _folded(name) == wanted],
        [
            name
            for name in names
            if _folded(first_name(name)) == wanted
            or initials(name).casefold() == wanted.replace(" ", "")
        ],
        [name for name in names if wanted and _folded(name).startswith(wanted)],
        [name for name in names if wanted and _starts_a_word(_folded(name), wanted)],
    )
    for found in tiers:
        unique = sorted(set(found), key=name_key)
        if len(unique) == 1:
            return Match(unique[0])
        if unique:
            return Match(None, tuple(unique))
    return Match(None)


@dataclass(frozen=True)
class Existing:
    """A game already recorded at this table-round: its winner (None when disputed) and
    whether the paper sheet already gave it."""

    winner: str | None
    from_paper: bool = False


@dataclass
class Row:
    """One typed row, and what it says once read."""

    number: int
    text: str
    winner: str | None = None
    tricks: dict[str, int] | None = None
    errors: list[str] = field(default_factory=list)
    # Already entered from paper with this same winner: nothing to store again.
    repeated: bool = False

    @property
    def blank(self) -> bool:
        return not self.text.strip()

    @property
    def to_save(self) -> bool:
        return not self.blank and not self.errors and not self.repeated


def _say(translate: Translate, message: str, **values: object) -> str:
    return translate(message) % values if values else translate(message)


def _named(text: str, names: Collection[str], translate: Translate) -> tuple[str | None, str]:
    found = match_player(text, names)
    if found.name is not None:
        return found.name, ""
    if found.candidates:
        return None, _say(
            translate,
            gettext_noop("“%(text)s” fits more than one player: %(names)s. Type more letters."),
            text=text.strip(),
            names=", ".join(found.candidates),
        )
    return None, _say(
        translate,
        gettext_noop("Nobody at this table is “%(text)s”. Seated here: %(names)s."),
        text=text.strip(),
        names=", ".join(sorted(names, key=name_key)),
    )


def _read_entry(row: Row, names: Collection[str], translate: Translate) -> None:
    text = row.text.strip()
    if not any(char.isdigit() for char in text):
        row.winner, problem = _named(text, names, translate)
        if problem:
            row.errors.append(problem)
        return
    pairs = _PAIR.findall(text)
    leftover = _PAIR.sub(" ", text).replace(",", " ").replace(";", " ").strip()
    if not pairs or leftover:
        row.errors.append(
            _say(
                translate,
                gettext_noop(
                    "Write the winner, or for a game cut off by the clock each player "
                    "and their tricks, like “JM 3 AL 2”."
                ),
            )
        )
        return
    tricks: dict[str, int] = {}
    for who, count in pairs:
        name, problem = _named(who, names, translate)
        # No name comes with the problem that says why.
        if name is None:
            row.errors.append(problem)
        elif name in tricks:
            row.errors.append(
                _say(translate, gettext_noop("%(name)s is written twice."), name=name)
            )
        else:
            tricks[name] = int(count)
    if row.errors:
        return
    # Players left off the row took no trick.
    tricks = {name: tricks.get(name, 0) for name in names}
    problems = check_tricks(
        tricks, players=min(len(names), DECK_SIZE), finished=False, translate=translate
    )
    if problems:
        row.errors.extend(problems)
        return
    row.tricks = tricks
    row.winner = game_winner(tricks)


def read_tally(
    entries: Mapping[int, str],
    *,
    names: Collection[str],
    existing: Mapping[int, Existing],
    translate: Translate = untranslated,
) -> list[Row]:
    """Read a table-round's typed rows, ``entries`` by game number, in game order.

    ``names`` are the players seated at the table in that round (the only ones a row may
    name), ``existing`` its games already recorded. Every row comes back, with its errors
    if any; a row is saved only when no row has an error (see tables.paper).
    """
    rows = [Row(number, entries[number]) for number in sorted(entries)]
    filled = set(existing)
    for row in rows:
        if row.number < 1:
            row.errors.append(_say(translate, gettext_noop("Games are numbered from 1.")))
            continue
        if row.blank:
            continue
        _read_entry(row, names, translate)
        if row.number > 1 and row.number - 1 not in filled:
            row.errors.append(
                _say(
                    translate,
                    gettext_noop(
                        "Game %(missing)s is missing: fill in its row, or leave this one empty."
                    ),
                    missing=row.number - 1,
                )
            )
        filled.add(row.number)
        before = existing.get(row.number)
        if before is not None and before.from_paper and not row.errors:
            if before.winner == row.winner:
                row.repeated = True
            else:
                row.errors.append(
                    _say(
                        translate,
                        gettext_noop(
                            "Game %(number)s was already typed in from paper (%(name)s): "
                            "change its winner on the table's page."
                        ),
                        number=row.number,
                        name=before.winner or "?",
                    )
                )
    return rows
