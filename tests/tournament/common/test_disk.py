"""Telling a full disk from other failures, and when the console warns about it."""

from __future__ import annotations

import errno
import sqlite3

import pytest
from django.db import OperationalError

from tournament.common import disk


@pytest.fixture(autouse=True)
def forgotten():
    disk.forget_disk_full()
    yield
    disk.forget_disk_full()


class PostgresDiskFull(Exception):
    """What psycopg raises for SQLSTATE 53100 (psycopg.errors.DiskFull), without psycopg."""

    sqlstate = "53100"


def raised_from(error: BaseException, cause: BaseException) -> BaseException:
    try:
        raise error from cause
    except BaseException as raised:
        return raised


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.ENOSPC, "No space left on device"),
        OperationalError("database or disk is full"),
        sqlite3.OperationalError("database or disk is full"),
        raised_from(RuntimeError("backup failed"), OSError(errno.ENOSPC, "No space")),
        raised_from(OperationalError("could not extend file"), PostgresDiskFull()),
    ],
)
def test_a_full_disk_is_told_from_its_error_or_the_error_behind_it(error):
    assert disk.is_disk_full(error)


@pytest.mark.parametrize(
    "error",
    [None, OSError(errno.EACCES, "Permission denied"), OperationalError("database is locked")],
)
def test_other_failures_are_not_a_full_disk(error):
    assert not disk.is_disk_full(error)


def test_the_warning_shows_after_a_failure_and_when_space_is_low(monkeypatch):
    monkeypatch.setattr(disk, "free_bytes", lambda: 10 * disk.LOW_SPACE_BYTES)
    assert disk.disk_warning() is None
    disk.note_disk_full()
    assert "The disk is full" in disk.disk_warning()
    disk.forget_disk_full()
    monkeypatch.setattr(disk, "free_bytes", lambda: 12 * 1024 * 1024)
    assert "almost full (12 MB free)" in disk.disk_warning()


def test_a_failure_is_forgotten_after_a_while(monkeypatch):
    monkeypatch.setattr(disk, "free_bytes", lambda: None)
    disk.note_disk_full()
    later = disk.time.monotonic() + disk.REMEMBER_FOR + 1
    monkeypatch.setattr(disk.time, "monotonic", lambda: later)
    assert disk.disk_warning() is None
