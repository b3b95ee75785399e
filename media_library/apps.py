from django.apps import AppConfig


class MediaLibraryConfig(AppConfig):
    name = "media_library"
    verbose_name = "Médiathèque"

    def ready(self):
        from studio.cache import register_public_models

        from .models import Media, SliderImage, SlideshowImage

        # Shown on the public pages (hero, slider, gallery): a change refreshes every cached page.
        register_public_models(Media, SliderImage, SlideshowImage)
