"""The users list's index (0005, written as SQL) is now declared in User.Meta.indexes.

SQLite rebuilt the table when 0007 added the company columns, and a rebuild keeps only the indexes the model state
declares, so it lost this one; PostgreSQL kept it. The database side creates it where it is missing, the state side
declares it under the same name, so later rebuilds keep it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_company"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql='CREATE INDEX IF NOT EXISTS "user_list_name_idx" ON "accounts_user" ("last_name", "first_name", "id")',
                    reverse_sql=migrations.RunSQL.noop,
                ),
            ],
            state_operations=[
                migrations.AddIndex(
                    model_name="user",
                    index=models.Index(fields=["last_name", "first_name", "id"], name="user_list_name_idx"),
                ),
            ],
        ),
    ]
