import factory
from django.utils import timezone

from accounts.models import Role, User

DEFAULT_PASSWORD = "MotDePasse-Solide-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"membre{n}@example.fr")
    first_name = factory.Faker("first_name", locale="fr_FR")
    last_name = factory.Faker("last_name", locale="fr_FR")
    phone = "0612345678"
    postal_code = "69001"
    city = "Lyon"
    role = Role.USER
    email_confirmed_at = factory.LazyFunction(timezone.now)

    @factory.post_generation
    def password(obj, create, extracted, **kwargs):
        obj.set_password(extracted or DEFAULT_PASSWORD)
        if create:
            obj.save(update_fields=["password"])


class StaffFactory(UserFactory):
    role = Role.ADMIN
    email = factory.Sequence(lambda n: f"admin{n}@example.fr")


class SupervisorFactory(UserFactory):
    role = Role.SUPERVISOR
    email = factory.Sequence(lambda n: f"superviseur{n}@example.fr")
