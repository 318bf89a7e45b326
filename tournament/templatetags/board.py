"""Template filters for the projector's board (templates/projector/_board.html).

Terms: a *standings row* is one player and the games they won this round; a 500-player
board has 500 of them, and rendering each through the template language costs more than
the rest of the page, so they are written here in one pass, escaped the same way.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html_join

register = template.Library()


@register.filter
def standing_rows(rows) -> str:
    """``{{ fragment.rows|standing_rows }}``: the <li> of each standings row."""
    return format_html_join(
        "",
        '<li class="row"><bdi class="name">{}</bdi><span class="games{}">{}</span></li>',
        ((row.name, "" if row.games else " is-zero", row.games) for row in rows),
    )
