"""Template filters for a table's video link on a player's screen (templates/phone/_video.html).

Terms:
    host  where a video link leads, shown as text beside its button so a player sees
          where it goes before they press it (tables.rules.silent_channel, Terms: host).
"""

from __future__ import annotations

from django import template

from tables.rules.silent_channel import video_host as host_of

register = template.Library()


@register.filter
def video_host(link: str) -> str:
    """``{{ video_url|video_host }}``: the host the link leads to, "" for none."""
    return host_of(link or "")
