"""Root URLs, split by audience: organizer console, table kit, table phones, players'
own pages and the projector."""

from django.contrib import admin
from django.urls import include, path

from tournament.views.home import favicon, home

urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("console/", include("tournament.urls.organizer")),
    path("console/kit/", include("tournament.urls.kit")),
    path("t/", include("tables.urls.phone")),
    path("screen/", include("tournament.urls.projector")),
    path("admin/", admin.site.urls),
    # The console's language switcher (Django's set_language; phones have their own).
    path("i18n/", include("django.conf.urls.i18n")),
]

# A change to a finished event is refused like any action (tournament.views.access).
handler403 = "tournament.views.access.permission_denied"
# A failure the views did not expect gets a page in words, needing no database.
handler500 = "tournament.views.errors.server_error"
