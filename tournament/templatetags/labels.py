"""Template filters that show stored values in words: ``{{ value|game_status }}`` turns a
game status kept as its value (in the corrections log's snapshots, say) into its label
in the page's language, so a French page never reads "unconfirmed"."""

from __future__ import annotations

from django import template

from tables.models import GameStatus

register = template.Library()


@register.filter
def game_status(value: str) -> str:
    """The label of a game status value; an unknown value is shown as it is."""
    try:
        return str(GameStatus(value).label)
    except ValueError:
        return value
