import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SECTIONS, sectionFromPath } from "../sections.js";
import Exports, { MSG_EXPORT_RANGE, exportUrl } from "./Exports.jsx";

afterEach(cleanup);

describe("dashboard CSV exports (issue 20)", () => {
  it("is a section at /admin/exports", () => {
    expect(SECTIONS.find((s) => s.key === "exports").label).toBe("Exports");
    expect(sectionFromPath("/admin/exports")).toBe("exports");
  });

  it("links each export to the API for the chosen days", () => {
    expect(exportUrl("orders", "2026-03-01", "2026-03-31")).toBe("/api/exports/orders?start=2026-03-01&end=2026-03-31");
    render(<Exports />);
    fireEvent.change(screen.getByLabelText("Du"), { target: { value: "2026-03-01" } });
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2026-03-31" } });
    expect(screen.getByRole("link", { name: "Réservations et présences" }).getAttribute("href")).toBe("/api/exports/reservations?start=2026-03-01&end=2026-03-31");
    fireEvent.change(screen.getByLabelText("Au (inclus)"), { target: { value: "2026-02-01" } });
    expect(screen.getByRole("alert").textContent).toBe(MSG_EXPORT_RANGE);
    expect(screen.queryByRole("link", { name: "Membres" })).toBeNull();
  });
});
