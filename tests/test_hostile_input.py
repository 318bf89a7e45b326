"""Hostile input at every URL: Hypothesis posts huge, NUL, Unicode-digit, negative, missing,
duplicated and wrong-typed fields, in odd content types, to every view the app serves, in
several phases of an event.

Terms:
    endpoint     one of the app's URL patterns, its arguments filled from the event under
                 test (found by walking the URL resolver, so a new view is fuzzed unasked).
    refused      answered 4xx, or a page or partial showing an error notice, or a redirect
                 that carries an error message.
    fingerprint  every row of the app's own tables, but for the counters that tell polling
                 screens to look again.

Asserts: never a 5xx (the test client raises what a 500 would hide); a refused request
writes nothing; a refused answer says why (an error page, a notice or a message).

The event of each phase is built once (per test process), in a transaction rolled back
when that phase's tests end; each test runs in a savepoint of it (pytest-django's
django_db), and each example in one of its own, rolled back after it, so every example
meets the same event (and no message an earlier example left in the client's cookie).
"""

from __future__ import annotations

import inspect
import json
import os
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.messages import ERROR, get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.models import Game, GameReport
from tests import factories
from tests.built_once import built_once
from tests.properties import examples
from tournament.models import (
    CoFacilitator,
    CoRole,
    DebriefQuestion,
    NoteTag,
    ObserverNote,
    Phase,
)

REPO = Path(__file__).resolve().parent.parent
# Django's own admin has its own guards; the bench view exists only under `make bench`.
SKIPPED_NAMESPACES = {"admin"}
IGNORED_FIELDS = {"version", "shared_version"}


def endpoints() -> list[tuple[str, list[str]]]:
    """(namespaced URL name, argument names) of every named view."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns, namespace: str | None, outer: list[str]) -> None:
        # An included list's arguments start with its prefix's (an event's pk).
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace or namespace
                if inner not in SKIPPED_NAMESPACES:
                    walk(pattern.url_patterns, inner, [*outer, *pattern.pattern.converters])
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                found.append((name, [*outer, *pattern.pattern.converters]))

    walk(get_resolver().url_patterns, None, [])
    return sorted(found)


def field_names() -> list[str]:
    """Every form field name the app's templates and forms use."""
    names = set()
    for template in (REPO / "templates").rglob("*.html"):
        names.update(re.findall(r'name="([a-z_]+)"', template.read_text()))
    for module in ("tournament.forms", "tables.forms"):
        for _, form in inspect.getmembers(__import__(module, fromlist=["_"]), inspect.isclass):
            names.update(getattr(form, "base_fields", {}))
    names -= {"viewport", "robots", "csrfmiddlewaretoken"}
    return sorted(names)


HOSTILE = [
    "", " ", "0", "1", "2", "-1", "-0", "+3", "1.5", "1e3", "NaN", "inf",
    "99999999999999999999999", "٣", "１２", "²", "\x00", "a\x00b", "x" * 5000, "é" * 300,
    "<b>bold</b>", "' OR 1=1 --", "=cmd|' /C calc'!A0", "true", "null", "[]", "{}",
    "pause", "resume", "time-up", "late", "\u202eevil", "\ud7ff", "İlker",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=40),
)
CONTENT_TYPES = ["form", "multipart", "json", "text", "utf-16", "latin-1", "none"]


@st.composite
def bodies(draw, names: list[str]) -> tuple[list[tuple[str, str]], str, bool]:
    keys = st.one_of(st.sampled_from(names), st.text(max_size=12))
    fields = draw(st.lists(st.tuples(keys, VALUES), max_size=8))
    if draw(st.booleans()) and fields:  # the same field twice, with different values
        fields.append((fields[0][0], draw(VALUES)))
    return fields, draw(st.sampled_from(CONTENT_TYPES)), draw(st.booleans())


def post(client: Client, url: str, fields: list[tuple[str, str]], kind: str, htmx: bool):
    headers = {"HX-Request": "true"} if htmx else {}
    text = urlencode(fields)
    if kind == "multipart":
        data: dict[str, list[str]] = {}
        for key, value in fields:
            data.setdefault(key.replace("\x00", ""), []).append(value)
        return client.post(url, data, headers=headers)
    content_type, body = {
        "form": ("application/x-www-form-urlencoded", text.encode()),
        "json": ("application/json", json.dumps(dict(fields)).encode()),
        "text": ("text/plain", text.encode()),
        "utf-16": ("application/x-www-form-urlencoded; charset=utf-16", text.encode("utf-16")),
        "latin-1": ("application/x-www-form-urlencoded; charset=latin-1", b"name=\xe9\xff\xfe"),
        "none": ("", b"\xff\xfe\x00garbage"),
    }[kind]
    return client.generic("POST", url, body, content_type=content_type, headers=headers)


@cache
def fingerprint_queries() -> tuple[tuple[str, str, tuple], ...]:
    """(model, SQL, parameters) that read each model's rows in the fingerprint, made once:
    a refused example reads them all again, and making the SQL took more than running it."""
    queries = []
    for label in ("tournament", "tables"):
        for model in apps.get_app_config(label).get_models():
            fields = model._meta.concrete_fields
            columns = [f.attname for f in fields if f.name not in IGNORED_FIELDS]
            # _default_manager: each model's one manager, objects, as the type of any model has it.
            rows = model._default_manager.order_by("pk").values_list(*columns)
            sql, params = rows.query.sql_with_params()
            queries.append((model._meta.label, sql, params))
    return tuple(queries)


