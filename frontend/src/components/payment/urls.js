/* The payment endpoints the widget and its panes call. */
export const PAYMENT_URLS = {
  create: "/api/paypal/create-order",
  capture: "/api/paypal/capture-payment",
  cancel: "/api/paypal/cancel-order",
  simulate: "/api/paypal/simulator/approve",
  authenticate: "/api/paypal/simulator/authenticate",
  deposit: "/api/paypal/deposit-order",
  stripeComplete: "/api/stripe/complete-payment",
};
