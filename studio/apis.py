"""Staff APIs of the core under /api/emails/: the mails that did not leave, and their resend (DECISIONS.md 41)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from .api import error_response
from .emails import MSG_EMAIL_REQUEUED, EmailError, email_resend
from .pagination import StandardPagination
from .permissions import IsStudioStaff
from .selectors import emails_undelivered


class UndeliveredEmailOutput(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.ListField(child=serializers.CharField())
    subject = serializers.CharField()
    template = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField(source="get_status_display")
    attempts = serializers.IntegerField()
    last_error = serializers.CharField()
    created_at = serializers.DateTimeField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class ResendOutput(serializers.Serializer):
    message = serializers.CharField()
    email = UndeliveredEmailOutput()


class UndeliveredEmailsApi(APIView):
    """GET /api/emails/undelivered (paginated), staff only: mails given up or waiting for another attempt."""

    permission_classes = [IsStudioStaff]

    @extend_schema(responses=UndeliveredEmailOutput(many=True))
    def get(self, request):
        paginator = StandardPagination()
        page = paginator.paginate_queryset(emails_undelivered(), request, view=self)
        return paginator.get_paginated_response(UndeliveredEmailOutput(page, many=True).data)


class EmailResendApi(APIView):
    """POST /api/emails/<id>/resend, staff only: the mail's attempts start again and a worker sends it."""

    permission_classes = [IsStudioStaff]

    @extend_schema(request=None, responses=ResendOutput)
    def post(self, request, email_id: int):
        try:
            email = email_resend(email_id=email_id)
        except EmailError as exc:
            return error_response(exc.message, exc.status_code)
        email.refresh_from_db()
        return Response(
            {"message": MSG_EMAIL_REQUEUED, "email": UndeliveredEmailOutput(email).data}, status=status.HTTP_200_OK
        )
