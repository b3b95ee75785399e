"""Subscription rules on a pass (docs/decisions.md 24-26): extend its validity through the last paid period, block new
bookings while a period is unpaid for 7 days, cap the classes per week. Payments calls the writes; the
booking-with-pass path calls `pass_check_rules` under the pass's row lock (bookings never imports payments)."""

from datetime import date as date_type
from datetime import datetime, time, timedelta

from django.db import transaction
from django.utils import timezone

from courses.models import CourseSession, Tariff
from studio.errors import CONFLICT

from ..models import Pass, PassAdjustment, PassAdjustmentAction, Reservation, ReservationStatus
from ..pass_rules import PassRule
from .common import ReservationError
from .locking import lock_member_tariff, lock_pass

MSG_PASS_UNPAID = (
    "Votre abonnement a une échéance impayée depuis plus de 7 jours : réglez-la depuis votre profil "
    "(« Payer maintenant ») pour réserver à nouveau. Vos réservations déjà faites sont maintenues."
)
MSG_PASS_FROZEN = (
    "Votre abonnement est gelé du {start} au {end} : aucun cours de cette période ne peut être réservé avec lui."
)
MSG_PASS_WEEKLY_CAP = (
    "Votre abonnement permet {cap} cours par semaine (du lundi au dimanche) : vous avez déjà réservé cette semaine-là."
)

MSG_PASS_FUTURE_CAP = (
    "Votre formule « {title} » permet {cap} réservation(s) à venir à la fois : vous les avez déjà. Réservez à nouveau "
    "une fois un cours passé ou annulé."
)
MSG_PASS_COURSE_NOT_COVERED = "Votre formule « {title} » ne permet pas de réserver le cours « {course} »."


class PassRuleError(ReservationError):
    default_code = "pass_rule"
    messages = {
        "pass_unpaid": MSG_PASS_UNPAID,
        "pass_weekly_cap": MSG_PASS_WEEKLY_CAP,
        "pass_frozen": MSG_PASS_FROZEN,
        "pass_future_cap": MSG_PASS_FUTURE_CAP,
        "pass_course_not_covered": MSG_PASS_COURSE_NOT_COVERED,
    }
    statuses = {
        "pass_unpaid": CONFLICT,
        "pass_weekly_cap": CONFLICT,
        "pass_frozen": CONFLICT,
        "pass_future_cap": CONFLICT,
        "pass_course_not_covered": CONFLICT,
    }


def _week_bounds(day: date_type):
    """Monday 00:00 to the next Monday 00:00, Europe/Paris (the current time zone), as aware datetimes."""
    monday = day - timedelta(days=day.weekday())
    tz = timezone.get_current_timezone()
    start = timezone.make_aware(datetime.combine(monday, time.min), tz)
    end = timezone.make_aware(datetime.combine(monday + timedelta(days=7), time.min), tz)
    return start, end


def pass_check_rules(*, pass_obj: Pass, session: CourseSession, today: date_type) -> None:
    """Under the pass's row lock (taken by the caller): refuse a booking when the subscription is unpaid for 7 days,
    the session's week (Monday–Sunday, Paris) already holds `weekly_cap` confirmed bookings with this pass, or the
    member already holds the tariff's cap of future bookings with its passes, or the tariff covers other courses."""
    _check_course_covered(pass_obj=pass_obj, session=session)
    _check_future_cap(pass_obj=pass_obj)
    rule = PassRule.objects.filter(pass_ref=pass_obj).first()
    if rule is None:
        return
    if rule.blocked_from is not None and today >= rule.blocked_from:
        raise PassRuleError.of("pass_unpaid", field="pass_id")
    session_day = timezone.localtime(session.start).date()
    if rule.frozen_from and rule.frozen_until and rule.frozen_from <= session_day <= rule.frozen_until:
        raise PassRuleError.of(
            "pass_frozen", start=rule.frozen_from.strftime("%d/%m/%Y"), end=rule.frozen_until.strftime("%d/%m/%Y")
        )
    if rule.weekly_cap:
        start, end = _week_bounds(session_day)
        booked = pass_obj.reservations.filter(
            status=ReservationStatus.CONFIRMED, session__start__gte=start, session__start__lt=end
        ).count()
        if booked >= rule.weekly_cap:
            raise PassRuleError.of("pass_weekly_cap", cap=rule.weekly_cap)


