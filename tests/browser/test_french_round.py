"""One round in French, end to end through real pages.

An event whose room language is French: the organizer's browser asks for French
(Accept-Language fr-FR), while the phones and the projector ask for English and must follow
the event instead. The console starts study, practice and round 1 with its French buttons;
three phones (two at table 1, one at table 2) report winners by tapping; the projector
follows; the console closes the round. One phone then picks Deutsch in its language select
and keeps it after a reload, while the others stay French.

The French words are the catalogue's (locale/fr/LC_MESSAGES/django.po), written out here so
a missing or English string fails. French puts a no-break space (U+00A0) before ':' and
'?': the exact text checks test it, where Playwright's own text matching would fold it
into an ordinary space.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Locator, Page, expect

from tables.models import Game, GameStatus, Table
from tables.rules.rule_sheets import rule_sheet
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR
from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)

POLL_WAIT = 12_000  # ms: phones and the projector poll every 2 s on a shared 2-core machine
NBSP = "\u00a0"

# The catalogue's French (msgid in the comment where it helps to find it).
FR_SIGN_IN = "Se connecter"
FR_SIGN_OUT = "Se déconnecter"
FR_START_STUDY = re.compile(r"^Lancer la phase d’étude \(\d+ min\)$")
FR_START_PRACTICE = re.compile(r"^Retirer les règles\s: lancer l’entraînement \(\d+ min\)$")
FR_START_ROUND_1 = re.compile(r"^Lancer la manche 1 \(\d+ min\)$")
FR_STUDY_TITLE = "Étude des règles"  # "Study the rules"
FR_PRACTICE_TITLE = "Entraînement"
FR_ROUND_TITLE = "Manche 1 sur 3"  # "Round %(number)s of %(total)s"
FR_CHECK_AND_CLOSE = "Vérifier les résultats et clore la manche 1"
FR_CLOSE_HEADING = f"Clore la manche 1{NBSP}: vérifier, puis confirmer"
FR_CONFIRM_CLOSE = f"Confirmer{NBSP}: clore la manche 1 et placer les joueurs de la manche 2"
FR_CLOSED = "Manche 1 close."
FR_STUDY_LEAD = f"Temps d’étude{NBSP}: lisez les règles ensemble"
FR_PRACTICE_LEAD = f"Entraînement{NBSP}: les parties ne comptent pas."
FR_PROJECTOR_STUDY = "Étudiez les règles et faites des parties d’entraînement"
FR_GAMES_WON = "Parties gagnées dans cette manche"  # projector caption during a round
FR_NEXT_ROUND = f"Manche suivante{NBSP}: où aller"
FR_MOVES_HEADING = "Déplacements pour la manche 2"
FR_MOVES_SUB = f"Cherchez la table que vous quittez et votre nom{NBSP}: le grand numéro"
FR_MOVES_UP = f"Le plus de parties{NBSP}: monte"


def fr_who_won(game: int) -> str:
    return f"Partie {game}{NBSP}: qui a gagné{NBSP}?"


def fr_recorded(game: int, name: str) -> str:
    return f"Partie {game} enregistrée{NBSP}: {name} a gagné."


def fr_another_phone_says(game: int, name: str) -> str:
    return f"Un autre téléphone indique que {name} a gagné la partie {game}."


def fr_confirmed(game: int, name: str) -> str:
    return f"Partie {game} confirmée{NBSP}: {name} a gagné."


def de_who_won(game: int) -> str:
    return f"Spiel {game}: Wer hat gewonnen?"


def de_recorded(game: int, name: str) -> str:
    return f"Spiel {game} erfasst: {name} hat gewonnen."


DE_NEXT_ROUND = "Nächste Runde: Wohin?"
DE_GAMES_THIS_ROUND = "Spiele dieser Runde"

# What an English page would say at the same moments: never on a French screen.
ENGLISH = re.compile(
    r"who won\?|Games won this round|Moves for round|Next round: where to go|"
    r"Practice: games are not scored|Study time|Sign out|Round 1 of 3|Language\b"
)


def french_trumps(table: Table) -> str:
    """The sentence of a table's French rule sheet that names its trump (unique per variant);
    it must not be the English one."""
    english = rule_sheet(table.variant)
    with translation.override("fr"):
        french = rule_sheet(table.variant, translate=gettext)
    at = next(i for i, s in enumerate(english.sections) if s.heading == "Trumps")
    assert french.sections[at].heading == "Atouts", french.sections[at].heading
    assert french.sections[at].text != english.sections[at].text
    return french.sections[at].text


def html_lang(page: Page) -> Locator:
    return page.locator("html")


def shown(page: Page) -> Locator:
    """A phone's live part, without the status region that repeats its notices aloud."""
    return page.locator("#live")


