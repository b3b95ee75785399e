from datetime import datetime, time, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from media_library.selectors import picture_of


class Level(models.TextChoices):
    BEGINNER = "Débutant", "Débutant"
    INTERMEDIATE = "Intermédiaire", "Intermédiaire"
    ADVANCED = "Avancé", "Avancé"
    ALL_LEVELS = "Tous niveaux", "Tous niveaux"


# A free-cancellation window beyond a week, or a booking opening beyond a year, is a typing error.
MAX_FREE_CANCELLATION_HOURS = 168
MAX_BOOKING_OPENS_DAYS = 365


def default_free_cancellation_hours() -> int:
    return settings.CANCELLATION_WINDOW_HOURS


class Course(models.Model):
    title = models.CharField("titre", max_length=150)
    description = models.TextField("description")
    duration = models.PositiveSmallIntegerField("durée (minutes)", default=60)
    video_url = models.URLField("vidéo", blank=True)
    level = models.CharField("niveau", max_length=20, choices=Level.choices, default=Level.BEGINNER)
    position = models.PositiveSmallIntegerField("ordre", default=0)
    # The course's picture, stored by media_library.images (re-encoded, with WebP/JPEG renditions) through
    # courses.services.catalogue.course_set_picture; never written from a form field directly.
    image = models.FileField("photo du cours", max_length=255, upload_to="courses/", blank=True)
    image_width = models.PositiveIntegerField(default=0, editable=False)
    image_height = models.PositiveIntegerField(default=0, editable=False)
    image_renditions = models.JSONField(default=dict, blank=True, editable=False)
    image_alt = models.CharField(
        "texte alternatif de la photo",
        max_length=255,
        blank=True,
        help_text="Ce que montre la photo ; à défaut « Illustration du cours <titre> ».",
    )
    # docs/decisions.md 44-45: the windows of the course's sessions. Cancelling later than the free-cancellation
    # window is a late cancellation; booking opens `booking_opens_days_before` days before a session at
    # `booking_opens_time` (Paris), each blank for the studio's settings.
    free_cancellation_hours = models.PositiveSmallIntegerField(
        "annulation gratuite (heures avant le cours)",
        default=default_free_cancellation_hours,
        validators=[MaxValueValidator(MAX_FREE_CANCELLATION_HOURS)],
    )
    booking_opens_days_before = models.PositiveSmallIntegerField(
        "ouverture des réservations (jours avant)",
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_BOOKING_OPENS_DAYS)],
        help_text="Vide : le réglage du studio.",
    )
    booking_opens_time = models.TimeField(
        "ouverture des réservations (heure)", null=True, blank=True, help_text="Vide : le réglage du studio."
    )

    class Meta:
        verbose_name = "cours"
        verbose_name_plural = "cours"
        ordering = ["position", "title", "id"]

    def __str__(self):
        return self.title

    @property
    def picture(self) -> dict | None:
        """The responsive picture dict of media_library.selectors.picture_of, or None (no query)."""
        return picture_of(
            name=self.image.name, width=self.image_width, height=self.image_height, renditions=self.image_renditions
        )

    @property
    def picture_alt(self) -> str:
        return self.image_alt or f"Illustration du cours {self.title}"

    @property
    def duration_display(self):
        hours, minutes = divmod(self.duration, 60)
        if not hours:
            return f"{minutes} min"
        return f"{hours} h {minutes:02d}" if minutes else f"{hours} h"


class SessionStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Programmé"
    CANCELLED = "cancelled", "Annulé"


class ClosurePeriod(models.Model):
    """Days the studio is closed (summer break, holidays of its own): a weekly series creates no class on them
    (docs/decisions.md 51). French public holidays are skipped as well, without being listed here
    (courses/holidays.py)."""

    label = models.CharField("intitulé", max_length=120)
    starts_on = models.DateField("du")
    ends_on = models.DateField("au (inclus)")

    class Meta:
        verbose_name = "fermeture du studio"
        verbose_name_plural = "fermetures du studio"
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="closure_ends_after_start"
            )
        ]

    def __str__(self):
        return f"{self.label} ({self.starts_on:%d/%m/%Y} – {self.ends_on:%d/%m/%Y})"

    @property
    def bounds(self) -> tuple[datetime, datetime]:
        """Its first day's midnight to the midnight after its last day, in Paris: a class starting in between is
        inside it."""
        tz = timezone.get_current_timezone()
        start = timezone.make_aware(datetime.combine(self.starts_on, time.min), tz)
        end = timezone.make_aware(datetime.combine(self.ends_on + timedelta(days=1), time.min), tz)
        return start, end


