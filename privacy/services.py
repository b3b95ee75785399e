"""Deleting an account (docs/decisions.md 34, 37): by the member (with their password) or by staff on the
member's request. Orchestrated here, in the top layer, because it touches every app; each step calls the owning
app's service where one exists.

1. The account is closed at once (inactive, unusable password, refresh tokens blacklisted): every browser session
   fails its next check (Django compares the session's password hash) and every access token answers 401.
2. Open card payments are cancelled, future bookings cancelled as the member's own cancellation would be (bookings'
   `member_future_bookings_cancel`), live subscriptions stopped (nothing more is charged).
3. In one transaction, the personal data goes: name, e-mail, phone, address, avatar, free texts written by or about
   the member (messages, requests, feedback comments, e-mails kept in the outbox), and the lines of what staff did on
   their behalf. The accounting records stay (orders, amounts, dates, invoices with their numbers and lines; French
   law keeps them 10 years), with the identity on them replaced by a pseudonym.

Each step is idempotent: an interrupted deletion is completed by running it again (staff can, from the dashboard).
"""

import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.files.storage import Storage
from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from accounts.models import AccountToken, Role, StaffAction, User
from accounts.services.authentication import user_refresh_tokens_revoke
from bookings.models import CourseFeedback, Reservation
from bookings.models_operations import BookingPreferences
from bookings.services.departure import member_future_bookings_cancel
from invoices.services import invoices_erase_customer
from messaging.models import ContactMessage, ContactReply
from notifications.services import push_forget
from payments.models import PaymentOrder
from payments.services.capture import payment_order_cancel
from payments.services.common import OPEN_STATUSES, PaymentError
from payments.subscriptions.models import ReducedRateProof, Subscription, SubscriptionStatus
from payments.subscriptions.services.common import LIVE_STATUSES as LIVE_SUBSCRIPTIONS
from payments.subscriptions.services.common import SubscriptionError
from payments.subscriptions.services.saved_methods import saved_methods_erase
from payments.subscriptions.services.staff import subscription_cancel
from quotes.models import PartyRequestEvent, PartyReservation, RentalRequestEvent, RoomRentalRequest
from studio.errors import CONFLICT, NOT_FOUND, ApplicationError
from studio.models import OutgoingEmail
from studio.queue import enqueue_after_commit
from waivers.services import declaration_erase

logger = logging.getLogger(__name__)

MSG_PASSWORD_REQUIRED = "Saisissez votre mot de passe pour confirmer la suppression."
MSG_PASSWORD_WRONG = "Mot de passe incorrect : votre compte n'a pas été supprimé."
MSG_STAFF_ACCOUNT = (
    "Un compte de l'équipe ne se supprime pas ainsi : un administrateur doit d'abord lui retirer son rôle."
)
MSG_SELF_ERASE = "Vous ne pouvez pas supprimer votre propre compte depuis le tableau de bord."
MSG_USER_NOT_FOUND = "Utilisateur introuvable."
MSG_ACCOUNT_DELETED = (
    "Votre compte est supprimé : vos données personnelles sont effacées et vos réservations à venir annulées. "
    "Vos factures restent conservées par le studio, comme la loi l'exige."
)
MSG_ACCOUNT_ERASED_BY_STAFF = (
    "Le compte est supprimé : données personnelles effacées, réservations à venir annulées, factures conservées."
)
DELETION_REASON = "Compte supprimé à la demande du membre"
ERASED_FIRST_NAME = "Compte"
ERASED_LAST_NAME = "supprimé"
ERASED_MESSAGE = "[message supprimé à la demande du membre]"


class AccountDeletionError(ApplicationError):
    default_code = "account_deletion_invalid"
    messages = {
        "password_required": MSG_PASSWORD_REQUIRED,
        "password_wrong": MSG_PASSWORD_WRONG,
        "staff_account": MSG_STAFF_ACCOUNT,
        "self_erase": MSG_SELF_ERASE,
        "user_not_found": MSG_USER_NOT_FOUND,
    }
    statuses = {"staff_account": CONFLICT, "self_erase": CONFLICT, "user_not_found": NOT_FOUND}


def erased_email(user_id: int) -> str:
    return f"compte-supprime-{user_id}@anonyme.invalid"


def account_delete_by_member(*, user: User, password: str) -> None:
    """The member's "Supprimer mon compte": their password confirms it."""
    if not password:
        raise AccountDeletionError.of("password_required", field="password")
    if not user.check_password(password):
        raise AccountDeletionError.of("password_wrong", field="password")
    if user.role != Role.USER:
        raise AccountDeletionError.of("staff_account")
    account_erase(user_id=user.pk, by=None)


def account_erase_by_staff(*, actor: User, user_id: int) -> None:
    """Staff delete a member's account on the member's request (docs/decisions.md 34): members only."""
    target = User.objects.filter(pk=user_id).first() if 0 < user_id < 2**31 else None
    if target is None:
        raise AccountDeletionError.of("user_not_found")
    if target.pk == actor.pk:
        raise AccountDeletionError.of("self_erase")
    if target.role != Role.USER:
        raise AccountDeletionError.of("staff_account")
    account_erase(user_id=target.pk, by=actor)


