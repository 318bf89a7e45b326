"""Headers every page gets, requests turned away before anything reads their body, and
the health check a load balancer asks.

Terms:
    CSP           the Content-Security-Policy header: pages load scripts, styles, images
                  and connections from this server only; no inline script, no inline
                  style, no eval, no framing (CONTENT_SECURITY_POLICY). JavaScript lives in
                  static/js; what a page's markup cannot say without a style attribute
                  (a projector board's sizes) it carries in data-vars, which
                  static/js/projector.js applies.
    no-store      Cache-Control for every answer the views make: pages carry tokens (QR
                  links, the projector's and players' links), the hidden rule variants or
                  CSRF tokens, and must not stay in a browser's or a proxy's cache. A view
                  that may be cached says so itself (the favicon). Static files are served
                  by WhiteNoise before these middlewares and keep their long caching.
    charset       the charset parameter of a request's Content-Type. Django reads form
                  bodies as UTF-8 only and refuses any other with BadRequest, but raises it
                  again from inside its own error pages (they check CSRF, which reads the
                  body), so a "charset=utf-16" post ended as a 500. It is answered 400 here
                  first, before the session, CSRF or a view touches the body.
    health check  GET or HEAD /healthz (HEALTH_PATH): 200 "ok" when the database answers
                  SELECT 1, 503 when it does not, for a proxy or load balancer to stop
                  sending requests to a server that cannot reach its database (every page
                  but the home page would fail there). HealthCheckMiddleware answers it
                  first of all, before SecurityMiddleware and CommonMiddleware: so it is
                  never redirected to HTTPS (a balancer checks the backend over plain
                  HTTP), it accepts any Host (the balancer asks by the machine's own
                  address, which ALLOWED_HOSTS need not name; request.get_host() is never
                  called), and it opens no session, checks no CSRF token, writes nothing
                  and counts nothing. Its answer is never cached (no-store): a stale "ok"
                  would hide a failure. On PostgreSQL a connection attempt gives up after
                  a few seconds (connect_timeout, settings), so a check never hangs a
                  server thread for long.
    fault         what FaultsMiddleware answers in place of a view's exception: a
                  refusal (PermissionDenied: a revoked co-facilitator, a role that lacks
                  the action, a finished event) gets its refusal page or message through
                  handler403 and one line in the log (Django's "Forbidden: <path>"),
                  not a traceback; a write refused for lack of disk gets a 503 that says
                  so (tournament.views.errors.disk_full), and the console's red warning.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from tournament.common.disk import is_disk_full
from tournament.common.polling import unchanged_poll
from tournament.views import errors
from tournament.views.access import permission_denied

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# The only charset Django reads form bodies in (django.http.request, RFC 1866).
BODY_CHARSET = "utf-8"

HEALTH_PATH = "/healthz"

Middleware = Callable[[HttpRequest], HttpResponse]
logger = logging.getLogger(__name__)


def database_answers(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the database answers SELECT 1 on this thread's connection (opened if need
    be; a broken one is replaced at the next request, CONN_HEALTH_CHECKS)."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError as error:
        # DatabaseError covers OperationalError (refused, timed out, shut down) and
        # InterfaceError (a connection already closed): all mean "not now".
        logger.warning("Health check: the database does not answer: %s", error)
        return False


class HealthCheckMiddleware:
    """Answer the health check (see Terms) before any other middleware sees the request;
    listed first in settings.MIDDLEWARE."""

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != HEALTH_PATH:
            return self.get_response(request)
        response: HttpResponse
        if request.method not in ("GET", "HEAD"):
            response = HttpResponseNotAllowed(["GET", "HEAD"])
        elif database_answers():
            response = HttpResponse("ok\n", content_type="text/plain; charset=utf-8")
        else:
            response = HttpResponse(
                "database unavailable\n", status=503, content_type="text/plain; charset=utf-8"
            )
        if request.method == "HEAD":
            response.content = b""
        add_never_cache_headers(response)
        response["X-Content-Type-Options"] = "nosniff"
        return response


class UnchangedPollMiddleware:
    """Answer an unchanged poll of a link screen 304 (tournament.common.polling, Terms:
    early); listed right after SecurityMiddleware."""

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        unchanged = unchanged_poll(request)
        return self.get_response(request) if unchanged is None else unchanged


class PageHeadersMiddleware:
    """The CSP and, unless the view chose its own caching, no-store on every answer."""

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Django's own debug pages (DEBUG only) are built of inline styles and scripts.
        debug_page = settings.DEBUG and response.status_code >= 400
        if not debug_page:
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        if "Cache-Control" not in response.headers:
            add_never_cache_headers(response)
        return response


class RequestCharsetMiddleware:
    """Answer 400, with a short page, a request whose body is declared in a charset other
    than UTF-8; placed before anything that reads request.POST."""

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Django sets request.encoding only from a charset that Python knows; an unknown
        # one is ignored and the body is read as UTF-8, which is fine.
        charset = request.encoding
        if charset is not None and charset.lower() != BODY_CHARSET:
            return render(
                request,
                "400.html",
                {
                    "reason": _(
                        "It was sent in a text encoding (%(charset)s) that this server does "
                        "not read. Send it again from the page in a web browser."
                    )
                    % {"charset": charset[:40]}
                },
                status=400,
            )
        return self.get_response(request)


PAGE_LANGUAGE_HEADER = "X-Page-Language"  # static/js/poll.js sends the page's <html lang>
POLL_ANSWERS = (200, 286)


class PageLanguageMiddleware:
    """Reload a polling page whose language is no longer its screen's.

    The organizer may change the event's language while the projector and the phones are
    open. A poll only swaps one part of the page, which would leave the rest in the old
    language, so a poll whose answer (Content-Language, set by LocaleMiddleware from the
    language the view spoke) differs from the page's tells htmx to reload it whole.
    Listed above LocaleMiddleware, so it sees that header.
    """

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        page = request.headers.get(PAGE_LANGUAGE_HEADER)
        answer = response.get("Content-Language")
        if page and answer and response.status_code in POLL_ANSWERS and page != answer:
            response = HttpResponse(status=200)
            response["HX-Refresh"] = "true"
            add_never_cache_headers(response)
        return response


class FaultsMiddleware:
    """Answer a refusal or a full disk raised by a view (see Terms: fault); listed last, so
    its process_exception runs first."""

    def __init__(self, get_response: Middleware) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, PermissionDenied):
            # Answered here, Django logs the 403 in one line; raised further, it would log
            # the whole traceback of an everyday refusal.
            return permission_denied(request, exception)
        if is_disk_full(exception):
            logger.error(
                "Disk full: %s %s was not saved: %s", request.method, request.path, exception
            )
            # The session must not try to save itself on the full disk once more.
            session = getattr(request, "session", None)
            if session is not None:
                session.modified = False
            return errors.disk_full(request)
        return None
