"""The product's URLs plus the bare view `make bench` compares every screen with.

Used as ROOT_URLCONF only under FIVETRICKS_BENCH=1 (tournament/settings.py), so the
production URLconf never imports the bench.
"""

from django.urls import path

from bench.hello import hello
from tournament.urls import handler403
from tournament.urls import urlpatterns as product_urlpatterns

urlpatterns = [*product_urlpatterns, path("bench/hello/", hello)]

__all__ = ["handler403", "urlpatterns"]
