from django.db import migrations, models

import media_library.private


def proofs_move_to_private_storage(apps, schema_editor):
    """The proofs sent before are in the public uploads, where anyone could read them: moved to the private storage
    under the same name (a file already moved or missing is skipped, so running it again is harmless)."""
    from media_library.private import private_files_move

    private_files_move(apps.get_model("payments", "ReducedRateProof"), "file")


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0011_weekly_cap_moves_to_the_tariff"),
    ]

    operations = [
        migrations.AlterField(
            model_name="reducedrateproof",
            name="file",
            field=models.FileField(
                max_length=255,
                storage=media_library.private.private_storage,
                upload_to="justificatifs/",
                verbose_name="justificatif",
            ),
        ),
        # Files only: going back leaves them in the private storage, where the rolled-back code cannot serve them.
        migrations.RunPython(proofs_move_to_private_storage, migrations.RunPython.noop, elidable=True),
    ]
