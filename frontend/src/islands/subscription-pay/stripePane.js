/* Stripe's Payment Element (the payment island's StripePane, mode "setup"), loaded only when a member saves a
   method with Stripe: @stripe/stripe-js stays out of the profile's and the order modal's first load. */
import { lazy } from "react";

export const StripePane = lazy(() =>
  import(/* webpackChunkName: "stripe-pane" */ "../../components/payment/StripePane.jsx").then((module) => ({
    default: module.StripePane || module.default,
  })),
);
