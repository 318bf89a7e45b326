"""One-time sign-in links: they work once, and never for a wrong token."""

import pytest
from django.core.management import call_command

from tournament.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db


def test_the_organizer_is_created_once_without_a_usable_password():
    user, created = ensure_organizer()
    again, created_again = ensure_organizer()
    assert created
    assert not created_again
    assert again.pk == user.pk
    assert not user.has_usable_password()


def test_a_link_signs_in_once(client):
    user, _ = ensure_organizer()
    link = sign_in_path(user)
    response = client.get(link)
    assert response.status_code == 302
    assert client.get("/console/").status_code == 200

    client.logout()
    again = client.get(link)
    assert again.status_code == 404
    assert b"no longer works" in again.content


def test_a_forged_link_is_refused(client):
    ensure_organizer()
    response = client.get("/console/sign-in/MQ/abc-def/")
    assert response.status_code == 404


def test_signin_link_command_prints_a_working_link(client, capsys):
    call_command("signin_link", port=8000)
    link = capsys.readouterr().out.strip()
    assert link.startswith("http://")
    path = "/" + link.split("/", 3)[3]
    assert client.get(path).status_code == 302


def test_the_root_page_points_players_to_their_table_and_organizers_to_the_console(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Scan the QR code on your table" in response.content
    user, _ = ensure_organizer()
    client.force_login(user)
    assert client.get("/").url == "/console/"


def test_only_the_installations_own_account_is_a_superuser():
    owner, _ = ensure_organizer()
    guest, _ = ensure_organizer("bob")
    assert owner.is_superuser
    assert not guest.is_superuser
    assert not guest.is_staff


def test_another_organizer_cannot_open_the_owners_event(client):
    from tests import factories

    owner, _ = ensure_organizer()
    guest, _ = ensure_organizer("bob")
    event = factories.make_event(owner=owner)
    client.force_login(guest)
    assert client.get(f"/console/{event.pk}/").status_code == 404
    assert event.name not in client.get("/console/").content.decode()
