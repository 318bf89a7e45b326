"""A video link looks like what it is: no name or password before its host, no character
nobody sees (a right-to-left override turns the text around), nothing a browser reads
otherwise than the check does; and the host a player is shown is the one it leads to."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import silent_channel as rules

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "moc.elpmaxe" reads as "example.com"


@pytest.mark.parametrize(
    ("link", "reason"),
    [
        ("https://user:pass@evil.example/", rules.USER_INFO),
        ("https://javascript:alert(1)@evil.example/", rules.USER_INFO),
        ("https://meet.jit.si@evil.example/room", rules.USER_INFO),
        (f"https://evil.example/{RLO}moc.is.tij.teem", rules.HIDDEN),
        ("https://meet.jit.si\u200b.evil.example/", rules.HIDDEN),  # a zero-width space
        ("https://meet.example/room\u2066x\u2069", rules.HIDDEN),  # an isolate
        ("https://meet.example/\u3164", rules.HIDDEN),  # a filler that draws nothing
        ("https://meet.example/room\x00", rules.HIDDEN),
        ("https://evil.example\\@meet.jit.si/", rules.NOT_HTTPS),  # a browser goes to evil
        ("https://meet.jit.si\\.evil.example/", rules.NOT_HTTPS),
        ("https://evil%2Eexample/", rules.NOT_HTTPS),
        ("https://ü..example/", rules.NOT_HTTPS),  # no host a browser reaches
        ("https://meet.example:99999/", rules.NOT_HTTPS),
        ("https://[meet.example/", rules.NOT_HTTPS),  # once an error page, not a refusal
    ],
)
def test_a_link_that_looks_like_another_is_refused(link, reason):
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link(link)
    assert refused.value.reason == reason


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        ("https://{event}@evil.example/{table}", rules.USER_INFO),
        ("https://me:pw@meet.example/ft-{table}", rules.USER_INFO),
        (f"https://meet.example/ft-{{table}}{RLO}", rules.HIDDEN),
    ],
)
def test_a_pattern_that_looks_like_another_is_refused(pattern, reason):
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link(pattern, pattern=True)
    assert refused.value.reason == reason


def test_an_at_sign_after_the_host_is_part_of_an_ordinary_link():
    link = "https://meet.example/rooms/@friday?name=a@b"
    assert rules.check_video_link(link) == link
    assert rules.video_host(link) == "meet.example"


@pytest.mark.parametrize(
    ("link", "host"),
    [
        ("https://meet.jit.si/fivetricks-table-3", "meet.jit.si"),
        ("https://US02WEB.Zoom.us:443/j/1?pwd=a", "us02web.zoom.us"),
        ("https://bücher.example/raum", "xn--bcher-kva.example"),  # as an address bar shows it
        ("https://\u0430pple.example/", "xn--pple-43d.example"),  # a Cyrillic a, not a Latin one
        ("", ""),
    ],
)
def test_the_host_shown_is_where_the_link_leads(link, host):
    assert rules.video_host(link) == host


# --- properties ---------------------------------------------------------------------------

LABEL = st.from_regex(r"[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
HOSTS = st.lists(LABEL, min_size=1, max_size=4).map(".".join).map(lambda host: host + ".example")
PATHS = st.from_regex(r"[A-Za-z0-9/_.~=?&@-]{0,40}", fullmatch=True)
HIDDEN = st.characters(categories=["Cf", "Cc", "Co", "Cn"]).filter(lambda ch: not ch.isspace())
USERS = st.from_regex(r"[A-Za-z0-9._~:!$'()*+,;=-]{0,20}", fullmatch=True)


@given(host=HOSTS, path=PATHS)
def test_an_ordinary_link_is_kept_and_shows_its_own_host(host, path):
    link = f"https://{host}/{path}"
    assert rules.check_video_link(link) == link
    assert rules.video_host(link) == host


@given(host=HOSTS, path=PATHS, hidden=HIDDEN, data=st.data())
def test_a_hidden_character_anywhere_is_refused(host, path, hidden, data):
    link = f"https://{host}/{path}"
    at = data.draw(st.integers(min_value=0, max_value=len(link)))
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link(link[:at] + hidden + link[at:])
    assert refused.value.reason == rules.HIDDEN


@given(user=USERS, host=HOSTS, path=PATHS)
def test_anything_before_an_at_in_the_address_is_refused(user, host, path):
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link(f"https://{user}@{host}/{path}")
    assert refused.value.reason == rules.USER_INFO


@given(link=st.one_of(st.text(max_size=60), st.text(max_size=60).map("https://".__add__)))
def test_whatever_is_kept_shows_a_host_of_visible_ascii_and_holds_no_user_info(link):
    try:
        kept = rules.check_video_link(link)
    except rules.VideoProblem:
        return
    if not kept:
        return
    host = rules.video_host(kept)
    assert host
    assert host.isascii()
    assert host.isprintable()
    assert not any(rules.is_hidden(ch) for ch in kept)
    assert "@" not in kept.split("/")[2]
