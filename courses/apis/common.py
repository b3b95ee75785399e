"""What the catalogue's APIs share: public reads with staff writes, and reading a payload."""

from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from studio.parsers import JSON_ONLY
from studio.permissions import IsStudioStaff

from ..services import catalogue


class PublicReadStaffWrite(APIView):
    """GET for everyone; any write for admins and supervisors only, in JSON (the dashboard's payloads)."""

    parser_classes = JSON_ONLY

    def get_permissions(self):
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return [AllowAny()]
        return [IsStudioStaff()]


def valid_payload(serializer_class, request) -> dict:
    if request.content_type.startswith("multipart/form-data") and not request.data:
        # A form with no field at all (a body no form sends): refused, as the multipart schemas say (minProperties).
        raise catalogue.CatalogueError.of("form_empty")
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)
