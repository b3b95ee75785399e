"""The demo studio's catalogue: the weekly timetable, the courses and the eight offers of the fixed price list."""

from decimal import Decimal

from .models import Level, TariffType

COURSES = [
    {
        "key": "pole-debutant",
        "title": "Pole Dance Débutant",
        "level": Level.BEGINNER,
        "duration": 75,
        "instructor": "Inès Moreau",
        "description": (
            "Vos premiers pas à la barre : échauffement complet, marches, premières figures au sol et premières "
            "rotations, dans la bonne humeur. Aucun prérequis, venez en short et débardeur."
        ),
    },
    {
        "key": "pole-tous-niveaux",
        "title": "Pole Dance Tous niveaux",
        "level": Level.ALL_LEVELS,
        "duration": 75,
        "instructor": "Camille Laurent",
        "description": (
            "Un cours ouvert à toutes : chacune travaille les figures de son niveau autour d'une chorégraphie "
            "commune. Idéal pour progresser à son rythme."
        ),
    },
    {
        "key": "exotic",
        "title": "Exotic Pole",
        "level": Level.INTERMEDIATE,
        "duration": 75,
        "instructor": "Léa Garnier",
        "description": (
            "Fluidité, sensualité et travail au sol en talons (ou pieds nus) : un style expressif qui renforce "
            "la confiance en soi."
        ),
    },
    {
        "key": "cerceau",
        "title": "Cerceau aérien",
        "level": Level.BEGINNER,
        "duration": 75,
        "instructor": "Léa Garnier",
        "description": (
            "Le cerceau suspendu pour découvrir les acrobaties aériennes : montées, positions assises, "
            "suspensions et enchaînements gracieux."
        ),
    },
    {
        "key": "enfants",
        "title": "Danse enfants",
        "level": Level.BEGINNER,
        "duration": 60,
        "instructor": "Inès Moreau",
        "description": (
            "Pour les 6-11 ans : éveil corporel, souplesse, coordination et petites chorégraphies sur des "
            "musiques qu'ils adorent."
        ),
    },
    {
        "key": "kpop",
        "title": "K-pop ados",
        "level": Level.BEGINNER,
        "duration": 60,
        "instructor": "Inès Moreau",
        "description": (
            "Pour les 12-17 ans : les chorégraphies des groupes coréens du moment, apprises pas à pas, et "
            "une vidéo de groupe en fin de trimestre."
        ),
    },
    {
        "key": "cabaret",
        "title": "Cabaret",
        "level": Level.INTERMEDIATE,
        "duration": 75,
        "instructor": "Camille Laurent",
        "description": (
            "Plumes, chaises et attitude : la danse cabaret et burlesque, glamour et pleine d'humour, pour "
            "travailler la présence scénique."
        ),
    },
    {
        "key": "pole-inter-avance",
        "title": "Pole Dance Inter/Avancé",
        "level": Level.ADVANCED,
        "duration": 90,
        "instructor": "Camille Laurent",
        "description": (
            "Figures inversées, combos et flow pour les élèves qui maîtrisent les bases : force, technique et "
            "sécurité avant tout."
        ),
    },
]

# (weekday 0=Monday, "HH:MM", course key)
WEEKLY_SLOTS = [
    (0, "18:30", "pole-debutant"),
    (0, "20:00", "pole-tous-niveaux"),
    (1, "18:00", "cerceau"),
    (1, "19:30", "exotic"),
    (2, "14:00", "enfants"),
    (2, "16:00", "kpop"),
    (2, "19:00", "pole-debutant"),
    (3, "18:30", "cabaret"),
    (3, "20:00", "pole-inter-avance"),
    (4, "18:30", "pole-tous-niveaux"),
    (4, "20:00", "exotic"),
    (5, "10:00", "cerceau"),
    (5, "11:30", "pole-debutant"),
]

PARTY_TARIFF_TITLE = "EVJF / EVG"

