/* The payment endpoints the widget and its panes call. */
export const PAYMENT_URLS = {
  create: "/api/paypal/create-order",
  capture: "/api/paypal/capture-payment",
  cancel: "/api/paypal/cancel-order",
  simulate: "/api/paypal/simulator/approve",
  authenticate: "/api/paypal/simulator/authenticate",
  deposit: "/api/paypal/deposit-order",
  giftCard: "/api/gift-cards",
  stripeComplete: "/api/stripe/complete-payment",
};

/** Where an order is opened: a deposit and a gift card have their own endpoint, a class or a tariff the common one. */
export function createOrderUrl(order) {
  if (order?.kind === "deposit") return PAYMENT_URLS.deposit;
  if (order?.kind === "gift_card") return PAYMENT_URLS.giftCard;
  return PAYMENT_URLS.create;
}
