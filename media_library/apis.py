"""The media library's API (SPEC.md 7, DECISIONS.md 1): public lists, staff writes with multipart payloads."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import error_response
from studio.permissions import IsStudioStaff

from . import selectors, services
from .models import Media, SliderImage, SlideshowImage

MSG_ORDER_INVALID = "L'ordre doit être un nombre entier positif."


# Documentation of SPEC.md 7's multipart payloads (drf-spectacular); the services check every field.
class SlideshowImagePayload(serializers.Serializer):
    image = serializers.FileField(help_text="JPEG, PNG, GIF ou WebP; enregistrée en JPEG 16:9.")
    text_overlay = serializers.CharField(required=False, allow_blank=True)
    order = serializers.IntegerField(required=False, min_value=0)


class SliderImagePayload(serializers.Serializer):
    image = serializers.FileField(help_text="JPEG, PNG ou GIF.")
    alt_text = serializers.CharField()
    description = serializers.CharField(required=False, allow_blank=True)


class MediaPayload(serializers.Serializer):
    title = serializers.CharField()
    description = serializers.CharField(required=False, allow_blank=True)
    media_type = serializers.ChoiceField(choices=Media.MediaType.choices, required=False)
    file = serializers.FileField(required=False, help_text="Photo (JPEG, PNG, GIF, WebP) ou vidéo (MP4, MOV, WebM).")
    external_url = serializers.URLField(required=False, allow_blank=True)
    poster = serializers.FileField(required=False)
    home_background = serializers.BooleanField(required=False)


def _documented(payload, list_operation: str | None = None):
    """Schema of a list view (GET, POST) when `list_operation` is given, else of a detail view (GET, PUT, DELETE)."""
    multipart = {"multipart/form-data": payload}
    if list_operation:
        return extend_schema_view(
            get=extend_schema(operation_id=list_operation, responses=OpenApiTypes.OBJECT),
            post=extend_schema(request=multipart, responses={201: OpenApiTypes.OBJECT}),
        )
    return extend_schema_view(
        get=extend_schema(responses=OpenApiTypes.OBJECT),
        put=extend_schema(request=multipart, responses=OpenApiTypes.OBJECT),
        delete=extend_schema(responses={204: None}),
    )


def _text(data, name):
    """A text field of the payload, or None when absent (so an edit keeps the stored value)."""
    value = data.get(name)
    return None if value is None else str(value)


def _flag(data, name):
    value = data.get(name)
    if value is None:
        return None
    return str(value).strip().lower() in ("1", "true", "on", "yes", "oui")


def _upload(request, name):
    """The uploaded file under `name`; a string there (an unchanged URL sent back by a form) means none."""
    return request.FILES.get(name) or None


class _MediaLibraryView(APIView):
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    def get_permissions(self):
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [AllowAny()]
        return [IsStudioStaff()]

    def refused(self, error: ValidationError) -> Response:
        return error_response(error.messages[0])


@_documented(SlideshowImagePayload, "slideshow_images_list")
class SlideshowImageListApi(_MediaLibraryView):
    def get(self, request):
        return Response(selectors.slideshow_image_list())

    def post(self, request):
        try:
            order = _order(request.data)
            slide = services.slideshow_image_create(
                image=_upload(request, "image"), text_overlay=_text(request.data, "text_overlay") or "", order=order
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.slideshow_image_to_dict(slide), status=status.HTTP_201_CREATED)


@_documented(SlideshowImagePayload)
class SlideshowImageDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        return Response(selectors.slideshow_image_to_dict(get_object_or_404(SlideshowImage, pk=pk)))

    def put(self, request, pk):
        slide = get_object_or_404(SlideshowImage, pk=pk)
        try:
            slide = services.slideshow_image_update(
                slideshow_image=slide,
                image=_upload(request, "image"),
                text_overlay=_text(request.data, "text_overlay"),
                order=_order(request.data),
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.slideshow_image_to_dict(slide))

    def delete(self, request, pk):
        services.slideshow_image_delete(slideshow_image=get_object_or_404(SlideshowImage, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _order(data):
    raw = data.get("order")
    if raw in (None, ""):
        return None
    try:
        order = int(raw)
    except (TypeError, ValueError):
        order = -1
    if order < 0:
        raise services.MediaError(MSG_ORDER_INVALID)
    return order


@_documented(SliderImagePayload, "slider_list")
class SliderImageListApi(_MediaLibraryView):
    def get(self, request):
        return Response(selectors.slider_image_list())

    def post(self, request):
        try:
            slider_image = services.slider_image_create(
                image=_upload(request, "image"),
                alt_text=_text(request.data, "alt_text") or "",
                description=_text(request.data, "description") or "",
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.slider_image_to_dict(slider_image), status=status.HTTP_201_CREATED)


@_documented(SliderImagePayload)
class SliderImageDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        return Response(selectors.slider_image_to_dict(get_object_or_404(SliderImage, pk=pk)))

    def put(self, request, pk):
        slider_image = get_object_or_404(SliderImage, pk=pk)
        try:
            slider_image = services.slider_image_update(
                slider_image=slider_image,
                image=_upload(request, "image"),
                alt_text=_text(request.data, "alt_text") or "",
                description=_text(request.data, "description"),
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.slider_image_to_dict(slider_image))

    def delete(self, request, pk):
        services.slider_image_delete(slider_image=get_object_or_404(SliderImage, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


@_documented(MediaPayload, "media_list")
class MediaListApi(_MediaLibraryView):
    def get(self, request):
        return Response(selectors.media_list())

    def post(self, request):
        try:
            media = services.media_create(
                title=_text(request.data, "title") or "",
                description=_text(request.data, "description") or "",
                media_type=_text(request.data, "media_type"),
                file=_upload(request, "file"),
                external_url=_text(request.data, "external_url") or "",
                poster=_upload(request, "poster"),
                home_background=bool(_flag(request.data, "home_background")),
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.media_to_dict(media), status=status.HTTP_201_CREATED)


@_documented(MediaPayload)
class MediaDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        return Response(selectors.media_to_dict(get_object_or_404(Media, pk=pk)))

    def put(self, request, pk):
        media = get_object_or_404(Media, pk=pk)
        try:
            media = services.media_update(
                media=media,
                title=_text(request.data, "title") or "",
                description=_text(request.data, "description"),
                media_type=_text(request.data, "media_type"),
                file=_upload(request, "file"),
                external_url=_text(request.data, "external_url"),
                poster=_upload(request, "poster"),
                home_background=_flag(request.data, "home_background"),
            )
        except ValidationError as error:
            return self.refused(error)
        return Response(selectors.media_to_dict(media))

    def delete(self, request, pk):
        services.media_delete(media=get_object_or_404(Media, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)
