"""The member's own subscription pages (docs/decisions.md 46): "Résilier mon abonnement" (what ending it means, then
"Confirmer la résiliation": two clicks from the profile) and "Suspendre" (a date and a number of weeks). Plain forms,
no JavaScript. Another member's subscription is a 404. The pages read payments' subscriptions and call their
services, like the profile they start from, so they sit in the top layer."""

from datetime import timedelta

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from payments.subscriptions.apis.subscriptions import PauseInput
from payments.subscriptions.models import Subscription, SubscriptionStatus
from payments.subscriptions.periods import commitment_ends_on
from payments.subscriptions.selectors import subscriptions_of_member
from payments.subscriptions.services.member import (
    pause_allowance,
    subscription_pause,
    subscription_terminate,
    termination_summary,
)
from studio.decorators import login_required_page
from studio.errors import ApplicationError

ACTIONABLE = (SubscriptionStatus.ACTIVE, SubscriptionStatus.UNPAID, SubscriptionStatus.FROZEN)


def _own(request, subscription_id: int) -> Subscription:
    subscription = (
        Subscription.objects.select_related("granted_pass")
        .prefetch_related("freezes")
        .filter(pk=subscription_id, member=request.user)
        .first()
        if 0 < subscription_id < 2**31
        else None
    )
    if subscription is None:
        raise Http404
    return subscription


@login_required_page
def subscription_terminate_page(request, subscription_id: int):
    subscription = _own(request, subscription_id)
    context = {"page_title": "Résilier mon abonnement", "subscription": subscription, "error": "", "message": ""}
    status = 200
    if request.method == "POST":
        try:
            context["message"] = subscription_terminate(subscription_id=subscription.pk, user=request.user)
        except ApplicationError as exc:
            context["error"], status = exc.message, exc.status
        subscription = _own(request, subscription_id)
    context["subscription"] = subscription
    context["summary"] = termination_summary(subscription)
    context["live"] = subscription.status in ACTIONABLE
    return render(request, "payments/subscription_terminate.html", context, status=status)


@login_required_page
def subscription_pause_page(request, subscription_id: int):
    subscription = _own(request, subscription_id)
    tomorrow = timezone.localdate() + timedelta(days=1)
    values = {"starts_on": tomorrow.isoformat(), "weeks": "1"}
    context = {"page_title": "Suspendre mon abonnement", "error": "", "error_field": "", "message": ""}
    status = 200
    if request.method == "POST":
        values = {"starts_on": request.POST.get("starts_on", ""), "weeks": request.POST.get("weeks", "")}
        form = PauseInput(data=values)
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            context["error"], context["error_field"], status = str(errors[0]), field, 400
        else:
            try:
                context["message"] = subscription_pause(
                    subscription_id=subscription.pk, user=request.user, **form.validated_data
                )
            except ApplicationError as exc:
                context["error"], status = exc.message, exc.status
                context["error_field"] = getattr(exc, "field", "") or ""
        subscription = _own(request, subscription_id)
    view = next((v for v in subscriptions_of_member(user=request.user) if v.subscription.pk == subscription.pk), None)
    context.update(
        subscription=subscription,
        values=values,
        min_date=tomorrow.isoformat(),
        allowance=pause_allowance(subscription),
        live=subscription.status in ACTIONABLE,
        pass_expires_on=subscription.granted_pass.expires_on,
        commitment_ends_on=commitment_ends_on(subscription),
        next_due_on=view.next_due_on if view else None,
    )
    return render(request, "payments/subscription_pause.html", context, status=status)
