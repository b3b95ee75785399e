import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SECTIONS, sectionFromPath } from "../sections.js";
import Accounting, { FILES, MSG_ACCOUNTING_RANGE, accountingUrl, previousMonth } from "./Accounting.jsx";

afterEach(cleanup);

describe("dashboard accounting", () => {
  it("is a section at /admin/accounting", () => {
    expect(SECTIONS.find((s) => s.key === "accounting").label).toBe("Comptabilité");
    expect(sectionFromPath("/admin/accounting")).toBe("accounting");
  });

  it("offers the previous month's journal and FEC", () => {
    expect(previousMonth(new Date(2027, 2, 15))).toEqual(["2027-02-01", "2027-02-28"]);
    expect(previousMonth(new Date(2027, 0, 3))).toEqual(["2026-12-01", "2026-12-31"]);
    render(<Accounting today={new Date(2027, 2, 15)} />);
    expect(screen.getByRole("link", { name: FILES[0].label }).getAttribute("href")).toBe("/api/accounting/journal?start=2027-02-01&end=2027-02-28");
    expect(screen.getByRole("link", { name: FILES[1].label }).getAttribute("href")).toBe(accountingUrl("fec", "2027-02-01", "2027-02-28"));
  });

  it("refuses a period that ends before it starts", () => {
    render(<Accounting today={new Date(2027, 2, 15)} />);
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2027-01-01" } });
    expect(screen.getByRole("alert").textContent).toBe(MSG_ACCOUNTING_RANGE);
    expect(screen.queryByRole("link", { name: FILES[1].label })).toBeNull();
  });
});
