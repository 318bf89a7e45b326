"""Reading a roster: names typed or pasted one per line, or a CSV file.

Terms:
    line      one line of the pasted text, numbered from 1 as the organizer sees it in the
              box. For a CSV file, the *row* of the file, numbered from 1 like a
              spreadsheet (the header row counts).
    name      a player's name as every screen shows it: Unicode NFC, spaces trimmed and
              runs of spaces made one (a tab or a line break inside a cell is a space),
              bidirectional controls removed. Accents, emoji and markup characters are
              kept as typed; the screens escape them and isolate the name (<bdi>), so a
              right-to-left name never reorders the text around it.
    control   a control character (Unicode category Cc: NUL, the rest of C0, DEL and C1)
              other than tab, carriage return and line feed. A name never holds one: the
              line is refused, naming the character, instead of silently changed.
    bidi control
              an invisible character that changes the direction of the text after it
              (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C). It is removed from
              a typed or pasted name: "\u202eecilA" would otherwise show as "Alice".
    blank     a line with nothing visible on it. Blank lines are skipped, not refused.
    empty     a line (or a CSV row) that has characters but no name: only punctuation, or
              a CSV row whose name cell is empty while other cells are filled.
    same name two names equal once case, accents and invisible characters (bidi controls,
              zero-width spaces: Unicode's format characters) are ignored ("ann", "Ann",
              "Änn", "A\u200bnn"). One event never has two, because the projector and the
              phones could not tell them apart. Letters that merely read alike in Latin
              letters ("Łukasz" and "Lukasz", "王" and "汪") stay different names; the
              alphabetical order (tournament.rules.ordering) reads them alike, and their
              exact spelling orders them.
    clash     a name that is the same name as another one (an earlier line, a player on
              the roster) without being spelled identically: "ZOE" and "zoe".
    problem   a line that cannot become a player, with the line number to fix it at.

A roster is taken whole or not at all: with any problem, nothing is added, so the line
numbers in the messages still match the text the organizer is fixing.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

MAX_NAME_LENGTH = 40  # the same as tournament.models.PLAYER_NAME_MAX_LENGTH
MAX_LINES = 1000  # more than any venue seats; a bigger paste is almost surely a wrong file
MAX_CSV_BYTES = 1_000_000

# Header cells (case and spaces ignored) that name the column holding full names, in the
# languages the product speaks: a French, Spanish or German sign-up sheet works as it is.
NAME_HEADERS = frozenset(
    {"name", "names", "full name", "fullname", "player", "players", "participant", "attendee"}
    | {"nom complet", "joueur", "joueuse", "joueurs", "participante", "participants"}
    | {"nombre completo", "nombre y apellidos", "jugador", "jugadora", "jugadores"}
    | {"vollständiger name", "spieler", "spielerin", "teilnehmer", "teilnehmerin"}
)
FIRST_NAME_HEADERS = frozenset(
    {"first name", "firstname", "given name", "first", "prénom", "prenom", "nombre", "vorname"}
)
LAST_NAME_HEADERS = frozenset(
    {"last name", "lastname", "surname", "family name", "last"}
    | {"nom", "nom de famille", "apellido", "apellidos", "nachname", "familienname"}
)

FIRST_AND_NAME = ("vorname", "name")

_SPACES = re.compile(r"\s+")


class ProblemKind(StrEnum):
    EMPTY = "empty"
    CONTROL = "control"  # holds a control character (see Terms: control)
    TOO_LONG = "too_long"
    REPEATED = "repeated"  # the same name on an earlier line of this roster
    ON_ROSTER = "on_roster"  # the same name as a player already in the event
    REMOVED = "removed"  # the same name as a player removed earlier (restore them instead)


@dataclass(frozen=True)
class LineProblem:
    line: int
    name: str
    kind: ProblemKind
    other_line: int | None = None  # for REPEATED: the line it repeats
    length: int = 0  # for TOO_LONG
    other_name: str = ""  # for REPEATED, ON_ROSTER, REMOVED: the name it is the same as
    character: str = ""  # for CONTROL: the first control character, as "U+0000"

    @property
    def clashes(self) -> bool:
        """The same name as other_name, spelled differently (see Terms: clash)."""
        return bool(self.other_name) and self.other_name != self.name


class FileProblem(StrEnum):
    """Why a whole file cannot be read as a roster."""

    TOO_BIG = "too_big"
    NOT_TEXT = "not_text"  # a spreadsheet or other binary file, not CSV
    TOO_MANY_LINES = "too_many_lines"
    NO_NAMES = "no_names"


@dataclass(frozen=True)
class RosterInput:
    """What a pasted text or a CSV file holds: the names to add, or why not."""

    names: list[str] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    file_problem: FileProblem | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.file_problem is None and bool(self.names)


# Whitespace that a spreadsheet cell or a paste may hold inside a name: read as a space.
_SPACE_CONTROLS = frozenset("\t\r\n")
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Shown in a message in place of a control character, which would not show itself.
SHOWN_CONTROL = "\ufffd"


def clean_name(raw: str) -> str:
    """The name as screens show it: NFC, bidi controls removed, spaces collapsed.

    Other control characters are kept, for name_problem to refuse (see Terms: control).
    """
    text = unicodedata.normalize("NFC", raw)
    text = "".join(
        " " if char in _SPACE_CONTROLS else char for char in text if char not in BIDI_CONTROLS
    )
    return _SPACES.sub(" ", text).strip()


def _is_control(char: str, *, spaces: bool = True) -> bool:
    return unicodedata.category(char) == "Cc" and not (spaces and char in _SPACE_CONTROLS)


def control_characters(name: str, *, spaces: bool = True) -> list[str]:
    """The control characters of ``name`` (see Terms: control), in order; with
    ``spaces=False`` tab, carriage return and line feed too (a name stored as it is)."""
    return [char for char in name if _is_control(char, spaces=spaces)]


def code_point(char: str) -> str:
    """How a message names an invisible character: "U+0000"."""
    return f"U+{ord(char):04X}"


def bidi_controls(name: str) -> list[str]:
    """The bidi controls of ``name`` (see Terms: bidi control), in order."""
    return [char for char in name if char in BIDI_CONTROLS]


def shown(name: str) -> str:
    """``name`` with each control character and bidi control replaced by a visible mark,
    for a message: neither shows itself, and a bidi control would reorder the message."""
    return "".join(
        SHOWN_CONTROL if _is_control(char, spaces=False) or char in BIDI_CONTROLS else char
        for char in name
    )


def same_name_key(name: str) -> str:
    """Two names with the same key are the same name (see Terms: same name).

    Player.name_key stores it, so the database refuses the same names as this check does,
    on SQLite and PostgreSQL alike ("İlker" and "ilker", "Zoë" and "zoe").
    """
    decomposed = unicodedata.normalize("NFKD", clean_name(name))
    # NFKD splits "é" into "e" + a combining accent; the accents and the characters that
    # show nothing (format characters) are dropped.
    seen = (
        char
        for char in decomposed
        if not unicodedata.combining(char) and unicodedata.category(char) != "Cf"
    )
    return "".join(seen).casefold()


def _is_blank(name: str) -> bool:
    # Zero-width and other format characters show nothing: such a line looks blank.
    return all(unicodedata.category(char) in {"Cf", "Zs"} or char.isspace() for char in name)


def _has_a_name(name: str) -> bool:
    # Letters, digits and symbols (emoji are symbols) can name someone; punctuation alone
    # ("-", "...", quotes left over from a spreadsheet) cannot.
    return any(unicodedata.category(char)[0] in {"L", "N", "S"} for char in name)


def name_problem(name: str, *, max_length: int = MAX_NAME_LENGTH) -> ProblemKind | None:
    """Whether one cleaned name can be a player's name (duplicates aside)."""
    if control_characters(name):
        return ProblemKind.CONTROL
    if not _has_a_name(name):
        return ProblemKind.EMPTY
    if len(name) > max_length:
        return ProblemKind.TOO_LONG
    return None


