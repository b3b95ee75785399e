import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

import { notify } from "../../components/toast.jsx";
import { MSG_LOGIN_REQUIRED, normalizeQuantity } from "./messages.js";
import TariffOrder from "./TariffOrder.jsx";

const CONFIG = { provider: "simulator", clientId: "", currency: "EUR" };
const MEMBER = { first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

function page() {
  document.body.insertAdjacentHTML(
    "beforeend",
    `<div id="cards"><form action="/tarifs/commander"><button type="submit" data-tariff-order data-tariff-id="4" data-tariff-title="Carte de 10 cours" data-tariff-price="190.00">Commander</button></form></div>`,
  );
}

// jsdom has <dialog> without showModal()/close().
HTMLDialogElement.prototype.showModal ??= function showModal() {
  this.setAttribute("open", "");
};
HTMLDialogElement.prototype.close ??= function close() {
  this.removeAttribute("open");
  this.dispatchEvent(new Event("close"));
};

beforeEach(() => {
  vi.mocked(notify).mockClear();
  page();
});
afterEach(() => {
  cleanup();
  document.getElementById("cards")?.remove();
});

describe("tariff order rules", () => {
  it("keeps SPEC.md 5's wording and quantity rule", () => {
    expect(MSG_LOGIN_REQUIRED).toBe("Vous devez être connecté pour effectuer une réservation.");
    expect(normalizeQuantity("0")).toBe(1);
    expect(normalizeQuantity("abc")).toBe(1);
    expect(normalizeQuantity("3")).toBe(3);
  });
});

describe("TariffOrder", () => {
  it("tells visitors to log in and opens nothing", () => {
    render(<TariffOrder user={null} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(notify).toHaveBeenCalledWith(MSG_LOGIN_REQUIRED, "warning");
    expect(screen.queryByLabelText("Quantité")).toBeNull();
  });

  it("opens for members with quantity 1, totals to 2 decimals, and resets the quantity on reopening", () => {
    render(<TariffOrder user={MEMBER} paymentConfig={CONFIG} />);
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    const quantity = screen.getByLabelText("Quantité");
    expect(quantity.value).toBe("1");
    expect(screen.getByText("190,00 €", { selector: "[data-total]" })).toBeTruthy();
    fireEvent.change(quantity, { target: { value: "3" } });
    expect(screen.getByText("570,00 €", { selector: "[data-total]" })).toBeTruthy();
    fireEvent.change(quantity, { target: { value: "0" } });
    fireEvent.blur(quantity);
    expect(quantity.value).toBe("1");
    fireEvent.change(quantity, { target: { value: "2" } });
    fireEvent.click(screen.getAllByRole("button", { name: "Annuler" }).at(-1));
    expect(screen.queryByLabelText("Quantité")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Commander" }));
    expect(screen.getByLabelText("Quantité").value).toBe("1");
  });
});
