"""Instructors are people (3/3): the session's link replaces its free text and keeps its name,
`instructor`; instructor names are unique whatever their case."""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("courses", "0008_instructors_from_free_text")]

    operations = [
        # A default first, so that going back can re-add the text column to existing rows (0008 then fills it).
        migrations.AlterField(
            model_name="coursesession",
            name="instructor",
            field=models.CharField(blank=True, default="", max_length=150, verbose_name="professeur"),
        ),
        migrations.RemoveField(model_name="coursesession", name="instructor"),
        migrations.RenameField(model_name="coursesession", old_name="instructor_person", new_name="instructor"),
        migrations.AlterField(
            model_name="coursesession",
            name="instructor",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sessions",
                to="courses.instructor",
                verbose_name="professeur",
            ),
        ),
        migrations.AddConstraint(
            model_name="instructor",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"), name="courses_instructor_name_ci_unique"
            ),
        ),
    ]
