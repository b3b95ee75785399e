"""Everything the studio holds about a member, as one JSON document (docs/decisions.md 34, 37): "Télécharger
mes données" on the profile, and staff on the member's request. One query per section, whatever the history's size;
a booking or a review reads its course's title alone (`values`), not a course row per booking.
"""

from collections import defaultdict

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import StaffAction, User
from bookings.models import CourseFeedback, Pass, PassAdjustment, Reservation
from bookings.models_operations import BookingPreferences, WaitlistEntry
from invoices.models import Invoice
from messaging.models import ContactMessage, ContactReply
from notifications.services import push_export
from payments.models import PaymentOrder
from payments.subscriptions.models import (
    ReducedRateDeclaration,
    ReducedRateProof,
    SavedPaymentMethod,
    Subscription,
    SubscriptionCharge,
)
from quotes.models import PartyReservation, RoomRentalRequest
from waivers.selectors import declaration_export

EXPORT_FORMAT = "studio-donnees-personnelles/1"
COOKIES_NOTE = (
    "Votre choix sur les cookies et contenus tiers est gardé dans votre navigateur uniquement : le studio ne le "
    "conserve pas."
)


def _dt(value):
    return timezone.localtime(value).isoformat() if value else None


def _d(value):
    return value.isoformat() if value else None


def _money(value):
    return f"{value:.2f}" if value is not None else None


def _display(model, field: str):
    """What `get_<field>_display()` answers, for rows read with `values()`."""
    labels = dict(model._meta.get_field(field).flatchoices)
    return lambda value: str(labels.get(value, value))


def _grouped(rows, key: str) -> dict:
    groups = defaultdict(list)
    for row in rows:
        groups[getattr(row, key)].append(row)
    return groups


