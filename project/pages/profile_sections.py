"""What the profile page shows of the other apps, each read through that app's selectors: the member's class cards and
subscriptions (bookings), the subscriptions billed per period (payments), the invoices and credit notes (invoices),
"Mes données" (privacy) and the reminder switches (bookings). At most one query per section, however long the
member's history."""

from types import SimpleNamespace

from django.middleware.csrf import get_token
from django.template.defaultfilters import floatformat
from django.utils import timezone

from bookings.selectors.passes import member_pass_rows
from bookings.services.reminders import booking_preferences_flags
from invoices.apis import invoice_pdf_url
from invoices.selectors import member_invoice_rows
from payments.services.withdrawal import member_withdrawable_rows
from payments.subscriptions.models import SubscriptionAction, SubscriptionActionKind
from payments.subscriptions.selectors import member_subscription_rows
from studio.day_text import day_text

# A pass's usage: the credits left of a card, the weekly cap of a rule, or unlimited.
CREDITS_LEFT_TEXT = "{left} crédit{s} restant{s} sur {total}"
UNLIMITED_TEXT = "Illimité"
WEEKLY_CAP_TEXT = "{cap} cours par semaine"
# An invoice's amount and credit-note mention, written here rather than by |floatformat and {% if %} in the loop,
# which cost the page time per row: the same text (the amount through the filter's own function).
CREDIT_NOTE_TEXT = " (avoir sur la facture {number})"


def profile_sections(request, *, target, own: bool) -> dict:
    """The context of each section of `target`'s profile as `request.user` sees it."""
    viewer = request.user
    return {
        "passes": _passes(target),
        "subscriptions": _subscriptions(target, own=own),
        "withdrawals": member_withdrawable_rows(member_id=target.pk) if own else [],
        "invoices": _invoices(target, viewer=viewer, own=own),
        "personal_data": {"shown": own, "staff_account": own and viewer.role != "user"},
        "preferences": _preferences(request, target, own=own),
    }


def _usage_text(row: dict) -> str:
    cap = WEEKLY_CAP_TEXT.format(cap=row["weekly_cap"]) if row["weekly_cap"] else ""
    if not row["is_card"]:
        return cap or UNLIMITED_TEXT
    left = row["credits_left"]
    usage = CREDITS_LEFT_TEXT.format(left=left, s="" if left == 1 else "s", total=row["credits_total"])
    return f"{usage}, {cap}" if cap else usage


def _passes(target) -> list[dict]:
    passes = member_pass_rows(member_id=target.pk)
    for row in passes:
        row["usage_text"] = _usage_text(row)
    return passes


def _subscriptions(target, *, own: bool) -> list[dict]:
    """The subscriptions billed per period, with "Payer maintenant" for an unpaid one on the member's own profile."""
    rows = member_subscription_rows(member_id=target.pk)
    # Terminated by the member, it runs to its commitment's end: no second "Résilier mon abonnement".
    terminated = (
        set(
            SubscriptionAction.objects.filter(
                kind=SubscriptionActionKind.MEMBER_TERMINATE, subscription__member=target
            ).values_list("subscription_id", flat=True)
        )
        if own
        else set()
    )
    for row in rows:
        if own and row["method_label"] and row["status"] in ("active", "unpaid", "frozen"):
            # Replace the card or mandate the later periods are charged to: the "Payer maintenant" island's bundle,
            # in its "method" mode (it reads the method and how to save another from the API).
            row["method_id"] = f"subscription-method-{row['pk']}"
            row["method_props"] = {"mode": "method", "label": row["method_label"]}
        if own and row["status"] in ("active", "unpaid", "frozen"):
            # docs/decisions.md 46: ending it is two clicks from here (this link, then the confirmation).
            if row["pk"] not in terminated:
                row["terminate_url"] = f"/user/subscriptions/{row['pk']}/terminate"
            row["pause_url"] = f"/user/subscriptions/{row['pk']}/pause"
        if own and row["status"] == "unpaid" and not row["desk_due"]:
            # A period paid at the desk has no online payment until a card or mandate is saved (docs/decisions.md 43).
            row["pay_id"] = f"subscription-pay-{row['pk']}"
            row["pay_props"] = {
                "subscriptionId": row["pk"],
                "title": row["title"],
                # The card choice is the simulator's, for subscriptions charged to no saved method.
                "simulated": row["provider"] == "simulator" and not row["method_label"],
            }
    return rows


def _invoices(target, *, viewer, own: bool) -> dict:
    """The invoices and credit notes with their PDF link, shown to the member and to staff."""
    if not own and not viewer.is_studio_staff:
        return {"shown": False}
    tz = timezone.get_current_timezone()
    rows = []
    for invoice in member_invoice_rows(member_id=target.pk):
        credited = invoice["credited_number"]
        rows.append(
            {
                "invoice": invoice,
                "url": invoice_pdf_url(SimpleNamespace(pk=invoice["pk"])),
                "issued_text": day_text(invoice["issued_at"], tz),  # as |date:"d/m/Y" writes it (studio.day_text)
                "amount_text": ("-" if credited else "") + floatformat(invoice["total_amount"], "2g"),
                "credit_text": CREDIT_NOTE_TEXT.format(number=credited) if credited else "",
            }
        )
    return {"shown": True, "own": own, "rows": rows}


def _preferences(request, target, *, own: bool) -> dict:
    """The reminder switches and the calendar link, on the member's own profile: a plain form posted to
    /my-courses/preferences (works without JavaScript)."""
    if not own:
        return {"show": False}
    # The page's token (computed once per request, which also sets the cookie).
    return {"show": True, "prefs": booking_preferences_flags(user_id=target.pk), "csrf_token": get_token(request)}
