"""The answers to a request that failed on the server's side, in words a facilitator or a
player can act on, never Django's bare "Server Error (500)".

Terms:
    server error  handler500 (tournament.urls names it): an error no view expected. Its
                  page is rendered without the request's context processors, so it needs
                  no database (the session, the messages, the user): a database that
                  fails is one cause of it.
    disk full     a write refused for lack of space (tournament.common.disk: Terms). It is
                  answered 503 with what to do, and remembered, so the console says so in
                  red (tournament.common.disk.disk_warning).
    short answer  what a phone or a part of a page (an htmx request) gets instead of a
                  page: one line of text. A phone's script (static/js/phone.js) and the
                  console's show it in place; a page would not fit there.
    reader        who acts on the words: a player on a phone (under /t/) can only tell the
                  organizer; everyone else (the console, the projector, the sign-in) is the
                  organizer or works beside them at the laptop, and is told what to do.
"""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext as _

from tournament.common.disk import is_disk_full, note_disk_full

PHONE_PREFIX = "/t/"


def wants_short_answer(request: HttpRequest) -> bool:
    """A phone, or a part of a page (see Terms: short answer)."""
    return request.path.startswith(PHONE_PREFIX) or "HX-Request" in request.headers


def _answer(request: HttpRequest, *, status: int, title: str, reason: str) -> HttpResponse:
    if wants_short_answer(request):
        return HttpResponse(reason, status=status, content_type="text/plain; charset=utf-8")
    page = loader.get_template("500.html").render({"title": title, "reason": reason})
    return HttpResponse(page, status=status)


def _for_a_player(request: HttpRequest) -> bool:
    """Whether the reader (see Terms) is a player on a phone."""
    return request.path.startswith(PHONE_PREFIX)


def disk_full(request: HttpRequest) -> HttpResponse:
    """The answer to a write refused for lack of disk (see Terms: disk full)."""
    note_disk_full()
    if _for_a_player(request):
        reason = _(
            "The laptop's disk is full: this was not saved. Try again in a moment; the "
            "organizer is warned on the console."
        )
    else:
        reason = _(
            "The laptop's disk is full: this was not saved. Free some space on the laptop "
            "(empty the bin, move large files away), then try again."
        )
    return _answer(request, status=503, title=_("The disk is full"), reason=reason)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 (see Terms: server error)."""
    if is_disk_full(sys.exc_info()[1]):
        return disk_full(request)
    if _for_a_player(request):
        reason = _(
            "The server could not do this: nothing was changed by it. Try again; if it "
            "happens again, tell the organizer."
        )
    else:
        reason = _(
            "The server could not do this: nothing was changed by it. Try again; if it "
            "happens again, reload the page, and if it still fails, stop Five Tricks and "
            "start it again: everything saved is kept."
        )
    return _answer(request, status=500, title=_("Something went wrong"), reason=reason)
