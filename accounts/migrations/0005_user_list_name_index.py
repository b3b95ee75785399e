"""The staff's users list in its default order (last name, first name, id) reads its page from this index instead
of sorting every account (EXPLAIN ANALYZE on the bench's data: a top-N sort of 511 accounts became an
index scan stopping after 10: PostgreSQL CPU for the first page ~0.77 -> ~0.70 ms, ~0.30 -> ~0.14 ms without
its no-shows).

Written as SQL, without a model state change: the index belongs to the users list's query, not to the model's
declaration (accounts/models.py); if it is ever declared in User.Meta.indexes, replace this with a state-only
operation under the same name."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_instructor_role"),
    ]

    operations = [
        migrations.RunSQL(
            sql='CREATE INDEX "user_list_name_idx" ON "accounts_user" ("last_name", "first_name", "id")',
            reverse_sql='DROP INDEX "user_list_name_idx"',
        ),
    ]