TARIFFS = [
    {
        "title": "Cours à l'unité",
        "pass_credits": 1,
        "pass_validity_months": 1,
        "pass_unlimited": False,
        "type": TariffType.COURSE,
        "price": Decimal("25.00"),
        "frequency": "",
        "validity": "1 mois",
        "description": "Un cours de votre choix, sans engagement.",
        "course_key": "pole-debutant",
    },
    {
        "title": "Carte 10 cours",
        "pass_credits": 10,
        "pass_validity_months": 6,
        "pass_unlimited": False,
        "type": TariffType.PACKAGE,
        "price": Decimal("190.00"),
        "frequency": "",
        "validity": "6 mois",
        "description": "Dix cours à utiliser librement, valables six mois.",
        "course_key": "pole-tous-niveaux",
    },
    {
        "title": "Abonnement annuel illimité",
        "pass_credits": 0,
        "pass_validity_months": 12,
        "pass_unlimited": True,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("55.00"),
        "frequency": "par mois",
        "validity": "12 mois",
        "description": "Tous les cours, autant que vous le voulez, pendant un an.",
    },
    {
        "title": "Abonnement annuel étudiant / demandeur d'emploi",
        "pass_credits": 0,
        "pass_validity_months": 12,
        "pass_unlimited": True,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("44.00"),
        "frequency": "par mois",
        "validity": "12 mois",
        "description": "L'abonnement annuel illimité à tarif réduit, sur justificatif.",
        "conditions": "Sur présentation d'une carte étudiante ou d'une attestation France Travail.",
    },
    {
        "title": "Abonnement 6 mois illimité",
        "pass_credits": 0,
        "pass_validity_months": 6,
        "pass_unlimited": True,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("85.00"),
        "frequency": "par mois",
        "validity": "6 mois",
        "description": "Tous les cours en illimité pendant six mois.",
    },
    {
        "title": "Abonnement 6 mois étudiant",
        "pass_credits": 0,
        "pass_validity_months": 6,
        "pass_unlimited": True,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("65.00"),
        "frequency": "par mois",
        "validity": "6 mois",
        "description": "L'abonnement six mois illimité à tarif réduit, sur justificatif.",
        "conditions": "Sur présentation d'une carte étudiante.",
    },
    {
        "title": "Abonnement trimestriel",
        "pass_credits": 0,
        "pass_validity_months": 3,
        "pass_unlimited": True,
        "pass_weekly_cap": 1,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("120.00"),
        "frequency": "par trimestre",
        "validity": "3 mois",
        "description": "Un cours par semaine pendant trois mois.",
    },
    {
        "title": "Abonnement trimestriel étudiant",
        "pass_credits": 0,
        "pass_validity_months": 3,
        "pass_unlimited": True,
        "pass_weekly_cap": 1,
        "type": TariffType.SUBSCRIPTION,
        "price": Decimal("100.00"),
        "frequency": "par trimestre",
        "validity": "3 mois",
        "description": "L'abonnement trimestriel à tarif réduit, sur justificatif.",
        "conditions": "Sur présentation d'une carte étudiante.",
    },
    {
        "title": PARTY_TARIFF_TITLE,
        "type": TariffType.EVENT,
        "price": Decimal("25.00"),
        "frequency": "par participant",
        "validity": "",
        "description": (
            "Une initiation pole dance pour enterrer votre vie de jeune fille ou de garçon : gratuit pour la "
            "future mariée ou le futur marié, 5 € par spectateur, à partir de 6 personnes."
        ),
    },
]

INSTRUCTORS = [
    {
        "first_name": "Camille",
        "last_name": "Laurent",
        "email": "camille.laurent@studio-pole-danse.fr",
        "bio": "Fondatrice du studio, championne régionale de pole sport et formée au cabaret à Paris.",
        "specialties": "Pole dance, cabaret",
    },
    {
        "first_name": "Inès",
        "last_name": "Moreau",
        "email": "ines.moreau@studio-pole-danse.fr",
        "bio": "Danseuse contemporaine, elle enseigne aux débutantes, aux enfants et aux ados.",
        "specialties": "Pole débutant, danse enfants, K-pop",
    },
    {
        "first_name": "Léa",
        "last_name": "Garnier",
        "email": "lea.garnier@studio-pole-danse.fr",
        "bio": "Artiste de cirque passée par l'école de Châtellerault, spécialiste des agrès aériens.",
        "specialties": "Cerceau aérien, exotic pole",
    },
]

TESTIMONIALS = [
    (
        "Sophie",
        "Je n'avais jamais fait de sport et je fais maintenant mes premières figures inversées. Merci Camille !",
    ),
    ("Nadia", "Un EVJF inoubliable : la future mariée a adoré et nous aussi. Organisation parfaite."),
    ("Julie", "Des cours en petit groupe, des profs attentives et une ambiance où on se sent bien."),
    ("Marc", "Le cours de cabaret est une bouffée d'énergie chaque jeudi soir."),
]

# docs/decisions.md 51: the demo studio closes from 24 December to 1 January (courses.management.commands.seed_demo).
CHRISTMAS_CLOSURE_LABEL = "Vacances de Noël"
