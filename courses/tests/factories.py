from datetime import timedelta
from decimal import Decimal

import factory
from django.utils import timezone

from courses.models import Course, CourseSession, Instructor, Level, Tariff, TariffType, Testimonial


class CourseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Course

    title = factory.Sequence(lambda n: f"Pole Dance {n}")
    description = "Un cours pour progresser en pole dance."
    duration = 75
    level = Level.BEGINNER


def instructor_named(name: str) -> Instructor:
    """The instructor of that name (trimmed, any case), created if needed: tests name teachers as people do."""
    name = " ".join(name.split())
    found = Instructor.objects.filter(name__iexact=name).first()
    return found or Instructor.objects.create(name=name)


class CourseSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CourseSession

    course = factory.SubFactory(CourseFactory)
    start = factory.LazyFunction(lambda: (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0))
    end = factory.LazyAttribute(lambda o: o.start + timedelta(minutes=75))
    instructor = "Camille Laurent"
    max_attendees = 10
    price_per_participant = Decimal("25.00")

    @classmethod
    def _adjust_kwargs(cls, **kwargs):
        # `instructor="Léa Garnier"` names a person of the instructors list.
        if isinstance(kwargs.get("instructor"), str):
            kwargs["instructor"] = instructor_named(kwargs["instructor"])
        return kwargs


class TariffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tariff

    title = factory.Sequence(lambda n: f"Offre {n}")
    type = TariffType.COURSE
    price = Decimal("25.00")
    description = "Une offre du studio."


class TestimonialFactory(factory.django.DjangoModelFactory):
    __test__ = False  # a factory, not a test class

    class Meta:
        model = Testimonial

    name = factory.Faker("first_name", locale="fr_FR")
    message = "Un studio formidable."


class InstructorFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Instructor

    name = factory.Sequence(lambda n: f"Professeure {n}")
    user = None
    bio = "Professeure diplômée."
    specialties = "Pole dance"
