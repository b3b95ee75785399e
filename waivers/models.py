"""What a member answers and accepts before their first class (docs/decisions.md 48): the studio's health
questionnaire and its two documents, the waiver ("décharge de responsabilité") and the house rules ("règlement
intérieur"), each published as numbered versions that are never edited (a change is a new version, so what a member
accepted stays readable as it was); and each member's one declaration, the answers and the date, nothing more."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Questionnaire(models.Model):
    """One version of the health questionnaire: yes/no questions, each with an optional advice shown on "yes"
    (`questions`: [{"text": …, "advice": …}], frozen with the version)."""

    version = models.PositiveIntegerField("version", unique=True)
    questions = models.JSONField("questions")
    published_at = models.DateTimeField("publié le", default=timezone.now)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = "questionnaire de santé"
        verbose_name_plural = "questionnaires de santé"
        ordering = ["-version"]

    def __str__(self):
        return f"Questionnaire de santé, version {self.version}"


class DocumentKind(models.TextChoices):
    WAIVER = "waiver", "Décharge de responsabilité"
    HOUSE_RULES = "house_rules", "Règlement intérieur"


class StudioDocument(models.Model):
    """One version of the waiver or of the house rules (plain text, paragraphs separated by blank lines)."""

    kind = models.CharField("document", max_length=20, choices=DocumentKind.choices)
    version = models.PositiveIntegerField("version")
    title = models.CharField("titre", max_length=150)
    body = models.TextField("texte")
    published_at = models.DateTimeField("publié le", default=timezone.now)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = "document à accepter"
        verbose_name_plural = "documents à accepter"
        ordering = ["kind", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "version"], name="waivers_document_kind_version_unique"),
            models.CheckConstraint(
                condition=models.Q(kind__in=DocumentKind.values), name="waivers_document_kind_valid"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}, version {self.version}"


class HealthDeclaration(models.Model):
    """A member's answers to one questionnaire version and their acceptance of one waiver and one house-rules
    version, with the date. Health data (special category): one row per member, replaced by the next declaration, read
    only by the member and the admins, deleted with the account."""

    member = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="health_declaration", verbose_name="membre"
    )
    questionnaire = models.ForeignKey(Questionnaire, on_delete=models.PROTECT, null=True, related_name="+")
    waiver = models.ForeignKey(StudioDocument, on_delete=models.PROTECT, null=True, related_name="+")
    house_rules = models.ForeignKey(StudioDocument, on_delete=models.PROTECT, null=True, related_name="+")
    answers = models.JSONField("réponses", default=list)  # booleans, in the questionnaire's order
    flagged = models.BooleanField("à signaler", default=False)  # at least one "yes"
    signed_at = models.DateTimeField("le")

    class Meta:
        verbose_name = "déclaration de santé"
        verbose_name_plural = "déclarations de santé"

    def __str__(self):
        return f"Déclaration du {self.signed_at:%d/%m/%Y}"