def check_names(
    numbered: Iterable[tuple[int, str]],
    *,
    existing: Iterable[str] = (),
    removed: Iterable[str] = (),
    max_length: int = MAX_NAME_LENGTH,
) -> RosterInput:
    """Check (line number, raw name) pairs against each other and the event's roster.

    ``existing`` are the names of players on the roster (present or absent), ``removed``
    those of players removed earlier, whose names stay taken so past rounds keep them.
    """
    on_roster = {same_name_key(name): name for name in existing}
    was_removed = {same_name_key(name): name for name in removed}
    first_line: dict[str, tuple[int, str]] = {}
    names: list[str] = []
    problems: list[LineProblem] = []
    for line, raw in numbered:
        if _is_blank(raw):
            continue
        name = clean_name(raw)
        kind = name_problem(name, max_length=max_length)
        if kind == ProblemKind.CONTROL:
            first = code_point(control_characters(name)[0])
            problems.append(LineProblem(line, shown(name), kind, character=first))
            continue
        if kind is not None:
            problems.append(LineProblem(line, name, kind, length=len(name)))
            continue
        key = same_name_key(name)
        if key in first_line:
            other_line, other_name = first_line[key]
            problems.append(
                LineProblem(line, name, ProblemKind.REPEATED, other_line, other_name=other_name)
            )
        elif key in on_roster:
            problems.append(
                LineProblem(line, name, ProblemKind.ON_ROSTER, other_name=on_roster[key])
            )
        elif key in was_removed:
            problems.append(
                LineProblem(line, name, ProblemKind.REMOVED, other_name=was_removed[key])
            )
        else:
            first_line[key] = (line, name)
            names.append(name)
    return RosterInput(names=names, problems=problems)


