"""Staff writes on the catalogue: courses, tariffs, testimonials and instructors."""

from decimal import Decimal
from typing import ClassVar

from django.db import transaction
from django.db.models import ProtectedError

from accounts.models import User
from media_library.images import delete_files, rendition_names, store_picture
from media_library.uploads import IMAGE_FORMATS_WEBP, MSG_IMAGE_TYPES_WEBP, check_image
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError

from ..models import Course, Instructor, Level, Tariff, TariffType, Testimonial

MSG_COURSE_HAS_SESSIONS = "Impossible de supprimer ce cours : des sessions y sont rattachées."
MSG_TARIFF_HAS_ORDERS = "Impossible de supprimer ce tarif : des commandes y sont rattachées."
MSG_INSTRUCTOR_EXISTS = "Cet utilisateur est déjà professeur."
MSG_INSTRUCTOR_NAME_EXISTS = "Un professeur porte déjà ce nom."
MSG_INSTRUCTOR_HAS_SESSIONS = (
    "Impossible de supprimer ce professeur : des séances lui sont attribuées. Rendez-le plutôt inactif."
)
MSG_TARIFF_PRICE_NEGATIVE = "Le prix doit être positif."
MSG_TARIFF_PASS_NEEDS_VALIDITY = "Une carte ou un abonnement doit être valable au moins un mois."
MSG_TARIFF_UNLIMITED_HAS_NO_CREDITS = "Un abonnement illimité ne compte pas de crédits de cours."
MSG_TARIFF_WEEKLY_CAP_INVALID = "Le nombre de cours par semaine est un nombre entier de 0 (illimité) à 14."
MSG_TARIFF_FUTURE_CAP_INVALID = "Le nombre de réservations à venir est un nombre entier de 0 (illimité) à 100."
MSG_TARIFF_COMMITMENT_INVALID = (
    "Le nombre de périodes d'engagement est un nombre entier de 0 (la durée de validité) à 120."
)
MSG_TARIFF_COVERED_COURSE_NOT_FOUND = "Un des cours couverts n'existe pas."
MSG_COURSE_CANCELLATION_HOURS_INVALID = (
    "Le délai d'annulation gratuite est un nombre entier d'heures de 0 à 168 (une semaine)."
)
MSG_COURSE_OPENS_DAYS_INVALID = "L'ouverture des réservations est un nombre entier de jours de 0 à 365, ou vide."
MSG_COURSE_OPENS_TIME_INVALID = "L'heure d'ouverture des réservations s'écrit HH:MM (par exemple 00:00), ou vide."
MSG_COURSE_NOT_FOUND = "Le cours demandé est introuvable."
MSG_TARIFF_NOT_FOUND = "Tarif introuvable."
MSG_TESTIMONIAL_NOT_FOUND = "Témoignage introuvable."
MSG_INSTRUCTOR_NOT_FOUND = "Professeur introuvable."
MSG_USER_NOT_FOUND = "Utilisateur introuvable."


# A multipart body that carries no field at all (not even an unknown one): nothing a form sends.
MSG_FORM_EMPTY = "Le formulaire envoyé ne contient aucun champ."


class CatalogueError(ApplicationError):
    """A refused catalogue write (courses, tariffs, testimonials, instructors)."""

    default_code = "catalogue_invalid"
    messages: ClassVar[dict[str, str]] = {
        "course_has_sessions": MSG_COURSE_HAS_SESSIONS,
        "tariff_has_orders": MSG_TARIFF_HAS_ORDERS,
        "instructor_exists": MSG_INSTRUCTOR_EXISTS,
        "instructor_name_exists": MSG_INSTRUCTOR_NAME_EXISTS,
        "instructor_has_sessions": MSG_INSTRUCTOR_HAS_SESSIONS,
        "tariff_price_negative": MSG_TARIFF_PRICE_NEGATIVE,
        "tariff_pass_needs_validity": MSG_TARIFF_PASS_NEEDS_VALIDITY,
        "tariff_unlimited_has_no_credits": MSG_TARIFF_UNLIMITED_HAS_NO_CREDITS,
        "course_not_found": MSG_COURSE_NOT_FOUND,
        "tariff_not_found": MSG_TARIFF_NOT_FOUND,
        "covered_course_not_found": MSG_TARIFF_COVERED_COURSE_NOT_FOUND,
        "testimonial_not_found": MSG_TESTIMONIAL_NOT_FOUND,
        "instructor_not_found": MSG_INSTRUCTOR_NOT_FOUND,
        "user_not_found": MSG_USER_NOT_FOUND,
        "form_empty": MSG_FORM_EMPTY,
    }
    statuses: ClassVar[dict[str, int]] = {
        "course_has_sessions": CONFLICT,
        "tariff_has_orders": CONFLICT,
        "instructor_exists": CONFLICT,
        "instructor_name_exists": CONFLICT,
        "instructor_has_sessions": CONFLICT,
        "course_not_found": NOT_FOUND,
        "tariff_not_found": NOT_FOUND,
        "testimonial_not_found": NOT_FOUND,
        "instructor_not_found": NOT_FOUND,
        "user_not_found": NOT_FOUND,
    }


