"""The demo studio's questionnaire, waiver and house rules, in French (idempotent: published once, version 1), and a
declaration for the demo members, so that their bookings are not stopped (docs/decisions.md 48): one of them answered
"yes", for the instructor's sheet to show "À signaler"."""

import os

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.seed import MEMBERS

from .models import DocumentKind, HealthDeclaration, Questionnaire, StudioDocument
from .selectors import current_set

DEMO_MEMBER_EMAIL = os.environ.get("DEMO_MEMBER_EMAIL", "membre@studio-pole-danse.fr").lower()
# The demo member who answered "yes" to the first question (an old shoulder injury).
FLAGGED_DEMO_EMAIL = MEMBERS[1][0]

QUESTIONS = [
    {
        "text": "Avez-vous une blessure, une douleur ou une opération récente (épaules, poignets, dos, genoux) ?",
        "advice": "Parlez-en à votre professeur·e avant le cours : certains mouvements seront adaptés ou évités.",
    },
    {
        "text": "Avez-vous un problème cardiaque, de tension ou des malaises pendant l'effort ?",
        "advice": "Demandez l'avis de votre médecin avant de reprendre une activité intense.",
    },
    {
        "text": "Êtes-vous enceinte ou avez-vous accouché depuis moins de six mois ?",
        "advice": "Les figures inversées sont déconseillées : signalez-le à votre professeur·e.",
    },
    {
        "text": "Avez-vous des vertiges, de l'épilepsie ou une maladie qui peut entraîner une perte de connaissance ?",
        "advice": "Évitez les figures en hauteur et tête en bas sans l'accord de votre médecin.",
    },
]

WAIVER = """Je pratique la pole dance, le cerceau aérien ou le cabaret sous ma propre responsabilité, à un niveau
adapté à ma condition physique, et je suis les consignes de sécurité de mon professeur·e.

Je déclare ne pas avoir de contre-indication médicale connue à ces activités, ou en avoir parlé à mon médecin.

Je signale à mon professeur·e, avant chaque cours, toute blessure ou douleur nouvelle. Le studio est assuré en
responsabilité civile ; je suis invité·e à souscrire une assurance individuelle accident."""

HOUSE_RULES = """Arrivez dix minutes avant le cours ; au-delà de dix minutes de retard, l'accès peut être refusé pour
votre sécurité (l'échauffement est indispensable).

Pas de crème ni d'huile sur la peau le jour du cours : elles rendent la barre glissante. Retirez bijoux et montres.

Nettoyez votre barre après usage avec le produit fourni. Le vestiaire n'est pas surveillé."""


@transaction.atomic
def run(*, stdout=None):
    created = []
    if not Questionnaire.objects.exists():
        Questionnaire.objects.create(version=1, questions=QUESTIONS)
        created.append("questionnaire de santé")
    for kind, title, body in (
        (DocumentKind.WAIVER, "Décharge de responsabilité", WAIVER),
        (DocumentKind.HOUSE_RULES, "Règlement intérieur", HOUSE_RULES),
    ):
        if not StudioDocument.objects.filter(kind=kind).exists():
            StudioDocument.objects.create(kind=kind, version=1, title=title, body=body)
            created.append(title.lower())
    if stdout is not None and created:
        stdout.write(f"Publié : {', '.join(created)}.")
    demo = User.objects.filter(email__in=[DEMO_MEMBER_EMAIL, *(row[0] for row in MEMBERS)])
    declared = declarations_seed(demo, flagged_emails={FLAGGED_DEMO_EMAIL})
    if stdout is not None and declared:
        stdout.write(f"Déclarations de santé des membres de démonstration : {declared}.")


def declarations_seed(members, *, flagged_emails=frozenset()) -> int:
    """A declaration against the versions in force for each of these members who has none (one they made is kept):
    for the demo, the bench and the security harness's members, who book. Returns how many were added."""
    current = current_set()
    if current.empty:
        return 0
    questions = len(current.questionnaire.questions) if current.questionnaire else 0
    members = list(members.exclude(health_declaration__isnull=False).only("pk", "email"))
    now = timezone.now()
    declarations = []
    for member in members:
        answers = [member.email in flagged_emails] + [False] * (questions - 1) if questions else []
        declarations.append(
            HealthDeclaration(
                member_id=member.pk,
                questionnaire=current.questionnaire,
                waiver=current.waiver,
                house_rules=current.house_rules,
                answers=answers,
                flagged=any(answers),
                signed_at=now,
            )
        )
    HealthDeclaration.objects.bulk_create(declarations, ignore_conflicts=True)
    return len(declarations)
