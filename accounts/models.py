from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class Role(models.TextChoices):
    USER = "user", "Membre"
    SUPERVISOR = "supervisor", "Superviseur"
    ADMIN = "admin", "Administrateur"
    # A teacher's account (docs/decisions.md 11). Not staff: it reaches only its own classes and their attendance lists
    # (through the instructor record linked to it, courses.Instructor.user), never the back office.
    INSTRUCTOR = "instructor", "Professeur"


STAFF_ROLES = (Role.ADMIN, Role.SUPERVISOR)


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("L'email est obligatoire.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("role", Role.USER)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.setdefault("role", Role.ADMIN)
        extra.setdefault("email_confirmed_at", timezone.now())
        return self._create_user(email, password, **extra)


class User(AbstractBaseUser):
    """A member or a staff account. The e-mail is the login."""

    email = models.EmailField("email", unique=True)
    first_name = models.CharField("prénom", max_length=150)
    last_name = models.CharField("nom", max_length=150)
    phone = models.CharField("téléphone", max_length=10, blank=True)
    address = models.CharField("adresse", max_length=255, blank=True)
    postal_code = models.CharField("code postal", max_length=5, blank=True)
    city = models.CharField("ville", max_length=120, blank=True)
    country = models.CharField("pays", max_length=120, default="France")
    avatar = models.ImageField("avatar", upload_to="avatars/", blank=True)
    # A company to invoice instead of the member (docs/decisions.md 54); accounts/company.py checks its numbers.
    company_name = models.CharField("société", max_length=200, blank=True)
    company_siren = models.CharField("SIREN", max_length=9, blank=True)
    company_vat_number = models.CharField("n° de TVA intracommunautaire", max_length=20, blank=True)
    company_address = models.CharField("adresse de facturation", max_length=300, blank=True)
    role = models.CharField("rôle", max_length=20, choices=Role.choices, default=Role.USER)
    email_confirmed_at = models.DateTimeField("email confirmé le", null=True, blank=True)
    # A new address waiting for its owner to follow the link sent to it (docs/decisions.md 32); `email` changes then.
    pending_email = models.EmailField("nouvel email en attente", blank=True, default="")
    is_active = models.BooleanField("actif", default=True)
    date_joined = models.DateTimeField("inscrit le", default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["first_name", "last_name"]

    class Meta:
        verbose_name = "utilisateur"
        verbose_name_plural = "utilisateurs"
        ordering = ["last_name", "first_name", "id"]
        # The staff's users list reads its first page in this order from the index (accounts/migrations/0005); declared
        # here so that a table SQLite rebuilds for a new column keeps it.
        indexes = [models.Index(fields=["last_name", "first_name", "id"], name="user_list_name_idx")]
        constraints = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
            models.CheckConstraint(condition=models.Q(role__in=Role.values), name="accounts_user_role_valid"),
        ]

    def __str__(self):
        return f"{self.get_full_name()} <{self.email}>"

    def get_full_name(self):
        return f"{self.first_name} {self.last_name}".strip()

    def get_short_name(self):
        return self.first_name

    @property
    def name(self):
        """The API's clients name the family name `name` too (the registration payload and the profile)."""
        return self.last_name

    @property
    def email_confirmed(self):
        return self.email_confirmed_at is not None

    @property
    def is_studio_staff(self):
        """Admins and supervisors reach the whole back office (docs/decisions.md 11)."""
        return self.role in STAFF_ROLES

    @property
    def is_instructor(self):
        """A teacher's account (docs/decisions.md 11): its own classes and attendance lists, nothing else of the
        back office."""
        return self.role == Role.INSTRUCTOR

    @property
    def is_admin(self):
        return self.role == Role.ADMIN

    # The Django admin is for admins (operators) only.
    @property
    def is_staff(self):
        return self.is_active and self.role == Role.ADMIN

    @property
    def is_superuser(self):
        return self.is_staff

    def has_perm(self, perm, obj=None):
        return self.is_staff

    def has_perms(self, perm_list, obj=None):
        return self.is_staff

    def has_module_perms(self, app_label):
        return self.is_staff


class TokenPurpose(models.TextChoices):
    CONFIRM_EMAIL = "confirm_email", "Confirmation de l'email"
    RESET_PASSWORD = "reset_password", "Réinitialisation du mot de passe"
    CHANGE_EMAIL = "change_email", "Changement d'email"


class AccountToken(models.Model):
    """A single-use link sent by e-mail. Only the SHA-256 of the token is stored (a database leak reveals no link)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="account_tokens")
    purpose = models.CharField("usage", max_length=20, choices=TokenPurpose.choices)
    token_hash = models.CharField("empreinte", max_length=64, unique=True)
    created_at = models.DateTimeField("créé le", default=timezone.now)
    expires_at = models.DateTimeField("expire le")
    used_at = models.DateTimeField("utilisé le", null=True, blank=True)

    class Meta:
        verbose_name = "lien à usage unique"
        verbose_name_plural = "liens à usage unique"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "purpose"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(purpose__in=TokenPurpose.values), name="accounts_token_purpose_valid"
            ),
        ]

    def __str__(self):
        return f"{self.get_purpose_display()} – {self.user.email}"

    @property
    def is_usable(self):
        return self.used_at is None and self.expires_at > timezone.now()


class StaffAction(models.Model):
    """What a staff member did on a client's behalf (docs/decisions.md 50): created the account, booked or cancelled
    a class, sold at the desk. The client's history shows these lines with the staff member's name; the name is kept
    as written when the staff account is later deleted. The summary names the class or the sale, never health data."""

    member = models.ForeignKey(User, on_delete=models.CASCADE, related_name="staff_actions_received")
    staff = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    staff_name = models.CharField("par", max_length=300)
    action = models.CharField("action", max_length=30)
    summary = models.CharField("détail", max_length=300)
    created_at = models.DateTimeField("le", default=timezone.now, db_index=True)

    class Meta:
        verbose_name = "action de l'accueil"
        verbose_name_plural = "actions de l'accueil"
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["member", "-created_at"])]

    def __str__(self):
        return f"{self.staff_name} – {self.summary}"
