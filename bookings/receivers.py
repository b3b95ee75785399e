"""Receivers of the bookings app: a reservation's change refreshes the cached feeds of its session's weeks, and a
change to a session, its reservations or its waiting list the seat state that the full-class answer reads
(services/seat_state.py)."""

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from courses.models import CourseSession

from . import ics
from .cache import bump_session_feeds
from .models import Reservation
from .models_operations import BookingPreferences, WaitlistEntry
from .services.seat_state import forget_seat_state


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


@receiver(post_save, sender=Reservation, dispatch_uid="bookings-seats-reservation-saved")
@receiver(post_delete, sender=Reservation, dispatch_uid="bookings-seats-reservation-deleted")
@receiver(post_save, sender=WaitlistEntry, dispatch_uid="bookings-seats-waitlist-saved")
@receiver(post_delete, sender=WaitlistEntry, dispatch_uid="bookings-seats-waitlist-deleted")
def seats_changed(sender, instance, **kwargs):
    _forget_now_and_on_commit(instance.session_id)


@receiver(post_save, sender=CourseSession, dispatch_uid="bookings-seats-session-saved")
@receiver(post_delete, sender=CourseSession, dispatch_uid="bookings-seats-session-deleted")
def session_changed(sender, instance, **kwargs):
    _forget_now_and_on_commit(instance.pk)


def _forget_now_and_on_commit(session_id) -> None:
    # Again once the change is committed: a state read meanwhile, from the data before it, is not kept.
    forget_seat_state(session_id)
    transaction.on_commit(lambda: forget_seat_state(session_id))


@receiver(post_delete, sender=BookingPreferences, dispatch_uid="bookings-feed-preferences-deleted")
def calendar_preferences_deleted(sender, instance, **kwargs):
    # The feed's secret address is gone (the account was erased): its built text leaves the cache with it.
    cache.delete(ics.feed_cache_key(instance.user_id))
