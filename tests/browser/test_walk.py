"""One walk through every screen of an event, in each language of the product.

Terms:
    walk        one event in the language under test taken through setup, study,
                practice, round 1 (played from three phones), the close, the moves, the
                debrief (every screen, before and after the reveal) and the finished event.
                The console starts the phases and closes the round with its buttons, in the
                organizer's browser language; the phones and the projector ask for English
                and follow the room. At each step every screen of every audience (console,
                phones, projector, kit) is opened and checked.
    twin        the same event in English, taken through the same steps by the bridges: the
                English of each screen, to find English left on the walked one.
    screen      one page of one audience (urls_for), opened afresh at each step unless its
                page is the one already checked there but for numbers (a screen that did
                not change is not checked twice). A step's screens are loaded one after
                another in one tab of each browser context (its viewport's, or the
                organizer's), as a person follows links: a new tab for each screen cost
                as much CPU as the checks. The tabs close at the end of the step.

At each screen: no console error (an htmx syntax error in a trigger included), no axe-core
violation, no sideways scroll, nothing cut off or spilling out of its box; the page speaks
the walk's language (html lang) and, in French, Spanish and German, no English is left
(tests/browser/screen_checks.py); the projector fits as tests/browser/test_screenshots.py
requires; the printed kit runs off no page, on A4 or Letter. Every problem of a walk is
listed together at its end. In French the round's words are also checked character for
character against the catalogue (no-break spaces before ':' and '?').
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from tables.models import Game, GameStatus
from tables.rules.rule_sheets import rule_sheet
from tables.rules.tally import initials
from tables.rules.variants import Variant
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR
from tests.browser.screen_checks import (
    OVERFLOW_REPORT,
    SHEET_SPILL,
    PageWatch,
    axe_violations,
    english_sentences_left,
    fragments,
    fragments_left,
    readable,
)
from tests.browser.test_screenshots import check_fit, room_names
from tests.browser.walk_french import (
    check_french_close,
    check_french_moves,
    check_french_round,
    named,
)
from tournament.common import network
from tournament.models import DebriefStep, Event, Phase
from tournament.models.phases import SCREEN_EVENT_STEPS
from tournament.writes.debrief_bank import show_question
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import (
    advance_phase,
    close_round,
    reveal_rules,
    reveal_table,
    start_debrief,
    step_debrief,
)
from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "fr", "es", "de"]
BROWSER_LOCALE = {"en": "en-GB", "fr": "fr-FR", "es": "es-ES", "de": "de-DE"}
EVENT_NAME = {
    "en": "Friday workshop · Intercultural week",
    "fr": "Atelier du vendredi · Semaine interculturelle",
    "es": "Taller del viernes · Semana intercultural",
    "de": "Freitagsworkshop · Interkulturelle Woche",
}
# The longest rule sheet: trump any time, play higher and fewest wins together.
LONGEST_VARIANT = "high-diamonds-anytime-overtake-fewest"
PLAYERS = room_names(30)
PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}
POLL_WAIT = 12_000  # ms: phones and the projector poll every 2 s on a shared 2-core machine
# The debrief's further screens change the projector and the console only.
DEBRIEF_SCREEN = "debrief screen:"
# Screens of no event: the room's speak the phone's own language, not the walk's.
NO_EVENT = {"home", "bad table link", "bad projector link"}
# A console page an observer opens on a phone: signed in, at a phone's width.
CONSOLE_ON_A_PHONE = {"observer notes"}
# Beside the English walk, which opens every screen at every step in the browser, the other
# languages' walks open these (where their words are longest: German) to see that nothing
# overflows; every screen's words are checked at every step on the server's page.
LOOKED_AT = {
    ("setup", "kit"),
    ("round with a dispute", "table phone"),
    ("round with a dispute", "projector"),
    ("round with a dispute", "ladder"),
    ("round with a dispute", "console"),
    ("round with a dispute", "close round"),
    ("between rounds", "projector"),
    ("between rounds", "table phone"),
}


def urls_for(event: Event) -> dict[str, tuple[str, dict]]:
    """Every screen of the event now, with the viewport it is seen on."""
    table = factories.table(event, 1)
    pk = event.pk
    projector = reverse("projector:screen", args=[event.projector_token])
    screens = {
        "console": (reverse("organizer:event", args=[pk]), LAPTOP),
        "console table": (reverse("organizer:table", args=[pk, 1]), LAPTOP),
        "corrections": (reverse("organizer:corrections", args=[pk]), LAPTOP),
        "player (console)": (
            reverse("organizer:player", args=[pk, event.players.earliest("pk").pk]),
            LAPTOP,
        ),
        "kit": (reverse("kit:event_kit", args=[pk]), LAPTOP),
        "table phone": (reverse("phone:table", args=[table.token]), PHONE),
        "player pick": (reverse("phone:player_home", args=[event.players_token]), PHONE),
        "projector": (projector, PROJECTOR),
        "ladder": (projector + "?view=ladder", PROJECTOR),
    }
    if event.phase == Phase.ROUND:
        number = event.round_number
        screens["close round"] = (reverse("organizer:close_round", args=[pk, number]), LAPTOP)
        screens["tricks"] = (reverse("phone:tricks", args=[table.token]), PHONE)
        screens["paper entry"] = (reverse("organizer:paper_entry", args=[pk, 1, number]), LAPTOP)
        screens["tally sheets"] = (reverse("kit:tally_sheets", args=[pk]), LAPTOP)
        screens["observer notes"] = (reverse("organizer:notes", args=[pk]), PHONE)
    if event.phase == Phase.DEBRIEF:
        screens["debrief report"] = (reverse("organizer:debrief_report", args=[pk]), LAPTOP)
        ask = "reopen" if event.is_finished else "finish"
        screens[f"{ask} (asks first)"] = (reverse(f"organizer:{ask}", args=[pk]), LAPTOP)
    if event.is_finished:
        screens["events"] = (reverse("organizer:events"), LAPTOP)
        screens["delete"] = (reverse("organizer:event_delete", args=[pk]), LAPTOP)
    if event.phase == Phase.SETUP:
        screens |= {
            "events": (reverse("organizer:events"), LAPTOP),
            "new event": (reverse("organizer:event_new"), LAPTOP),
            "settings": (reverse("organizer:event_settings", args=[pk]), LAPTOP),
            "debrief questions": (reverse("organizer:debrief_questions", args=[pk]), LAPTOP),
            "team": (reverse("organizer:team", args=[pk]), LAPTOP),
            "home": ("/", PHONE),
            # Opening a sign-in link spends nothing, so the walk can look at its page.
            "sign-in link": (sign_in_path(event.owner), LAPTOP),
            "password sign-in": (reverse("organizer:login"), LAPTOP),
            "bad sign-in link": (
                reverse("organizer:sign_in_link", args=["MQ", "no-such-token"]),
                LAPTOP,
            ),
            "bad table link": (reverse("phone:table", args=["no-such-token"]), PHONE),
            "bad projector link": (reverse("projector:screen", args=["no-such-token"]), PROJECTOR),
        }
    return screens


def event_in(language: str, organizer) -> Event:
    event = factories.seated_event(
        owner=organizer,
        players=PLAYERS,
        tables=6,
        rounds_planned=2,
        name=EVENT_NAME[language],
        language=language,
        difference_set="custom",
        custom_clauses=["fewest"],
    )
    table = factories.table(event, 1)
    table.set_variant(Variant.from_code(LONGEST_VARIANT))
    table.save()
    return event


def said(language: str, msgid: str, **values) -> str:
    """What the page says for ``msgid`` in ``language``, its tags left out."""
    with translation.override(language):
        return re.sub(r"<[^>]+>", "", gettext(msgid) % values)


def trumps_sentence(event: Event, table_number: int, language: str) -> str:
    """The sentence of a table's rule sheet that names its trump (unique per variant), in
    ``language``: in another language than English, never the English one."""
    variant = factories.table(event, table_number).variant
    english = rule_sheet(variant)
    with translation.override(language):
        sheet = rule_sheet(variant, translate=gettext)
    at = next(i for i, s in enumerate(english.sections) if s.heading == "Trumps")
    if language != "en":
        assert sheet.sections[at].text != english.sections[at].text
    return sheet.sections[at].text


def shown(page: Page):
    """A phone's live part, without the status region that repeats its notices aloud."""
    return page.locator("#live")


