"""Each event's video secret (tournament.models.tokens): the random part of its video rooms'
names, so a table's room on a public service cannot be guessed from the event's name.
Every existing event gets its own (a field default would give them all one), then new
events are born with one."""

from django.db import migrations, models

import tournament.models


def give_every_event_a_video_secret(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    events = list(Event.objects.only("pk"))
    for event in events:
        event.video_secret = tournament.models.new_video_secret()
    Event.objects.bulk_update(events, ["video_secret"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0024_debrief_tricks_step")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="video_secret",
            field=models.CharField(default="", editable=False, max_length=32),
        ),
        migrations.RunPython(give_every_event_a_video_secret, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="video_secret",
            field=models.CharField(
                default=tournament.models.new_video_secret, editable=False, max_length=32
            ),
        ),
    ]