class SessionSeries(models.Model):
    """A weekly series of sessions created at once (docs/decisions.md 35): what staff asked for, and its sessions
    (`CourseSession.series`), so that one session or "this and the following" can be edited."""

    course = models.ForeignKey("Course", on_delete=models.PROTECT, related_name="series", verbose_name="cours")
    weekdays = models.JSONField("jours (0 = lundi)", default=list)
    starts_on = models.DateField("du")
    ends_on = models.DateField("au (inclus)")
    created_at = models.DateTimeField("créée le", auto_now_add=True)

    class Meta:
        verbose_name = "série hebdomadaire"
        verbose_name_plural = "séries hebdomadaires"
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.course} ({self.starts_on:%d/%m/%Y} – {self.ends_on:%d/%m/%Y})"


# The most places a session can have (`max_attendees` is a PositiveSmallIntegerField), hence the most participants a
# reservation or a waiting-list entry can ask for: the APIs refuse more before any service is reached.
MAX_SESSION_PLACES = 32767


class CourseSession(models.Model):
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="sessions", verbose_name="cours")
    start = models.DateTimeField("début", db_index=True)
    end = models.DateTimeField("fin")
    # A person of the instructors list (PROTECT: deactivate an instructor rather than delete them). Null
    # only for a session whose free-text instructor was blank before the list existed.
    instructor = models.ForeignKey(
        "Instructor",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="sessions",
        verbose_name="professeur",
    )
    level = models.CharField("niveau", max_length=20, choices=Level.choices, blank=True)
    max_attendees = models.PositiveSmallIntegerField("places", default=10, validators=[MinValueValidator(1)])
    details = models.TextField("détails", blank=True)
    price_per_participant = models.DecimalField(
        "prix par participant (€)",
        max_digits=8,
        decimal_places=2,
        default=Decimal(settings.DEFAULT_PRICE_PER_PARTICIPANT),
        validators=[MinValueValidator(Decimal("0.00"))],
    )
    # docs/decisions.md 27: a class the studio cancelled stays in the calendar as "Annulé" and cannot be booked.
    status = models.CharField(
        "statut", max_length=20, choices=SessionStatus.choices, default=SessionStatus.SCHEDULED, db_index=True
    )
    cancelled_at = models.DateTimeField("annulé le", null=True, blank=True)
    cancellation_reason = models.TextField("motif de l'annulation", blank=True)
    series = models.ForeignKey(
        SessionSeries,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sessions",
        verbose_name="série hebdomadaire",
    )

    class Meta:
        verbose_name = "session"
        verbose_name_plural = "sessions"
        ordering = ["start", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gt=models.F("start")), name="session_end_after_start"),
            models.CheckConstraint(condition=models.Q(max_attendees__gte=1), name="session_max_attendees_positive"),
            models.CheckConstraint(condition=models.Q(price_per_participant__gte=0), name="session_price_not_negative"),
        ]

    def __str__(self):
        return f"{self.course.title} – {self.start:%Y-%m-%d %H:%M}"

    @property
    def instructor_name(self) -> str:
        """The instructor's name as pages, e-mails and the feed show it ('' if none); select_related("instructor")."""
        return self.instructor.name if self.instructor_id else ""


# A weekly cap beyond two classes a day is a typing error, not a plan.
MAX_WEEKLY_CAP = 14
# Ten years of monthly periods: beyond, a typing error.
MAX_COMMITMENT_PERIODS = 120


class TariffType(models.TextChoices):
    COURSE = "cours", "Cours"
    SUBSCRIPTION = "abonnement", "Abonnement"
    PACKAGE = "forfait", "Forfait"
    EVENT = "evenement", "Événement"


