"""Root URLs, split by audience: organizer console, table kit, table phones, players'
own pages and the projector."""

from django.contrib import admin
from django.urls import include, path

from tournament.views.home import home

urlpatterns = [
    path("", home, name="home"),
    path("console/", include("tournament.organizer_urls")),
    path("console/kit/", include("tables.kit_urls")),
    path("t/", include("tables.phone_urls")),
    path("screen/", include("tournament.projector_urls")),
    path("admin/", admin.site.urls),
]
