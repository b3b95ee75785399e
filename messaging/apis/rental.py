"""Room-rental requests (docs/decisions.md 17): anyone asks for the room, staff list the requests."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from studio.api import CsrfForBrowsers
from studio.permissions import IsStudioStaff
from studio.ratelimit import PublicFormThrottle

from .. import selectors, services
from .common import PAGE_NOT_FOUND, _paginated, _query
from .serializers import RentalRequestInput, RentalRequestOutput, RentalRequestPageOutput, StaffListQuery, rental_data


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
        query = _query(StaffListQuery, request)
        queryset = selectors.rental_requests_for_staff(ordering=query.get("ordering"))
        page = _paginated(request, self, queryset, rental_data)
        return Response(RentalRequestPageOutput(page).data)

    @extend_schema(request=RentalRequestInput, responses={201: RentalRequestOutput})
    def post(self, request):
        payload = RentalRequestInput(data=request.data)
        payload.is_valid(raise_exception=True)  # the first message answers: MSG_RENTAL_REQUIRED, MSG_RENTAL_PHONE...
        data = payload.validated_data
        rental = services.room_rental_request_create(
            name=data["name"],
            email=data["email"],
            phone=data["phone"],
            event_type=data["eventType"],
            date=data["date"],
            time=data["time"],
            message=data["message"],
            user=request.user,
        )
        return Response(RentalRequestOutput(rental_data(rental)).data, status=status.HTTP_201_CREATED)
