from django.urls import path

from project.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("test failure")


urlpatterns = [path("boom", boom), *site_urlpatterns]
handler500 = "studio.views.server_error"
