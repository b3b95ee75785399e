import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("../toast.jsx", () => ({ notify: vi.fn() }));

import PaymentWidget from "../PaymentWidget.jsx";
import { MSG_OFFERS_SUMMARY } from "./OfferFields.jsx";

function reply(status, body) {
  return Promise.resolve({ ok: status < 400, status, text: () => Promise.resolve(JSON.stringify(body)) });
}

let calls;
function serve(routes) {
  calls = [];
  global.fetch = vi.fn((url, init) => {
    calls.push({ url, body: init.body ? JSON.parse(init.body) : null });
    const handler = routes[url];
    return handler ? handler(JSON.parse(init.body || "{}")) : reply(404, { error: "?" });
  });
}

afterEach(cleanup);

const PREVIEW = {
  price: "190.00",
  discount: "28.50",
  discount_label: "Code promo PRINTEMPS15",
  total: "161.50",
  gift_card_amount: "100.00",
  gift_card_balance: "100.00",
  to_pay: "61.50",
};

function widget(onSuccess = () => {}) {
  return render(
    <PaymentWidget
      order={{ kind: "tariff", tariffId: 3, quantity: 1 }}
      context="tariff"
      payer={{ first_name: "Emma", last_name: "Petit", email: "emma@example.fr" }}
      details={{ title: "Carte 10 cours", type: "TARIF" }}
      totalAmount="190.00"
      onSuccess={onSuccess}
    />,
  );
}

describe("promo code and gift card in the payment widget", () => {
  it("previews the codes, then sends them with the order", async () => {
    serve({
      "/api/promo-codes/check": () => reply(200, PREVIEW),
      "/api/paypal/create-order": () => reply(201, { id: "SIM-1", status: "CREATED", amount: "161.50", currency: "EUR", provider: "simulator" }),
    });
    widget();
    fireEvent.click(await screen.findByText(MSG_OFFERS_SUMMARY));
    fireEvent.change(screen.getByLabelText("Code promo"), { target: { value: "printemps15" } });
    fireEvent.change(screen.getByLabelText("Code de carte cadeau"), { target: { value: "CADEAU-2026" } });
    fireEvent.click(screen.getByText("Appliquer"));
    expect(await screen.findByText(/Code promo PRINTEMPS15 : −28,50/)).toBeTruthy();
    expect(calls[0].body).toEqual({ code: "printemps15", gift_card_code: "CADEAU-2026", tariff_id: 3, quantity: 1 });
    expect(screen.getByRole("button", { name: /Payer 61,50/ })).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: /conditions générales/i }));
    fireEvent.click(screen.getByRole("button", { name: /Payer 61,50/ }));
    await waitFor(() => expect(calls.length).toBe(2));
    expect(calls[1].body).toMatchObject({ amount: "190.00", promo_code: "printemps15", gift_card_code: "CADEAU-2026" });
  });

  it("forgets the preview when the total changes (a new quantity asks again)", async () => {
    serve({ "/api/promo-codes/check": () => reply(200, PREVIEW) });
    const props = {
      order: { kind: "tariff", tariffId: 3, quantity: 1 },
      context: "tariff",
      payer: { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
      details: { title: "Carte 10 cours", type: "TARIF" },
    };
    const { rerender } = render(<PaymentWidget {...props} totalAmount="190.00" />);
    fireEvent.click(await screen.findByText(MSG_OFFERS_SUMMARY));
    fireEvent.change(screen.getByLabelText("Code promo"), { target: { value: "printemps15" } });
    fireEvent.click(screen.getByText("Appliquer"));
    expect(await screen.findByRole("button", { name: /Payer 61,50/ })).toBeTruthy();
    rerender(<PaymentWidget {...props} order={{ ...props.order, quantity: 2 }} totalAmount="380.00" />);
    expect(await screen.findByRole("button", { name: /Payer 380,00/ })).toBeTruthy();
  });

  it("says in French why a code is refused", async () => {
    serve({ "/api/promo-codes/check": () => reply(404, { error: "Ce code promo n'existe pas." }) });
    widget();
    fireEvent.click(await screen.findByText(MSG_OFFERS_SUMMARY));
    fireEvent.change(screen.getByLabelText("Code promo"), { target: { value: "X" } });
    fireEvent.click(screen.getByText("Appliquer"));
    expect(await screen.findByText("Ce code promo n'existe pas.")).toBeTruthy();
  });

  it("a gift card paying it all succeeds without a provider", async () => {
    const onSuccess = vi.fn();
    serve({
      "/api/promo-codes/check": () => reply(200, { ...PREVIEW, gift_card_amount: "161.50", to_pay: "0.00" }),
      "/api/paypal/create-order": () => reply(201, { id: "gc-1", status: "COMPLETED", amount: "161.50", currency: "EUR", provider: "gift_card" }),
    });
    widget(onSuccess);
    fireEvent.click(await screen.findByText(MSG_OFFERS_SUMMARY));
    fireEvent.change(screen.getByLabelText("Code de carte cadeau"), { target: { value: "CADEAU-2026" } });
    fireEvent.click(screen.getByText("Appliquer"));
    await screen.findByText(/Reste à payer/);
    fireEvent.click(screen.getByRole("checkbox", { name: /conditions générales/i }));
    fireEvent.click(screen.getByRole("button", { name: /Payer 0,00/ }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
  });
});

describe("a subscription charged period after period", () => {
  it("offers no promo code nor gift card", async () => {
    serve({});
    render(
      <PaymentWidget
        order={{ kind: "tariff", tariffId: 4, quantity: 1 }}
        context="tariff"
        payer={{ first_name: "Emma", last_name: "Petit", email: "emma@example.fr" }}
        details={{ title: "Abonnement annuel", type: "TARIF" }}
        totalAmount="55.00"
        subscription
      />,
    );
    expect(await screen.findByRole("button", { name: /Payer 55,00/ })).toBeTruthy();
    expect(screen.queryByText(MSG_OFFERS_SUMMARY)).toBeNull();
  });
});
