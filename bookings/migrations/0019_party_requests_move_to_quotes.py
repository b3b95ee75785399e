"""The party requests and their history now belong to quotes (quotes 0001): gone from bookings' state, the tables
stay where they are, under quotes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0013_deposits_point_at_quotes"),  # no foreign key left on the old model
        ("quotes", "0001_initial"),
        ("bookings", "0018_reservation_cancel_reason_payment_pending"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="partyrequestevent",
                    name="actor",
                ),
                migrations.RemoveField(
                    model_name="partyrequestevent",
                    name="party",
                ),
                migrations.RemoveConstraint(
                    model_name="partyreservation",
                    name="party_participants_positive",
                ),
                migrations.RemoveConstraint(
                    model_name="partyreservation",
                    name="party_event_type_valid",
                ),
                migrations.RemoveConstraint(
                    model_name="partyreservation",
                    name="party_status_valid",
                ),
                migrations.RemoveConstraint(
                    model_name="partyreservation",
                    name="party_quote_positive",
                ),
                migrations.RemoveConstraint(
                    model_name="partyreservation",
                    name="party_deposit_within_quote",
                ),
                migrations.DeleteModel(
                    name="PartyRequestEvent",
                ),
                migrations.DeleteModel(
                    name="PartyReservation",
                ),
            ],
            database_operations=[],
        ),
    ]
