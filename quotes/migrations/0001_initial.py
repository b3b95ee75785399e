"""The requests answered with a quote move here from bookings (parties) and messaging (room rentals) without a row
copied: the models are created in the state only, on the tables they already have (Meta.db_table), and their content
types are renamed so admin permissions and log entries keep pointing at them. A fresh database gets the tables from
bookings' and messaging's own migrations, which run first."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


MOVED = {
    "bookings": ("partyreservation", "partyrequestevent"),
    "messaging": ("roomrentalrequest", "rentalrequestevent"),
}


def _rename(apps, *, to_quotes: bool) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for app_label, models_ in MOVED.items():
        old, new = (app_label, "quotes") if to_quotes else ("quotes", app_label)
        for model in models_:
            if content_type.objects.filter(app_label=new, model=model).exists():
                continue  # already there (created by a post_migrate before this ran): leave both as they are
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def content_types_to_quotes(apps, schema_editor):
    _rename(apps, to_quotes=True)


def content_types_back(apps, schema_editor):
    _rename(apps, to_quotes=False)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        # The tables exist, with their constraints, once these have run.
        ("bookings", "0017_drop_copy_columns_and_triggers"),
        ("messaging", "0002_rental_request_status_quote_history"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PartyReservation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('sent', 'Envoyée'), ('quoted', 'Devis envoyé'), ('confirmed', 'Confirmée'), ('refused', 'Refusée'), ('cancelled', 'Annulée')], db_index=True, default='sent', max_length=10, verbose_name='statut')),
                        ('quote_amount', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, verbose_name='montant du devis (€)')),
                        ('deposit_amount', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, verbose_name='acompte (€)')),
                        ('quote_note', models.TextField(blank=True, verbose_name='note du devis')),
                        ('quoted_at', models.DateTimeField(blank=True, null=True, verbose_name='devis envoyé le')),
                        ('deposit_paid_at', models.DateTimeField(blank=True, null=True, verbose_name='acompte payé le')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmée, refusée ou annulée le')),
                        ('event_type', models.CharField(choices=[('EVJF', 'EVJF (enterrement de vie de jeune fille)'), ('EVG', 'EVG (enterrement de vie de garçon)')], default='EVJF', max_length=4, verbose_name="type d'événement")),
                        ('date', models.DateField(verbose_name='date')),
                        ('time', models.TimeField(verbose_name='heure')),
                        ('participants', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='participants')),
                        ('email', models.EmailField(max_length=254, verbose_name='email')),
                        ('first_name', models.CharField(blank=True, max_length=150, verbose_name='prénom')),
                        ('last_name', models.CharField(blank=True, max_length=150, verbose_name='nom')),
                        ('title', models.CharField(blank=True, max_length=200, verbose_name='intitulé')),
                        ('message', models.TextField(blank=True, verbose_name='message')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='reçue le')),
                        ('spectators', models.PositiveSmallIntegerField(default=0, verbose_name='spectateurs')),
                        ('guest_of_honour', models.BooleanField(default=True, verbose_name='la future mariée ou le futur marié prend le cours')),
                        ('quote_participants', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='participants du devis')),
                        ('quote_spectators', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='spectateurs du devis')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='party_reservations', to=settings.AUTH_USER_MODEL, verbose_name='membre')),
                    ],
                    options={
                        'verbose_name': 'réservation EVJF/EVG',
                        'verbose_name_plural': 'réservations EVJF/EVG',
                        'db_table': 'bookings_partyreservation',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='PartyRequestEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('sent', 'Demande envoyée'), ('quoted', 'Devis envoyé'), ('deposit_paid', 'Acompte payé'), ('confirmed', 'Demande confirmée'), ('refused', 'Demande refusée'), ('cancelled', 'Demande annulée')], max_length=20, verbose_name='étape')),
                        ('by_staff', models.BooleanField(default=False, verbose_name='par le studio')),
                        ('note', models.TextField(blank=True, verbose_name='note')),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='le')),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='par')),
                        ('party', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='quotes.partyreservation', verbose_name='demande')),
                    ],
                    options={
                        'verbose_name': "étape d'une demande EVJF/EVG",
                        'verbose_name_plural': 'étapes des demandes EVJF/EVG',
                        'db_table': 'bookings_partyrequestevent',
                        'ordering': ['created_at', 'id'],
                        'abstract': False,
                    },
                ),
                migrations.CreateModel(
                    name='RoomRentalRequest',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('sent', 'Envoyée'), ('quoted', 'Devis envoyé'), ('confirmed', 'Confirmée'), ('refused', 'Refusée'), ('cancelled', 'Annulée')], db_index=True, default='sent', max_length=10, verbose_name='statut')),
                        ('quote_amount', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, verbose_name='montant du devis (€)')),
                        ('deposit_amount', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, verbose_name='acompte (€)')),
                        ('quote_note', models.TextField(blank=True, verbose_name='note du devis')),
                        ('quoted_at', models.DateTimeField(blank=True, null=True, verbose_name='devis envoyé le')),
                        ('deposit_paid_at', models.DateTimeField(blank=True, null=True, verbose_name='acompte payé le')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmée, refusée ou annulée le')),
                        ('name', models.CharField(max_length=150, verbose_name='nom')),
                        ('email', models.EmailField(max_length=254, verbose_name='email')),
                        ('phone', models.CharField(max_length=10, verbose_name='téléphone')),
                        ('event_type', models.CharField(choices=[('Événement Privé', 'Événement Privé'), ('Réunion', 'Réunion'), ('Anniversaire', 'Anniversaire'), ('Cours', 'Cours')], default='Événement Privé', max_length=20, verbose_name="type d'événement")),
                        ('date', models.DateField(verbose_name='date')),
                        ('time', models.TimeField(verbose_name='heure')),
                        ('message', models.TextField(blank=True, verbose_name='message')),
                        ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='reçue le')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rental_requests', to=settings.AUTH_USER_MODEL, verbose_name='membre')),
                    ],
                    options={
                        'verbose_name': 'demande de location',
                        'verbose_name_plural': 'demandes de location',
                        'db_table': 'messaging_roomrentalrequest',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='RentalRequestEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('sent', 'Demande envoyée'), ('quoted', 'Devis envoyé'), ('deposit_paid', 'Acompte payé'), ('confirmed', 'Demande confirmée'), ('refused', 'Demande refusée'), ('cancelled', 'Demande annulée')], max_length=20, verbose_name='étape')),
                        ('by_staff', models.BooleanField(default=False, verbose_name='par le studio')),
                        ('note', models.TextField(blank=True, verbose_name='note')),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='le')),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='par')),
                        ('rental', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='quotes.roomrentalrequest', verbose_name='demande')),
                    ],
                    options={
                        'verbose_name': "étape d'une demande de location",
                        'verbose_name_plural': 'étapes des demandes de location',
                        'db_table': 'messaging_rentalrequestevent',
                        'ordering': ['created_at', 'id'],
                        'abstract': False,
                    },
                ),
                migrations.AddConstraint(
                    model_name='partyreservation',
                    constraint=models.CheckConstraint(condition=models.Q(('participants__gte', 1)), name='party_participants_positive'),
                ),
                migrations.AddConstraint(
                    model_name='partyreservation',
                    constraint=models.CheckConstraint(condition=models.Q(('event_type__in', ['EVJF', 'EVG'])), name='party_event_type_valid'),
                ),
                migrations.AddConstraint(
                    model_name='partyreservation',
                    constraint=models.CheckConstraint(condition=models.Q(('status__in', ['sent', 'quoted', 'confirmed', 'refused', 'cancelled'])), name='party_status_valid'),
                ),
                migrations.AddConstraint(
                    model_name='partyreservation',
                    constraint=models.CheckConstraint(condition=models.Q(('quote_amount__isnull', True), ('quote_amount__gt', 0), _connector='OR'), name='party_quote_positive'),
                ),
                migrations.AddConstraint(
                    model_name='partyreservation',
                    constraint=models.CheckConstraint(condition=models.Q(('deposit_amount__isnull', True), models.Q(('deposit_amount__gt', 0), ('deposit_amount__lte', models.F('quote_amount'))), _connector='OR'), name='party_deposit_within_quote'),
                ),
                migrations.AddConstraint(
                    model_name='roomrentalrequest',
                    constraint=models.CheckConstraint(condition=models.Q(('event_type__in', ['Événement Privé', 'Réunion', 'Anniversaire', 'Cours'])), name='messaging_rental_event_type_valid'),
                ),
                migrations.AddConstraint(
                    model_name='roomrentalrequest',
                    constraint=models.CheckConstraint(condition=models.Q(('status__in', ['sent', 'quoted', 'confirmed', 'refused', 'cancelled'])), name='messaging_rental_status_valid'),
                ),
                migrations.AddConstraint(
                    model_name='roomrentalrequest',
                    constraint=models.CheckConstraint(condition=models.Q(('quote_amount__isnull', True), ('quote_amount__gt', 0), _connector='OR'), name='messaging_rental_quote_positive'),
                ),
                migrations.AddConstraint(
                    model_name='roomrentalrequest',
                    constraint=models.CheckConstraint(condition=models.Q(('deposit_amount__isnull', True), models.Q(('deposit_amount__gt', 0), ('deposit_amount__lte', models.F('quote_amount'))), _connector='OR'), name='messaging_rental_deposit_within_quote'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to_quotes, content_types_back, elidable=False),
    ]
