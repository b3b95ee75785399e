"""The free-text instructor of every session becomes an instructor record (courses 0007-0009).

Migrated back to before the change, rows are written as they were (free text), then the migrations run forward."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.database  # SQL migrations: run on SQLite and again on PostgreSQL

BEFORE = ("courses", "0006_session_series")
AFTER = ("courses", "0009_session_instructor_link")


def _migrate(courses_target):
    """Courses at `courses_target`, with the other apps' migrations that depend on its later ones unapplied too (Django
    plans that when migrating back); the models as they were then."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # forwards first: a plan cannot go both ways
    executor = MigrationExecutor(connection)
    executor.migrate([courses_target])
    executor.loader.build_graph()
    return executor.loader.project_state(list(executor.loader.applied_migrations)).apps


@pytest.mark.django_db(transaction=True)
def test_free_text_instructors_become_records_deduplicated_by_trimmed_case_insensitive_name():
    old = _migrate(BEFORE)
    try:
        User = old.get_model("accounts", "User")
        Course = old.get_model("courses", "Course")
        Session = old.get_model("courses", "CourseSession")
        Instructor = old.get_model("courses", "Instructor")
        from datetime import UTC, datetime, timedelta

        teacher = User.objects.create(email="camille@example.fr", first_name="Camille", last_name="Laurent")
        Instructor.objects.create(user=teacher, bio="Fondatrice", specialties="Pole")
        course = Course.objects.create(title="Pole", description="Cours")
        start = datetime(2031, 1, 6, 18, 30, tzinfo=UTC)
        texts = ["Léa Garnier", "  léa   GARNIER ", "Inès Moreau", "camille laurent", "", "LÉA GARNIER"]
        ids = []
        for n, text in enumerate(texts):
            begin = start + timedelta(days=n)
            ids.append(
                Session.objects.create(course=course, start=begin, end=begin + timedelta(hours=1), instructor=text).pk
            )

        new = _migrate(AFTER)
        Instructor = new.get_model("courses", "Instructor")
        Session = new.get_model("courses", "CourseSession")
        names = sorted(Instructor.objects.values_list("name", flat=True))
        assert names == ["Camille Laurent", "Inès Moreau", "Léa Garnier"]  # first spelling met, trimmed
        linked = {s.pk: s.instructor for s in Session.objects.select_related("instructor")}
        lea = Instructor.objects.get(name="Léa Garnier")
        assert [linked[pk] for pk in (ids[0], ids[1], ids[5])] == [lea, lea, lea]
        assert linked[ids[2]].name == "Inès Moreau" and linked[ids[2]].user_id is None and linked[ids[2]].active
        camille = linked[ids[3]]  # the existing record, linked to its account, not a copy
        assert (camille.user_id, camille.bio, camille.name) == (teacher.pk, "Fondatrice", "Camille Laurent")
        assert linked[ids[4]] is None  # a blank text names nobody
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_runs_backwards_giving_sessions_their_names_as_text():
    after = _migrate(AFTER)
    try:
        # The models as they were at AFTER (later migrations add columns that are not there yet).
        Course, CourseSession, Instructor = (
            after.get_model("courses", name) for name in ("Course", "CourseSession", "Instructor")
        )

        lea = Instructor.objects.create(name="Léa Garnier")
        course = Course.objects.create(title="Pole", description="Cours")
        from datetime import UTC, datetime, timedelta

        start = datetime(2031, 1, 6, 18, 30, tzinfo=UTC)
        CourseSession.objects.create(course=course, start=start, end=start + timedelta(hours=1), instructor=lea)
        old = _migrate(BEFORE)
        assert list(old.get_model("courses", "CourseSession").objects.values_list("instructor", flat=True)) == [
            "Léa Garnier"
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
