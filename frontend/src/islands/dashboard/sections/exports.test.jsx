import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SECTIONS, sectionFromPath } from "../sections.js";
import Exports, { EXPORTS, FORMATS, MSG_EXPORT_RANGE, exportUrl } from "./Exports.jsx";

afterEach(cleanup);

describe("dashboard exports", () => {
  it("is a section at /admin/exports", () => {
    expect(SECTIONS.find((s) => s.key === "exports").label).toBe("Exports");
    expect(sectionFromPath("/admin/exports")).toBe("exports");
  });

  it("links each export to the API for the chosen days", () => {
    expect(exportUrl("orders", "2026-03-01", "2026-03-31", "csv")).toBe("/api/exports/orders?start=2026-03-01&end=2026-03-31&format=csv");
    render(<Exports />);
    fireEvent.change(screen.getByLabelText("Du"), { target: { value: "2026-03-01" } });
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2026-03-31" } });
    fireEvent.click(screen.getByRole("radio", { name: /^CSV/ }));
    expect(screen.getByRole("link", { name: "Réservations et présences" }).getAttribute("href")).toBe("/api/exports/reservations?start=2026-03-01&end=2026-03-31&format=csv");
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2026-02-01" } });
    expect(screen.getByRole("alert").textContent).toBe(MSG_EXPORT_RANGE);
    expect(screen.queryByRole("link", { name: "Membres" })).toBeNull();
  });

  it("offers each export as an .xlsx workbook first, the CSV beside it", () => {
    render(<Exports />);
    const formats = screen.getByRole("group", { name: "Format" });
    expect(within(formats).getAllByRole("radio").map((r) => r.value)).toEqual(["xlsx", "csv"]);
    expect(screen.getByRole("radio", { name: /^Excel \(\.xlsx\)/ }).checked).toBe(true);
    fireEvent.change(screen.getByLabelText("Du"), { target: { value: "2026-03-01" } });
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2026-03-31" } });
    for (const { kind, label } of EXPORTS) {
      expect(screen.getByRole("link", { name: label }).getAttribute("href")).toBe(`/api/exports/${kind}?start=2026-03-01&end=2026-03-31&format=xlsx`);
    }
    expect(screen.getByText(`(${FORMATS[0].hint})`)).toBeTruthy();
    expect(screen.getByText(`(${FORMATS[1].hint})`)).toBeTruthy();
  });
});
