"""The stats API's answer, typed field by field so the OpenAPI schema describes it."""

from rest_framework import serializers

from courses.models import SessionStatus
from payments.subscriptions.models import ChargeStatus
from studio.fields import DateTimeOutputField

from .selectors.classes import FILL_BANDS


def _money(**kwargs):
    return serializers.DecimalField(max_digits=14, decimal_places=2, **kwargs)


class StatsCount(serializers.Serializer):
    current = serializers.IntegerField(min_value=0)
    previous = serializers.IntegerField(min_value=0)


class StatsAmount(serializers.Serializer):
    current = _money()
    previous = _money()
    current_count = serializers.IntegerField(min_value=0)
    previous_count = serializers.IntegerField(min_value=0)


class StatsAverage(serializers.Serializer):
    current = _money(allow_null=True, help_text="Vide quand aucun cours n'a eu lieu.")
    previous = _money(allow_null=True)


class StatsRate(serializers.Serializer):
    current = serializers.FloatField(min_value=0, allow_null=True, help_text="De 0 à 1 ; vide sans dénominateur.")
    previous = serializers.FloatField(min_value=0, allow_null=True)


class StatsMoneyBucket(serializers.Serializer):
    start = serializers.DateField(help_text="Le lundi de la semaine ou le 1er du mois.")
    money_in = _money()
    refunds = _money()


class StatsMoney(serializers.Serializer):
    bucket = serializers.ChoiceField(choices=["week", "month"])
    money_in = StatsAmount(help_text="Paiements encaissés et échéances d'abonnement prélevées.")
    card_payments = StatsAmount()
    subscription_periods = StatsAmount()
    refunds = StatsAmount()
    cards_sold = StatsAmount()
    subscriptions_sold = StatsAmount()
    unpaid = StatsAmount(help_text="Échéances d'abonnement dues et impayées.")
    classes_held = StatsCount()
    revenue_per_class = StatsAverage()
    series = StatsMoneyBucket(many=True)


class StatsBand(serializers.Serializer):
    band = serializers.ChoiceField(choices=list(FILL_BANDS))
    sessions = serializers.IntegerField(min_value=0)


class StatsCourse(serializers.Serializer):
    course_id = serializers.IntegerField()
    title = serializers.CharField()
    sessions = serializers.IntegerField(min_value=0)
    places = serializers.IntegerField(min_value=0)
    seats_taken = serializers.IntegerField(min_value=0)
    fill_rate = serializers.FloatField(min_value=0, allow_null=True)


class StatsSlot(serializers.Serializer):
    weekday = serializers.IntegerField(min_value=1, max_value=7, help_text="1 = lundi … 7 = dimanche.")
    hour = serializers.IntegerField(min_value=0, max_value=23)
    sessions = serializers.IntegerField(min_value=0)
    places = serializers.IntegerField(min_value=0)
    seats_taken = serializers.IntegerField(min_value=0)
    fill_rate = serializers.FloatField(min_value=0, allow_null=True)


class StatsClasses(serializers.Serializer):
    held = StatsCount()
    cancelled = StatsCount()
    full = StatsCount()
    places = StatsCount()
    seats_taken = StatsCount()
    fill_rate = StatsRate()
    fill_bands = StatsBand(many=True)
    courses = StatsCourse(many=True)
    timetable = StatsSlot(many=True)
    waitlist_entries = StatsCount()
    waitlist_members = StatsCount()
    waitlist_sessions = StatsCount()
    waitlist_booked = StatsCount()
    present = StatsCount()
    no_shows = StatsCount()
    attendance_rate = StatsRate()


class StatsMembers(serializers.Serializer):
    active = StatsCount()
    new = StatsCount()
    stopped_coming = StatsCount()
    cards_running_out = serializers.IntegerField(min_value=0)
    subscriptions_running_out = serializers.IntegerField(min_value=0)


class StatsUpcomingClass(serializers.Serializer):
    id = serializers.IntegerField()
    start = DateTimeOutputField()
    course = serializers.CharField()
    status = serializers.ChoiceField(choices=SessionStatus.choices)
    places = serializers.IntegerField(min_value=0)
    seats_taken = serializers.IntegerField(min_value=0)
    waiting = serializers.IntegerField(min_value=0)


class StatsUnpaid(serializers.Serializer):
    subscription_id = serializers.IntegerField()
    member = serializers.CharField()
    email = serializers.CharField()
    title = serializers.CharField()
    period = serializers.IntegerField(min_value=1)
    due_on = serializers.DateField()
    amount = _money()
    status = serializers.ChoiceField(choices=ChargeStatus.choices)


class StatsUpcoming(serializers.Serializer):
    classes = StatsUpcomingClass(many=True)
    unpaid_count = serializers.IntegerField(min_value=0)
    unpaid_amount = _money()
    unpaid = StatsUnpaid(many=True, help_text="Les 50 plus anciennes.")


# Named as the query string names them (`from` is a Python keyword).
StatsDays = type(
    "StatsDays",
    (serializers.Serializer,),
    {"from": serializers.DateField(), "to": serializers.DateField(), "days": serializers.IntegerField(min_value=1)},
)


class StatsPromoCode(serializers.Serializer):
    code = serializers.CharField()
    uses = serializers.IntegerField(min_value=0, help_text="Commandes payées avec ce code dans la période.")
    revenue = _money(help_text="Montant facturé, remise déduite.")
    discount = _money(help_text="Total des remises accordées.")


class StatsOutput(serializers.Serializer):
    period = StatsDays()
    previous = StatsDays()
    money = StatsMoney()
    classes = StatsClasses()
    members = StatsMembers()
    upcoming = StatsUpcoming()
    promo_codes = StatsPromoCode(many=True)
