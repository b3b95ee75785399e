"""Cached answers of the staff's heaviest reads (the owner's figures, the subscriptions list), each kept under a
version that any save or delete of a model it reads bumps, so a change shows on the next request.

The receivers are connected from PaymentsConfig.ready(): payments sits above every app these reads use (bookings,
courses, accounts), and insights, which builds the figures, has no AppConfig of its own. A bulk `update()` sends no
signal: payments calls `changed()` after its own, and the entries also expire after a minute, which bounds both the
others and the figures that move with the clock (live seat holds, the classes of the next 7 days, "already due")."""

from django.apps import apps
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from studio.cache import bump_versions, cache_versions

STATS_VERSION = "staff:stats:version"
SUBSCRIPTIONS_VERSION = "staff:subscriptions:version"
TIMEOUT = 60

# What each answer reads: its version is bumped by a save or delete of any of these.
READS = {
    STATS_VERSION: (
        "payments.PaymentOrder",
        "payments.Subscription",
        "payments.SubscriptionCharge",
        "bookings.Reservation",
        "bookings.Attendance",
        "bookings.WaitlistEntry",
        "bookings.Pass",
        "courses.Course",
        "courses.CourseSession",
        "accounts.User",
    ),
    SUBSCRIPTIONS_VERSION: (
        "payments.PaymentOrder",
        "payments.Subscription",
        "payments.SubscriptionCharge",
        "payments.SubscriptionFreeze",
        "payments.SubscriptionAction",
        "payments.SavedPaymentMethod",
        "payments.ReducedRateDeclaration",
        "payments.ReducedRateProof",
        "bookings.Pass",
        "accounts.User",
    ),
}


def _entry_key(name: str) -> str:
    return f"staff:entry:{name}"


def cached_for_staff(name: str, version: str, builder, timeout: int = TIMEOUT):
    """`builder()`'s value, kept under `name` while `version` is unchanged: a hit is one cache round trip. The version
    is read before the value is built, so a change made meanwhile is never hidden."""
    found = cache.get_many([version, _entry_key(name)])
    current, entry = found.get(version), found.get(_entry_key(name))
    if current is not None and entry is not None and entry[0] == current:
        return entry[1]
    current = cache_versions([version])[-1]
    value = builder()
    cache.set(_entry_key(name), (current, value), timeout)
    return value


def changed(*versions: str) -> None:
    """Rows the answers of `versions` read changed (a receiver, or a bulk update that sends no signal). Bumped now, and
    again once the transaction commits: a staff request that read the new version before the commit built its answer
    from the rows as they were, and the second bump sets that answer aside."""
    versions = versions or tuple(READS)
    bump_versions(*versions)
    transaction.on_commit(lambda: bump_versions(*versions), robust=True)


def _bumper(version: str):
    def bump(**_kwargs) -> None:
        changed(version)

    return bump


_BUMPERS = {version: _bumper(version) for version in READS}


def register_receivers() -> None:
    for version, labels in READS.items():
        for label in labels:
            model = apps.get_model(label)
            uid = f"{version}-{label}"
            post_save.connect(_BUMPERS[version], sender=model, dispatch_uid=f"{uid}-save")
            post_delete.connect(_BUMPERS[version], sender=model, dispatch_uid=f"{uid}-delete")
