from django.urls import path

from . import apis

urlpatterns = []

api_urlpatterns = [
    path("paypal/config", apis.PaymentConfigApi.as_view(), name="paypal-config"),
    path("paypal/create-order", apis.CreateOrderApi.as_view(), name="paypal-create-order"),
    path("paypal/capture-payment", apis.CapturePaymentApi.as_view(), name="paypal-capture-payment"),
    path("paypal/cancel-order", apis.CancelOrderApi.as_view(), name="paypal-cancel-order"),
    path("paypal/simulator/approve", apis.SimulatorApproveApi.as_view(), name="paypal-simulator-approve"),
    path("paypal/webhook", apis.WebhookApi.as_view(), name="paypal-webhook"),
    path("paypal/orders", apis.PaymentOrdersApi.as_view(), name="paypal-orders"),
    path("paypal/orders/<str:order_id>", apis.PaymentOrderDetailApi.as_view(), name="paypal-order-detail"),
]
