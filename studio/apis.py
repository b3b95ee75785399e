"""Staff APIs of the core under /api/emails/: the mails that did not leave, and their resend (docs/decisions.md 41).

A refused resend (`EmailError`: unknown mail 404, already sent 400) goes to the shared exception handler."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .emails import MSG_EMAIL_REQUEUED, email_resend
from .models import EmailStatus
from .pagination import StandardPagination
from .permissions import IsStudioStaff
from .schema import ErrorOutput
from .selectors import emails_undelivered


class UndeliveredEmailOutput(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.ListField(child=serializers.CharField())
    subject = serializers.CharField()
    template = serializers.CharField()
    status = serializers.ChoiceField(choices=EmailStatus.choices, help_text="PENDING (à renvoyer) ou FAILED.")
    status_label = serializers.CharField(source="get_status_display")
    attempts = serializers.IntegerField(min_value=0)
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class UndeliveredEmailPageOutput(serializers.Serializer):
    count = serializers.IntegerField(min_value=0)
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = UndeliveredEmailOutput(many=True)


class QueryInteger(serializers.IntegerField):
    """An integer query parameter: present but empty (`?page=`) is refused, not read as absent."""

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, serializers.empty)


class PageQuery(serializers.Serializer):
    """?page= and ?page_size= of the staff lists (StandardPagination), checked before the paginator reads them."""

    page = QueryInteger(required=False, min_value=1, max_value=2**31 - 1)
    page_size = QueryInteger(required=False, min_value=1, max_value=StandardPagination.max_page_size)


class ResendOutput(serializers.Serializer):
    message = serializers.CharField()
    email = UndeliveredEmailOutput()


class UndeliveredEmailsApi(APIView):
    """GET /api/emails/undelivered (paginated), staff only: mails given up or waiting for another attempt."""

    permission_classes = [IsStudioStaff]

    @extend_schema(
        parameters=[PageQuery],
        responses={
            200: UndeliveredEmailPageOutput,
            404: OpenApiResponse(ErrorOutput, description="Page au-delà de la liste."),
        },
    )
    def get(self, request):
        PageQuery(data=request.query_params).is_valid(raise_exception=True)
        paginator = StandardPagination()
        page = paginator.paginate_queryset(emails_undelivered(), request, view=self)
        return Response(UndeliveredEmailPageOutput(paginator.page_body(page)).data)


class EmailResendApi(APIView):
    """POST /api/emails/<id>/resend, staff only: the mail's attempts start again and a worker sends it."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=None, responses=ResendOutput)
    def post(self, request, email_id: int):
        email = email_resend(email_id=email_id)
        email.refresh_from_db()
        return Response(ResendOutput({"message": MSG_EMAIL_REQUEUED, "email": email}).data)
