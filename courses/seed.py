"""The demo courses' pictures for `manage.py seed_demo`: one Pillow illustration per course, drawn by
media_library.demo_pictures in the studio's colours and stored with its renditions by course_set_picture; and a pay
rule for each demo instructor, so that their monthly statement shows amounts (docs/decisions.md 52).

Idempotent: a course that already has a picture (the demo's or one staff uploaded) keeps it; an instructor who has
any pay rule keeps theirs.
"""

from datetime import date
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile

from media_library.demo_pictures import draw_theme

from .models import Course, Instructor
from .models_pay import InstructorPayRule, PayRuleKind
from .seed_data import COURSES
from .services.catalogue import course_set_picture

# course key: (theme, French alt text saying what is drawn)
PICTURES = {
    "pole-debutant": ("room", "Illustration : la salle lumineuse du studio, son parquet et ses trois mâts"),
    "pole-tous-niveaux": ("pole", "Illustration : une élève en figure inversée au mât, sous un projecteur"),
    "exotic": ("stage", "Illustration : trois danseuses en talons sur scène, entre deux rideaux"),
    "cerceau": ("hoop", "Illustration : une élève assise dans un cerceau aérien doré"),
    "enfants": ("kids", "Illustration : trois enfants qui dansent sous un soleil et des étoiles"),
    "kpop": ("neon", "Illustration : trois danseurs sur une scène éclairée de néons colorés"),
    "cabaret": ("cabaret", "Illustration : une danseuse de cabaret devant un éventail de plumes roses"),
    "pole-inter-avance": ("stretch", "Illustration : une danseuse en cambré, travail de souplesse"),
}
WIDTH, HEIGHT = 1200, 800


def run(*, stdout=None) -> None:
    added = 0
    for index, data in enumerate(COURSES):
        theme, alt_text = PICTURES[data["key"]]
        course = Course.objects.filter(title=data["title"]).first()
        if course is None or course.image:
            continue
        picture = draw_theme(theme=theme, width=WIDTH, height=HEIGHT, seed=60 + index)
        course_set_picture(
            course=course,
            image=SimpleUploadedFile(f"cours-{data['key']}.jpg", picture, content_type="image/jpeg"),
            alt_text=alt_text,
        )
        added += 1
    if stdout:
        stdout.write(f"  Cours : {added} photo(s) ajoutée(s).")

    rules = 0
    for instructor in Instructor.objects.filter(pay_rules__isnull=True):
        # A usual arrangement for a self-employed instructor: a base per class and a little per attendee.
        InstructorPayRule.objects.create(
            instructor=instructor,
            starts_on=date(2026, 1, 1),
            kind=PayRuleKind.BASE_PLUS_ATTENDEE,
            class_amount=Decimal("25.00"),
            attendee_amount=Decimal("2.00"),
        )
        rules += 1
    if stdout and rules:
        stdout.write(f"  Professeurs : {rules} règle(s) de rémunération ajoutée(s).")
