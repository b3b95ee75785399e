/* The booking popup's health step (docs/decisions.md 48): a booking refused with `declaration_required` shows the
   questionnaire and both documents; answered and accepted, the booking is sent again; the waiting list does the same. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";

import HealthStep, { LABEL_ACCEPT, LABEL_SUBMIT, MSG_ACCEPT_BOTH, MSG_ANSWER_EACH } from "./HealthStep.jsx";
import ReservationForm from "./ReservationForm.jsx";
import WaitlistPanel from "./WaitlistPanel.jsx";
import { asksHealth } from "./health.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const REQUIRED = "Avant votre premier cours, répondez au questionnaire de santé et acceptez la décharge de responsabilité et le règlement intérieur.";
const current = {
  questionnaire: {
    version: 1,
    questions: [
      { text: "Avez-vous une blessure récente ?", advice: "Parlez-en à votre professeur·e." },
      { text: "Êtes-vous enceinte ?", advice: "" },
    ],
  },
  waiver: { kind: "waiver", version: 2, title: "Décharge de responsabilité", body: "Premier paragraphe.\n\nSecond paragraphe." },
  house_rules: { kind: "house_rules", version: 1, title: "Règlement intérieur", body: "Arrivez à l'heure." },
  missing: ["questionnaire", "waiver", "house_rules"],
  valid_until: null,
};
const asked = { status: 409, body: { error: REQUIRED, code: "declaration_required", missing: ["questionnaire", "waiver", "house_rules"] } };

function serve(routes) {
  const calls = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init = {}) => {
    const method = init.method || "GET";
    calls.push({ url: String(url), method, body: init.body ? JSON.parse(init.body) : undefined });
    const answer = routes(String(url), method, calls);
    return new Response(JSON.stringify(answer.body), { status: answer.status || 200 });
  });
  return calls;
}

function answerAll() {
  const groups = screen.getAllByRole("group");
  fireEvent.click(groups[0].querySelectorAll("input")[0]); // oui
  fireEvent.click(groups[1].querySelectorAll("input")[1]); // non
}

describe("the health step", () => {
  it("knows the refusals that ask it", () => {
    expect(asksHealth({ status: 409, data: { code: "declaration_renew" } })).toBe(true);
    expect(asksHealth({ status: 409, data: { code: "session_full" } })).toBe(false);
  });

  it("asks every answer and the acceptance, shows the advice of a yes, and records the versions read", async () => {
    const calls = serve((url, method) => {
      if (method === "POST") return { status: 201, body: { message: "Merci, vos réponses sont enregistrées : vous pouvez réserver.", advice: [] } };
      return { body: current };
    });
    const onDone = vi.fn();
    render(<HealthStep reason={REQUIRED} onDone={onDone} onCancel={() => {}} />);
    expect(await screen.findByText("Avez-vous une blessure récente ?")).toBeTruthy();
    expect(screen.getByText(REQUIRED)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: LABEL_SUBMIT }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_ANSWER_EACH);
    answerAll();
    expect(screen.getByText("Parlez-en à votre professeur·e.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: LABEL_SUBMIT }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_ACCEPT_BOTH);
    fireEvent.click(screen.getByLabelText(LABEL_ACCEPT));
    fireEvent.click(screen.getByRole("button", { name: LABEL_SUBMIT }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const post = calls.find((c) => c.method === "POST");
    expect(post.body).toEqual({ questionnaire_version: 1, waiver_version: 2, house_rules_version: 1, answers: [true, false], accepted: true });
  });

  it("in the booking popup: asked, answered, then the booking is sent again", async () => {
    let declared = false;
    const calls = serve((url, method) => {
      if (url.includes("/api/passes/mine")) return { body: [] };
      if (url.includes("/api/health/current")) return { body: current };
      if (url.includes("/api/health/declaration")) {
        declared = true;
        return { status: 201, body: { message: "Merci, vos réponses sont enregistrées : vous pouvez réserver.", advice: [] } };
      }
      if (method === "POST") return declared ? { status: 201, body: { id: 4, total_amount: "25.00", hold_expires_at: "2031-03-10T18:00:00+01:00", message: "ok" } } : asked;
      return { body: {} };
    });
    const session = { id: 9, course_title: "Pole", date: "2031-03-10T18:30:00+01:00", end_date: "2031-03-10T19:45:00+01:00", seats_left: 4, max_attendees: 8, price_per_participant: "25.00", instructor: "Léa" };
    const user = { id: 1, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
    const onHeld = vi.fn();
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" passesUrl={null} onHeld={onHeld} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect(await screen.findByText("Avez-vous une blessure récente ?")).toBeTruthy();
    answerAll();
    fireEvent.click(screen.getByLabelText(LABEL_ACCEPT));
    fireEvent.click(screen.getByRole("button", { name: LABEL_SUBMIT }));
    await waitFor(() => expect(onHeld).toHaveBeenCalled());
    expect(calls.filter((c) => c.url.includes("/api/reservations-courses")).length).toBe(2);
  });

  it("in the waiting list: asked, answered, then joined", async () => {
    let declared = false;
    let inLine = false;
    serve((url, method) => {
      if (url.includes("/api/passes/mine")) return { body: [] };
      if (url.includes("/api/waitlist/mine")) return { body: inLine ? [{ session_id: 9, status: "waiting", position: 1 }] : [] };
      if (url.includes("/api/health/current")) return { body: current };
      if (url.includes("/api/health/declaration")) {
        declared = true;
        return { status: 201, body: { message: "ok", advice: [] } };
      }
      if (method === "POST") {
        if (!declared) return asked;
        inLine = true;
        return { status: 201, body: { position: 1 } };
      }
      return { body: {} };
    });
    render(<WaitlistPanel session={{ id: 9, seats_left: 0, max_attendees: 8 }} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "Rejoindre la liste d'attente" }));
    expect(await screen.findByText("Avez-vous une blessure récente ?")).toBeTruthy();
    answerAll();
    fireEvent.click(screen.getByLabelText(LABEL_ACCEPT));
    fireEvent.click(screen.getByRole("button", { name: LABEL_SUBMIT }));
    expect(await screen.findByText("Vous êtes en position 1 sur la liste d'attente.")).toBeTruthy();
  });
});
