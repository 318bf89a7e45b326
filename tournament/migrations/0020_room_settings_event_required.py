"""Every room settings row has its event (0019 gave it one or dropped it); a migration of
its own, as PostgreSQL alters no table with the data migration's checks pending."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0019_room_settings_per_event"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roomsettings",
            name="event",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="room_settings",
                to="tournament.event",
            ),
        ),
    ]
