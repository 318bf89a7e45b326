"""Reading a roster: one name per line or a CSV file; each problem names its line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.roster import (
    MAX_LINES,
    MAX_NAME_LENGTH,
    FileProblem,
    LineProblem,
    ProblemKind,
    clean_name,
    read_csv,
    read_lines,
    same_name_key,
)

PROPERTY = settings(database=None, max_examples=examples(200))


def kinds(result):
    return [(p.line, p.kind) for p in result.problems]


# --- one name per line -------------------------------------------------------------------


def test_blank_lines_are_skipped_and_spaces_tidied():
    result = read_lines("  Ann  \n\n   \nBen   Okafor\n\t\n\u200b\n")
    assert result.names == ["Ann", "Ben Okafor"]
    assert result.problems == []
    assert result.ok


def test_accents_emoji_and_markup_are_kept_as_typed():
    text = "Zoë\nÉmile\n<b>Bold</b>\nAda 🎲\n👩‍👩‍👧"
    assert read_lines(text).names == ["Zoë", "Émile", "<b>Bold</b>", "Ada 🎲", "👩‍👩‍👧"]


def test_names_are_stored_in_composed_form():
    decomposed = "Zoe\u0308"
    assert clean_name(decomposed) == "Zoë"
    assert same_name_key(decomposed) == same_name_key("ZOË")


def test_duplicates_name_both_lines_case_ignored():
    result = read_lines("Ann\nBen\nann\nBEN\nZoë\nZOË")
    assert result.names == ["Ann", "Ben", "Zoë"]
    assert result.problems == [
        LineProblem(3, "ann", ProblemKind.REPEATED, 1, other_name="Ann"),
        LineProblem(4, "BEN", ProblemKind.REPEATED, 2, other_name="Ben"),
        LineProblem(6, "ZOË", ProblemKind.REPEATED, 5, other_name="Zoë"),
    ]
    assert all(problem.clashes for problem in result.problems)
    assert not result.ok


def test_a_clash_names_the_name_it_clashes_with():
    result = read_lines("ann\nCleo\nDev\nAnn\nEva\nEva", existing=["Ann"], removed=["dev"])
    assert [(p.line, p.name, p.other_name, p.clashes) for p in result.problems] == [
        (1, "ann", "Ann", True),  # differs from the roster's "Ann" only in capitals
        (3, "Dev", "dev", True),
        (4, "Ann", "Ann", False),  # exactly the same name: nothing to point out
        (6, "Eva", "Eva", False),
    ]


def test_names_already_on_the_roster_or_removed_are_refused():
    result = read_lines("ann\nCleo\nDev", existing=["Ann"], removed=["dev"])
    assert kinds(result) == [(1, ProblemKind.ON_ROSTER), (3, ProblemKind.REMOVED)]
    assert result.names == ["Cleo"]


def test_over_long_and_empty_names_are_refused_with_their_line():
    long_name = "x" * (MAX_NAME_LENGTH + 1)
    result = read_lines(f'Ann\n{long_name}\n---\n""\n{"y" * MAX_NAME_LENGTH}')
    assert kinds(result) == [
        (2, ProblemKind.TOO_LONG),
        (3, ProblemKind.EMPTY),
        (4, ProblemKind.EMPTY),
    ]
    assert result.problems[0].length == MAX_NAME_LENGTH + 1
    assert result.names == ["Ann", "y" * MAX_NAME_LENGTH]


def test_nothing_but_blank_lines_says_there_is_nothing_to_add():
    assert read_lines("\n  \n").file_problem == FileProblem.NO_NAMES
    assert not read_lines("").ok


# --- names are text and nothing else (issue 23, item 5) ------------------------------------


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b", "\x7f", "\x80", "\x9b"])
def test_a_control_character_is_refused_naming_its_line_and_code_point(control):
    result = read_lines(f"Ann\nBo{control}b\nCy")
    assert result.names == ["Ann", "Cy"]
    (problem,) = result.problems
    assert (problem.line, problem.kind) == (2, ProblemKind.CONTROL)
    assert problem.character == f"U+{ord(control):04X}"
    assert problem.name == "Bo\ufffdb"  # shown, not written raw into the page
    assert not result.ok


def test_a_tab_inside_a_name_is_a_space_not_a_control():
    assert read_lines("Ann\tLee").names == ["Ann Lee"]


def test_a_csv_row_with_a_control_character_is_refused_by_its_row():
    # Past the first 4 KB, which are read to tell a text file from a binary one.
    rows = "".join(f"P{number:04d}\n" for number in range(800))
    result = read_csv(f"Name\n{rows}Bo\x00b\nCy\x1bd\n".encode())
    assert kinds(result) == [(802, ProblemKind.CONTROL), (803, ProblemKind.CONTROL)]
    assert [p.character for p in result.problems] == ["U+0000", "U+001B"]


@pytest.mark.parametrize(
    "mark", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
             "\u2069", "\u200e", "\u200f", "\u061c"],
)  # fmt: skip
def test_bidi_controls_are_removed_from_a_name(mark):
    assert clean_name(f"{mark}ecilA") == "ecilA"
    assert read_lines(f"Ann\n{mark}Bo{mark}").names == ["Ann", "Bo"]


def test_a_reversed_alice_no_longer_passes_for_alice():
    result = read_lines("Alice\n\u202eecilA")
    assert result.names == ["Alice", "ecilA"]  # it shows as what it is: "ecilA"


def test_names_that_look_the_same_once_stripped_are_the_same_name():
    for lookalike in ("Al\u200bice", "\u200eAlice", "Ali\u2060ce", "\ufeffAlice", "Ali\u00adce"):
        assert same_name_key(lookalike) == same_name_key("Alice"), repr(lookalike)
    result = read_lines("Alice\nAl\u200bice", existing=["Bob"])
    assert kinds(result) == [(2, ProblemKind.REPEATED)]
    assert kinds(read_lines("\u200eBob", existing=["Bob"])) == [(1, ProblemKind.ON_ROSTER)]


def test_letters_that_only_read_alike_in_latin_letters_stay_different_names():
    assert same_name_key("Łukasz") != same_name_key("Lukasz")
    assert same_name_key("王伟") != same_name_key("汪伟")
    assert read_lines("Łukasz\nLukasz\n王伟\n汪伟").ok


def test_too_many_lines_is_refused_whole():
    assert read_lines("a\n" * (MAX_LINES + 1)).file_problem == FileProblem.TOO_MANY_LINES


@PROPERTY
@given(st.lists(st.text(max_size=50), max_size=30))
def test_every_line_is_a_name_a_problem_or_blank(lines):
    text = "\n".join(lines)
    result = read_lines(text)
    if result.file_problem is not None:
        return
    assert len(result.names) + len(result.problems) <= len(text.splitlines())
    keys = [same_name_key(name) for name in result.names]
    assert len(keys) == len(set(keys))
    assert all(0 < len(name) <= MAX_NAME_LENGTH for name in result.names)
    assert all(p.line >= 1 for p in result.problems)


# --- CSV files ---------------------------------------------------------------------------


def test_csv_uses_the_name_column_and_names_rows():
    data = "Email,Name,Team\na@x.org,Ann,1\nb@x.org,,2\nc@x.org,Ann,3\n,,\nd@x.org,Zoë,4\n"
    result = read_csv(data.encode())
    assert result.names == ["Ann", "Zoë"]
    assert kinds(result) == [(3, ProblemKind.EMPTY), (4, ProblemKind.REPEATED)]
    assert result.problems[1].other_line == 2


def test_csv_joins_first_and_last_names():
    data = "First name;Last name\nAnn;Okafor\nÉmile;Zola\n"
    assert read_csv(data.encode()).names == ["Ann Okafor", "Émile Zola"]


@pytest.mark.parametrize(
    "header",
    [
        "Prénom;Nom",  # French sign-up sheets
        "Nombre;Apellidos",  # Spanish
        "Vorname;Nachname",  # German
        "Vorname;Name",  # German, where "Name" beside a first name is the family name
        "Nom;Prénom;Email",  # any order
    ],
)
def test_csv_reads_first_and_last_name_headers_in_the_product_languages(header):
    rows = "Ann;Okafor\nÉmile;Zola\n" if not header.startswith("Nom;") else "Okafor;Ann;a@x\n"
    names = read_csv(f"{header}\n{rows}".encode()).names
    assert names == (
        ["Ann Okafor", "Émile Zola"] if not header.startswith("Nom;") else ["Ann Okafor"]
    )


@pytest.mark.parametrize("header", ["Joueur", "Jugadores", "Teilnehmerin", "Nom complet"])
def test_csv_reads_a_full_name_header_in_the_product_languages(header):
    assert read_csv(f"Email,{header}\na@x.org,Ann Okafor\n".encode()).names == ["Ann Okafor"]


def test_csv_without_a_header_takes_the_first_column():
    assert read_csv(b"Ann,12\nBen,13\n").names == ["Ann", "Ben"]


def test_csv_from_excel_with_a_bom_or_a_windows_code_page():
    assert read_csv("\ufeffName\nZoë\n".encode()).names == ["Zoë"]
    assert read_csv("Name\nZoë\nJosé\n".encode("cp1252")).names == ["Zoë", "José"]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"PK\x03\x04spreadsheet", FileProblem.NOT_TEXT),
        ("Name\nAnn\n".encode("utf-16"), FileProblem.NOT_TEXT),
        (b"Name\n\n", FileProblem.NO_NAMES),
        (b"x\n" * (MAX_LINES + 5), FileProblem.TOO_MANY_LINES),
        (b"x" * 1_000_001, FileProblem.TOO_BIG),
    ],
)
def test_files_that_are_not_rosters_are_refused_whole(data, problem):
    assert read_csv(data).file_problem == problem


def test_a_full_name_column_wins_beside_a_first_name_column():
    data = "Name,First name\nAda Lovelace,Ada\n"
    assert read_csv(data.encode()).names == ["Ada Lovelace"]
