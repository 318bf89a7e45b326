"""Which language each screen speaks.

Terms:
    event language  Event.language, picked in the event's settings: what the room shares
                    speaks it (projector, printed kit, tent cards, tally sheets), and so do
                    the phones unless a player picks another.
    sheet language  Table.sheet_language: a table whose rule sheet is printed in another
                    language, for a mixed room; blank follows the event. That table's
                    phones follow it too, since its players read that language.
    phone language  a player's own pick on their phone, kept for a year in the
                    PHONE_LANGUAGE_COOKIE; none (or one we no longer ship) means the phone
                    follows its table, then the event.
    console         the organizer's own screens follow their browser (Accept-Language),
                    or the switcher in the console's header (Django's set_language view and
                    its cookie); LocaleMiddleware does that before any view runs.

Names are sorted the same way in every language: tournament.rules.ordering folds case and
accents and spells every letter in Latin letters itself, and never asks the locale.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.translation import gettext as _

from tournament.common.cookies import set_phone_cookie

PHONE_LANGUAGE_COOKIE = "ft_language"
PHONE_LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60


def known_language(code: str | None) -> str | None:
    """``code`` if the product ships that language, else None."""
    return code if code in dict(settings.LANGUAGES) else None


def speak(request: HttpRequest, language: str) -> str:
    """Render the rest of this request in ``language`` (templates read LANGUAGE_CODE)."""
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return language


def phone_language(request: HttpRequest, *, event_language: str, table_language: str = "") -> str:
    """The language a phone shows: the player's own pick, else the table's, else the event's."""
    return (
        known_language(request.COOKIES.get(PHONE_LANGUAGE_COOKIE))
        or known_language(table_language)
        or known_language(event_language)
        or settings.LANGUAGE_CODE
    )


def remember_phone_language(response: HttpResponse, request: HttpRequest, language: str) -> None:
    """Keep a player's pick on their phone; an empty pick goes back to following the room."""
    if known_language(language):
        set_phone_cookie(
            response, request, PHONE_LANGUAGE_COOKIE, language, max_age=PHONE_LANGUAGE_COOKIE_AGE
        )
    else:
        response.delete_cookie(PHONE_LANGUAGE_COOKIE, samesite="Lax")


def pick_phone_language(request: HttpRequest, back_to: str) -> HttpResponse:
    """Answer a phone's language pick (POST ``language``): keep it and go back to
    ``back_to``; a language we do not ship is refused with a message, changing nothing."""
    response = HttpResponseRedirect(back_to)
    language = request.POST.get("language", "")
    if language and not known_language(language):
        messages.error(request, _("Choose a language from the list."))
    else:
        remember_phone_language(response, request, language)
    return response


def languages_context(request: HttpRequest) -> dict[str, object]:
    """For every template: the languages the product ships, as (code, own name) pairs."""
    return {"languages": settings.LANGUAGES}