def winner_button(phone: Page, name: str):
    return phone.locator("form.report").get_by_role("button", name=re.compile(f"^{name}"))


def shape(html: str) -> str:
    """A page but for what changes without changing the screen: numbers, tokens."""
    html = re.sub(r'(name="csrfmiddlewaretoken" value=|data-etag=)"[^"]*"', "", html)
    return re.sub(r"\d+", "0", html)


class Walk:
    """One language's walk: its event and twin, the open pages, and the problems found."""

    def __init__(self, language: str, live_server, new_context) -> None:
        self.language = language
        self.live_server = live_server
        self.new_context = new_context
        self.organizer, _ = ensure_organizer()
        self.event = event_in(language, self.organizer)
        self.twin = event_in("en", self.organizer)
        self.problems: list[str] = []
        self.checked: set[tuple[str, str]] = set()  # pages opened in the browser
        self.worded: set[tuple[str, str]] = set()  # pages whose words were checked
        self.visits = 0
        self.room = Client()
        self.console_client = Client()
        self.console_client.force_login(self.organizer)
        self.data = [
            *PLAYERS,
            *(initials(name) for name in PLAYERS),
            *EVENT_NAME.values(),
            self.organizer.get_username(),
            # The machine's network interfaces, named in the console's address picker.
            *network.interface_names().values(),
        ]
        self.console = new_context(viewport=LAPTOP, locale=BROWSER_LOCALE[language]).new_page()
        self.contexts = {"console": self.console.context}
        # The page each context checks screens in, and its watch (see Terms: screen).
        self.checking: dict[str, tuple[Page, PageWatch]] = {}

    def url(self, path: str) -> str:
        return self.live_server.url + path

    # --- the server's pages, for the shape of a screen and the twin's English -------------

    def served(self, name: str, path: str, viewport: dict, language: str) -> str:
        if viewport is LAPTOP or name in CONSOLE_ON_A_PHONE:
            response = self.console_client.get(path, HTTP_ACCEPT_LANGUAGE=language, follow=True)
        else:
            response = self.room.get(path, follow=True)
        assert response.status_code in (200, 404 if name.startswith("bad ") else 200), path
        return response.content.decode()

    # --- each step ---------------------------------------------------------------------

    def look(self, step: str) -> None:
        """Check every screen of the event now: its words on the server's page; in the
        browser, each page the walk has not seen as it is (LOOKED_AT in other languages)."""
        self.event.refresh_from_db()
        self.twin.refresh_from_db()
        twin_urls = urls_for(self.twin)
        for name, (path, viewport) in urls_for(self.event).items():
            if step.startswith(DEBRIEF_SCREEN) and name not in ("projector", "console"):
                continue
            where = f"{step} · {name}"
            html = self.served(name, path, viewport, self.language)
            seen = (name, shape(html))
            if self.language != "en" and name not in NO_EVENT and seen not in self.worded:
                self.worded.add(seen)
                english = self.served(name, twin_urls[name][0], viewport, "en")
                self.check_words(where, html, english)
            in_browser = self.language == "en" or (step, name) in LOOKED_AT
            if in_browser and seen not in self.checked:
                self.checked.add(seen)
                self.check_page(where, step, name, path, viewport)
        # Closed between steps: they would poll on while the steps go on.
        for page, _watch in self.checking.values():
            page.close()
        self.checking.clear()

    def check_words(self, where: str, html: str, english_html: str) -> None:
        """The page speaks the walk's language: its html lang, no sentence of the catalogue
        in English, no fragment the English page of the twin has too."""
        lang = re.search(r'<html lang="([^"]*)"', html)
        if lang is None or lang[1] != self.language:
            self.problems.append(f"{where}: html lang is {lang and lang[1]}")
        self.problems += [
            f"{where}: English left: {msgid!r}"
            for msgid in english_sentences_left(readable(html), self.language)
        ]
        english = fragments(english_html, self.data)
        left = fragments_left(english, fragments(html, self.data), self.language)
        self.problems += [f"{where}: English left: {text!r}" for text in sorted(left)]

    def check_page(self, where: str, step: str, name: str, path: str, viewport: dict) -> None:
        """The page in the browser: no console error, no axe violation (in the English
        walk), nothing overflowing, the projector's fit, and no sentence of the catalogue
        left in English once its scripts have run."""
        if viewport is LAPTOP or name in CONSOLE_ON_A_PHONE:
            key = "console"
        else:
            key = f"{viewport['width']}"
            if key not in self.contexts:
                self.contexts[key] = self.new_context(viewport=viewport, locale="en-US")
        if key not in self.checking:
            page = self.contexts[key].new_page()
            self.checking[key] = (page, PageWatch(page))
        page, watch = self.checking[key]
        page.set_viewport_size({"width": viewport["width"], "height": viewport["height"]})
        watch.errors.clear()
        response = page.goto(self.url(path))
        assert response is not None
        # Settled: no htmx request on its way (a page's first load of a part, say).
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        self.visits += 1
        bad_link = name.startswith("bad ")
        self.problems += [
            f"{where}: {error}"
            for error in watch.errors
            if not (bad_link and "status of 404" in error)
        ]
        if self.language == "en":
            self.problems += [f"{where}: axe {v}" for v in axe_violations(page)]
        self.problems += [f"{where}: {p}" for p in page.evaluate(OVERFLOW_REPORT, None)]
        if self.language != "en" and name not in NO_EVENT:
            text = page.locator("body").inner_text()
            self.problems += [
                f"{where}: English left: {msgid!r}"
                for msgid in english_sentences_left(text, self.language)
            ]
        if viewport is PROJECTOR and step in ("round", "between rounds"):
            try:
                check_fit(page, where, "1080p")
            except AssertionError as error:
                self.problems.append(f"{where}: {error}")

    def print_check(self) -> None:
        """As printed: nothing may run off a page of the kit, on either paper."""
        kit = self.console.context.new_page()
        for paper, (width_mm, height_mm) in PAPERS.items():
            kit.set_viewport_size(
                {"width": round(width_mm / 25.4 * 96), "height": round(height_mm / 25.4 * 96)}
            )
            kit.goto(self.url(reverse("kit:event_kit", args=[self.event.pk]) + f"?paper={paper}"))
            kit.emulate_media(media="print")
            sheets = kit.locator("section.sheet")
            for index in range(sheets.count()):
                spill = sheets.nth(index).evaluate(SHEET_SPILL)
                if spill["px"] > 0:
                    self.problems.append(
                        f"kit on {paper}: {spill['label']} runs {spill['px']}px past the page "
                        f"(ends: …{spill['last']})"
                    )
        kit.close()

    # --- the steps the console and the phones take -------------------------------------------

    def sign_in(self) -> None:
        self.console.goto(self.url(sign_in_path(self.organizer)))
        expect(self.console.locator("html")).to_have_attribute("lang", self.language)
        self.console.get_by_role("button", name=said(self.language, "Sign in"), exact=True).click()
        sign_out = said(self.language, "Sign out")
        expect(self.console.get_by_role("button", name=sign_out)).to_be_visible()
        self.console.goto(self.url(reverse("organizer:event", args=[self.event.pk])))

    def next_phase(self) -> None:
        """Press the console's button for the next phase, in the walk's language."""
        before = self.console.locator("#phase-title").inner_text()
        next_url = reverse("organizer:phase_next", args=[self.event.pk])
        self.console.locator(f'form[action="{next_url}"] button').click()
        expect(self.console.locator("#phase-title")).not_to_have_text(before)
        self.twin = advance_phase(event=self.twin)

    def open_phone(self, table_number: int) -> Page:
        # A phone whose browser asks for English: the room's language must win.
        context = self.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US")
        phone = context.new_page()
        table = factories.table(self.event, table_number)
        phone.goto(self.url(reverse("phone:table", args=[table.token])))
        expect(phone.locator("html")).to_have_attribute("lang", self.language)
        return phone

    def steps(self) -> Iterator[str]:
        language, event = self.language, self.event
        self.sign_in()
        projector = self.new_context(viewport=PROJECTOR, locale="en-US").new_page()
        projector.goto(self.url(reverse("projector:screen", args=[event.projector_token])))
        expect(projector.locator("html")).to_have_attribute("lang", language)
        phones = [self.open_phone(1), self.open_phone(1), self.open_phone(2)]
        self.print_check()
        yield "setup"

        self.next_phase()
        study = said(
            language,
            "Study time: read the rules together and play practice games with them. "
            "You may still talk.",
        )
        for phone, number in zip(phones, (1, 1, 2), strict=True):
            expect(shown(phone)).to_contain_text(study, timeout=POLL_WAIT)
            expect(phone.locator(".rules")).to_contain_text(
                trumps_sentence(event, number, language)
            )
        yield "study"

        self.next_phase()
        practice = said(language, "Practice: games are not scored.")
        for phone in phones:
            expect(shown(phone)).to_contain_text(practice, timeout=POLL_WAIT)
            expect(phone.locator(".rules")).to_have_count(0)
        yield "practice"

        self.next_phase()
        for phone in phones:
            expect(phone.locator("legend.game-question")).to_have_text(
                said(language, "Game %(number)s: who won?", number=1), timeout=POLL_WAIT
            )
        yield "round"

        yield from self.play_round_one(phones, projector)

        for page in (*phones, projector):
            page.goto("about:blank")
        event = self.event = start_debrief(event=Event.objects.get(pk=event.pk))
        self.twin = start_debrief(event=self.twin)
        yield "debrief"
        for which in (event, self.twin):
            question = which.debrief_questions.earliest("position")
            show_question(event=which, question_id=question.pk)
        yield f"{DEBRIEF_SCREEN} a question"
        for screen in DebriefStep:
            # The tricks' story is a screen event's (tests/browser/test_debrief_tricks.py).
            if screen != DebriefStep.QUESTION and screen not in SCREEN_EVENT_STEPS:
                event = step_debrief(event=event, to_step=screen)
                self.twin = step_debrief(event=self.twin, to_step=screen)
                yield f"{DEBRIEF_SCREEN} {screen.label}"
        reveal_table(event=event, table_number=1)
        reveal_table(event=self.twin, table_number=1)
        yield f"{DEBRIEF_SCREEN} one table revealed"
        reveal_rules(event=event)
        reveal_rules(event=self.twin)
        yield "debrief, rules revealed"
        finish_event(event=event)
        finish_event(event=self.twin)
        yield "finished"

    def play_round_one(self, phones: list[Page], projector: Page) -> Iterator[str]:
        """Phones at tables 1 and 2 report and confirm, one of them in a language of its
        own; a dispute at table 3; then the console closes the round."""
        language, event = self.language, self.event
        phone_a, phone_b, phone_c = phones
        at_one = factories.seated_names(event, 1)
        at_two = factories.seated_names(event, 2)
        winner_button(phone_a, at_one[0]).click()
        expect(shown(phone_a)).to_contain_text(
            said(language, "Game %(number)s recorded: %(name)s won.", number=1, name=at_one[0])
        )
        expect(shown(phone_b)).to_contain_text(
            said(
                language,
                "Another phone says <b>%(name)s</b> won game %(number)s.",
                name=at_one[0],
                number=1,
            ),
            timeout=POLL_WAIT,
        )
        phone_b.get_by_role(
            "button", name=said(language, "Yes, confirm game %(number)s", number=1)
        ).click()
        expect(shown(phone_b)).to_contain_text(
            said(language, "Game %(number)s confirmed: %(name)s won.", number=1, name=at_one[0])
        )
        assert Game.objects.get(table__event=event, table__number=1, number=1).status == (
            GameStatus.CONFIRMED
        )
        winner_button(phone_c, at_two[1]).click()
        expect(projector.locator("li.row", has_text=at_two[1]).locator(".games")).to_have_text(
            "1", timeout=POLL_WAIT
        )
        # Phone B picks a language of its own, keeps it after a reload, and reports in it.
        own = "de" if language != "de" else "fr"
        phone_b.locator(f'.language-switch button[value="{own}"]').click()
        expect(phone_b.locator("html")).to_have_attribute("lang", own)
        phone_b.reload()
        expect(phone_b.locator("html")).to_have_attribute("lang", own)
        expect(phone_b.locator("legend.game-question")).to_have_text(
            said(own, "Game %(number)s: who won?", number=2)
        )
        winner_button(phone_b, at_one[1]).click()
        expect(shown(phone_b)).to_contain_text(
            said(own, "Game %(number)s recorded: %(name)s won.", number=2, name=at_one[1])
        )
        expect(shown(phone_a)).to_contain_text(
            said(
                language,
                "Another phone says <b>%(name)s</b> won game %(number)s.",
                name=at_one[1],
                number=2,
            ),
            timeout=POLL_WAIT,
        )
        expect(phone_c.locator("html")).to_have_attribute("lang", language)
        # A dispute at table 3, and the same games on the twin.
        at_three = factories.seated_names(event, 3)
        factories.report(event, 3, at_three[0], key="walk-1")
        factories.report(event, 3, at_three[1], key="walk-2", game_number=1)
        twin = self.twin
        factories.report(twin, 1, factories.seated_names(twin, 1)[0])
        factories.report(twin, 3, factories.seated_names(twin, 3)[0], key="twin-1")
        factories.report(twin, 3, factories.seated_names(twin, 3)[1], key="twin-2", game_number=1)
        if language == "fr":
            check_french_round(self.console, phone_c, projector)
        yield "round with a dispute"

        # The console closes round 1.
        close_url = reverse("organizer:close_round", args=[event.pk, 1])
        self.console.locator(f'a[href="{close_url}"]').first.click()
        expect(self.console.locator("html")).to_have_attribute("lang", language)
        if language == "fr":
            check_french_close(self.console)
        confirm = said(
            language, "Confirm: close round %(number)s and seat round %(next)s", number=1, next=2
        )
        self.console.locator('input[name="disputed_ok"]').check()  # closing with a dispute
        self.console.get_by_role("button", name=named(confirm)).click()
        closed = said(
            language,
            "Round %(number)s closed. Round %(next)s's seating is committed: the projector "
            "shows the moves.",
            number=1,
            next=2,
        )
        expect(self.console.locator("#flash")).to_contain_text(closed)
        close_round(
            round_=factories.current_round(Event.objects.get(pk=twin.pk)), by=self.organizer
        )
        expect(projector.locator("#stage.screen-moves")).to_be_visible(timeout=POLL_WAIT)
        where_to = said(language, "Next round: where to go")
        for phone in (phone_a, phone_c):
            expect(shown(phone)).to_contain_text(where_to, timeout=POLL_WAIT)
        expect(shown(phone_b)).to_contain_text(said(own, "Next round: where to go"))
        # Phone B goes back to following the room, and stays so after a reload.
        phone_b.locator('.language-switch button[value=""]').click()
        expect(phone_b.locator("html")).to_have_attribute("lang", language)
        phone_b.reload()
        expect(phone_b.locator("html")).to_have_attribute("lang", language)
        expect(shown(phone_b)).to_contain_text(where_to)
        if language == "fr":
            check_french_moves(projector, phone_a)
        yield "between rounds"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_in_every_phase_speaks_its_language_and_is_clean(
    language, live_server, new_context
):
    walk = Walk(language, live_server, new_context)
    for step in walk.steps():
        walk.look(step)
    assert walk.visits >= (60 if language == "en" else len(LOOKED_AT))
    assert walk.problems == [], "\n".join(walk.problems)
