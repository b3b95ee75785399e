"""Demo conversations (idempotent: keyed by subject)."""

import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import Role, User

from .models import ContactMessage, ContactReply, ReplyAuthorRole

DEMO_MEMBER_EMAIL = "membre@studio-pole-danse.fr"


@transaction.atomic
def run(*, stdout=None):
    member = User.objects.filter(email=DEMO_MEMBER_EMAIL).first()
    admin = User.objects.filter(role=Role.ADMIN).order_by("id").first()
    now = timezone.now()
    created = 0

    if member:
        trial, new = ContactMessage.objects.get_or_create(
            user=member,
            subject="Cours d'essai de pole dance",
            defaults={
                "name": member.get_full_name(),
                "email": member.email,
                "text": "Bonjour, je débute complètement : puis-je faire un cours d'essai jeudi soir ?",
                "follow_up": True,
                "created_at": now - datetime.timedelta(days=3),
                "last_activity_at": now - datetime.timedelta(days=2),
                "staff_unread": False,
                "member_unread": True,
            },
        )
        if new:
            created += 1
            ContactReply.objects.create(
                message=trial,
                author=admin,
                author_role=ReplyAuthorRole.STAFF,
                text="Bonjour Emma, avec plaisir ! Le cours débutant de jeudi 19 h a encore de la place. "
                "Prévoyez un short et une brassière, la peau doit accrocher à la barre.",
                created_at=now - datetime.timedelta(days=2),
            )

    _, new = ContactMessage.objects.get_or_create(
        email="julie.bernard@example.fr",
        subject="Tarif étudiant",
        defaults={
            "name": "Julie Bernard",
            "phone": "0655443322",
            "text": "Bonjour, le tarif étudiant s'applique-t-il aussi aux alternants ? Merci !",
            "created_at": now - datetime.timedelta(hours=5),
            "last_activity_at": now - datetime.timedelta(hours=5),
            "staff_unread": True,
        },
    )
    created += new

    if stdout:
        stdout.write(f"Messagerie : {created} élément(s) de démonstration ajouté(s).")
