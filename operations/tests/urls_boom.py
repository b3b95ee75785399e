"""A page that fails with the connected member's name and e-mail in its error, as a careless message would."""

from django.urls import path


def boom(request):
    user = request.user
    raise ValueError(f"Paiement introuvable pour {user.get_full_name()} <{user.email}>")


def other_boom(request):
    raise KeyError("panier")


urlpatterns = [path("boom", boom), path("other-boom", other_boom)]
