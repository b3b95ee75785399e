from django.urls import path, register_converter

from . import views
from .apis.checkout import CancelOrderApi, CapturePaymentApi, CreateOrderApi
from .apis.class_cancellation import CourseSessionCancellationReportApi
from .apis.closure_cancellation import ClosureCancelSessionsApi
from .apis.deposits import DepositOrderApi
from .apis.desk import DeskPeriodsApi, DeskSalesApi, DeskTakingsApi, DeskTakingsCsvApi
from .apis.desk_bookings import CourseSessionBookingCancelApi, CourseSessionBookingsApi
from .apis.exports import ExportApi
from .apis.simulator import PaymentConfigApi, SimulatorApproveApi, SimulatorAuthenticateApi
from .apis.staff import PaymentOrderDetailApi, PaymentOrdersApi
from .apis.stripe_checkout import CompletePaymentApi, StripeWebhookApi
from .apis.webhooks import WebhookApi
from .apis.withdrawal import WithdrawalApi


class OrderIdConverter:
    """Any character: an order id typed in by the staff may hold a slash or a line break (with `<str:>` such an id
    would get Django's HTML 404 page, not the API's JSON)."""

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(OrderIdConverter, "order_id")

urlpatterns = [
    path("reduced-proofs/<int:proof_id>/file", views.reduced_proof_file, name="reduced-proof-file"),
    path("user/retractation/<str:order_id>", views.withdrawal_page, name="withdrawal"),
]

api_urlpatterns = [
    path("closures/<int:closure_id>/cancel-sessions", ClosureCancelSessionsApi.as_view(), name="api-closure-cancel"),
    path("paypal/config", PaymentConfigApi.as_view(), name="paypal-config"),
    path("paypal/create-order", CreateOrderApi.as_view(), name="paypal-create-order"),
    path("paypal/capture-payment", CapturePaymentApi.as_view(), name="paypal-capture-payment"),
    path("paypal/cancel-order", CancelOrderApi.as_view(), name="paypal-cancel-order"),
    path("paypal/simulator/approve", SimulatorApproveApi.as_view(), name="paypal-simulator-approve"),
    path("paypal/simulator/authenticate", SimulatorAuthenticateApi.as_view(), name="paypal-simulator-authenticate"),
    path("paypal/deposit-order", DepositOrderApi.as_view(), name="paypal-deposit-order"),
    path("paypal/withdrawal", WithdrawalApi.as_view(), name="paypal-withdrawal"),
    path("paypal/webhook", WebhookApi.as_view(), name="paypal-webhook"),
    path("stripe/complete-payment", CompletePaymentApi.as_view(), name="stripe-complete-payment"),
    path("stripe/webhook", StripeWebhookApi.as_view(), name="stripe-webhook"),
    path(
        "course-sessions/<int:session_id>/cancellation",
        CourseSessionCancellationReportApi.as_view(),
        name="api-course-session-cancellation",
    ),
    path(
        "course-sessions/<int:session_id>/bookings",
        CourseSessionBookingsApi.as_view(),
        name="api-course-session-bookings",
    ),
    path(
        "course-sessions/<int:session_id>/bookings/<int:reservation_id>/cancel",
        CourseSessionBookingCancelApi.as_view(),
        name="api-course-session-booking-cancel",
    ),
    path("desk/sales", DeskSalesApi.as_view(), name="api-desk-sales"),
    path("desk/periods", DeskPeriodsApi.as_view(), name="api-desk-periods"),
    path("desk/takings", DeskTakingsApi.as_view(), name="api-desk-takings"),
    path("desk/takings.csv", DeskTakingsCsvApi.as_view(), name="api-desk-takings-csv"),
    path(
        "exports/<str:kind>",
        ExportApi.as_view(),
        name="api-export",
    ),
    path("paypal/orders", PaymentOrdersApi.as_view(), name="paypal-orders"),
    path("paypal/orders/<order_id:order_id>", PaymentOrderDetailApi.as_view(), name="paypal-order-detail"),
]
