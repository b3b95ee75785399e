import factory

from messaging.models import ContactMessage, ContactReply, ReplyAuthorRole


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
