"""Instructors are people (1/3): instructors get a name, an optional account and an active flag; sessions
get a link to one (filled from their free-text instructor by 0008, which then becomes the link in 0009)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0006_session_series"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="instructor",
            name="name",
            field=models.CharField(default="", max_length=150, verbose_name="nom"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="instructor",
            name="active",
            field=models.BooleanField(
                default=True,
                help_text="Un professeur inactif n'est plus proposé pour les nouvelles séances.",
                verbose_name="actif",
            ),
        ),
        migrations.AlterField(
            model_name="instructor",
            name="user",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="instructor",
                to=settings.AUTH_USER_MODEL,
                verbose_name="compte utilisateur",
            ),
        ),
        migrations.AlterModelOptions(
            name="instructor",
            options={"ordering": ["name", "id"], "verbose_name": "professeur", "verbose_name_plural": "professeurs"},
        ),
        migrations.AddField(
            model_name="coursesession",
            name="instructor_person",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="courses.instructor",
            ),
        ),
    ]