def _save(instance, **fields):
    for name, value in fields.items():
        setattr(instance, name, value)
    # A course's video URL is checked at the API boundary by the pattern its schema states (WEB_URL_PATTERN in
    # courses.serializers.fields), not by Django's stricter URLValidator, which the schema could not state.
    instance.full_clean(exclude=["video_url"])
    instance.save()
    return instance


# --- Courses ---------------------------------------------------------------------------------------------------


@transaction.atomic
def course_create(
    *,
    title: str,
    description: str,
    level: str = Level.BEGINNER,
    duration: int = 60,
    video_url: str = "",
    position: int = 0,
    **windows,
) -> Course:
    """`windows`: free_cancellation_hours, booking_opens_days_before, booking_opens_time (docs/decisions.md 44-45);
    absent, the studio's settings."""
    return _save(
        Course(),
        title=title,
        description=description,
        level=level,
        duration=duration,
        video_url=video_url,
        position=position,
        **windows,
    )


@transaction.atomic
def course_update(*, course: Course, **fields) -> Course:
    return _save(course, **fields)


@transaction.atomic
def course_delete(*, course: Course) -> None:
    try:
        course.delete()
    except ProtectedError as exc:
        raise CatalogueError.of("course_has_sessions") from exc


def course_set_picture(*, course: Course, image, alt_text: str | None = None) -> Course:
    """Check an uploaded picture by its content and size (media_library.uploads), store it with its WebP/JPEG
    renditions (media_library.images) and attach it to the course; the replaced files go once the change commits.

    Raises media_library.uploads.UploadRejected (a ValidationError with the French message) for a refused file."""
    stored = store_picture(
        check_image(image, formats=IMAGE_FORMATS_WEBP, type_message=MSG_IMAGE_TYPES_WEBP), folder="courses"
    )
    replaced = [course.image.name, *rendition_names(course.image_renditions)] if course.image else []
    try:
        with transaction.atomic():
            course.image = stored.name
            course.image_width, course.image_height = stored.width, stored.height
            course.image_renditions = stored.renditions
            if alt_text is not None:
                course.image_alt = alt_text.strip()
            course.save()
            transaction.on_commit(lambda: delete_files(replaced))
    except Exception:
        delete_files(stored.names)
        raise
    return course


# --- Tariffs ---------------------------------------------------------------------------------------------------


@transaction.atomic
def tariff_create(
    *, title: str, price: Decimal, type: str = TariffType.COURSE, course: Course | None = None, **fields
) -> Tariff:
    if price < 0:
        raise CatalogueError.of("tariff_price_negative", field="price")
    covered_courses = fields.pop("covered_courses", None)
    tariff = Tariff(title=title, price=price, type=type, course=course, **fields)
    _check_pass_rules(tariff)
    _save(tariff)
    if covered_courses is not None:
        tariff.covered_courses.set(covered_courses)
    return tariff


@transaction.atomic
def tariff_update(*, tariff: Tariff, **fields) -> Tariff:
    if "price" in fields and fields["price"] < 0:
        raise CatalogueError.of("tariff_price_negative", field="price")
    covered_courses = fields.pop("covered_courses", None)
    for name, value in fields.items():
        setattr(tariff, name, value)
    _check_pass_rules(tariff, status=CONFLICT)  # the change conflicts with what the tariff already grants
    _save(tariff)
    if covered_courses is not None:
        tariff.covered_courses.set(covered_courses)
    return tariff


def tariff_fields_resolved(fields: dict) -> dict:
    """A tariff payload's course references turned into courses: `course_id` (its linked course) and
    `covered_course_ids` (the courses its passes book), each unknown id refused naming its field."""
    if "course_id" in fields:
        course_id = fields.pop("course_id")
        fields["course"] = None if course_id is None else course_get_or_404(course_id=course_id, field="course_id")
    if "covered_course_ids" in fields:
        fields["covered_courses"] = courses_of_ids(
            course_ids=fields.pop("covered_course_ids"), field="covered_course_ids"
        )
    return fields