def account_erase(*, user_id: int, by: User | None) -> None:
    user = _account_close(user_id=user_id)
    original_email = user.email
    _payments_and_bookings_stop(user=user, by=by)
    files = _personal_data_erase(user_id=user_id, original_email=original_email)
    if files:
        transaction.on_commit(lambda: _files_delete(files))
    enqueue_after_commit(account_sessions_delete_run, user_id=user_id)


def account_sessions_delete(*, user_id: int) -> int:
    """Remove the stored sessions (and their cached copies) of an account; answers how many. Idempotent."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    removed = 0
    live = Session.objects.filter(expire_date__gt=timezone.now()).only("session_key", "session_data")
    for session in live.iterator(chunk_size=500):
        if str(store().decode(session.session_data).get(SESSION_KEY)) == str(user_id):
            store(session_key=session.session_key).delete()
            removed += 1
    return removed


@task
def account_sessions_delete_run(user_id: int) -> int:
    """The deleted account's stored sessions are removed by a worker. The deletion already ended them (the account
    is inactive and its password hash changed, so each session fails its next check); this removes the rows and
    their cached copies, which only a scan of the live sessions can find."""
    return account_sessions_delete(user_id=user_id)


def _account_close(*, user_id: int) -> User:
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        user.is_active = False
        user.set_unusable_password()  # every session's stored hash stops matching: all browsers are logged out
        user.save(update_fields=["is_active", "password"])
        user_refresh_tokens_revoke(user_id=user.pk)
        AccountToken.objects.filter(user=user).delete()  # no reset or confirmation link works any more
    return user


def _payments_and_bookings_stop(*, user: User, by: User | None) -> None:
    for order_id in list(
        PaymentOrder.objects.filter(user=user, status__in=OPEN_STATUSES).values_list("order_id", flat=True)
    ):
        try:
            payment_order_cancel(order_id=order_id, user=user)
        except PaymentError:
            pass  # paid or closed meanwhile: a capture of a cancelled booking is refunded by payments
    member_future_bookings_cancel(user=user)
    live = (*LIVE_SUBSCRIPTIONS, SubscriptionStatus.FROZEN)
    for subscription_id in list(Subscription.objects.filter(member=user, status__in=live).values_list("pk", flat=True)):
        try:
            subscription_cancel(subscription_id=subscription_id, by=by, reason=DELETION_REASON, refund=False)
        except SubscriptionError:
            pass  # ended meanwhile


def _personal_data_erase(*, user_id: int, original_email: str) -> list[tuple[Storage, str]]:
    """Erase the personal data of every app in one transaction; answers the files to delete, each with the storage
    that holds it (the avatar on the public one, the reduced-rate proofs on the private one)."""
    email = erased_email(user_id)
    mine = Q(user_id=user_id) | Q(email__iexact=original_email)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        files = [(user.avatar.storage, user.avatar.name)] if user.avatar else []
        proofs = ReducedRateProof.objects.filter(member_id=user_id)
        proof_storage = ReducedRateProof._meta.get_field("file").storage
        files += [(proof_storage, name) for name in proofs.values_list("file", flat=True) if name]
        saved_methods_erase(member_id=user_id)  # the card's or account's last digits, the mandate's reference
        declaration_erase(member_id=user_id)  # the health questionnaire's answers (docs/decisions.md 48)
        proofs.delete()  # a student card or a France Travail certificate: the declarations keep their status only
        User.objects.filter(pk=user_id).update(
            email=email,
            first_name=ERASED_FIRST_NAME,
            last_name=ERASED_LAST_NAME,
            phone="",
            address="",
            postal_code="",
            city="",
            country="",
            pending_email="",
            avatar="",
            is_active=False,
        )
        # What staff did on their behalf names them through the link to their account (docs/decisions.md 50).
        StaffAction.objects.filter(member_id=user_id).delete()
        BookingPreferences.objects.filter(user_id=user_id).delete()  # the calendar feed's secret URL stops working
        push_forget(user_id=user_id)  # no push reaches a closed account's phone
        Reservation.objects.filter(mine).update(first_name="", last_name="", email=email, message="")
        parties = PartyReservation.objects.filter(mine)
        PartyRequestEvent.objects.filter(party__in=parties).update(note="")
        parties.update(first_name="", last_name="", email=email, message="", title="", quote_note="")
        CourseFeedback.objects.filter(user_id=user_id).update(comment="")
        PaymentOrder.objects.filter(mine).update(first_name="", last_name="", email=email, message="")
        invoices_erase_customer(member_id=user_id, email=original_email)
        messages = ContactMessage.objects.filter(mine)
        ContactReply.objects.filter(message__in=messages).update(text=ERASED_MESSAGE)
        messages.update(name=ERASED_FIRST_NAME, email=email, phone="", subject=ERASED_MESSAGE, text=ERASED_MESSAGE)
        rentals = RoomRentalRequest.objects.filter(mine)
        RentalRequestEvent.objects.filter(rental__in=rentals).update(note="")
        rentals.update(name=ERASED_FIRST_NAME, email=email, phone="", message="", quote_note="")
        # The e-mails kept in the outbox to or about the member (their bodies name them).
        OutgoingEmail.objects.filter(Q(to__icontains=original_email) | Q(body_text__icontains=original_email)).delete()
    return files


def _files_delete(files: list[tuple[Storage, str]]) -> None:
    for storage, name in files:
        try:
            storage.delete(name)
        except Exception:  # noqa: BLE001 - the account is deleted; a file left behind is logged
            logger.exception("Could not delete the file %s of a deleted account", name)
