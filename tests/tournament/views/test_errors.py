"""Failures on the server's side answer in words: a full disk gets a 503 that says so and
a red warning on the console, any other failure a friendly page (never Django's bare
"Server Error (500)"), and a phone or a part of a page one short line. The faults are
simulated: every write (or every query) of the test's connection fails as SQLite fails."""

from __future__ import annotations

import contextlib
import errno
import html
import re
from unittest import mock

import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client
from django.urls import reverse

from tables.models import Game
from tests import factories
from tournament.common import disk
from tournament.writes.backups import BackupFailed, Moment, back_up

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
BARE_500 = "Server Error (500)"


@pytest.fixture(autouse=True)
def forgotten():
    """Each test starts and ends with no disk failure remembered by this process."""
    disk.forget_disk_full()
    yield
    disk.forget_disk_full()


@contextlib.contextmanager
def failing(message: str, *, writes_only: bool):
    """A context in which this thread's statements fail with SQLite's ``message``; in a
    savepoint, so the test's own transaction is usable again afterwards."""

    def refuse(execute, sql, params, many, context):
        if not writes_only or sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise OperationalError(message)
        return execute(sql, params, many, context)

    with transaction.atomic(), connection.execute_wrapper(refuse):
        yield


def test_a_sign_in_on_a_full_disk_says_so_and_the_console_turns_red(organizer):
    event = factories.make_event(owner=organizer)
    organizer.set_password("secret words")
    organizer.save()
    browser = Client(raise_request_exception=False)
    with failing("database or disk is full", writes_only=True):
        response = browser.post(
            reverse("organizer:login"), {"username": organizer.username, "password": "secret words"}
        )
    page = html.unescape(response.content.decode())
    assert response.status_code == 503
    assert "The laptop's disk is full: this was not saved." in page
    assert "Free some space on the laptop" in page  # the organizer at the laptop reads it
    assert BARE_500 not in page

    browser.force_login(organizer)
    console = browser.get(reverse("organizer:event", args=[event.pk])).content.decode()
    assert 'class="message message-error disk-warning" role="alert"' in console
    assert "The disk is full: a backup or a change could not be saved." in console


def test_a_phone_s_report_on_a_full_disk_gets_one_short_line(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    phone = Client(raise_request_exception=False)
    token = factories.table(event, 1).token
    page = phone.get(reverse("phone:table", args=[token])).content.decode()
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', page))
    winner = factories.seated_players(event, 1)[0]
    with failing("database or disk is full", writes_only=True):
        response = phone.post(
            reverse("phone:report", args=[token]), {**fields, "winner": winner.pk}, **HTMX
        )
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode().count("\n") == 0
    assert "disk is full" in response.content.decode()
    assert "the organizer is warned on the console" in response.content.decode()
    assert not Game.objects.exists()


def test_a_backup_that_finds_no_space_turns_the_console_red(organizer, signed_in, tmp_path):
    event = factories.make_event(owner=organizer)
    console_url = reverse("organizer:event", args=[event.pk])
    assert "disk-warning" not in signed_in.get(console_url).content.decode()
    full = OSError(errno.ENOSPC, "No space left on device")
    # The backup copies a SQLite file; on PostgreSQL too, so the same failing copy is met.
    live = tmp_path / "live.sqlite3"
    with (
        mock.patch("tournament.writes.backups._live_sqlite", return_value=live),
        mock.patch("tournament.writes.backups.copy_database", side_effect=full),
        pytest.raises(BackupFailed),
    ):
        back_up(
            event_id=event.pk, round_number=0, moment=Moment.ON_DEMAND, directory=tmp_path / "kept"
        )
    assert "disk-warning" in signed_in.get(console_url).content.decode()


def test_another_failure_gets_a_page_in_words_that_needs_no_database(organizer):
    browser = Client(raise_request_exception=False)
    browser.force_login(organizer)
    with failing("disk I/O error", writes_only=False):
        response = browser.get(reverse("organizer:events"))
        short = browser.get(reverse("organizer:events"), **HTMX)
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in page
    assert "nothing was changed by it" in page
    assert BARE_500 not in page
    assert short.status_code == 500
    assert short["Content-Type"].startswith("text/plain")
    assert "nothing was changed by it" in short.content.decode()
    assert disk.disk_warning() is None  # not a full disk: the console stays calm
    # The console is read by the organizer: told what to do, never to tell the organizer.
    for words in (page, short.content.decode()):
        assert "tell the organizer" not in words
        assert "stop Five Tricks and start it again: everything saved is kept" in words


def test_a_phone_is_told_to_tell_the_organizer(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    phone = Client(raise_request_exception=False)
    token = factories.table(event, 1).token
    with failing("disk I/O error", writes_only=False):
        response = phone.get(reverse("phone:table", args=[token]), **HTMX)
    assert response.status_code == 500
    assert "if it happens again, tell the organizer." in response.content.decode()
    assert "Five Tricks" not in response.content.decode()


def test_the_failure_pages_speak_the_console_s_language(organizer):
    browser = Client(raise_request_exception=False)
    browser.force_login(organizer)
    with failing("database or disk is full", writes_only=False):
        response = browser.get(reverse("organizer:events"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 503
    page = html.unescape(response.content.decode())
    assert "Le disque" in page
    assert "The laptop's disk is full" not in page
