"""Admin pages, so an organizer can fix any record by hand during an event."""

from django.contrib import admin

from tournament.forms import AdminSignInForm
from tournament.models import Event, Player, Round, Seat

# The admin's password form counts failures like the console's (tournament.writes.signin).
admin.site.login_form = AdminSignInForm


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "status"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "phase", "round_number", "rounds_planned", "created_at"]
    list_filter = ["phase"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["version", "projector_token", "players_token", "created_at"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "status"]
    list_filter = ["status", "event"]
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "status", "started_at", "closed_at"]
    list_filter = ["status", "event"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "table", "round", "reason", "from_table"]
    list_filter = ["round__event", "round__number", "reason"]
    search_fields = ["player__name"]
    list_select_related = ["player", "table", "round", "from_table"]
