"""Root URLs, split by audience: organizer console, table kit, table phones, players'
own pages and the projector."""

from django.contrib import admin
from django.urls import include, path

from tournament.views.home import favicon, home

urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("console/", include("tournament.organizer_urls")),
    path("console/kit/", include("tournament.kit_urls")),
    path("t/", include("tables.phone_urls")),
    path("screen/", include("tournament.projector_urls")),
    path("admin/", admin.site.urls),
    # The console's language switcher (Django's set_language; phones have their own).
    path("i18n/", include("django.conf.urls.i18n")),
]

# A change to a finished event is refused like any action (tournament.views.access).
handler403 = "tournament.views.access.permission_denied"
