"""Names are text and nothing else (issue 23, item 5): every way a name comes in (the
roster box, a CSV file, a rename, the admin) refuses control characters with a message that
names the line or row and the character, and drops or refuses bidirectional controls."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import factories
from tournament.models import Player

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def test_a_pasted_name_with_a_nul_is_refused_naming_its_line(signed_in, event):
    response = signed_in.post(url("roster_add", event.pk), {"names": "Ann\nBo\x00b\nCy"})
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "Line 2: “<bdi>Bo\ufffdb</bdi>” holds a control character (U+0000), which cannot be "
        "part of a name. Retype the name."
    ) in page
    assert "\x00" not in page
    assert not event.players.exists()


def test_a_csv_row_with_a_c1_control_is_refused_naming_its_row(signed_in, event):
    upload = SimpleUploadedFile("people.csv", "Name\nAnn\nBo\u009bb\n".encode())
    response = signed_in.post(url("roster_add", event.pk), {"file": upload})
    page = response.content.decode()
    assert "Row 3: “<bdi>Bo\ufffdb</bdi>” holds a control character (U+009B)" in page
    assert "\u009b" not in page
    assert not event.players.exists()


def test_a_pasted_reversed_alice_loses_its_bidi_control(signed_in, event):
    factories.add_players(event, ["Alice"])
    signed_in.post(url("roster_add", event.pk), {"names": "\u202eecilA\n\u2067Bo\u2069"})
    assert sorted(event.players.values_list("name", flat=True)) == ["Alice", "Bo", "ecilA"]


def test_a_name_that_looks_the_same_once_stripped_is_refused_as_the_same_name(signed_in, event):
    factories.add_players(event, ["Alice"])
    response = signed_in.post(url("roster_add", event.pk), {"names": "Al\u200bice"})
    assert response.status_code == 400
    assert "clashes with “<bdi>Alice</bdi>” already on the roster" in response.content.decode()
    assert list(event.players.values_list("name", flat=True)) == ["Alice"]


def test_a_line_problem_keeps_a_right_to_left_name_apart_from_the_line_number(signed_in, event):
    factories.add_players(event, ["שרה 2"])
    response = signed_in.post(url("roster_add", event.pk), {"names": "Bo\nשרה 2"})
    assert "Line 2: “<bdi>שרה 2</bdi>” is already on the roster." in response.content.decode()


@pytest.mark.parametrize(("typed", "code"), [("An\x1bn", "U+001B"), ("An\x00n", "U+0000")])
def test_a_rename_with_a_control_character_is_refused(signed_in, event, typed, code):
    (ann,) = factories.add_players(event, ["Ann"])
    response = signed_in.post(url("player_rename", event.pk, ann.pk), {"name": typed})
    assert response.status_code == 400
    assert f"That name holds a control character ({code})" in response.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Ann"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Bo\x00b", "Null characters are not allowed"),  # Django's own check, translated
        ("Bo\x07b", "holds a control character (U+0007)"),
        ("Bo\x85b", "holds a control character (U+0085)"),
        ("\u202eecilA", "holds an invisible direction mark (U+202E)"),
    ],
)
def test_the_admin_refuses_a_name_with_a_control_character(client, django_user_model, name, says):
    admin = factories.make_organizer(django_user_model, superuser=True)
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    event = factories.make_event(owner=admin)
    (ann,) = factories.add_players(event, ["Ann"])
    response = client.post(
        reverse("admin:tournament_player_change", args=[ann.pk]),
        {"name": name, "event": event.pk, "status": "present"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert says in response.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Ann"
    assert Player.objects.count() == 1
