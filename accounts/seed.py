"""Demo accounts beyond seed_demo's admin and member: a supervisor, a few members for the staff user list, and a
member buying for a company, whose invoices are the company's Factur-X files (docs/decisions.md 54)."""

from django.utils import timezone

from .models import Role, User

SUPERVISOR = ("superviseur@studio-pole-danse.fr", "DemoSuperviseur2026!", "Paul", "Durand")
MEMBERS = [
    ("lucie.martin@example.fr", "Lucie", "Martin", "0623456789", "69003", "Lyon"),
    ("ines.robert@example.fr", "Inès", "Robert", "0634567890", "69100", "Villeurbanne"),
    ("sarah.moreau@example.fr", "Sarah", "Moreau", "0645678901", "69007", "Lyon"),
    ("julie.fournier@example.fr", "Julie", "Fournier", "0656789012", "69300", "Caluire-et-Cuire"),
]
MEMBER_PASSWORD = "DemoMembre2026!"
COMPANY_MEMBER = ("claire.dumont@example.fr", "Claire", "Dumont", "0667890123", "69002", "Lyon")
# A made-up company: an obviously fictitious SIREN that passes the Luhn key, its French VAT number (key 11).
COMPANY = {
    "company_name": "Lumière Événements SAS",
    "company_siren": "123456782",
    "company_vat_number": "FR11123456782",
    "company_address": "12 rue de la République, 69002 Lyon",
}


def _upsert(email, password, **fields):
    user, created = User.objects.get_or_create(email=email, defaults=fields)
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def run(*, stdout=None):
    confirmed = timezone.now().replace(microsecond=0)
    email, password, first_name, last_name = SUPERVISOR
    _upsert(
        email,
        password,
        first_name=first_name,
        last_name=last_name,
        role=Role.SUPERVISOR,
        phone="0478000001",
        postal_code="69002",
        city="Lyon",
        email_confirmed_at=confirmed,
    )
    for member_email, first, last, phone, postal_code, city in MEMBERS:
        _upsert(
            member_email,
            MEMBER_PASSWORD,
            first_name=first,
            last_name=last,
            phone=phone,
            postal_code=postal_code,
            city=city,
            role=Role.USER,
            email_confirmed_at=confirmed,
        )
    member_email, first, last, phone, postal_code, city = COMPANY_MEMBER
    _upsert(  # created with the company; a company changed since is kept
        member_email,
        MEMBER_PASSWORD,
        first_name=first,
        last_name=last,
        phone=phone,
        postal_code=postal_code,
        city=city,
        role=Role.USER,
        email_confirmed_at=confirmed,
        **COMPANY,
    )
    if stdout is not None:
        stdout.write(f"  Superviseur : {email} / {password}")
