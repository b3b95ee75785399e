"""Demo conversations and a room-rental request (idempotent: keyed by subject and e-mail)."""

import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import Role, User

from .models import ContactMessage, ContactReply, RentalEventType, ReplyAuthorRole, RoomRentalRequest

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

    _, new = RoomRentalRequest.objects.get_or_create(
        email="sophie.leroy@example.fr",
        event_type=RentalEventType.BIRTHDAY,
        defaults={
            "name": "Sophie Leroy",
            "phone": "0677889900",
            "date": timezone.localdate() + datetime.timedelta(days=21),
            "time": datetime.time(15, 0),
            "message": "Anniversaire de mes 30 ans, une douzaine de personnes, avec initiation si possible.",
        },
    )
    created += new
    if stdout:
        stdout.write(f"Messagerie : {created} élément(s) de démonstration ajouté(s).")
