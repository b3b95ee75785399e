"""The demo studio's questionnaire, waiver and house rules, in French (idempotent: published once, version 1)."""

from django.db import transaction

from .models import DocumentKind, Questionnaire, StudioDocument

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
