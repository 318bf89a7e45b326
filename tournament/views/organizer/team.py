"""Co-facilitators: the organizer's team page (invite, revoke) and the invitation link.

Terms: see tournament.writes.cofacilitators. The link's GET shows who it signs in and one
button; only the POST redeems it, so a chat app's link preview cannot spend it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from tournament.common.errors import Refused
from tournament.common.qr import qr_svg
from tournament.models import CoFacilitator, CoRole, Event
from tournament.reads.room import phone_base_url, room_settings
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, get_goes_to, run_action
from tournament.writes import cofacilitators


def team_url(event: Event | int) -> str:
    return reverse("organizer:team", args=[getattr(event, "pk", event)])


@require_GET
@event_view(may="organize")
def team_page(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's co-facilitators: each one's role, state and (until used) link.

    The link and its QR code are opened on a co-facilitator's phone, so they start with the
    public address phones reach (as the tables' links do), never with the address this
    page happened to be opened at: a console opened at localhost would hand out links to
    the phone's own localhost."""
    base_url = phone_base_url(room=room_settings(event))
    rows = []
    for invitation in event.cofacilitators.all():
        link = None
        if not invitation.is_revoked and not invitation.is_redeemed:
            link = base_url + cofacilitators.link_path(invitation)
        rows.append(
            {
                "invitation": invitation,
                "link": link,
                "qr": qr_svg(link, label=invitation.name) if link else None,
            }
        )
    return render(
        request,
        "organizer/team.html",
        {"event": event, "rows": rows, "roles": CoRole.choices},
    )


@get_goes_to(lambda pk: team_url(pk))
@event_view()
def team_invite(request: HttpRequest, event: Event) -> HttpResponse:
    def invite() -> str:
        invitation = cofacilitators.invite(
            event=event, name=request.POST.get("name", ""), role=request.POST.get("role", "")
        )
        return _("Invited %(who)s: give them the link below.") % {"who": invitation}

    return run_action(request, invite, default=team_url(event))


@get_goes_to(lambda pk, invitation_id: team_url(pk))
@event_view(even_when_finished=True)
def team_revoke(request: HttpRequest, event: Event, invitation_id: int) -> HttpResponse:
    invitation = get_object_or_404(CoFacilitator, event=event, pk=invitation_id)

    def revoke() -> str:
        cofacilitators.revoke(invitation=invitation)
        return _("%(who)s can no longer reach this event.") % {"who": invitation}

    return run_action(request, revoke, default=team_url(event))


@never_cache
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's one-time link: GET shows the button, POST signs in."""
    invitation = cofacilitators.invitation_from_link(token)
    if (
        invitation is not None
        and invitation.user_id == request.user.pk
        and invitation.user_id
        and not invitation.is_revoked
    ):
        return redirect(console_url(invitation.event))  # this very browser, opened again
    if invitation is None or invitation.is_revoked or invitation.is_redeemed:
        return render(request, "organizer/join_invalid.html", status=404)
    if request.method == "GET":
        return render(request, "organizer/join.html", {"invitation": invitation})
    try:
        user = cofacilitators.redeem(invitation=invitation)
    except Refused as refused:
        messages.error(request, refused.message)
        return render(request, "organizer/join_invalid.html", status=404)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request,
        _("Welcome, %(name)s: you help run “%(event)s” as %(role)s.")
        % {
            "name": invitation.name,
            "event": invitation.event.name,
            "role": invitation.get_role_display(),
        },
    )
    return redirect(console_url(invitation.event))
