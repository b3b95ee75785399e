"""Room-rental requests (docs/decisions.md 17): anyone asks for the room (rate-limited per client address,
docs/decisions.md 31), staff list the requests; what the API accepts and answers."""

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.company import COMPANY_MAX_LENGTHS
from bookings.apis.common import OptionalText
from media_library.fields import FullMatchValidator
from messaging.apis.serializers import BlankIsTextSchema, StaffListQuery, TextField
from studio.api import CsrfForBrowsers
from studio.pagination import StandardPagination
from studio.parsers import MSG_TEXT_TOO_LONG
from studio.permissions import IsStudioStaff
from studio.ratelimit import PublicFormThrottle
from studio.schema import ErrorOutput

from ..models import RentalEventType
from ..selectors import rental_requests_for_staff
from ..services import rentals

PAGE_NOT_FOUND = {404: OpenApiResponse(ErrorOutput, description="Page au-delà de la dernière.")}


def checked_query(serializer_class, request) -> dict:
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


def paginated(request, view, queryset, shape) -> dict:
    """One page of the staff's list, each row shaped by `shape`."""
    paginator = StandardPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.page_body([shape(item) for item in page])


# Ten digits, with spaces, dots or dashes between them as people type them (the service keeps the digits).
# Spaces, dots or dashes spelled out (Python's `\s` and ECMAScript's differ), the whole text matched, nothing trimmed.
PHONE_PATTERN = FullMatchValidator(r"^[ .\-]*(?:[0-9][ .\-]*){10}$", message=rentals.MSG_RENTAL_PHONE)


def rental_data(rental) -> dict:
    return {
        "id": rental.pk,
        "name": rental.name,
        "email": rental.email,
        "phone": rental.phone,
        "eventType": rental.event_type,
        "date": rental.date.isoformat(),
        "time": rental.time.strftime("%H:%M"),
        "message": rental.message,
        "user_id": rental.user_id,
        "created_at": timezone.localtime(rental.created_at).isoformat(),
        **{field: getattr(rental, field) for field in COMPANY_MAX_LENGTHS},
    }


class RentalRequestOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    eventType = serializers.CharField()  # noqa: N815 (the field name clients read)
    date = serializers.DateField()
    time = serializers.CharField(help_text="HH:MM")
    message = serializers.CharField(allow_blank=True)
    user_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    company_name = serializers.CharField(allow_blank=True, help_text="la société à facturer ('' : aucune)")
    company_siren = serializers.CharField(allow_blank=True)
    company_vat_number = serializers.CharField(allow_blank=True)
    company_address = serializers.CharField(allow_blank=True)


class RentalRequestPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = RentalRequestOutput(many=True)


RENTAL_REQUIRED = {key: rentals.MSG_RENTAL_REQUIRED for key in ("required", "blank", "null")}


def _company_text(max_length: int) -> OptionalText:
    return OptionalText(
        allow_null=True, max_length=max_length, trim_whitespace=False, error_messages={"max_length": MSG_TEXT_TOO_LONG}
    )


class RentalRequestInput(serializers.Serializer):
    name = TextField(max_length=150, error_messages=RENTAL_REQUIRED)
    email = serializers.EmailField(max_length=254, error_messages=RENTAL_REQUIRED)
    phone = TextField(max_length=20, validators=[PHONE_PATTERN], trim_whitespace=False, error_messages=RENTAL_REQUIRED)
    eventType = serializers.ChoiceField(  # noqa: N815 (the field name clients send)
        choices=RentalEventType.choices,
        default=RentalEventType.PRIVATE_EVENT,
        error_messages={"invalid_choice": rentals.MSG_RENTAL_EVENT_TYPE},
    )
    date = serializers.DateField(help_text="Aujourd'hui ou plus tard.", error_messages=RENTAL_REQUIRED)
    time = serializers.TimeField(error_messages=RENTAL_REQUIRED)
    message = TextField(required=False, allow_blank=True, default="")
    # A company to invoice (docs/decisions.md 54); the service checks the SIREN's key and the VAT number's shape.
    company_name = _company_text(200)
    company_siren = _company_text(20)
    company_vat_number = _company_text(30)
    company_address = _company_text(300)


class RentalRequestSchema(BlankIsTextSchema):
    target_class = RentalRequestInput


class RentalRequestListCreateApi(APIView):
    """POST: anyone asks for the room (rate-limited per client address, docs/decisions.md 31). GET: staff list for
    the dashboard, paginated, `?ordering=`."""

    throttle_classes = [PublicFormThrottle]
    rate_limit_form = "rental"

    def get_permissions(self):
        return [AllowAny(), CsrfForBrowsers()] if self.request.method == "POST" else [IsStudioStaff()]

    @extend_schema(
        operation_id="rental_requests_list",
        parameters=[StaffListQuery],
        responses={200: RentalRequestPageOutput, **PAGE_NOT_FOUND},
    )
    def get(self, request):
        query = checked_query(StaffListQuery, request)
        queryset = rental_requests_for_staff(ordering=query.get("ordering"))
        page = paginated(request, self, queryset, rental_data)
        return Response(RentalRequestPageOutput(page).data)

    @extend_schema(request=RentalRequestInput, responses={201: RentalRequestOutput})
    def post(self, request):
        payload = RentalRequestInput(data=request.data)
        payload.is_valid(raise_exception=True)  # the first message answers: MSG_RENTAL_REQUIRED, MSG_RENTAL_PHONE...
        data = payload.validated_data
        rental = rentals.room_rental_request_create(
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            event_type=data["eventType"],
            date=data["date"],
            time=data["time"],
            message=data["message"],
            user=request.user,
            company={field: data[field] for field in COMPANY_MAX_LENGTHS if data.get(field)},
        )
        return Response(RentalRequestOutput(rental_data(rental)).data, status=status.HTTP_201_CREATED)
