import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MSG_FIELD_REQUIRED, MSG_FORM_INVALID } from "../messages.js";
import { SECTIONS } from "../sections.js";
import {
  CancelClosureSessions,
  closuresConfig,
  MSG_CLOSURE_DELETED,
  MSG_CLOSURE_ENDS_BEFORE_START,
  MSG_CLOSURE_REASON_REQUIRED,
  validateClosure,
} from "./Closures.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(status, body) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })));
}

const CLOSURE = { id: 3, label: "Vacances de Noël", starts_on: "2026-12-24", ends_on: "2027-01-01", sessions_planned: 4 };

describe("dashboard: Fermetures", () => {
  it("is a section of its own, listing each closure's days in French and its classes", () => {
    expect(SECTIONS.find((s) => s.key === "closures").label).toBe("Fermetures");
    expect(closuresConfig.endpoint).toBe("/api/closures");
    expect(closuresConfig.itemPath(CLOSURE)).toBe("/api/closures/3");
    const cells = Object.fromEntries(closuresConfig.columns.map((c) => [c.label, c.render ? c.render(CLOSURE) : CLOSURE[c.key]]));
    expect(cells).toEqual({ Intitulé: "Vacances de Noël", Du: "24/12/2026", "Au (inclus)": "01/01/2027", "Cours programmés": 4 });
  });

  it("labels its fields and sends them as the API reads them", () => {
    expect(closuresConfig.fields().map((f) => f.label)).toEqual(["Intitulé", "Premier jour", "Dernier jour (inclus)"]);
    expect(closuresConfig.toPayload({ label: " Vacances de Noël ", starts_on: "2026-12-24", ends_on: "2027-01-01" })).toEqual({
      label: "Vacances de Noël",
      starts_on: "2026-12-24",
      ends_on: "2027-01-01",
    });
    expect(closuresConfig.savedMessage({ message: "Fermeture « Vacances de Noël » enregistrée du 24/12/2026 au 01/01/2027." })).toBe(
      "Fermeture « Vacances de Noël » enregistrée du 24/12/2026 au 01/01/2027.",
    );
    expect(closuresConfig.messages.deleted).toBe(MSG_CLOSURE_DELETED);
    expect(MSG_CLOSURE_DELETED).toBe("Fermeture supprimée. Les cours qu'elle a annulés restent annulés.");
  });

  it("refuses a last day before the first, and missing fields, in French", () => {
    const backwards = validateClosure({ label: "Noël", starts_on: "2026-12-24", ends_on: "2026-12-23" });
    expect(backwards).toEqual({ message: MSG_FORM_INVALID, errors: { ends_on: MSG_CLOSURE_ENDS_BEFORE_START } });
    expect(MSG_CLOSURE_ENDS_BEFORE_START).toBe("Le dernier jour de la fermeture doit être le premier jour ou un jour après.");
    expect(validateClosure({ label: " ", starts_on: "", ends_on: "" }).errors).toEqual({
      label: MSG_FIELD_REQUIRED,
      starts_on: MSG_FIELD_REQUIRED,
      ends_on: MSG_FIELD_REQUIRED,
    });
    expect(validateClosure({ label: "Pont", starts_on: "2026-05-15", ends_on: "2026-05-15" })).toBeNull();
  });
});

describe("dashboard: Annuler les cours de la fermeture", () => {
  it("asks for the reason, cancels the classes and keeps the count in view", async () => {
    const message = "4 cours annulé(s) pendant la fermeture « Vacances de Noël » : 6 réservation(s) annulée(s), 2 remboursement(s) par carte en cours. Les inscrits sont prévenus par e-mail.";
    const fetchMock = answer(200, { sessions_cancelled: 4, bookings_cancelled: 6, refunds_queued: 2, message });
    vi.stubGlobal("fetch", fetchMock);
    const onDone = vi.fn();
    render(<CancelClosureSessions closure={CLOSURE} onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: "Annuler les cours de la fermeture Vacances de Noël" }));
    expect(screen.getByText("4 cours programmé(s) du 24/12/2026 au 01/01/2027.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation des cours" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_CLOSURE_REASON_REQUIRED);
    expect(MSG_CLOSURE_REASON_REQUIRED).toBe("Indiquez le motif de l'annulation : il est envoyé aux inscrits.");
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Vacances du studio" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation des cours" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(message));
    expect(onDone).toHaveBeenCalled();
    expect(fetchMock.mock.calls[0][0]).toBe("/api/closures/3/cancel-sessions");
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ reason: "Vacances du studio" });
  });

  it("offers nothing to cancel when no class is planned inside", () => {
    render(<CancelClosureSessions closure={{ ...CLOSURE, sessions_planned: 0 }} />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("shows the server's refusal in French", async () => {
    vi.stubGlobal("fetch", answer(404, { error: "Fermeture introuvable." }));
    render(<CancelClosureSessions closure={CLOSURE} />);
    fireEvent.click(screen.getByRole("button", { name: "Annuler les cours de la fermeture Vacances de Noël" }));
    fireEvent.change(screen.getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Travaux" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation des cours" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Fermeture introuvable."));
  });
});
