"""Web Push (docs/decisions.md 53): a member's subscriptions and switches, and the pushes the other apps ask for.

`push_notify` is what bookings calls beside an e-mail: it checks the member's switch for the kind and the quiet
hours, then queues `push_deliver` after the commit; the worker encrypts the payload for each of the member's browsers
(RFC 8291, aes128gcm), signs the request with the studio's VAPID key (RFC 8292) and posts it to the browser's push
service through pywebpush. A push service answering 404 or 410 says the subscription is gone: its row is deleted.
"""

import base64
import binascii
import json
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone
from pywebpush import WebPushException, webpush

from studio.errors import BAD_REQUEST, CONFLICT, NOT_FOUND, ApplicationError
from studio.queue import enqueue_after_commit

from .models import PushKind, PushPreferences, PushSubscription
from .quiet_hours import in_quiet_hours

logger = logging.getLogger(__name__)

MSG_PUSH_NOT_CONFIGURED = "Les notifications sur le téléphone ne sont pas disponibles sur ce site pour le moment."
MSG_ENDPOINT_INVALID = "L'adresse d'abonnement du navigateur n'est pas valide."
MSG_KEYS_INVALID = "Les clés d'abonnement du navigateur ne sont pas valides."
MSG_SUBSCRIPTION_NOT_FOUND = "Cet appareil n'est pas abonné aux notifications."
MSG_SUBSCRIBED = "Les notifications sont activées sur cet appareil."
MSG_UNSUBSCRIBED = "Les notifications sont désactivées sur cet appareil."
MSG_PREFERENCES_SAVED = "Vos préférences de notification sont enregistrées."

PUSH_TTL_SECONDS = 2 * 60 * 60  # an offer holds a seat 2 hours: a push older than that says nothing true
GONE_STATUSES = (404, 410)


class PushError(ApplicationError):
    default_code = "push_invalid"
    messages = {
        "push_not_configured": MSG_PUSH_NOT_CONFIGURED,
        "endpoint_invalid": MSG_ENDPOINT_INVALID,
        "keys_invalid": MSG_KEYS_INVALID,
        "subscription_not_found": MSG_SUBSCRIPTION_NOT_FOUND,
    }
    statuses = {
        "push_not_configured": CONFLICT,  # the site's state, not the request, refuses it
        "endpoint_invalid": BAD_REQUEST,
        "keys_invalid": BAD_REQUEST,
        "subscription_not_found": NOT_FOUND,
    }


def push_configured() -> bool:
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def _b64url_bytes(value: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _check_endpoint(endpoint: str) -> None:
    """Only a push service's https address (the worker posts to it; plain http only where settings allow it, the
    tests' local push service)."""
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if settings.WEBPUSH_ALLOW_HTTP_ENDPOINTS else ("https",)
    if parts.scheme not in schemes or not parts.hostname or not _push_service_host(parts):
        raise PushError.of("endpoint_invalid", field="endpoint")


def _push_service_host(parts) -> bool:
    """A browser's push service (docs/decisions.md 61): the worker posts wherever a member's browser says, so any
    other host would let a member aim it at an address inside the studio's network. The tests' local push service
    is taken where plain http is (never in production)."""
    if settings.WEBPUSH_ALLOW_HTTP_ENDPOINTS:
        return True
    if parts.username or parts.password or parts.port not in (None, 443):
        return False
    host = parts.hostname.rstrip(".").lower()
    return any(host == allowed or host.endswith("." + allowed) for allowed in settings.WEBPUSH_ENDPOINT_HOSTS)


def _check_keys(p256dh: str, auth: str) -> None:
    point, secret = _b64url_bytes(p256dh), _b64url_bytes(auth)
    # An uncompressed P-256 point (RFC 8291 3.1) and a 16-byte authentication secret (RFC 8291 3.2).
    if point is None or len(point) != 65 or point[0] != 4 or secret is None or len(secret) != 16:
        raise PushError.of("keys_invalid", field="keys")


@transaction.atomic
def push_subscribe(*, user, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> PushSubscription:
    """Record this browser's subscription for the member. An endpoint is one browser's: subscribing it again (or
    from another account on the same browser) moves it to this member with its new keys."""
    _check_endpoint(endpoint)
    _check_keys(p256dh, auth)
    if not push_configured():
        raise PushError.of("push_not_configured")
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:300]},
    )
    return subscription


