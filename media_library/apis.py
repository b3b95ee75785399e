"""The media library's API (under /api/, docs/decisions.md 1): public lists, staff writes with multipart payloads.

Each view parses its payload with an input serializer (typed fields, the dashboard forms' French messages), calls a
service and shapes the answer with an output serializer. A refused write raises `MediaError` (or
`UploadRejected` for a file refused by its content or size): the shared exception handler answers 400 with the
French message, so no view catches it.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiRequest, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.parsers import JSON_OR_MULTIPART
from studio.permissions import IsStudioStaff

from . import selectors, services
from .fields import FormIntegerField, OptionalBooleanField, TextField, UploadField, WebUrlField, form_schema
from .models import Media, SliderImage, SlideshowImage
from .services import MSG_MEDIA_REQUIRED, MSG_MEDIA_URL_INVALID, MSG_SLIDER_REQUIRED, MSG_SLIDESHOW_REQUIRED

MSG_ORDER_INVALID = "L'ordre doit être un nombre entier positif."
MAX_ORDER = 2_147_483_647  # PositiveIntegerField's upper bound

ORDER_ERRORS = {key: MSG_ORDER_INVALID for key in ("invalid", "min_value", "max_value", "max_string_length")}


def _required(message: str) -> dict[str, str]:
    return {"required": message, "blank": message, "null": message}


# What each upload may be; the services check the content itself (media_library.uploads).
IMAGES = "image/jpeg, image/png, image/gif"
IMAGES_WEBP = f"{IMAGES}, image/webp"
MEDIA_FILES = f"{IMAGES_WEBP}, video/mp4, video/quicktime, video/webm"
# --- Input ----------------------------------------------------------------------------------------------------


class SlideshowImageUpdateInput(serializers.Serializer):
    image = UploadField(required=False, help_text="JPEG, PNG, GIF ou WebP ; enregistrée en JPEG 16:9.")
    text_overlay = TextField(max_length=200, required=False, allow_blank=True)
    order = FormIntegerField(min_value=0, max_value=MAX_ORDER, required=False, error_messages=ORDER_ERRORS)


class SlideshowImageCreateInput(SlideshowImageUpdateInput):
    image = UploadField(
        help_text="JPEG, PNG, GIF ou WebP ; enregistrée en JPEG 16:9.", error_messages=_required(MSG_SLIDESHOW_REQUIRED)
    )


class SliderImageUpdateInput(serializers.Serializer):
    """An edit: what is sent changes (an empty alt text is refused), the rest stays."""

    image = UploadField(required=False, help_text="JPEG, PNG ou GIF.")
    alt_text = TextField(max_length=255, required=False, error_messages=_required(MSG_SLIDER_REQUIRED))
    description = TextField(required=False, allow_blank=True)


class SliderImageCreateInput(SliderImageUpdateInput):
    image = UploadField(help_text="JPEG, PNG ou GIF.", error_messages=_required(MSG_SLIDER_REQUIRED))
    alt_text = TextField(max_length=255, error_messages=_required(MSG_SLIDER_REQUIRED))


class MediaInput(serializers.Serializer):
    title = TextField(max_length=200, error_messages=_required(MSG_MEDIA_REQUIRED))
    description = TextField(required=False, allow_blank=True)
    media_type = serializers.ChoiceField(choices=Media.MediaType.choices, required=False)
    file = UploadField(required=False, help_text="Photo (JPEG, PNG, GIF, WebP) ou vidéo (MP4, MOV, WebM).")
    external_url = WebUrlField(max_length=500, required=False, allow_blank=True, message=MSG_MEDIA_URL_INVALID)
    poster = UploadField(required=False, help_text="Affiche d'une vidéo : JPEG, PNG, GIF ou WebP.")
    home_background = OptionalBooleanField(required=False)


class MediaUpdateInput(MediaInput):
    """An edit may keep the stored file: neither a file nor a URL is needed then."""


class FormSchema(OpenApiSerializerExtension):
    """These inputs come as multipart forms: `form_schema` says what a form's parts can be."""

    target_class = SlideshowImageUpdateInput

    def map_serializer(self, auto_schema, direction):
        return form_schema(super().map_serializer(auto_schema, direction))


