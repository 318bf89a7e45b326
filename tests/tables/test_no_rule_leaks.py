"""No phone link shows another table's rules, and none shows any rules outside the study
phase: every phone page of every table (and every player's page) is crawled in every phase.

What counts as "the rules" is taken from rule_sheet() itself: each section's text, and
the sections that depend on the variant (following suit, winning a trick, trumps). The
trumps section names the suit and the direction, so it differs between any two tables
whose variants differ.
"""

from __future__ import annotations

import html as html_module

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tables.rules.rule_sheets import rule_sheet
from tables.rules.variants import Variant
from tests import factories
from tournament.models import Phase

pytestmark = pytest.mark.django_db

# As headers= rather than **extra, which the type checker cannot tell from get()'s other
# arguments.
HTMX = {"HX-Request": "true"}
# The sections a variant's clauses change; "End of the game" and the scoring differ only
# at a fewest-wins table.
VARIANT_SECTIONS = (
    "Following suit",
    "Winning a trick",
    "Trumps",
    "End of the game",
    "Scoring in the tournament",
)
# One table per new clause (and the neighbour rule kept), for the crawl with clauses.
CLAUSE_VARIANTS = ("high-hearts-fewest", "low-notrump", "high-clubs-broken", "low-spades-overtake")


def variant_texts(table: Table) -> set[str]:
    """The sentences of a table's sheet that say what its variant is."""
    sheet = rule_sheet(table.variant)
    return {s.text for s in sheet.sections if s.heading in VARIANT_SECTIONS}


def study_sheet_texts(table: Table) -> set[str]:
    """Everything the table's phone shows in study: its sheet dealt for its home table."""
    players = table.seats.filter(round__number=1).count()
    sheet = rule_sheet(table.variant, players=players)
    assert sheet.deal is not None  # dealt for a number of players
    return {s.text for s in sheet.sections} | {sheet.deal}


def all_rule_texts(table: Table) -> set[str]:
    """Every rule sentence of the table's sheet, however it is dealt."""
    return {s.text for s in rule_sheet(table.variant).sections} | study_sheet_texts(table)


def table_pages(client: Client, table: Table) -> dict[str, str]:
    """Every page a table's link can show, keyed by what was fetched."""
    token = table.token
    fetches = {
        "page": client.get(reverse("phone:table", args=[token])),
        "page?game=1": client.get(reverse("phone:table", args=[token]) + "?game=1"),
        "live": client.get(reverse("phone:table_live", args=[token]), headers=HTMX),
        "tricks": client.get(reverse("phone:tricks", args=[token]), follow=True),
    }
    return {name: response.content.decode() for name, response in fetches.items()}


def player_pages(client: Client, event) -> dict[str, str]:
    token = event.players_token
    pages = {
        "picker": client.get(reverse("phone:player_home", args=[token])).content.decode(),
        "names": client.get(reverse("phone:player_names", args=[token])).content.decode(),
    }
    for player in event.players.all():
        client.post(reverse("phone:player_pick", args=[token]), {"player": player.pk})
        pages[f"{player.name} page"] = client.get(
            reverse("phone:player_home", args=[token])
        ).content.decode()
        pages[f"{player.name} live"] = client.get(
            reverse("phone:player_live", args=[token]), headers=HTMX
        ).content.decode()
    return pages


def event_in(phase: str, owner, *, clauses: bool = False):
    event = factories.seated_event(owner=owner, players=16, tables=4, rounds_planned=2)
    if clauses:
        for table, code in zip(event.tables.order_by("number"), CLAUSE_VARIANTS, strict=True):
            table.set_variant(Variant.from_code(code))
            table.save()
    if phase in (Phase.ROUND, Phase.BETWEEN_ROUNDS, Phase.DEBRIEF):
        event = factories.start_rounds(event)
        for table_number in (1, 2, 3, 4):
            seated = factories.table(event, table_number).seats.filter(round__number=1)
            seat = seated.first()
            assert seat is not None
            factories.report(event, table_number, seat.player)
    return factories.play_until(event, phase, by=owner)


@pytest.mark.parametrize("clauses", [False, True], ids=["classic", "new clauses"])
@pytest.mark.parametrize("phase", list(Phase))
def test_only_the_study_phase_shows_rules_and_only_the_tables_own(
    client, organizer, phase, clauses
):
    event = event_in(phase, organizer, clauses=clauses)
    tables = list(event.tables.order_by("number"))
    assert len({t.variant for t in tables}) == len(tables) >= 3, "variants must differ"
    checked = 0

    for table in tables:
        # Sentences this table's sheet shares with another's (e.g. following suit on two
        # plain tables) are its own rules too; what remains is unique to other tables.
        others = set().union(*(variant_texts(t) for t in tables if t != table))
        others -= variant_texts(table)
        # A clause adds its sentence to a section, so another table's section may lie
        # word for word inside this table's own (plain following suit inside following
        # suit with "play higher"): that is this table's rule, not a leak.
        others = {t for t in others if not any(t in own for own in all_rule_texts(table))}
        assert len(others) >= len(tables) - 1  # at least every other table's trump rule
        for name, raw in table_pages(client, table).items():
            where = f"table {table.number}, {name}, {phase}"
            for text in (raw, html_module.unescape(raw)):
                assert not any(t in text for t in others), f"another table's rules on {where}"
                if phase != Phase.STUDY:
                    assert not any(t in text for t in all_rule_texts(table)), f"rules on {where}"
            if phase == Phase.STUDY and name in ("page", "live"):
                page = html_module.unescape(raw)
                assert all(t in page for t in study_sheet_texts(table)), f"no rules on {where}"
            checked += 1

    every_rule = set().union(*(all_rule_texts(t) for t in tables))
    for name, raw in player_pages(client, event).items():
        for text in (raw, html_module.unescape(raw)):
            assert not any(t in text for t in every_rule), f"rules on the player's {name}"
        checked += 1
    assert checked == 4 * len(tables) + 2 + 2 * event.players.count()