def member_data_export(*, user: User, with_health: bool = True) -> dict:
    mine = Q(user_id=user.pk) | Q(email__iexact=user.email)
    prefs = BookingPreferences.objects.filter(user_id=user.pk).first()
    reservations = (
        Reservation.objects.filter(user_id=user.pk)
        .order_by("session__start", "pk")
        .values(
            "pk",
            "participants",
            "unit_price",
            "status",
            "created_at",
            "confirmed_at",
            "cancelled_at",
            "paid_with_pass_id",
            "credits_spent",
            "message",
            course_title=F("session__course__title"),
            session_start=F("session__start"),
            attendance_status=F("attendance__status"),
        )
    )
    reservation_status = _display(Reservation, "status")
    passes = list(Pass.objects.filter(member_id=user.pk).order_by("pk"))
    adjustments = _grouped(PassAdjustment.objects.filter(pass_ref__member_id=user.pk).order_by("pk"), "pass_ref_id")
    subscriptions = list(Subscription.objects.filter(member_id=user.pk).order_by("pk"))
    charges = _grouped(
        SubscriptionCharge.objects.filter(subscription__member_id=user.pk).order_by("subscription_id", "period"),
        "subscription_id",
    )
    messages = list(ContactMessage.objects.filter(mine).order_by("pk"))
    replies = _grouped(ContactReply.objects.filter(message__in=[m.pk for m in messages]).order_by("pk"), "message_id")
    return {
        "format": EXPORT_FORMAT,
        "exported_at": _dt(timezone.now()),
        "studio": settings.STUDIO["name"],
        "profile": {
            "id": user.pk,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "phone": user.phone,
            "address": user.address,
            "postal_code": user.postal_code,
            "city": user.city,
            "country": user.country,
            "role": user.role,
            "avatar": user.avatar.url if user.avatar else None,
            "date_joined": _dt(user.date_joined),
            "email_confirmed_at": _dt(user.email_confirmed_at),
            "last_login": _dt(user.last_login),
            "pending_email": user.pending_email or None,
        },
        # The health questionnaire's answers and what was accepted (docs/decisions.md 48): the member's own data.
        # A supervisor's export of a member leaves them out: only the member and the admins read them.
        "health_declaration": declaration_export(member_id=user.pk) if with_health else None,
        "consents": {
            "reminder_day_before": prefs.remind_day_before if prefs else True,
            "reminder_cancellation_deadline": prefs.remind_cancellation_deadline if prefs else True,
            "calendar_feed_enabled": bool(prefs and prefs.calendar_token),
            "cookies": COOKIES_NOTE,
        },
        # The browsers the member subscribed to push and each kind's switch (docs/decisions.md 59).
        "push_notifications": push_export(user_id=user.pk),
        "bookings": [
            {
                "id": r["pk"],
                "course": r["course_title"],
                "session_start": _dt(r["session_start"]),
                "participants": r["participants"],
                "unit_price": _money(r["unit_price"]),
                "status": reservation_status(r["status"]),
                "booked_at": _dt(r["created_at"]),
                "confirmed_at": _dt(r["confirmed_at"]),
                "cancelled_at": _dt(r["cancelled_at"]),
                "paid_with_pass_id": r["paid_with_pass_id"],
                "credits_spent": r["credits_spent"],
                "message": r["message"],
                "attendance": r["attendance_status"],
            }
            for r in reservations
        ],
        "waiting_lists": [
            {
                "session_id": w.session_id,
                "status": w.get_status_display(),
                "participants": w.participants,
                "joined_at": _dt(w.created_at),
            }
            for w in WaitlistEntry.objects.filter(user_id=user.pk).order_by("pk")
        ],
        "party_requests": [
            {
                "id": p.pk,
                "event_type": p.event_type,
                "date": _d(p.date),
                "participants": p.participants,
                "first_name": p.first_name,
                "last_name": p.last_name,
                "email": p.email,
                "title": p.title,
                "message": p.message,
                "status": p.get_status_display(),
                "quote_amount": _money(p.quote_amount),
                "deposit_amount": _money(p.deposit_amount),
                "sent_at": _dt(p.created_at),
            }
            for p in PartyReservation.objects.filter(mine).order_by("pk")
        ],
        "payments": [
            {
                "order_id": o.order_id,
                "title": o.title,
                "amount": _money(o.amount),
                "currency": o.currency,
                "status": o.get_status_display(),
                "provider": o.get_provider_display(),
                "email": o.email,
                "first_name": o.first_name,
                "last_name": o.last_name,
                "created_at": _dt(o.created_at),
                "completed_at": _dt(o.completed_at),
                "refunded_at": _dt(o.refunded_at),
            }
            for o in PaymentOrder.objects.filter(mine).order_by("pk")
        ],
        "invoices": [
            {
                "number": i.number,
                "kind": i.get_kind_display(),
                "issued_at": _dt(i.issued_at),
                "description": i.description,
                "total_amount": _money(i.total_amount),
                "currency": i.currency,
                "pdf_url": f"{settings.SITE_URL}/api/invoices/{i.pk}/pdf",
            }
            for i in Invoice.objects.filter(member_id=user.pk).order_by("issued_at", "pk")
        ],
        "passes": [
            {
                "id": p.pk,
                "title": p.title,
                "kind": p.get_kind_display(),
                "credits_total": p.credits_total,
                "credits_left": p.credits_left,
                "starts_on": _d(p.starts_on),
                "expires_on": _d(p.expires_on),
                "history": [
                    {
                        "action": a.get_action_display(),
                        "credits_delta": a.credits_delta,
                        "reason": a.reason,
                        "at": _dt(a.at),
                    }
                    for a in adjustments[p.pk]
                ],
            }
            for p in passes
        ],
        "subscriptions": [
            {
                "id": s.pk,
                "title": s.title,
                "status": s.get_status_display(),
                "amount_per_period": _money(s.amount),
                "period_months": s.period_months,
                "periods_committed": s.periods_committed,
                "periods_paid": s.periods_paid,
                "starts_on": _d(s.starts_on),
                "charges": [
                    {
                        "period": c.period,
                        "due_on": _d(c.due_on),
                        "amount": _money(c.amount),
                        "status": c.get_status_display(),
                        "paid_at": _dt(c.paid_at),
                    }
                    for c in charges[s.pk]
                ],
            }
            for s in subscriptions
        ],
        # The saved cards and SEPA mandates of subscriptions: what the studio keeps of them (never a full number).
        "saved_payment_methods": [
            {
                "label": m.label,
                "kind": m.get_kind_display(),
                "status": m.get_status_display(),
                "mandate_reference": m.mandate_reference,
                "saved_at": _dt(m.created_at),
            }
            for m in SavedPaymentMethod.objects.filter(member_id=user.pk).order_by("pk")
        ],
        "reduced_rate": {
            "proofs_uploaded_at": [
                _dt(at)
                for at in ReducedRateProof.objects.filter(member_id=user.pk).values_list("uploaded_at", flat=True)
            ],
            "declarations": [
                {
                    "order_id": d.order.order_id,
                    "status": d.get_status_display(),
                    "confirmed_at": _dt(d.confirmed_at),
                    "ended_at": _dt(d.ended_at),
                }
                for d in ReducedRateDeclaration.objects.filter(order__user_id=user.pk).select_related("order")
            ],
        },
        "messages": [
            {
                "id": m.pk,
                "subject": m.subject,
                "text": m.text,
                "name": m.name,
                "email": m.email,
                "phone": m.phone,
                "sent_at": _dt(m.created_at),
                "replies": [{"by": r.author_role, "text": r.text, "at": _dt(r.created_at)} for r in replies[m.pk]],
            }
            for m in messages
        ],
        "room_rental_requests": [
            {
                "id": r.pk,
                "name": r.name,
                "email": r.email,
                "phone": r.phone,
                "event_type": r.event_type,
                "date": _d(r.date),
                "message": r.message,
                "status": r.get_status_display(),
                "sent_at": _dt(r.created_at),
            }
            for r in RoomRentalRequest.objects.filter(mine).order_by("pk")
        ],
        # What staff did on the member's behalf at the desk (docs/decisions.md 50), with who did it.
        "staff_actions": [
            {"action": a.action, "summary": a.summary, "by": a.staff_name, "at": _dt(a.created_at)}
            for a in StaffAction.objects.filter(member_id=user.pk).order_by("created_at", "pk")
        ],
        "feedback": [
            {
                "course": f["course_title"],
                "rating": f["rating"],
                "comment": f["comment"],
                "created_at": _dt(f["created_at"]),
                "updated_at": _dt(f["updated_at"]),
            }
            for f in CourseFeedback.objects.filter(user_id=user.pk)
            .order_by("pk")
            .values("rating", "comment", "created_at", "updated_at", course_title=F("course__title"))
        ],
    }
