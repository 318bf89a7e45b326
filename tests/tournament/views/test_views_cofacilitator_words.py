"""Co-facilitators' screens are worded for their role and name people, not accounts: no
"only you see this" or "Tap the winner" for an observer, names and roles in words (in
the page's language) rather than usernames with ids, game statuses in words."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Game
from tests import factories
from tests.tournament.writes.test_cofacilitators import at_table, join
from tournament.models import CoRole, shown_name

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
    return factories.start_rounds(factories.seated_event(owner=organizer, players=names, tables=2))


def test_an_observers_table_page_offers_nothing_to_tap_and_no_only_you(playing):
    observer, _invitation = join(playing, CoRole.OBSERVER)
    page = observer.get(reverse("organizer:table", args=[playing.pk, 1])).content.decode()
    assert "Tap the winner" not in page
    assert "only you see this" not in page
    assert "the players do not see this" in page


def test_the_header_names_a_cofacilitator_by_name_and_role_in_the_pages_language(playing):
    observer, invitation = join(playing, CoRole.OBSERVER, name="Sam")
    assert "#" in invitation.user.get_username()  # the account's internal name
    page = observer.get(
        reverse("organizer:event", args=[playing.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert '<span class="who">Sam · observateur</span>' in page
    assert "(rôle\xa0: observateur)" in page  # French elision: never "que observateur"
    assert "que observateur" not in page
    assert f"#{invitation.pk}" not in page


def test_the_corrections_log_shows_the_game_status_in_words(playing, organizer):
    browser, invitation = join(playing, CoRole.ASSISTANT, name="Noor")
    first = at_table(playing, 1)[0]
    response = browser.post(
        reverse("organizer:paper_save", args=[playing.pk, 1, 1]),
        {"game-1": first.name},
    )
    assert response.status_code == 302
    assert Game.objects.exists()
    owner = Client()
    owner.force_login(organizer)
    log = owner.get(
        reverse("organizer:corrections", args=[playing.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "unconfirmed" not in log
    assert "déclarée une fois" in log
    assert "Noor · assistant" in log
    assert f"#{invitation.pk}" not in log


def test_a_username_that_is_not_a_cofacilitators_is_shown_as_it_is():
    assert shown_name("ada") == "ada"
    assert shown_name("Sam · observer #12") == "Sam · observer"
    assert shown_name("Sam · boss #12") == "Sam · boss #12"
