"""Co-facilitators: invitations by one-time link, what observers and assistants may do,
revocation at once, and that each reaches only its own event."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import CorrectionAction, Game, GameCorrection, GameStatus
from tests import factories
from tournament.models import CoFacilitator, CoRole, Event, Phase, Player
from tournament.writes import cofacilitators

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


@pytest.fixture
def playing(organizer):
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
    return factories.start_rounds(factories.seated_event(owner=organizer, players=names, tables=3))


def join(event, role, name="Sam") -> tuple[Client, CoFacilitator]:
    """A fresh browser that used its invitation's link (GET, then the button's POST)."""
    invitation = cofacilitators.invite(event=event, name=name, role=role)
    browser = Client()
    link = cofacilitators.link_path(invitation)
    assert browser.get(link).status_code == 200
    response = browser.post(link)
    assert response.status_code == 302
    assert response["Location"] == url("event", event.pk)
    invitation.refresh_from_db()
    return browser, invitation


def at_table(event, number) -> list[Player]:
    seats = factories.seats_of(event, event.round_number)
    names = sorted(name for name, table in seats.items() if table == number)
    return list(Player.objects.filter(event=event, name__in=names).order_by("name"))


def disputed_game(event) -> tuple[Game, Player, Player]:
    first, second = at_table(event, 1)[:2]
    factories.report(event, 1, first, key="a", game_number=1)
    factories.report(event, 1, second, key="b", game_number=1)
    game = Game.objects.get()
    assert game.status == GameStatus.DISPUTED
    return game, first, second


# --- invitations -------------------------------------------------------------------------


def test_the_organizer_invites_from_the_team_page_and_sees_the_link(signed_in, playing):
    response = signed_in.post(url("team_invite", playing.pk), {"name": " Sam ", "role": "observer"})
    assert response.status_code == 302
    invitation = CoFacilitator.objects.get()
    assert (invitation.name, invitation.role) == ("Sam", CoRole.OBSERVER)
    # The link is signed with the time, so the page's may be a second newer than one made
    # before the request: it is one of the two made around it.
    before = cofacilitators.link_path(invitation)
    page = signed_in.get(url("team", playing.pk)).content.decode()
    after = cofacilitators.link_path(invitation)
    assert before in page or after in page


def test_the_invitation_link_starts_with_the_public_address_not_the_browsers(
    signed_in, playing, settings
):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    signed_in.post(url("team_invite", playing.pk), {"name": "Sam", "role": "observer"})
    # The console was opened at localhost (the test client's testserver): a phone scanning
    # the QR code must be sent to the address phones reach.
    page = signed_in.get(url("team", playing.pk), HTTP_HOST="localhost").content.decode()
    links = re.findall(r'class="invite-url"|value="(http[^"]+)"', page)
    links = [link for link in links if link]
    assert links
    assert all(link.startswith("http://192.168.1.20:8000/") for link in links)
    assert "http://localhost" not in page
    assert "testserver" not in page


def test_an_invitation_needs_a_name_and_a_known_role(signed_in, playing):
    signed_in.post(url("team_invite", playing.pk), {"name": "  ", "role": "observer"})
    signed_in.post(url("team_invite", playing.pk), {"name": "Sam", "role": "boss"})
    assert not CoFacilitator.objects.exists()


def test_opening_the_link_spends_nothing_and_the_button_spends_it(playing):
    invitation = cofacilitators.invite(event=playing, name="Sam", role=CoRole.OBSERVER)
    link = cofacilitators.link_path(invitation)
    preview = Client()
    assert preview.get(link).status_code == 200
    assert preview.get(link).status_code == 200  # a link preview, twice: still unspent
    browser, invitation = join(playing, CoRole.OBSERVER, name="Kim")
    user = invitation.user
    assert (user.is_staff, user.is_superuser, user.has_usable_password()) == (False, False, False)
    assert "Kim" in user.get_username()
    assert "observer" in user.get_username()
    # Spent: another browser is refused, the same browser is taken to the console.
    assert Client().post(cofacilitators.link_path(invitation)).status_code == 404
    assert browser.get(cofacilitators.link_path(invitation)).status_code == 302


def test_a_forged_link_is_refused(playing):
    assert Client().get(url("join", "not-a-signed-token")).status_code == 404


def test_a_co_facilitator_has_no_events_list_and_makes_no_events(playing):
    browser, _ = join(playing, CoRole.ASSISTANT)
    assert browser.get(url("events")).url == url("event", playing.pk)
    browser.post(url("event_new"), {"name": "Mine"})
    assert Event.objects.count() == 1


# --- what each role may do ---------------------------------------------------------------


def test_an_observer_sees_the_console_read_only(playing):
    browser, _ = join(playing, CoRole.OBSERVER)
    page = browser.get(url("event", playing.pk)).content.decode()
    assert "You help run this event as observer" in page
    assert url("event_settings", playing.pk) not in page
    assert url("team", playing.pk) not in page
    assert browser.get(url("table", playing.pk, 1)).status_code == 200


@pytest.mark.parametrize("role", [CoRole.OBSERVER, CoRole.ASSISTANT])
def test_no_table_link_reaches_a_co_facilitator(playing, role):
    """A table's link lets anyone report there: it stays with the organizer."""
    browser, _ = join(playing, role)
    tokens = list(playing.tables.values_list("token", flat=True))
    pages = [
        url("event", playing.pk),
        url("event_live", playing.pk),
        url("table", playing.pk, 1),
        url("paper_entry", playing.pk, 1, playing.round_number),
    ]
    for page in pages:
        html = browser.get(page).content.decode()
        assert not [token for token in tokens if token in html], page
        assert reverse("kit:tally_sheets", args=[playing.pk]) not in html, page


