"""The room-rental requests and their history now belong to quotes (quotes 0001): gone from messaging's state, the
tables stay where they are, under quotes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("payments", "0013_deposits_point_at_quotes"),  # no foreign key left on the old model
        ("quotes", "0001_initial"),
        ("messaging", "0002_rental_request_status_quote_history"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="rentalrequestevent",
                    name="actor",
                ),
                migrations.RemoveField(
                    model_name="rentalrequestevent",
                    name="rental",
                ),
                migrations.RemoveConstraint(
                    model_name="roomrentalrequest",
                    name="messaging_rental_event_type_valid",
                ),
                migrations.RemoveConstraint(
                    model_name="roomrentalrequest",
                    name="messaging_rental_status_valid",
                ),
                migrations.RemoveConstraint(
                    model_name="roomrentalrequest",
                    name="messaging_rental_quote_positive",
                ),
                migrations.RemoveConstraint(
                    model_name="roomrentalrequest",
                    name="messaging_rental_deposit_within_quote",
                ),
                migrations.DeleteModel(
                    name="RentalRequestEvent",
                ),
                migrations.DeleteModel(
                    name="RoomRentalRequest",
                ),
            ],
            database_operations=[],
        ),
    ]