def exact_text(locator: Locator, text: str) -> None:
    """Wait for ``text``, then check it character for character (no-break spaces too)."""
    expect(locator).to_contain_text(text, timeout=POLL_WAIT)
    assert text in locator.text_content(), (text, locator.text_content())


def shows_no_english(page: Page) -> None:
    found = ENGLISH.search(page.locator("body").inner_text())
    assert found is None, f"English left on {page.url}: {found.group()!r}"


def named(text: str) -> re.Pattern:
    """An accessible name to look for: the browser gives no-break spaces in it as spaces."""
    return re.compile(re.escape(text).replace(NBSP, r"\s"))


def winner_button(phone: Page, name: str) -> Locator:
    return phone.locator("form.report").get_by_role("button", name=re.compile(f"^{name}"))


def open_phone(new_context, live_server, table: Table) -> Page:
    # A phone whose browser asks for English: the room's French must win.
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US")
    phone = context.new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[table.token]))
    return phone


def sign_in_in_french(page: Page, live_server, user) -> None:
    page.goto(live_server.url + sign_in_path(user))
    expect(html_lang(page)).to_have_attribute("lang", "fr")
    page.get_by_role("button", name=FR_SIGN_IN, exact=True).click()
    expect(page.get_by_role("button", name=FR_SIGN_OUT)).to_be_visible()