def fingerprint() -> dict[str, list[tuple]]:
    """Every row of the app's tables (see Terms), as the database stores it."""
    rows = {}
    with connection.cursor() as cursor:
        for label, sql, params in fingerprint_queries():
            cursor.execute(sql, params)
            rows[label] = cursor.fetchall()
    return rows


def refused(response) -> bool:
    if response.status_code >= 400:
        return True
    if 300 <= response.status_code < 400:
        return any(m.level >= ERROR for m in get_messages(response.wsgi_request))
    return b"notice-error" in response.content or b"errorlist" in response.content


def says_why(response) -> bool:
    if response.status_code == 405:  # a method the view never takes: the Allow header says
        return "Allow" in response.headers
    if 300 <= response.status_code < 400:
        return any(m.level >= ERROR for m in get_messages(response.wsgi_request))
    return len(response.content.strip()) > 0


def event_in(phase: str, organizer):
    event = factories.seated_event(owner=organizer, players=10, tables=2)
    if phase == Phase.SETUP:
        return event
    event = factories.start_rounds(event)
    first, second = factories.seated_names(event, 1)[:2]
    factories.report(event, 1, first)
    disputed = factories.report(event, 1, first)
    assert disputed.report.game is not None
    factories.report(event, 1, second, game_number=disputed.report.game.number)
    if phase == Phase.ROUND:
        return event
    return factories.play_until(event, phase, by=organizer)


def arguments(event, converters: list[str]) -> dict[str, object]:
    table = factories.table(event, 1)
    game = Game.objects.filter(round__event=event).first()
    late = GameReport.objects.filter(round__event=event).first()
    player = event.players.first()
    question = DebriefQuestion.objects.filter(event=event).first()
    assert question is not None  # every event is born with the default bank
    invitation = CoFacilitator.objects.create(event=event, name="Sam", role=CoRole.ASSISTANT)
    note = ObserverNote.objects.create(
        event=event, table_number=1, round_number=event.round_number, tag=NoteTag.LAUGHTER
    )
    values = {
        "pk": event.pk,
        "number": 1,
        "game_id": game.pk if game else 1,
        "report_id": late.pk if late else 1,
        "player_id": player.pk,
        "token": table.token,
        "players_token": event.players_token,
        "action": "pause",
        "uidb64": "MQ",
        "question_id": question.pk,
        "invitation_id": invitation.pk,
        "note_id": note.pk,
        "round_number": max(event.round_number, 1),
        "deal": 1,  # a screen table's game in play (tables.models.Deal); none here
    }
    missing = set(converters) - set(values)
    assert not missing, f"teach the fuzzer how to fill {missing}"
    return {name: values[name] for name in converters}


PHASES = [Phase.SETUP, Phase.ROUND, Phase.DEBRIEF]
FIELD_NAMES = field_names()


@pytest.fixture(scope="module", params=PHASES)
def fuzzed(request, django_db_setup, django_db_blocker):
    """The organizer and an event in the phase, built once for the module's tests and
    rolled back after the last of them (tests/built_once.py)."""

    def build():
        organizer = factories.make_organizer(get_user_model(), "fuzz")
        return organizer, event_in(request.param, organizer)

    yield from built_once(django_db_blocker, build)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "converters"), endpoints(), ids=lambda value: str(value))
def test_no_hostile_post_breaks_a_view_or_writes_half(name, converters, fuzzed):
    organizer, event = fuzzed
    event.refresh_from_db()
    url = reverse(name, kwargs=arguments(event, converters))
    client = Client(raise_request_exception=False)
    client.force_login(organizer)
    csrf_client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    csrf_client.force_login(organizer)
    before = fingerprint()  # what every example starts from, each being rolled back

    @settings(
        # A fixed sequence in the suite (no flaky CI); FUZZ_EXAMPLES=200 explores afresh.
        max_examples=int(os.environ.get("FUZZ_EXAMPLES", examples(12))),
        derandomize="FUZZ_EXAMPLES" not in os.environ,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(body=bodies(FIELD_NAMES), with_csrf_check=st.booleans())
    def hostile(body, with_csrf_check):
        fields, kind, htmx = body
        for each in (client, csrf_client):  # no message left over from an earlier example
            each.cookies.pop(CookieStorage.cookie_name, None)
        with transaction.atomic():
            response = post(csrf_client if with_csrf_check else client, url, fields, kind, htmx)
            assert response.status_code < 500, (kind, fields)
            if refused(response):
                assert fingerprint() == before, f"a refused {kind} POST wrote to the database"
                assert says_why(response), "a refused POST must say why"
            transaction.set_rollback(True)

    hostile()


def test_the_fuzzer_reaches_every_audience():
    names = {name for name, _ in endpoints()}
    assert {"organizer:game_add", "phone:report", "phone:tricks", "phone:player_pick"} <= names
    assert any(name.startswith("projector:") for name in names)
    assert "client_key" in FIELD_NAMES
    assert "winner" in FIELD_NAMES


def test_a_refused_post_is_seen_as_refused(signed_in, organizer):
    """The fuzz test's own check: a refused console action is recognised, and writes nothing."""
    event = event_in(Phase.ROUND, organizer)
    before = fingerprint()
    response = signed_in.post(reverse("organizer:debrief_step", args=[event.pk]), {"step": "x"})
    assert refused(response)
    assert fingerprint() == before
