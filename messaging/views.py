"""Pages: contact, the member's messages and the staff message view."""

from django.conf import settings
from django.contrib import messages as django_messages
from django.http import Http404
from django.shortcuts import redirect, render

from studio.cache import cache_public_page
from studio.decorators import login_required_page, staff_required_page
from studio.ratelimit import rate_limited_page

from . import services
from .conversations import MSG_CONVERSATION_SUBJECT_REQUIRED, MSG_CONVERSATION_TEXT_REQUIRED
from .forms import ContactForm
from .models import ContactMessage

# What the messages island shows when a call fails; passed to it as props.
MSG_FETCH_FAILED = "Impossible de récupérer les messages."
MSG_NO_SELECTION = "Utilisateur non authentifié ou aucun message sélectionné."
MSG_REPLY_FAILED = "Erreur lors de l’ajout de la réponse."
MSG_DELETE_FAILED = "Erreur lors de la suppression du message."
MSG_NEW_CONVERSATION_FAILED = "Le message n'a pas pu être envoyé. Veuillez réessayer."

ISLAND_TEXTS = {
    "fetchFailed": MSG_FETCH_FAILED,
    "noSelection": MSG_NO_SELECTION,
    "replyFailed": MSG_REPLY_FAILED,
    "replyBlank": services.MSG_REPLY_BLANK,
    "deleteFailed": MSG_DELETE_FAILED,
    # "Nouveau message": a member starts a conversation
    "subjectRequired": MSG_CONVERSATION_SUBJECT_REQUIRED,
    "textRequired": MSG_CONVERSATION_TEXT_REQUIRED,
    "newFailed": MSG_NEW_CONVERSATION_FAILED,
}


def osm_embed_url(latitude: float, longitude: float, span: float = 0.004) -> str:
    """An OpenStreetMap embed centred on the studio, with a marker (loaded only after consent)."""
    bbox = f"{longitude - span:.5f},{latitude - span / 2:.5f},{longitude + span:.5f},{latitude + span / 2:.5f}"
    return (
        "https://www.openstreetmap.org/export/embed.html"
        f"?bbox={bbox}&layer=mapnik&marker={latitude:.5f},{longitude:.5f}"
    )


def _studio_context() -> dict:
    studio = settings.STUDIO
    return {
        "map_url": osm_embed_url(studio["latitude"], studio["longitude"]),
        "map_link": (
            f"https://www.openstreetmap.org/?mlat={studio['latitude']:.5f}&mlon={studio['longitude']:.5f}"
            f"#map=18/{studio['latitude']:.5f}/{studio['longitude']:.5f}"
        ),
    }


@cache_public_page(forms=True)
@rate_limited_page("contact")
def contact_page(request):
    """The contact form posts here without JavaScript (PRG); the island posts to /api/contact-messages."""
    user = request.user
    if request.method == "POST":
        form = ContactForm(request.POST)
        if form.is_valid():
            try:
                services.contact_message_create(
                    name=form.cleaned_data["name"],
                    email=form.cleaned_data["email"],
                    phone=form.cleaned_data["phone"],
                    subject=form.cleaned_data["subject"],
                    text=form.cleaned_data["message"],
                    follow_up=form.cleaned_data["followUp"],
                    user=user,
                )
            except services.MessagingError as exc:
                form.add_error(None, exc.message)
            else:
                django_messages.success(request, services.MSG_CONTACT_SENT)
                return redirect("contact")
        django_messages.error(request, services.MSG_CONTACT_FAILED)
        status = 400
    else:
        initial = {}
        if user.is_authenticated:
            initial = {"name": user.get_full_name(), "email": user.email, "phone": user.phone, "user_id": user.pk}
        form = ContactForm(initial=initial)
        status = 200
    context = {
        "page_title": "Contact",
        "page_description": "Écrivez au studio, venez nous voir ou appelez-nous : adresse, plan et formulaire.",
        "form": form,
        "texts": {"sent": services.MSG_CONTACT_SENT, "failed": services.MSG_CONTACT_FAILED},
        **_studio_context(),
    }
    return render(request, "messaging/contact.html", context, status=status)


@login_required_page
def user_messages_page(request, message_id: int | None = None):
    if message_id is not None:
        message = ContactMessage.objects.filter(pk=message_id).only("id", "user_id").first()
        if message is not None and request.user.is_studio_staff and message.user_id != request.user.pk:
            return redirect("staff-message", message_id=message_id)
        if message is None or message.user_id != request.user.pk:
            raise Http404("Message introuvable.")
    props = {
        "mode": "member",
        "userId": request.user.pk,
        "selectedId": message_id,
        "texts": ISLAND_TEXTS,
    }
    return render(
        request,
        "messaging/user_messages.html",
        {"page_title": "Mes messages", "page_description": "Vos échanges avec le studio.", "props": props},
    )


@staff_required_page
def staff_message_page(request, message_id: int):
    if not ContactMessage.objects.filter(pk=message_id).exists():
        raise Http404("Message introuvable.")
    props = {
        "mode": "staff",
        "messageId": message_id,
        "backUrl": "/admin/contact-messages",
        "texts": ISLAND_TEXTS,
    }
    return render(
        request,
        "messaging/staff_message.html",
        {"page_title": "Message", "page_description": "Un message de contact et ses réponses.", "props": props},
    )
