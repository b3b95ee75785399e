import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { invoiceUrl, ordersConfig } from "./Orders.jsx";

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