class SlideshowCreateFormSchema(FormSchema):
    target_class = SlideshowImageCreateInput


class SliderFormSchema(FormSchema):
    target_class = SliderImageUpdateInput


class SliderCreateFormSchema(FormSchema):
    target_class = SliderImageCreateInput


class MediaUpdateFormSchema(FormSchema):
    target_class = MediaUpdateInput


class MediaInputSchema(FormSchema):
    """The schema states the rule for a new item: a file or a URL."""

    target_class = MediaInput

    def map_serializer(self, auto_schema, direction):
        schema = super().map_serializer(auto_schema, direction)
        schema["anyOf"] = [
            {"required": ["file"]},
            {"required": ["external_url"], "properties": {"external_url": {"minLength": 1}}},
        ]
        return schema


# --- Output ---------------------------------------------------------------------------------------------------


class PictureOutput(serializers.Serializer):
    src = serializers.CharField()
    original = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    srcset_jpeg = serializers.CharField(allow_blank=True)
    srcset_webp = serializers.CharField(allow_blank=True)


class SlideshowImageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    image_url = serializers.CharField()
    image_path = serializers.CharField()
    text_overlay = serializers.CharField(allow_blank=True)
    order = serializers.IntegerField()
    picture = PictureOutput(allow_null=True)


class SliderImageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    image_path = serializers.CharField()
    alt_text = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    picture = PictureOutput(allow_null=True)


