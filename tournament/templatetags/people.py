"""Template filters about people: ``{{ user|shown_name }}`` names an account as screens
do (tournament.models.cofacilitators, Terms: shown name), a co-facilitator by name and
role in the page's language rather than by the account's internal username."""

from __future__ import annotations

from django import template

from tournament.models import shown_name as _shown_name

register = template.Library()


@register.filter
def shown_name(user) -> str:
    """A user (or a username) as screens name it."""
    username = user if isinstance(user, str) else user.get_username()
    return _shown_name(username)