def test_one_round_in_french_from_console_to_phones_and_projector(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(
        owner=organizer, players=10, tables=3, rounds_planned=3, language="fr"
    )
    one, two = factories.table(event, 1), factories.table(event, 2)
    at_one, at_two = factories.seated_names(event, 1), factories.seated_names(event, 2)

    # The console speaks the organizer's browser language: French.
    console = new_context(viewport=LAPTOP, locale="fr-FR").new_page()
    sign_in_in_french(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    expect(html_lang(console)).to_have_attribute("lang", "fr")
    expect(console.locator("#console-language option:checked")).to_have_text("Français")

    # The projector and the phones ask for English and follow the room.
    projector = new_context(viewport=PROJECTOR, locale="en-US").new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    expect(html_lang(projector)).to_have_attribute("lang", "fr")
    phone_a = open_phone(new_context, live_server, one)
    phone_b = open_phone(new_context, live_server, one)
    phone_c = open_phone(new_context, live_server, two)
    for phone in (phone_a, phone_b, phone_c):
        expect(html_lang(phone)).to_have_attribute("lang", "fr")
        # No pick of its own yet: the phone follows the room, and its select says so.
        expect(phone.locator("#phone-language option:checked")).to_have_text(
            "Langue de la salle (Français)"
        )
        expect(phone.locator(".language-switch label")).to_contain_text("Langue")

    # Study, started from the console: each phone shows its table's French rule sheet.
    console.get_by_role("button", name=FR_START_STUDY).click()
    expect(console.locator("#phase-title")).to_have_text(FR_STUDY_TITLE)
    for phone, table in ((phone_a, one), (phone_b, one), (phone_c, two)):
        exact_text(shown(phone), FR_STUDY_LEAD)
        expect(phone.locator(".rules h3", has_text="Atouts")).to_be_visible()
        exact_text(phone.locator(".rules"), french_trumps(table))
        expect(phone.locator(".rules")).to_contain_text("Un jeu de cartes vite appris, vite joué")
    exact_text(projector.locator("#stage"), FR_PROJECTOR_STUDY)

    # Practice: the rules go away, in French.
    practice = console.get_by_role("button", name=FR_START_PRACTICE)
    assert f"règles{NBSP}: lancer" in practice.text_content()
    practice.click()
    expect(console.locator("#phase-title")).to_have_text(FR_PRACTICE_TITLE)
    for phone in (phone_a, phone_b, phone_c):
        exact_text(shown(phone), FR_PRACTICE_LEAD)
        expect(phone.locator(".rules")).to_have_count(0)

    # Round 1.
    console.get_by_role("button", name=FR_START_ROUND_1).click()
    expect(console.locator("#phase-title")).to_have_text(FR_ROUND_TITLE)
    shows_no_english(console)
    for phone in (phone_a, phone_b, phone_c):
        exact_text(phone.locator("legend.game-question"), fr_who_won(1))
        expect(phone.locator(".phase-line .phase")).to_have_text(FR_ROUND_TITLE)
        shows_no_english(phone)
    exact_text(projector.locator(".band-caption"), FR_GAMES_WON)
    expect(projector.locator(".band-title")).to_have_text(re.compile(r"^Manche 1\s+sur 3$"))

    # Phone A reports game 1; phone B, asked in French, confirms it.
    winner_button(phone_a, at_one[0]).click()
    exact_text(shown(phone_a), fr_recorded(1, at_one[0]))
    exact_text(phone_a.locator("legend.game-question"), fr_who_won(2))
    exact_text(shown(phone_b), fr_another_phone_says(1, at_one[0]))
    phone_b.get_by_role("button", name="Oui, confirmer la partie 1").click()
    exact_text(shown(phone_b), fr_confirmed(1, at_one[0]))
    assert Game.objects.get(table=one, number=1).status == GameStatus.CONFIRMED

    # Table 2's phone reports its game 1.
    winner_button(phone_c, at_two[1]).click()
    exact_text(shown(phone_c), fr_recorded(1, at_two[1]))
    expect(projector.locator("li.row", has_text=at_two[1]).locator(".games")).to_have_text(
        "1", timeout=POLL_WAIT
    )
    shows_no_english(projector)

    # Phone B picks Deutsch: its own pick, kept in its cookie and after a reload.
    phone_b.locator("#phone-language").select_option(label="Deutsch")
    expect(html_lang(phone_b)).to_have_attribute("lang", "de")
    exact_text(phone_b.locator("legend.game-question"), de_who_won(2))
    phone_b.reload()
    expect(html_lang(phone_b)).to_have_attribute("lang", "de")
    exact_text(phone_b.locator("legend.game-question"), de_who_won(2))
    expect(phone_b.locator("#phone-language option:checked")).to_have_text("Deutsch")
    expect(shown(phone_b).locator(".games h2")).to_have_text(DE_GAMES_THIS_ROUND)
    assert "Partie" not in shown(phone_b).inner_text()
    # It reports game 2 in German; phone A, still French, is asked to confirm in French.
    winner_button(phone_b, at_one[1]).click()
    exact_text(shown(phone_b), de_recorded(2, at_one[1]))
    exact_text(shown(phone_a), fr_another_phone_says(2, at_one[1]))
    phone_a.reload()
    expect(html_lang(phone_a)).to_have_attribute("lang", "fr")
    exact_text(shown(phone_a), fr_another_phone_says(2, at_one[1]))
    expect(html_lang(phone_c)).to_have_attribute("lang", "fr")
    exact_text(phone_c.locator("legend.game-question"), fr_who_won(2))

    # The console closes round 1, in French.
    console.get_by_role("link", name=FR_CHECK_AND_CLOSE).first.click()
    exact_text(console.get_by_role("heading", name=named(FR_CLOSE_HEADING)), FR_CLOSE_HEADING)
    expect(html_lang(console)).to_have_attribute("lang", "fr")
    shows_no_english(console)
    confirm = console.get_by_role("button", name=named(FR_CONFIRM_CLOSE))
    exact_text(confirm, FR_CONFIRM_CLOSE)
    confirm.click()
    expect(console.locator("#flash")).to_contain_text(FR_CLOSED)

    # The projector shows the moves in French; the phones say where to go.
    exact_text(projector.locator("#stage h1"), FR_MOVES_HEADING)
    exact_text(projector.locator("#stage .sub"), FR_MOVES_SUB)
    exact_text(projector.locator(".legend"), FR_MOVES_UP)
    expect(html_lang(projector)).to_have_attribute("lang", "fr")
    shows_no_english(projector)
    exact_text(shown(phone_a), FR_NEXT_ROUND)
    exact_text(shown(phone_c), FR_NEXT_ROUND)
    exact_text(shown(phone_b), DE_NEXT_ROUND)
    for phone in (phone_a, phone_c):
        shows_no_english(phone)
        assert "Nächste" not in phone.locator("body").inner_text()

    # Phone B goes back to following the room: French again, and it stays so.
    phone_b.locator("#phone-language").select_option(value="")
    expect(html_lang(phone_b)).to_have_attribute("lang", "fr")
    phone_b.reload()
    expect(html_lang(phone_b)).to_have_attribute("lang", "fr")
    expect(phone_b.locator("#phone-language option:checked")).to_have_text(
        "Langue de la salle (Français)"
    )
    exact_text(shown(phone_b), FR_NEXT_ROUND)
