"""The French walk's round, word for word (tests/browser/test_walk.py).

The French words are the catalogue's (locale/fr/LC_MESSAGES/django.po), written out here
so a missing or English string fails. French puts a no-break space (U+00A0) before ':' and
'?': the exact text checks test it, where Playwright's own text matching would fold it
into an ordinary space.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

POLL_WAIT = 12_000  # ms: phones and the projector poll every 2 s on a shared 2-core machine
NBSP = "\u00a0"

FR_ROUND_TITLE = "Manche 1 sur 2"  # "Round %(number)s of %(total)s"
FR_CLOSE_HEADING = f"Clore la manche 1{NBSP}: vérifier, puis confirmer"
FR_CONFIRM_CLOSE = f"Confirmer{NBSP}: clore la manche 1 et placer les joueurs de la manche 2"
FR_GAMES_WON = "Parties gagnées dans cette manche"  # projector caption during a round
FR_NEXT_ROUND = f"Manche suivante{NBSP}: où aller"
FR_MOVES_HEADING = "Déplacements pour la manche 2"
FR_MOVES_SUB = f"Cherchez la table que vous quittez et votre nom{NBSP}: le grand numéro"
FR_MOVES_UP = f"Le plus de parties{NBSP}: monte"
# What an English page would say at the same moments: never on a French screen.
ENGLISH = re.compile(
    r"who won\?|Games won this round|Moves for round|Next round: where to go|"
    r"Practice: games are not scored|Study time|Sign out|Round 1 of 2|Language\b"
)


def fr_who_won(game: int) -> str:
    return f"Partie {game}{NBSP}: qui a gagné{NBSP}?"


def exact_text(locator: Locator, text: str) -> None:
    """Wait for ``text``, then check it character for character (no-break spaces too)."""
    expect(locator).to_contain_text(text, timeout=POLL_WAIT)
    shown = locator.text_content() or ""
    assert text in shown, (text, shown)


def named(text: str) -> re.Pattern:
    """An accessible name to look for: the browser gives no-break spaces in it as spaces."""
    return re.compile(re.escape(text).replace(NBSP, r"\s"))


def shows_no_english(page: Page) -> None:
    found = ENGLISH.search(page.locator("body").inner_text())
    assert found is None, f"English left on {page.url}: {found.group()!r}"


def check_french_round(console: Page, phone: Page, projector: Page) -> None:
    """Round 1, a game reported at table 2: the console, a phone and the projector."""
    expect(console.locator("#phase-title")).to_have_text(FR_ROUND_TITLE)
    shows_no_english(console)
    exact_text(phone.locator("legend.game-question"), fr_who_won(2))
    expect(phone.locator(".phase-line .phase")).to_have_text(FR_ROUND_TITLE)
    shows_no_english(phone)
    exact_text(projector.locator(".band-caption"), FR_GAMES_WON)
    expect(projector.locator(".band-title")).to_have_text(re.compile(r"^Manche 1\s+sur 2$"))
    shows_no_english(projector)


def check_french_close(console: Page) -> None:
    """The close page, before its confirmation is pressed."""
    heading = console.get_by_role("heading", name=named(FR_CLOSE_HEADING))
    exact_text(heading, FR_CLOSE_HEADING)
    exact_text(console.get_by_role("button", name=named(FR_CONFIRM_CLOSE)), FR_CONFIRM_CLOSE)
    shows_no_english(console)


def check_french_moves(projector: Page, phone: Page) -> None:
    """After the close: the projector's moves and a phone's next step."""
    exact_text(projector.locator("#stage h1"), FR_MOVES_HEADING)
    exact_text(projector.locator("#stage .sub"), FR_MOVES_SUB)
    exact_text(projector.locator(".legend"), FR_MOVES_UP)
    shows_no_english(projector)
    exact_text(phone.locator("#live"), FR_NEXT_ROUND)
    shows_no_english(phone)
    assert "Nächste" not in phone.locator("body").inner_text()
