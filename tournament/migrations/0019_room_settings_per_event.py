"""Room settings belong to an event (tournament.models.room): the one installation-wide
row goes to the newest event when one organizer owns every event (a laptop), where the
other events carry it over; with several organizers nobody knows whose it was, so it is
dropped rather than shown on everyone's projector."""

import django.db.models.deletion
from django.db import migrations, models


def give_the_row_to_an_event(apps, schema_editor):
    RoomSettings = apps.get_model("tournament", "RoomSettings")
    Event = apps.get_model("tournament", "Event")
    owners = Event.objects.values("owner").distinct().count()
    newest = Event.objects.order_by("-created_at", "-pk").first()
    if owners != 1 or newest is None:
        RoomSettings.objects.all().delete()
        return
    RoomSettings.objects.filter(pk=1).update(event=newest)
    RoomSettings.objects.filter(event__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0018_clause_must_beat_the_best_card"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="roomsettings",
            name="room_settings_single_row",
        ),
        migrations.AddField(
            model_name="roomsettings",
            name="event",
            field=models.OneToOneField(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="room_settings",
                to="tournament.event",
            ),
        ),
        migrations.RunPython(give_the_row_to_an_event, migrations.RunPython.noop),
    ]
