import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDayAndTime, orderStatusLabel, orderTypeLabel } from "../format.js";
import Orders, { invoiceUrl, ordersConfig } from "./Orders.jsx";

afterEach(cleanup);

const column = ordersConfig.columns.find((c) => c.key === "invoice");

describe("orders list: the invoice of each paid order", () => {
  it("links a paid order, or one paid then refunded, to its invoice's PDF", () => {
    expect(column.label).toBe("Facture");
    expect(invoiceUrl({ order_id: "SIM A/1", status: "COMPLETED", completed_at: null })).toBe("/api/invoices/orders/SIM%20A%2F1/pdf");
    render(<div>{column.render({ order_id: "SIM-9", status: "REFUNDED", completed_at: "2026-03-01T10:00:00+01:00" })}</div>);
    const link = screen.getByRole("link", { name: "Télécharger la facture de la commande SIM-9" });
    expect(link.getAttribute("href")).toBe("/api/invoices/orders/SIM-9/pdf");
    expect(link.hasAttribute("download")).toBe(true);
  });

  it("shows a dash for an order never paid", () => {
    expect(invoiceUrl({ order_id: "SIM-2", status: "CREATED", completed_at: null })).toBe("");
    expect(column.render({ order_id: "SIM-2", status: "DECLINED", completed_at: null })).toBe("—");
  });
});

describe("orders list: in French, in a laptop's width", () => {
  const ORDER = {
    order_id: "SIM-41",
    provider: "simulator",
    email: "chloe.martin@example.fr",
    first_name: "Chloé",
    last_name: "Martin",
    title: "Acompte EVJF de Chloé",
    amount: "1234.50",
    currency: "EUR",
    date: "2026-03-10",
    time: "18:30:00",
    type: "ACOMPTE_EVJF",
    status: "COMPLETED",
    completed_at: "2026-03-10T18:31:00+01:00",
  };

  it("names each status and type in French, never by its code", () => {
    expect(orderStatusLabel("COMPLETED")).toBe("Payée");
    expect(orderStatusLabel("CREATED")).toBe("Créée");
    expect(orderStatusLabel("REFUND_PENDING")).toBe("Remboursement en cours");
    expect(orderTypeLabel("ACOMPTE_EVJF")).toBe("Acompte EVJF");
    expect(orderTypeLabel("ACOMPTE_LOCATION")).toBe("Acompte location de salle");
    expect(orderTypeLabel("ABONNEMENT_PAYPAL")).toBe("Abonnement PayPal");
    expect(orderTypeLabel("forfait")).toBe("Forfait");
    expect(orderTypeLabel("UNKNOWN")).toBe("Non précisé");
    // A code the dashboard does not know yet is spelled out, not shown raw.
    expect(orderTypeLabel("ACOMPTE_EVG_GROUPE")).toBe("Acompte EVG groupe");
    expect(formatDayAndTime("2026-03-10", "18:30:00")).toBe("10/03/2026 18:30");
    expect(formatDayAndTime("2026-03-10", "9h05")).toBe("10/03/2026 09:05");
  });

  it("shows date, client with the e-mail under the name, object, amount, status and invoice", async () => {
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify({ count: 1, next: null, previous: null, results: [ORDER] }), { status: 200 }));
    render(<Orders user={{ role: "admin" }} />);
    const row = (await screen.findByRole("link", { name: "Télécharger la facture de la commande SIM-41" })).closest("tr");
    const cells = Object.fromEntries(within(row).getAllByRole("cell").map((cell) => [cell.dataset.label, cell.textContent.replace(/\s/g, " ")]));
    expect(cells).toEqual({
      Date: "10/03/2026 18:30",
      Client: "Chloé Martinchloe.martin@example.fr",
      Objet: "Acompte EVJF de ChloéAcompte EVJF · n° SIM-41",
      Montant: "1 234,50 €",
      Statut: "Payée",
      Facture: "PDF",
      Actions: "Actions : la commande SIM-41 ▾",
    });
    const headers = screen.getAllByRole("columnheader").map((th) => th.textContent);
    expect(headers.map((h) => h.replace(/[▲▼↕].*$/, "").trim())).toEqual(["Date", "Client", "Objet", "Montant", "Statut", "Facture", "Actions"]);
    const text = document.querySelector("table").textContent;
    for (const code of ["ACOMPTE_EVJF", "COMPLETED", "2026-03-10"]) expect(text).not.toContain(code);
  });

  it("edits the type and the status by their French names", async () => {
    globalThis.fetch = vi.fn(async () => new Response(JSON.stringify({ count: 1, next: null, previous: null, results: [ORDER] }), { status: 200 }));
    render(<Orders user={{ role: "admin" }} />);
    fireEvent.click(await screen.findByRole("button", { name: "Actions : la commande SIM-41" }));
    fireEvent.click(screen.getByRole("menuitem", { name: /^Modifier/ }));
    const status = screen.getByLabelText(/^Statut/);
    expect(status.value).toBe("COMPLETED");
    expect(status.selectedOptions[0].textContent).toBe("Payée");
    expect(screen.getByLabelText(/^Type/).selectedOptions[0].textContent).toBe("Acompte EVJF");
  });
});
