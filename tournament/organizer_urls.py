"""URLs of the organizer console (signed in, on the laptop)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tournament.views import auth, organizer

app_name = "organizer"

urlpatterns = [
    path("sign-in/", auth_views.LoginView.as_view(), name="login"),
    path("sign-out/", auth_views.LogoutView.as_view(), name="logout"),
    path("sign-in/<uidb64>/<token>/", auth.sign_in_link, name="sign_in_link"),
    path("", organizer.event_list, name="events"),
]
