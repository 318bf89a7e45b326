"""Admin pages for tables, games and reports, for fixing data by hand."""

from django.contrib import admin

from tables.models import VARIANT_FIELDS, Game, GameCorrection, GameReport, Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    # Every variant field, so a table's clauses (fewest wins...) show and can be found.
    list_display = ["__str__", "event", "trump", *VARIANT_FIELDS, "variant_set_by_hand"]
    list_filter = ["event", *VARIANT_FIELDS, "variant_set_by_hand"]
    readonly_fields = ["token"]


class GameReportInline(admin.TabularInline):
    model = GameReport
    extra = 0
    fields = ["winner", "tricks", "finished", "state", "source", "received_at"]
    readonly_fields = ["received_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "table", "round", "winner", "status", "finished", "reported_at"]
    list_filter = ["status", "round__event"]
    list_select_related = ["table", "round", "winner"]
    inlines = [GameReportInline]


@admin.register(GameReport)
class GameReportAdmin(admin.ModelAdmin):
    list_display = ["__str__", "state", "source", "received_at"]
    list_filter = ["state", "source"]
    list_select_related = ["table", "round", "winner"]


@admin.register(GameCorrection)
class GameCorrectionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "changed_by", "changed_at"]
    list_select_related = ["table", "changed_by"]
    readonly_fields = ["before", "after", "changed_at"]
