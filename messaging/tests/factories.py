import datetime

import factory
from django.utils import timezone

from messaging.models import ContactMessage, ContactReply, RentalEventType, ReplyAuthorRole, RoomRentalRequest


class ContactMessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContactMessage

    user = None
    name = factory.Faker("name", locale="fr_FR")
    email = factory.Sequence(lambda n: f"visiteur{n}@example.fr")
    subject = factory.Sequence(lambda n: f"Question n° {n}")
    text = "Bonjour, je voudrais des informations sur les cours du soir."
    staff_unread = True
    member_unread = False

    @classmethod
    def for_member(cls, user, **kwargs):
        return cls(user=user, **{"name": user.get_full_name(), "email": user.email, **kwargs})


class ContactReplyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ContactReply

    message = factory.SubFactory(ContactMessageFactory)
    author_role = ReplyAuthorRole.STAFF
    text = "Bonjour, avec plaisir : les cours du soir ont lieu à 19 h."


class RoomRentalRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RoomRentalRequest

    name = factory.Faker("name", locale="fr_FR")
    email = factory.Sequence(lambda n: f"location{n}@example.fr")
    phone = "0612345678"
    event_type = RentalEventType.BIRTHDAY
    date = factory.LazyFunction(lambda: timezone.localdate() + datetime.timedelta(days=14))
    time = datetime.time(18, 30)
