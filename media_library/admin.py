"""Django admin for the media library: uploads go through the same checks and services as the API."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from . import services
from .models import Media, SliderImage, SlideshowImage


class _UploadAdminForm(forms.ModelForm):
    """File fields as plain uploads (the service stores them); other fields as usual."""

    upload_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.upload_fields:
            self.fields[name] = forms.FileField(label=self.fields[name].label, required=False)

    def _post_clean(self):
        # The service checks and stores files; keep them off the instance until then.
        for name in self.upload_fields:
            self.instance_upload = getattr(self, "instance_upload", {})
            self.instance_upload[name] = self.cleaned_data.pop(name, None)
        super()._post_clean()
        for name, upload in self.instance_upload.items():
            self.cleaned_data[name] = upload


class _ServiceAdmin(admin.ModelAdmin):
    """save_model/delete_model call the services; a refused upload shows its French message on the form."""

    def get_form(self, request, obj=None, **kwargs):
        form_class = super().get_form(request, obj, **kwargs)
        admin_site = self

        class ServiceForm(form_class):
            def clean(self):
                cleaned = super().clean()
                if not self.errors:
                    try:
                        self.saved = admin_site.save_with_service(self.instance, cleaned, change=obj is not None)
                    except ValidationError as error:
                        raise forms.ValidationError(error.messages) from error
                    except services.MediaError as error:
                        raise forms.ValidationError(error.message) from error
                return cleaned

        return ServiceForm

    def save_form(self, request, form, change):
        return form.saved  # already written by the service while the form was validated

    def save_model(self, request, obj, form, change):
        pass

    def save_related(self, request, form, formsets, change):
        pass

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.delete_model(request, obj)


class SlideshowImageForm(_UploadAdminForm):
    upload_fields = ("image",)

    class Meta:
        model = SlideshowImage
        fields = ["image", "text_overlay", "order"]


@admin.register(SlideshowImage)
class SlideshowImageAdmin(_ServiceAdmin):
    form = SlideshowImageForm
    list_display = ["__str__", "order", "width", "height", "created_at"]
    list_editable = []
    ordering = ["order", "id"]

    def save_with_service(self, instance, data, *, change):
        if change:
            return services.slideshow_image_update(
                slideshow_image=instance, image=data.get("image"), text_overlay=data.get("text_overlay"),
                order=data.get("order"),
            )  # fmt: skip
        return services.slideshow_image_create(
            image=data.get("image"), text_overlay=data.get("text_overlay") or "", order=data.get("order")
        )

    def delete_model(self, request, obj):
        services.slideshow_image_delete(slideshow_image=obj)


class SliderImageForm(_UploadAdminForm):
    upload_fields = ("image",)

    class Meta:
        model = SliderImage
        fields = ["image", "alt_text", "description"]


@admin.register(SliderImage)
class SliderImageAdmin(_ServiceAdmin):
    form = SliderImageForm
    list_display = ["alt_text", "width", "height", "created_at"]

    def save_with_service(self, instance, data, *, change):
        if change:
            return services.slider_image_update(
                slider_image=instance, image=data.get("image"), alt_text=data.get("alt_text") or "",
                description=data.get("description"),
            )  # fmt: skip
        return services.slider_image_create(
            image=data.get("image"), alt_text=data.get("alt_text") or "", description=data.get("description") or ""
        )

    def delete_model(self, request, obj):
        services.slider_image_delete(slider_image=obj)


class MediaForm(_UploadAdminForm):
    upload_fields = ("file", "poster")

    class Meta:
        model = Media
        fields = ["title", "description", "media_type", "file", "external_url", "poster", "home_background"]


@admin.register(Media)
class MediaAdmin(_ServiceAdmin):
    form = MediaForm
    list_display = ["title", "media_type", "home_background", "created_at"]
    list_filter = ["media_type", "home_background"]
    search_fields = ["title", "description"]

    def save_with_service(self, instance, data, *, change):
        fields = {
            "title": data.get("title") or "",
            "description": data.get("description") or "",
            "media_type": data.get("media_type"),
            "file": data.get("file"),
            "external_url": data.get("external_url") or "",
            "poster": data.get("poster"),
            "home_background": bool(data.get("home_background")),
        }
        if change:
            return services.media_update(media=instance, **fields)
        return services.media_create(**fields)

    def delete_model(self, request, obj):
        services.media_delete(media=obj)
