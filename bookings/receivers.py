"""Receivers of the bookings app: a reservation's change refreshes the cached feeds of its session's weeks."""

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from courses.models import CourseSession

from .cache import bump_session_feeds
from .models import Reservation


def _session_of(reservation):
    if Reservation.session.is_cached(reservation):
        return reservation.session
    return CourseSession.objects.filter(pk=reservation.session_id).only("start", "end").first()


@receiver(post_save, sender=Reservation, dispatch_uid="bookings-feed-reservation-saved")
@receiver(post_delete, sender=Reservation, dispatch_uid="bookings-feed-reservation-deleted")
def reservation_changed(sender, instance, **kwargs):
    session = _session_of(instance)
    if session is None:
        return
    bump_session_feeds(session)
    # Again once the change is committed: a feed rebuilt meanwhile, from the data before it, is not kept.
    transaction.on_commit(lambda: bump_session_feeds(session))