def courses_of_ids(*, course_ids: list[int], field: str) -> list[Course]:
    """The courses a tariff covers, in one query; an unknown id is refused (404) naming the field."""
    found = list(Course.objects.filter(pk__in=set(course_ids)))
    if len(found) != len(set(course_ids)):
        raise CatalogueError.of("covered_course_not_found", field=field)
    return found


def _check_pass_rules(tariff: Tariff, *, status: int | None = None) -> None:
    """What a tariff grants holds together (the table's check constraints): credits or an unlimited pass last a
    month or more; an unlimited pass counts no credits."""
    if tariff.pass_unlimited and tariff.pass_credits > 0:
        raise CatalogueError.of("tariff_unlimited_has_no_credits", field="pass_credits", status=status)
    if (tariff.pass_credits > 0 or tariff.pass_unlimited) and tariff.pass_validity_months < 1:
        raise CatalogueError.of("tariff_pass_needs_validity", field="pass_validity_months", status=status)


@transaction.atomic
def tariff_delete(*, tariff: Tariff) -> None:
    try:
        tariff.delete()
    except ProtectedError as exc:
        raise CatalogueError.of("tariff_has_orders") from exc


# --- Testimonials (docs/decisions.md 19: add and edit too) -----------------------------------------------------


@transaction.atomic
def testimonial_create(*, name: str, message: str) -> Testimonial:
    return _save(Testimonial(), name=name, message=message)


@transaction.atomic
def testimonial_update(*, testimonial: Testimonial, **fields) -> Testimonial:
    return _save(testimonial, **fields)


@transaction.atomic
def testimonial_delete(*, testimonial: Testimonial) -> None:
    testimonial.delete()


# --- Instructors -----------------------------------------------------------------------------------------------


def _instructor_check(instructor: Instructor) -> None:
    """One instructor per name (trimmed, any case) and per account; the table's constraint backs the first."""
    others = Instructor.objects.select_for_update().exclude(pk=instructor.pk)
    if others.filter(name__iexact=instructor.name).exists():
        raise CatalogueError.of("instructor_name_exists", field="name")
    if instructor.user_id is not None and others.filter(user_id=instructor.user_id).exists():
        raise CatalogueError.of("instructor_exists", field="user_id")


@transaction.atomic
def instructor_create(
    *, name: str, user: User | None = None, active: bool = True, bio: str = "", specialties: str = ""
) -> Instructor:
    instructor = Instructor(
        name=" ".join(name.split()), user=user, active=active, bio=bio.strip(), specialties=specialties.strip()
    )
    _instructor_check(instructor)
    return _save(instructor)


@transaction.atomic
def instructor_update(*, instructor: Instructor, **fields) -> Instructor:
    """Change the given fields; `user=None` unlinks the account (the person keeps their classes)."""
    if "name" in fields:
        fields["name"] = " ".join(fields["name"].split())
    for name, value in fields.items():
        setattr(instructor, name, value.strip() if name in ("bio", "specialties") else value)
    _instructor_check(instructor)
    return _save(instructor)


@transaction.atomic
def instructor_delete(*, instructor: Instructor) -> None:
    """An instructor who was given classes stays (their classes name them): deactivate them instead."""
    try:
        instructor.delete()
    except ProtectedError as exc:
        raise CatalogueError.of("instructor_has_sessions") from exc


# --- Lookups for the API: an unknown id is a 404 with the catalogue's French message -----------------------------


def _get(queryset, pk: int, code: str, field: str | None = None):
    found = queryset.filter(pk=pk).first()
    if found is None:
        raise CatalogueError.of(code, field=field)
    return found


def course_get_or_404(*, course_id: int, field: str | None = None) -> Course:
    return _get(Course.objects.all(), course_id, "course_not_found", field)


def tariff_get_or_404(*, tariff_id: int) -> Tariff:
    return _get(Tariff.objects.all(), tariff_id, "tariff_not_found")


def testimonial_get_or_404(*, testimonial_id: int) -> Testimonial:
    return _get(Testimonial.objects.all(), testimonial_id, "testimonial_not_found")


def instructor_get_or_404(*, instructor_id: int) -> Instructor:
    return _get(Instructor.objects.select_related("user"), instructor_id, "instructor_not_found")


def user_get_or_404(*, user_id: int) -> User:
    return _get(User.objects.all(), user_id, "user_not_found", "user_id")