def read_lines(
    text: str,
    *,
    existing: Iterable[str] = (),
    removed: Iterable[str] = (),
    max_length: int = MAX_NAME_LENGTH,
) -> RosterInput:
    """Names typed or pasted one per line."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        return RosterInput(file_problem=FileProblem.TOO_MANY_LINES)
    result = check_names(
        enumerate(lines, start=1), existing=existing, removed=removed, max_length=max_length
    )
    if not result.names and not result.problems:
        return RosterInput(file_problem=FileProblem.NO_NAMES)
    return result


def decode_csv(data: bytes) -> str | None:
    """The file's text, or None when it is not a text file at all."""
    if b"\x00" in data[:4096] or data.startswith(b"PK\x03\x04"):
        return None  # UTF-16, a spreadsheet (.xlsx is a zip) or another binary file
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Spreadsheets on Windows still save "CSV" in the local code page.
        return data.decode("cp1252", errors="replace")


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        return csv.excel


def _header_key(cell: str) -> str:
    return _SPACES.sub(" ", cell.replace("_", " ")).strip().casefold()


def _name_columns(header: list[str]) -> list[int] | None:
    """The columns that hold names when the first row is a header, else None."""
    keys = [_header_key(cell) for cell in header]
    full = next((i for i, key in enumerate(keys) if key in NAME_HEADERS), None)
    first = next((i for i, key in enumerate(keys) if key in FIRST_NAME_HEADERS), None)
    last = next((i for i, key in enumerate(keys) if key in LAST_NAME_HEADERS), None)
    if first is not None and last is not None:
        return [first, last]
    if first is not None and full is not None and (keys[first], keys[full]) == FIRST_AND_NAME:
        # A German sheet's "Vorname; Name": beside "Vorname", "Name" is the family name.
        return [first, full]
    if full is not None:
        return [full]
    if first is not None:
        return [first]
    return None


def csv_rows(text: str) -> list[tuple[int, str]] | None:
    """(row number, name) for every row that is not blank; None if there are too many rows.

    The names come from the column headed "Name" (or "First name" + "Last name"), or from
    the first column when the file has no such header. A row with other cells filled but
    no name gives an empty name.
    """
    rows = list(csv.reader(io.StringIO(text), _dialect(text)))
    if len(rows) > MAX_LINES + 1:
        return None
    if not rows:
        return []
    columns = _name_columns(rows[0])
    start = 1 if columns is not None else 0
    columns = columns or [0]
    named: list[tuple[int, str]] = []
    for number, row in enumerate(rows[start:], start=start + 1):
        if not any(cell.strip() for cell in row):
            continue
        name = " ".join(row[i].strip() for i in columns if i < len(row) and row[i].strip())
        named.append((number, name))
    return named


def read_csv(
    data: bytes,
    *,
    existing: Iterable[str] = (),
    removed: Iterable[str] = (),
    max_length: int = MAX_NAME_LENGTH,
) -> RosterInput:
    """Names from an uploaded CSV file (see csv_rows for which column)."""
    if len(data) > MAX_CSV_BYTES:
        return RosterInput(file_problem=FileProblem.TOO_BIG)
    text = decode_csv(data)
    if text is None:
        return RosterInput(file_problem=FileProblem.NOT_TEXT)
    rows = csv_rows(text)
    if rows is None:
        return RosterInput(file_problem=FileProblem.TOO_MANY_LINES)
    # check_names skips blank names, but a row that has other cells and no name is a
    # mistake in the file worth showing.
    unnamed = [
        LineProblem(number, "", ProblemKind.EMPTY) for number, name in rows if _is_blank(name)
    ]
    result = check_names(rows, existing=existing, removed=removed, max_length=max_length)
    problems = sorted([*unnamed, *result.problems], key=lambda problem: problem.line)
    if not result.names and not problems:
        return RosterInput(file_problem=FileProblem.NO_NAMES)
    return RosterInput(names=result.names, problems=problems)
