from django.urls import path
from django.views.generic import RedirectView

from . import apis, views

urlpatterns = [
    path("gallery", views.gallery_page, name="gallery"),
    path("photo-et-video-gallerie", RedirectView.as_view(url="/gallery", permanent=True)),
]

api_urlpatterns = [
    path("media", apis.MediaListApi.as_view(), name="api-media"),
    path("media/<int:pk>", apis.MediaDetailApi.as_view(), name="api-media-detail"),
    path("slider", apis.SliderImageListApi.as_view(), name="api-slider"),
    path("slider/<int:pk>", apis.SliderImageDetailApi.as_view(), name="api-slider-detail"),
    path("slideshow-images", apis.SlideshowImageListApi.as_view(), name="api-slideshow-images"),
    path("slideshow-images/<int:pk>", apis.SlideshowImageDetailApi.as_view(), name="api-slideshow-image-detail"),
]
