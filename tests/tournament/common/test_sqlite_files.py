"""An SQLite file: an online copy that holds the source or nothing, the integrity check in
SQLite's words, and a broken file moved aside with its journals."""

from __future__ import annotations

import sqlite3

import pytest

from tests.tournament.writes.test_backups import rows, small_database
from tournament.common.sqlite_files import copy_database, integrity_problems, set_aside


def test_a_copy_holds_the_source_and_never_leaves_half_a_file(tmp_path):
    source = small_database(tmp_path / "live.sqlite3")
    copy_database(source, tmp_path / "copy.sqlite3")
    assert rows(tmp_path / "copy.sqlite3", "SELECT count(*) FROM t") == [(3,)]
    assert rows(tmp_path / "copy.sqlite3", "PRAGMA journal_mode") == [("delete",)]
    assert (tmp_path / "copy.sqlite3").stat().st_mode & 0o777 == 0o600
    with pytest.raises(sqlite3.Error):
        copy_database(tmp_path / "missing.sqlite3", tmp_path / "nothing.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3", "live.sqlite3"]


def test_integrity_problems_name_what_is_wrong(tmp_path):
    good = small_database(tmp_path / "good.sqlite3")
    assert integrity_problems(good) == []
    assert integrity_problems(good, quick=True) == []
    text = tmp_path / "notes.sqlite3"
    text.write_text("not a database at all, just some words " * 50)
    assert integrity_problems(text) == ["file is not a database"]
    assert integrity_problems(text, quick=True) == ["file is not a database"]


def test_a_file_set_aside_takes_its_journals_and_leaves_nothing_behind(tmp_path):
    live = tmp_path / "live.sqlite3"
    live.write_text("broken")
    (tmp_path / "live.sqlite3-wal").write_text("its log")
    kept = tmp_path / "before.sqlite3"
    set_aside(live, kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["before.sqlite3", "before.sqlite3-wal"]
    assert kept.read_text() == "broken"
    assert (tmp_path / "before.sqlite3-wal").read_text() == "its log"