class Tariff(models.Model):
    """An offer on sale ('Tarif' in the API and the dashboard)."""

    type = models.CharField("type", max_length=20, choices=TariffType.choices, default=TariffType.COURSE)
    title = models.CharField("titre", max_length=150)
    description = models.TextField("description", blank=True)
    price = models.DecimalField(
        "prix (€)", max_digits=8, decimal_places=2, validators=[MinValueValidator(Decimal("0.00"))]
    )
    frequency = models.CharField("fréquence", max_length=60, blank=True, help_text="ex. « par mois »")
    validity = models.CharField("validité", max_length=120, blank=True)
    reduction_percentage = models.DecimalField("réduction (%)", max_digits=5, decimal_places=2, null=True, blank=True)
    conditions = models.TextField("conditions", blank=True)
    details = models.TextField("détails", blank=True)
    course = models.ForeignKey(
        Course, on_delete=models.SET_NULL, null=True, blank=True, related_name="tariffs", verbose_name="cours lié"
    )
    position = models.PositiveSmallIntegerField("ordre", default=0)
    # What buying it grants (bookings.Pass): a class card of `pass_credits` classes, or an unlimited subscription,
    # valid `pass_validity_months` months from the purchase. Neither credits nor unlimited: it grants no pass.
    pass_credits = models.PositiveSmallIntegerField(
        "crédits accordés", default=0, help_text="Nombre de cours de la carte (0 pour un abonnement)."
    )
    pass_validity_months = models.PositiveSmallIntegerField("validité (mois)", default=0)
    pass_unlimited = models.BooleanField("illimité (abonnement)", default=False)
    # A booking rule of the pass it grants (docs/decisions.md 26): at most this many classes a week (Monday–Sunday,
    # Paris), 0 = no cap. Copied onto each pass at its grant (bookings' PassRule), so a change holds for later sales.
    pass_weekly_cap = models.PositiveSmallIntegerField(
        "cours par semaine",
        default=0,
        validators=[MaxValueValidator(MAX_WEEKLY_CAP)],
        help_text="Nombre de cours par semaine (lundi–dimanche) du pass accordé, 0 = illimité.",
    )
    # docs/decisions.md 45: at most this many future bookings held at once with a pass of this tariff, 0 = no cap.
    # Read when booking (not copied onto the pass), so a change holds for the passes already sold.
    max_future_bookings = models.PositiveSmallIntegerField(
        "réservations à venir au plus",
        default=0,
        help_text="Nombre de réservations à venir qu'un membre peut détenir avec ce tarif, 0 = illimité.",
    )
    # docs/decisions.md 49, 56: an "offre découverte", sold once per person (account, e-mail and phone checked by
    # payments when the order is recorded and when it is paid).
    discovery_offer = models.BooleanField(
        "offre découverte",
        default=False,
        help_text="Vendue une seule fois par personne (compte, e-mail et téléphone vérifiés).",
    )
    # docs/decisions.md 51: a subscription priced per period binds the member for this many periods; 0 keeps the
    # periods its validity holds (12 months at "par mois": 12). Read by payments when the subscription starts.
    commitment_periods = models.PositiveSmallIntegerField(
        "périodes d'engagement",
        default=0,
        validators=[MaxValueValidator(MAX_COMMITMENT_PERIODS)],
        help_text="Nombre de périodes (mois, trimestres…) d'engagement d'un abonnement, 0 = la durée de validité.",
    )
    # docs/decisions.md 51: the courses its passes book, read live when booking (so a change holds for the passes
    # already sold); none chosen: every course.
    covered_courses = models.ManyToManyField(
        Course, blank=True, related_name="covering_tariffs", verbose_name="cours couverts"
    )

    class Meta:
        verbose_name = "tarif"
        verbose_name_plural = "tarifs"
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(price__gte=0), name="tariff_price_not_negative"),
            models.CheckConstraint(condition=models.Q(type__in=TariffType.values), name="tariff_type_valid"),
            models.CheckConstraint(
                condition=~models.Q(pass_unlimited=True, pass_credits__gt=0), name="tariff_unlimited_has_no_credits"
            ),
            models.CheckConstraint(
                condition=models.Q(pass_credits=0, pass_unlimited=False) | models.Q(pass_validity_months__gte=1),
                name="tariff_pass_has_a_validity",
            ),
        ]

    def __str__(self):
        return self.title

    @property
    def grants_pass(self) -> bool:
        return (self.pass_unlimited or self.pass_credits > 0) and self.pass_validity_months > 0

    @property
    def is_party(self):
        """The hen/stag-party offer leads to /evjf-evg and cannot be ordered as such."""
        return self.type == TariffType.EVENT


class Testimonial(models.Model):
    name = models.CharField("nom", max_length=120)
    message = models.TextField("message")
    created_at = models.DateTimeField("créé le", auto_now_add=True)

    class Meta:
        verbose_name = "témoignage"
        verbose_name_plural = "témoignages"
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class Instructor(models.Model):
    """A person who teaches: sessions name one from this list, the calendar shows `name`. The optional
    user account lets them sign in and see their own classes and attendance lists (role `instructor`, accounts)."""

    name = models.CharField("nom", max_length=150)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="instructor",
        verbose_name="compte utilisateur",
    )
    active = models.BooleanField(
        "actif", default=True, help_text="Un professeur inactif n'est plus proposé pour les nouvelles séances."
    )
    bio = models.TextField("biographie", blank=True)
    specialties = models.CharField("spécialités", max_length=255, blank=True)

    class Meta:
        verbose_name = "professeur"
        verbose_name_plural = "professeurs"
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(Lower("name"), name="courses_instructor_name_ci_unique")]

    def __str__(self):
        return self.name


# Django registers an app's models from its `models` module: instructors' pay rules live in models_pay.py.
from . import models_pay  # noqa: E402, F401
