"""Cheap polling for the screens that follow an event live (phones, projector, console).

Terms:
    version   a counter bumped by every write that a screen could show. Event.version
              changes with anything in the event (the console and projector follow it);
              Event.shared_version with anything but one table's games, and Table.version
              with that table's games, so a table's phones follow the pair of them and
              stay at 304 while other tables report (tables.models.TableQuerySet).
    ETag      the version(s), plus whatever else decides the page, sent with each answer.
              static/js/poll.js sends it back in If-None-Match; when nothing changed the
              answer is 304 with no body, after one small query (etag_from_version).
    early     an unchanged poll of a link screen (a table's phones, the players' page,
              the projector) is answered 304 by UnchangedPollMiddleware, before sessions,
              CSRF, languages and the rest of the middleware: those are most of what such
              a poll costs, and 500 players' phones send a thousand a second. Only views
              whose version comes from their link's own token take part (early=True): a
              signed-in screen's version is read after its sign-in is checked.
    286       the answer when the event reached a state that will not change any more
              (stop_polling); the element it carries has no trigger, so polling ends.
    trigger   the hx-trigger a polling element carries (poll_trigger): the "poll" event
              that static/js/poll.js sends every POLL_INTERVAL_SECONDS while the page is
              visible, and at once when it is shown again. Not htmx's own
              "every 2s [document.visibilityState === 'visible']": a filter in brackets is
              evaluated JavaScript, which the Content-Security-Policy forbids
              (tournament.middleware), so htmx runs with allowEval off.

The clock is not part of any version: pages carry the seconds left and count down in
the browser (static/js/clock.js), so a ticking clock costs no request at all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import add_never_cache_headers
from django.utils.http import parse_etags
from django.views.decorators.http import condition

# static/js/poll.js says the same (tests/tournament/common). Half a second, so a report is
# on its table's other phones and on the projector within a second (docs/PERFORMANCE.md):
# an unchanged poll is one prepared query answered 304, and 500 phones polling twice a
# second cost the server about a fifth of one core.
POLL_INTERVAL_SECONDS = 0.5
POLL_EVENT = "poll"  # the event static/js/poll.js sends on <body>
STOP_POLLING = 286  # with an element that has no trigger left: its polls end there
# A screen's live channel (tournament.serving.live_channel) sends a beat this often when it has
# nothing else to say; a page that hears nothing for two beats polls at the room's pace
# again (static/js/screen.js): behind a proxy that holds the stream's events, the stream
# looks open and says nothing.
STREAM_BEAT_SECONDS = 10.0


def poll_trigger() -> str:
    """The hx-trigger of a polling element: poll.js's ticks while the page is visible,
    and one at once when it is shown again."""
    return f"{POLL_EVENT} from:body"


def clock_text(seconds: int | None) -> str:
    """m:ss, as static/js/clock.js writes it, so a page reads right before (or without) JS."""
    if seconds is None:
        return ""
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes}:{rest:02d}"


def quoted_etag(value: object) -> str:
    """The ETag header value for a version, as pages render it in data-etag."""
    return f'"{value}"'


def first_row(sql: str, params: tuple) -> tuple | None:
    """The first row of a prepared SELECT, or None.

    For the version lookups of unchanged polls: building and compiling an ORM query costs
    about 20 times what SQLite spends running it, and most polls run nothing else. The SQL
    uses %s placeholders, which Django's cursor adapts to SQLite and PostgreSQL alike.
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def etag_from_version(
    version_of: Callable[..., object | None], *, early: bool = False
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a polled GET view so an unchanged version answers 304 without running it.

    version_of(request, *args, **kwargs) returns something that changes whenever the page
    would (typically one values_list query on Event.version), or None for "unknown"
    (then the view runs and answers 404 or the page). With early=True, version_of takes
    the URL's own arguments and needs nothing the middleware adds (see Terms: early).
    """

    def etag(request: HttpRequest, *args, **kwargs) -> str | None:
        value = version_of(request, *args, **kwargs)
        return None if value is None else quoted_etag(value)

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        conditional = condition(etag_func=etag)(view)
        if early:
            # Set before the decorators above this one wrap it: functools.wraps copies it.
            # A function's attributes are its __dict__, which its type declares (a plain
            # attribute would be unknown to it).
            conditional.__dict__["early_etag"] = etag
        return conditional

    return decorate


def unchanged_poll(request: HttpRequest) -> HttpResponse | None:
    """The 304 for an unchanged poll of an early view (see Terms: early), or None when the
    request must go through the middleware to its view."""
    sent = request.headers.get("If-None-Match")
    if request.method != "GET" or not sent:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    etag_of = getattr(match.func, "early_etag", None)
    if etag_of is None:
        return None
    request.get_host()  # the same ALLOWED_HOSTS check as any page: DisallowedHost is a 400
    etag = etag_of(request, *match.args, **match.kwargs)
    if etag is None or etag not in parse_etags(sent):
        return None
    response = HttpResponseNotModified()
    response["ETag"] = etag
    add_never_cache_headers(response)
    return response


def stop_polling(response: HttpResponse) -> HttpResponse:
    response.status_code = STOP_POLLING
    return response
