"""The printable table kit: owner only, one page per tent card and rule sheet per table, QR
codes that phones can reach, the paper size, and reprinting one table."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.urls import reverse

from tables.rule_sheets import rule_sheet
from tests import factories
from tests.factories import table
from tests.tournament.common.test_qr import dark_modules, expected_modules

pytestmark = pytest.mark.django_db

PUBLIC = "http://fivetricks.example:8000"


@pytest.fixture
def event(organizer):
    return factories.seated_event(owner=organizer, players=14, tables=3)


def kit_url(event, **query) -> str:
    url = reverse("kit:event_kit", args=[event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def body(response) -> str:
    return html_module.unescape(response.content.decode())


def tent_cards(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet tent".*?</section>', raw, flags=re.S)


def rule_pages(raw: str) -> list[str]:
    return re.findall(r'<section class="sheet rule-sheet".*?</section>', raw, flags=re.S)


def qr_codes(raw: str) -> list[str]:
    return re.findall(r'<svg [^>]*class="qr".*?</svg>', raw, flags=re.S)


def test_signing_in_is_required(client, event):
    response = client.get(kit_url(event))
    assert response.status_code == 302
    assert reverse("organizer:login") in response["Location"]


def test_another_organizers_event_is_not_found(client, event, django_user_model):
    client.force_login(factories.make_user(django_user_model))
    assert client.get(kit_url(event)).status_code == 404


def test_a_superuser_may_print_any_kit(client, event, django_user_model):
    client.force_login(factories.make_user(django_user_model, superuser=True))
    assert client.get(kit_url(event)).status_code == 200


def test_each_table_gets_a_tent_card_and_its_rule_sheet_in_table_order(signed_in, event, settings):
    settings.PUBLIC_URL = PUBLIC
    raw = signed_in.get(kit_url(event)).content.decode()

    tents, sheets = tent_cards(raw), rule_pages(raw)
    assert len(tents) == len(sheets) == 3
    for number, (tent, sheet) in enumerate(zip(tents, sheets, strict=True), start=1):
        current = table(event, number)
        # Both halves: the big number and the QR code, one half upside down.
        assert tent.count(f"<b>{number}</b>") == 2
        assert tent.count('class="tent-half flipped"') == 1
        assert tent.count('class="scan-hint"') == 2
        url = PUBLIC + reverse("phone:table", args=[current.token])
        codes = qr_codes(tent)
        assert len(codes) == 2
        assert all(dark_modules(code) == expected_modules(url) for code in codes)
        # The full rules of its own variant, dealt for the players seated there.
        players = current.seats.filter(round__number=1).count()
        expected = rule_sheet(current.variant, players=players)
        text = html_module.unescape(sheet)
        assert expected.deal in text
        assert all(section.text in text for section in expected.sections)


def test_qr_codes_never_point_at_localhost(signed_in, event, monkeypatch):
    monkeypatch.setattr("tournament.common.network.lan_addresses", lambda: ["192.168.7.42"])

    response = signed_in.get(kit_url(event), HTTP_HOST="localhost:8000")

    url = "http://192.168.7.42:8000" + reverse("phone:table", args=[table(event, 1).token])
    code = qr_codes(response.content.decode())[0]
    assert dark_modules(code) == expected_modules(url)
    assert "The QR codes lead phones to http://192.168.7.42:8000" in body(response)


def test_a_laptop_without_network_is_warned_before_printing(signed_in, event, monkeypatch):
    monkeypatch.setattr("tournament.common.network.lan_addresses", lambda: [])
    response = signed_in.get(kit_url(event), HTTP_HOST="localhost:8000")
    assert "which phones cannot reach" in body(response)


@pytest.mark.parametrize(
    ("query", "size"), [({}, "A4 portrait"), ({"paper": "letter"}, "letter portrait")]
)
def test_the_paper_sets_the_printed_page_size(signed_in, event, query, size):
    raw = signed_in.get(kit_url(event, **query)).content.decode()
    assert f"@page {{ size: {size}; margin: 0; }}" in raw
    assert "window.print()" in raw


def test_one_table_can_be_printed_alone(signed_in, event):
    raw = signed_in.get(kit_url(event, table=2)).content.decode()
    assert len(tent_cards(raw)) == 1
    assert "<b>2</b>" in tent_cards(raw)[0]


@pytest.mark.parametrize("number", ["²", "①", "0", "-1", "two", ""])
def test_a_table_that_is_not_a_number_prints_the_whole_kit(signed_in, event, number):
    response = signed_in.get(kit_url(event, table=number))
    assert response.status_code == 200
    assert len(tent_cards(response.content.decode())) == 3


def test_the_kit_answers_to_the_same_people_as_the_console(client, event, django_user_model):
    people = {
        "owner": event.owner,
        "another organizer": factories.make_user(django_user_model),
        "superuser": factories.make_user(django_user_model, superuser=True),
    }
    for who, user in people.items():
        client.force_login(user)
        console = client.get(reverse("organizer:event", args=[event.pk])).status_code
        assert client.get(kit_url(event)).status_code == console, who


def test_a_table_that_does_not_exist_goes_back_to_the_whole_kit(signed_in, event):
    response = signed_in.get(kit_url(event, table=9), follow=True)
    assert "There is no table 9." in body(response)
    assert len(tent_cards(response.content.decode())) == 3


def test_before_the_table_plan_the_kit_says_what_to_do(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    assert "There are no tables yet" in body(signed_in.get(kit_url(event)))


def test_a_table_with_a_new_link_is_reprinted_with_its_new_code(signed_in, event, settings):
    settings.PUBLIC_URL = PUBLIC
    table(event, 2).rotate_token()

    raw = signed_in.get(kit_url(event, table=2)).content.decode()

    url = PUBLIC + reverse("phone:table", args=[table(event, 2).token])
    assert all(dark_modules(code) == expected_modules(url) for code in qr_codes(raw))


@pytest.mark.parametrize("players", [20, 500])
def test_the_kit_costs_the_same_queries_at_any_size(
    signed_in, organizer, players, django_assert_max_num_queries
):
    event = factories.seated_event(owner=organizer, players=players, tables=players // 4)
    url = kit_url(event)
    with django_assert_max_num_queries(8):
        response = signed_in.get(url)
    assert len(tent_cards(response.content.decode())) == players // 4
