"""Instructors are people (2/3): each session's free-text instructor becomes an instructor record.

Names are compared trimmed and case-insensitively ("Léa Garnier", " léa garnier " are one person); the record keeps
the first spelling met in session order. Instructor records that existed (linked to an account) are named after
their account first, so a session naming them is linked to them, not to a copy. A blank text links to nobody.
Series keep no instructor of their own (their sessions do), so there is nothing else to move.
Backwards, each session gets its instructor's name back as text, and the records without an account go."""

from django.db import migrations


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def instructors_from_text(apps, schema_editor):
    Instructor = apps.get_model("courses", "Instructor")
    CourseSession = apps.get_model("courses", "CourseSession")
    by_key = {}
    for instructor in Instructor.objects.select_related("user").order_by("pk"):
        if not instructor.name.strip():
            user = instructor.user
            full = f"{user.first_name} {user.last_name}".strip() if user else ""
            instructor.name = full or (user.email if user else "") or f"Professeur {instructor.pk}"
        key = _key(instructor.name)
        if key in by_key:  # two accounts of the same name: the names must differ (unique, case-insensitive)
            instructor.name = f"{instructor.name} ({instructor.pk})"
            key = _key(instructor.name)
        instructor.save(update_fields=["name"])
        by_key[key] = instructor
    for session in CourseSession.objects.order_by("start", "pk").only("pk", "instructor"):
        text = " ".join((session.instructor or "").split())
        if not text:
            continue
        instructor = by_key.get(_key(text))
        if instructor is None:
            instructor = by_key[_key(text)] = Instructor.objects.create(name=text[:150])
        CourseSession.objects.filter(pk=session.pk).update(instructor_person=instructor)


def text_from_instructors(apps, schema_editor):
    CourseSession = apps.get_model("courses", "CourseSession")
    Instructor = apps.get_model("courses", "Instructor")
    for session in CourseSession.objects.select_related("instructor_person").exclude(instructor_person=None):
        CourseSession.objects.filter(pk=session.pk).update(instructor=session.instructor_person.name)
    # The old table cannot hold an instructor without an account: their names live on in the sessions' text.
    CourseSession.objects.update(instructor_person=None)
    Instructor.objects.filter(user=None).delete()


class Migration(migrations.Migration):
    dependencies = [("courses", "0007_instructor_people")]

    operations = [migrations.RunPython(instructors_from_text, text_from_instructors)]
