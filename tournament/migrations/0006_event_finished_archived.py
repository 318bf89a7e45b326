# Finished events are read-only; archived ones are listed apart.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0005_sign_in_attempts"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="finished_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the organizer finished the event; it is read-only since.",
                null=True,
                verbose_name="finished",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="archived_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="archived"),
        ),
    ]
