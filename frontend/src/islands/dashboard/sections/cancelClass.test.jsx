import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CancellationReport, ClassCancelActions, MSG_REASON_REQUIRED, sessionStatusLabel } from "./CancelClass.jsx";
import { sessionsConfig } from "./Sessions.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(status, body) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })));
}

const SESSION = { id: 12, course_title: "Pole Dance", date: "2030-01-14T18:30:00+01:00", status: "scheduled", is_past: false };

describe("dashboard: cancel a class", () => {
  it("shows the status of each session and the class actions in the sessions list", () => {
    expect(sessionStatusLabel({ status: "cancelled" })).toBe("Annulé");
    expect(sessionStatusLabel({ status: "scheduled", is_past: false })).toBe("À venir");
    expect(sessionStatusLabel({ status: "scheduled", is_past: true })).toBe("Passée");
    expect(sessionsConfig.columns.find((c) => c.key === "status").label).toBe("Statut");
    expect(typeof sessionsConfig.rowActions).toBe("function");
  });

  it("asks for the reason, then cancels the class and reloads the list", async () => {
    const fetchMock = answer(200, { ...SESSION, status: "cancelled", message: "Le cours est annulé : 2 réservation(s) annulée(s), les inscrits sont prévenus par e-mail." });
    vi.stubGlobal("fetch", fetchMock);
    const onDone = vi.fn();
    render(<ClassCancelActions session={SESSION} onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: "Annuler le cours" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_REASON_REQUIRED);
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Professeure malade" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0][0]).toBe("/api/course-sessions/12/cancel");
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual({ reason: "Professeure malade" });
  });

  it("shows the server's refusal in French", async () => {
    vi.stubGlobal("fetch", answer(409, { error: "Ce cours est déjà annulé." }));
    render(<ClassCancelActions session={SESSION} />);
    fireEvent.click(screen.getByRole("button", { name: "Annuler le cours" }));
    fireEvent.change(screen.getByLabelText("Motif (envoyé aux inscrits)"), { target: { value: "Travaux" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Ce cours est déjà annulé."));
  });

  it("lists who was refunded or credited once the class is cancelled", async () => {
    vi.stubGlobal(
      "fetch",
      answer(200, {
        refunds_pending: 1,
        results: [
          { reservation_id: 1, first_name: "Emma", last_name: "Petit", email: "emma@example.fr", participants: 1, outcome: "refund_pending", outcome_label: "Remboursement en attente", amount: "25.00", credits: 0 },
          { reservation_id: 2, first_name: "Zoé", last_name: "Martin", email: "zoe@example.fr", participants: 1, outcome: "credits_returned", outcome_label: "Crédits rendus", amount: null, credits: 1 },
        ],
      })
    );
    render(<CancellationReport session={{ ...SESSION, status: "cancelled", cancellation_reason: "Professeure malade" }} />);
    fireEvent.click(screen.getByRole("button", { name: "Remboursements" }));
    await waitFor(() => expect(screen.getByText("Remboursement en attente")).toBeTruthy());
    expect(screen.getByText("Crédits rendus")).toBeTruthy();
    expect(screen.getByText("1 crédit(s)")).toBeTruthy();
    expect(screen.getByText("1 remboursement(s) en attente : ils sont relancés automatiquement.")).toBeTruthy();
    expect(screen.getByText("Motif : Professeure malade")).toBeTruthy();
  });

  it("offers nothing on a past class", () => {
    const { container } = render(<ClassCancelActions session={{ ...SESSION, is_past: true }} />);
    expect(container.textContent).toBe("");
  });
});
