from django.urls import path
from django.views.generic import RedirectView

from . import views

urlpatterns = [
    path("gallery", views.gallery_page, name="gallery"),
    path("photo-et-video-gallerie", RedirectView.as_view(url="/gallery", permanent=True)),
]

api_urlpatterns = []