def _check_course_covered(*, pass_obj: Pass, session: CourseSession) -> None:
    """docs/decisions.md 51: a tariff may name the courses its passes book (read live, so a change holds for the
    passes already sold); a tariff naming none covers every course."""
    if not pass_obj.tariff_id:
        return
    covered = set(
        Tariff.covered_courses.through.objects.filter(tariff_id=pass_obj.tariff_id).values_list("course_id", flat=True)
    )
    if covered and session.course_id not in covered:
        tariff = Tariff.objects.filter(pk=pass_obj.tariff_id).values_list("title", flat=True).first()
        raise PassRuleError.of("pass_course_not_covered", title=tariff, course=session.course.title)


def _check_future_cap(*, pass_obj: Pass) -> None:
    """docs/decisions.md 45: a tariff may cap the future bookings a member holds at once with its passes (read live
    from the tariff, so a change holds for passes already sold; 0 = no cap)."""
    if not pass_obj.tariff_id:
        return
    tariff = Tariff.objects.filter(pk=pass_obj.tariff_id).values("max_future_bookings", "title").first()
    cap = tariff["max_future_bookings"] if tariff else 0
    if not cap:
        return
    lock_member_tariff(member_id=pass_obj.member_id, tariff_id=pass_obj.tariff_id)
    held = Reservation.objects.filter(
        user_id=pass_obj.member_id,
        paid_with_pass__tariff_id=pass_obj.tariff_id,
        status=ReservationStatus.CONFIRMED,
        session__start__gt=timezone.now(),
    ).count()
    if held >= cap:
        raise PassRuleError.of("pass_future_cap", cap=cap, title=tariff["title"])


def pass_rules_from_tariff(*, pass_obj: Pass, tariff) -> None:
    """A pass just granted (in the caller's transaction, so no one else sees it yet) takes its tariff's booking rules:
    the weekly cap (docs/decisions.md 26). Every grant calls it: an order's capture and a staff grant from a tariff."""
    if tariff is not None and tariff.pass_weekly_cap:
        PassRule.objects.create(pass_ref=pass_obj, weekly_cap=tariff.pass_weekly_cap)


@transaction.atomic
def pass_rule_set(
    *,
    pass_id: int,
    weekly_cap: int | None = None,
    blocked_from: date_type | None | bool = False,
    frozen: tuple[date_type, date_type] | None = None,
):
    """Set a pass's weekly cap, the day it stops booking (`blocked_from=None` lifts the block; leave it out to keep
    it) and/or its freeze (first and last day). Locks the pass first, like a booking does."""
    pass_obj = lock_pass(pass_id)
    rule, _ = PassRule.objects.get_or_create(pass_ref=pass_obj)
    fields = []
    if weekly_cap is not None:
        rule.weekly_cap = weekly_cap
        fields.append("weekly_cap")
    if blocked_from is not False:
        rule.blocked_from = blocked_from
        fields.append("blocked_from")
    if frozen is not None:
        rule.frozen_from, rule.frozen_until = frozen
        fields += ["frozen_from", "frozen_until"]
    if fields:
        rule.save(update_fields=[*fields, "updated_at"])
    return rule


@transaction.atomic
def pass_validity_set(*, pass_id: int, expires_on: date_type, reason: str, by=None) -> Pass:
    """Move a subscription pass's end (a period paid, a freeze): locked, logged in its ledger; never before its
    start."""
    pass_obj = lock_pass(pass_id)
    expires_on = max(expires_on, pass_obj.starts_on)
    if expires_on != pass_obj.expires_on:
        before = pass_obj.expires_on
        pass_obj.expires_on = expires_on
        pass_obj.save(update_fields=["expires_on"])
        PassAdjustment.objects.create(
            pass_ref=pass_obj,
            action=PassAdjustmentAction.EXTEND,
            by=by,
            expires_on_before=before,
            expires_on_after=expires_on,
            reason=reason[:500],
        )
    return pass_obj