class MediaOutput(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    media_type = serializers.ChoiceField(choices=Media.MediaType.choices)
    file_path = serializers.CharField(allow_null=True)
    file_url = serializers.CharField(allow_blank=True)
    file_type = serializers.CharField(allow_blank=True, help_text="Type MIME d'un fichier vidéo, sinon vide.")
    external_url = serializers.CharField(allow_null=True)
    embed_url = serializers.CharField(allow_blank=True)
    poster_url = serializers.CharField(allow_blank=True)
    home_background = serializers.BooleanField()
    created_at = serializers.DateTimeField(allow_null=True)
    picture = PictureOutput(allow_null=True)


def _documented(*, create, update, output, list_operation: str, files: dict[str, str]):
    """The schema of a list view (GET, POST) and of its detail view (GET, PUT, DELETE): multipart payloads whose
    file fields say which content types they take."""
    encoding = {name: {"contentType": types} for name, types in files.items()}
    list_schema = extend_schema_view(
        get=extend_schema(operation_id=list_operation, responses=output(many=True)),
        post=extend_schema(
            request={"multipart/form-data": OpenApiRequest(create, encoding=encoding)}, responses={201: output}
        ),
    )
    detail_schema = extend_schema_view(
        get=extend_schema(responses=output),
        put=extend_schema(request={"multipart/form-data": OpenApiRequest(update, encoding=encoding)}, responses=output),
        delete=extend_schema(request=None, responses={204: None}),
    )
    return list_schema, detail_schema


# --- Views ----------------------------------------------------------------------------------------------------


class _MediaLibraryView(APIView):
    parser_classes = JSON_OR_MULTIPART  # multipart when a file is sent, JSON otherwise

    def get_permissions(self):
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [AllowAny()]
        return [IsStudioStaff()]

    @staticmethod
    def payload(serializer_class, request) -> dict:
        if request.content_type.startswith("multipart/form-data") and not request.data:
            raise services.MediaError.of("form_empty")  # a form without any part: the schemas say minProperties 1
        data = serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        return data.validated_data


SLIDESHOW_LIST, SLIDESHOW_DETAIL = _documented(
    create=SlideshowImageCreateInput,
    update=SlideshowImageUpdateInput,
    output=SlideshowImageOutput,
    list_operation="slideshow_images_list",
    files={"image": IMAGES_WEBP},
)
SLIDER_LIST, SLIDER_DETAIL = _documented(
    create=SliderImageCreateInput,
    update=SliderImageUpdateInput,
    output=SliderImageOutput,
    list_operation="slider_list",
    files={"image": IMAGES},
)
MEDIA_LIST, MEDIA_DETAIL = _documented(
    create=MediaInput,
    update=MediaUpdateInput,
    output=MediaOutput,
    list_operation="media_list",
    files={"file": MEDIA_FILES, "poster": IMAGES_WEBP},
)


@SLIDESHOW_LIST
class SlideshowImageListApi(_MediaLibraryView):
    def get(self, request):
        return Response(SlideshowImageOutput(selectors.slideshow_image_list(), many=True).data)

    def post(self, request):
        data = self.payload(SlideshowImageCreateInput, request)
        slide = services.slideshow_image_create(
            image=data["image"], text_overlay=data.get("text_overlay", ""), order=data.get("order")
        )
        return Response(
            SlideshowImageOutput(selectors.slideshow_image_to_dict(slide)).data, status=status.HTTP_201_CREATED
        )


@SLIDESHOW_DETAIL
class SlideshowImageDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        slide = get_object_or_404(SlideshowImage, pk=pk)
        return Response(SlideshowImageOutput(selectors.slideshow_image_to_dict(slide)).data)

    def put(self, request, pk):
        slide = get_object_or_404(SlideshowImage, pk=pk)
        data = self.payload(SlideshowImageUpdateInput, request)
        slide = services.slideshow_image_update(
            slideshow_image=slide,
            image=data.get("image"),
            text_overlay=data.get("text_overlay"),
            order=data.get("order"),
        )
        return Response(SlideshowImageOutput(selectors.slideshow_image_to_dict(slide)).data)

    def delete(self, request, pk):
        services.slideshow_image_delete(slideshow_image=get_object_or_404(SlideshowImage, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


@SLIDER_LIST
class SliderImageListApi(_MediaLibraryView):
    def get(self, request):
        return Response(SliderImageOutput(selectors.slider_image_list(), many=True).data)

    def post(self, request):
        data = self.payload(SliderImageCreateInput, request)
        slider_image = services.slider_image_create(
            image=data["image"], alt_text=data["alt_text"], description=data.get("description", "")
        )
        return Response(
            SliderImageOutput(selectors.slider_image_to_dict(slider_image)).data, status=status.HTTP_201_CREATED
        )


@SLIDER_DETAIL
class SliderImageDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        slider_image = get_object_or_404(SliderImage, pk=pk)
        return Response(SliderImageOutput(selectors.slider_image_to_dict(slider_image)).data)

    def put(self, request, pk):
        slider_image = get_object_or_404(SliderImage, pk=pk)
        data = self.payload(SliderImageUpdateInput, request)
        slider_image = services.slider_image_update(
            slider_image=slider_image,
            image=data.get("image"),
            alt_text=data.get("alt_text"),
            description=data.get("description"),
        )
        return Response(SliderImageOutput(selectors.slider_image_to_dict(slider_image)).data)

    def delete(self, request, pk):
        services.slider_image_delete(slider_image=get_object_or_404(SliderImage, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


@MEDIA_LIST
class MediaListApi(_MediaLibraryView):
    def get(self, request):
        return Response(MediaOutput(selectors.media_list(), many=True).data)

    def post(self, request):
        data = self.payload(MediaInput, request)
        media = services.media_create(
            title=data["title"],
            description=data.get("description", ""),
            media_type=data.get("media_type"),
            file=data.get("file"),
            external_url=data.get("external_url", ""),
            poster=data.get("poster"),
            home_background=bool(data.get("home_background")),
        )
        return Response(MediaOutput(selectors.media_to_dict(media)).data, status=status.HTTP_201_CREATED)


@MEDIA_DETAIL
class MediaDetailApi(_MediaLibraryView):
    def get(self, request, pk):
        return Response(MediaOutput(selectors.media_to_dict(get_object_or_404(Media, pk=pk))).data)

    def put(self, request, pk):
        media = get_object_or_404(Media, pk=pk)
        data = self.payload(MediaUpdateInput, request)
        media = services.media_update(
            media=media,
            title=data["title"],
            description=data.get("description"),
            media_type=data.get("media_type"),
            file=data.get("file"),
            external_url=data.get("external_url"),
            poster=data.get("poster"),
            home_background=data.get("home_background"),
        )
        return Response(MediaOutput(selectors.media_to_dict(media)).data)

    def delete(self, request, pk):
        services.media_delete(media=get_object_or_404(Media, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)
