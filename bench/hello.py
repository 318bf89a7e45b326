"""The bare view `make bench` compares every screen with: no query, no template, the whole
middleware stack. Routed at /bench/hello/ only when FIVETRICKS_BENCH=1 (bench/urls.py).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"hello", content_type="text/plain")