def push_unsubscribe(*, user, endpoint: str) -> None:
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    if not deleted:
        raise PushError.of("subscription_not_found", field="endpoint")


def push_preferences_get(*, user) -> PushPreferences:
    return PushPreferences.objects.filter(user=user).first() or PushPreferences(user=user)


def push_preferences_set(*, user, **switches: bool) -> PushPreferences:
    prefs = push_preferences_get(user=user)
    for kind in PushKind.values:
        if kind in switches:
            setattr(prefs, kind, bool(switches[kind]))
    prefs.save()
    return prefs


def push_forget(*, user_id: int) -> None:
    """A closed account's browsers and switches are forgotten (privacy's erasure calls this)."""
    PushSubscription.objects.filter(user_id=user_id).delete()
    PushPreferences.objects.filter(user_id=user_id).delete()


def push_export(*, user_id: int) -> dict:
    """The member's push data for their data export: each kind's switch and each subscribed browser, named by its
    push service and device, without the browser's keys (secrets the browser holds itself, useful to no one else)."""
    prefs = PushPreferences.objects.filter(user_id=user_id).first()
    return {
        "preferences": {kind: getattr(prefs, kind) if prefs else True for kind in PushKind.values},
        "devices": [
            {
                "push_service": urlsplit(s.endpoint).hostname,
                "device": s.user_agent,
                "subscribed_at": timezone.localtime(s.created_at).isoformat(),
                "last_sent_at": timezone.localtime(s.last_sent_at).isoformat() if s.last_sent_at else None,
            }
            for s in PushSubscription.objects.filter(user_id=user_id).order_by("pk")
        ],
    }


def push_wanted(*, user_id: int, kind: str) -> bool:
    """The member's switch for this kind (on without a row) and at least one subscribed browser."""
    prefs = PushPreferences.objects.filter(user_id=user_id).values_list(kind, flat=True).first()
    if prefs is False:
        return False
    return PushSubscription.objects.filter(user_id=user_id).exists()


def push_notify(*, user_id: int, kind: str, title: str, body: str, url: str, data: dict | None = None) -> bool:
    """Queue a push to the member's browsers after the commit, unless they turned this kind off, have no browser
    subscribed, push is not configured or it is quiet hours (then nothing: the e-mail beside it stays).
    Returns whether a push was queued."""
    if kind not in PushKind.values:
        raise ValueError(kind)
    if not push_configured() or in_quiet_hours() or not push_wanted(user_id=user_id, kind=kind):
        return False
    payload = {"kind": kind, "title": title, "body": body, "url": url, **(data or {})}
    enqueue_after_commit(push_deliver, user_id=user_id, payload=json.dumps(payload, ensure_ascii=False))
    return True


def _vapid_claims() -> dict:
    return {"sub": settings.WEBPUSH_VAPID_SUBJECT}


def push_send_to(subscription: PushSubscription, payload: str) -> bool:
    """Encrypt and post one push; a subscription the push service says is gone is deleted. True when accepted."""
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(
            subscription_info=info,
            data=payload,
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims=_vapid_claims(),
            content_encoding="aes128gcm",
            ttl=PUSH_TTL_SECONDS,
            timeout=10,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in GONE_STATUSES:
            subscription.delete()
            return False
        logger.warning("Push to subscription %s refused: %s", subscription.pk, status)
        return False
    except Exception:  # noqa: BLE001 - a push service unreachable: this push is lost, the e-mail beside it stays
        logger.exception("Push to subscription %s failed", subscription.pk)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return True


@task
def push_deliver(user_id: int, payload: str) -> int:
    """The worker's side of `push_notify`: one push to each browser of the member. Quiet hours are checked again
    here (a queue that ran late must not wake anyone). Returns how many push services accepted it."""
    if not push_configured() or in_quiet_hours():
        return 0
    subscriptions = PushSubscription.objects.filter(user_id=user_id, user__is_active=True)
    return sum(push_send_to(sub, payload) for sub in subscriptions)
