import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import Subscriptions, { MSG_FROZEN, subscriptionsUrl } from "./Subscriptions.jsx";

HTMLDialogElement.prototype.showModal ??= function showModal() {
  this.setAttribute("open", "");
};
HTMLDialogElement.prototype.close ??= function close() {
  this.removeAttribute("open");
};

const ROW = {
  id: 7,
  title: "Abonnement annuel illimité",
  status: "unpaid",
  status_label: "Impayé",
  amount: "55.00",
  currency: "EUR",
  period_months: 1,
  periods_committed: 12,
  periods_paid: 1,
  periods_left: 11,
  starts_on: "2030-01-10",
  ends_on: "2031-01-09",
  pass_expires_on: "2030-03-09",
  next_due_on: "2030-02-10",
  next_due_amount: "55.00",
  charges: [{ period: 2, due_on: "2030-02-10", amount: "55.00", status: "failed", status_label: "Refusée", attempts: 1, next_attempt_on: "2030-02-13", paid_at: null, reference: "" }],
  member: { id: 1, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" },
  freezes: [],
};

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Subscriptions section", () => {
  it("builds the filtered URL", () => {
    expect(subscriptionsUrl("")).toBe("/api/subscriptions");
    expect(subscriptionsUrl("unpaid")).toBe("/api/subscriptions?filter=unpaid");
  });

  it("shows Impayé, the charges, and freezes with a reason", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url, options = {}) =>
      options.method === "POST" ? answer(200, { ...ROW, status: "frozen", status_label: "Gelé" }) : answer(200, [ROW]),
    );
    render(<Subscriptions />);
    expect(await screen.findByText("Impayé")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Échéances de l'abonnement 7" }));
    expect(screen.getByText("Refusée (nouvel essai le 13/02/2030)")).toBeTruthy();
    fireEvent.change(screen.getByRole("combobox"), { target: { value: "unpaid" } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/subscriptions?filter=unpaid"))).toBe(true));
    fireEvent.click(await screen.findByRole("button", { name: "Geler l'abonnement 7" }));
    const dialog = screen.getByRole("dialog", { hidden: true });
    fireEvent.change(within(dialog).getByLabelText("Gel à partir du"), { target: { value: "2030-01-20" } });
    fireEvent.change(within(dialog).getByLabelText("Raison"), { target: { value: "Blessure" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Geler", hidden: true }));
    expect(await screen.findByText(MSG_FROZEN)).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, options]) => options && options.method === "POST");
    expect(post[0]).toBe("/api/subscriptions/7/freeze");
    expect(JSON.parse(post[1].body)).toEqual({ starts_on: "2030-01-20", weeks: 4, reason: "Blessure" });
  });
});