@pytest.mark.parametrize("role", [CoRole.OBSERVER, CoRole.ASSISTANT])
def test_no_co_facilitator_changes_the_event_itself(playing, role):
    browser, _ = join(playing, role)
    version = Event.objects.get(pk=playing.pk).version
    posts = [
        ("phase_next", {"phase": playing.phase_key}),
        ("clock", "pause", {"phase": playing.phase_key}),
        ("roster_add", {"names": "Zed"}),
        ("event_settings", {"name": "Taken over"}),
        ("team_invite", {"name": "Eve", "role": "assistant"}),
    ]
    for name, *args in posts:
        data = args.pop()
        response = browser.post(url(name, playing.pk, *args), data)
        assert response.status_code == 302, name
        assert "you cannot do this" in browser.get(response.url).content.decode(), name
    event = Event.objects.get(pk=playing.pk)
    assert (event.version, event.name, event.phase) == (version, "Friday workshop", Phase.ROUND)
    assert CoFacilitator.objects.count() == 1
    for name in ("event_settings", "team", "event_json", "results_csv", "debrief_questions"):
        assert browser.get(url(name, playing.pk)).status_code == 403, name
    assert browser.get(reverse("kit:event_kit", args=[playing.pk])).status_code == 404


def test_an_observer_cannot_settle_add_or_enter_paper(playing):
    game, first, second = disputed_game(playing)
    browser, _ = join(playing, CoRole.OBSERVER)
    browser.post(url("game_settle", playing.pk, game.pk), {"winner": second.pk})
    browser.post(url("game_add", playing.pk, 1), {"winner": first.pk})
    browser.post(reverse("organizer:paper_save", args=[playing.pk, 2, 1]), {"game-1": first.name})
    assert browser.get(reverse("organizer:paper_entry", args=[playing.pk, 2, 1])).status_code == 403
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    assert Game.objects.count() == 1
    assert not GameCorrection.objects.exists()


def test_an_assistant_settles_a_dispute_and_the_log_names_them(playing, organizer):
    game, _, second = disputed_game(playing)
    browser, invitation = join(playing, CoRole.ASSISTANT, name="Noor")
    browser.post(url("game_settle", playing.pk, game.pk), {"winner": second.pk})
    game.refresh_from_db()
    assert (game.winner, game.status) == (second, GameStatus.SETTLED)
    correction = GameCorrection.objects.get()
    assert (correction.action, correction.changed_by) == (CorrectionAction.SETTLED, invitation.user)
    owner = Client()
    owner.force_login(organizer)
    log = owner.get(url("corrections", playing.pk)).content.decode()
    assert "Noor · assistant" in log


def test_an_assistant_enters_a_paper_sheet(playing):
    browser, invitation = join(playing, CoRole.ASSISTANT)
    a, b, *_ = at_table(playing, 2)
    save = reverse("organizer:paper_save", args=[playing.pk, 2, 1])
    response = browser.post(save, {"game-1": a.name, "game-2": b.name})
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Game.objects.count() == 2
    assert set(GameCorrection.objects.values_list("changed_by", flat=True)) == {invitation.user.pk}


# --- one event only, and revocation --------------------------------------------------------


def test_no_co_facilitator_sees_another_event(playing, organizer, django_user_model):
    mine_too = factories.make_event(owner=organizer, name="Same organizer, other event")
    someone_else = factories.make_event(
        owner=factories.make_organizer(django_user_model), name="Other"
    )
    for role in CoRole:
        browser, _ = join(playing, role, name=f"Sam {role}")
        for other in (mine_too, someone_else):
            assert browser.get(url("event", other.pk)).status_code == 404
            assert browser.get(url("event_live", other.pk)).status_code == 404
            assert browser.get(url("notes", other.pk)).status_code == 404
            assert browser.get(url("debrief_report", other.pk)).status_code == 404


def test_a_revoked_co_facilitator_is_refused_at_once(playing, signed_in):
    browser, invitation = join(playing, CoRole.ASSISTANT)
    assert browser.get(url("event", playing.pk)).status_code == 200
    signed_in.post(url("team_revoke", playing.pk, invitation.pk))
    invitation.refresh_from_db()
    assert invitation.is_revoked
    refused = browser.get(url("event", playing.pk))
    assert refused.status_code == 403
    assert "revoked" in refused.content.decode()
    assert browser.get(url("events")).status_code == 403
    assert browser.get(url("event_live", playing.pk)).status_code == 403


def test_a_refused_co_facilitator_s_request_logs_one_line_without_a_traceback(
    playing, signed_in, caplog
):
    observer, _ = join(playing, CoRole.OBSERVER, name="Olga")
    browser, invitation = join(playing, CoRole.ASSISTANT)
    signed_in.post(url("team_revoke", playing.pk, invitation.pk))
    for refused, address in (
        (browser, url("event", playing.pk)),  # revoked
        (browser, url("events")),  # revoked, outside the event
        (observer, url("event_settings", playing.pk)),  # a page the role lacks
    ):
        caplog.clear()
        with caplog.at_level("INFO"):
            assert refused.get(address).status_code == 403
        assert [(r.name, r.getMessage(), r.exc_info) for r in caplog.records] == [
            ("django.request", f"Forbidden: {address}", None)
        ]


def test_a_revoked_link_no_longer_works(playing, signed_in):
    invitation = cofacilitators.invite(event=playing, name="Sam", role=CoRole.OBSERVER)
    signed_in.post(url("team_revoke", playing.pk, invitation.pk))
    link = cofacilitators.link_path(invitation)
    assert Client().get(link).status_code == 404
    assert Client().post(link).status_code == 404
    assert not CoFacilitator.objects.get().user
