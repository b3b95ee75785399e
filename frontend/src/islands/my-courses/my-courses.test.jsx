import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { LABEL_NOT_PAID, LABEL_PAID_BY_CARD, MSG_FEEDBACK_REQUIRED, MSG_DUE_CANCEL, MSG_HOLD_RELEASE, MSG_LOAD_MORE, MSG_PAY_LOADING, MSG_PAY_TITLE, cancelConsequence, holdUntilLabel, paymentLabel } from "./messages.js";

vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));
const { default: MyCoursesIsland } = await import("./MyCoursesIsland.jsx");
// The payment widget and the simulator's pane are lazy chunks, compiled on first import, which takes as long as the
// machine is busy: compile them before the clock of the assertions starts.
await import("../../components/PaymentWidget.jsx");
await import("../../components/payment/SimulatorPane.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const card = { id: 5, title: "Carte 10 cours", kind: "card" };
const page = (results, next = null) => ({ count: results.length, next, previous: null, results });

const row = {
  reservation_id: 11,
  course_id: 1,
  title: "Pole Exotic",
  date: "2031-03-10T18:30:00+01:00",
  level: "Débutant",
  instructor: "Léa",
  participants: 1,
  status: "confirmed",
  status_label: "Confirmée",
  is_past: false,
  can_cancel: true,
  paid_with_pass: card,
  credits_spent: 1,
};

describe("my courses: passes and cancellation", () => {
  it("says how each reservation was paid", () => {
    expect(paymentLabel(row)).toBe("Carte 10 cours (1 crédit)");
    expect(paymentLabel({ ...row, credits_spent: 2 })).toBe("Carte 10 cours (2 crédits)");
    expect(paymentLabel({ ...row, paid_with_pass: { title: "Abonnement annuel illimité", kind: "subscription" }, credits_spent: 0 })).toBe("Abonnement annuel illimité");
    expect(paymentLabel({ ...row, paid_with_pass: null })).toBe(LABEL_PAID_BY_CARD);
    expect(paymentLabel({ ...row, paid_with_pass: null, credits_spent: 0, desk_payment: "due" })).toBe("À régler à l'accueil");
    expect(paymentLabel({ ...row, paid_with_pass: null, credits_spent: 0, desk_payment: "paid" })).toBe("Payé à l'accueil");
    expect(cancelConsequence({ ...row, paid_with_pass: null, credits_spent: 0, desk_payment: "due" })).toBe(MSG_DUE_CANCEL);
    expect(MSG_DUE_CANCEL).toBe("Votre place sera libérée : rien n'était encore réglé.");
    expect(cancelConsequence(row)).toBe("Votre crédit sera rendu sur votre Carte 10 cours.");
    expect(cancelConsequence({ ...row, credits_spent: 2 })).toBe("Vos 2 crédits seront rendus sur votre Carte 10 cours.");
  });

  it("cancels after confirmation and reloads the list", async () => {
    let cancelled = false;
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url, options) => {
      if (String(url).includes("/cancel")) {
        cancelled = true;
        return new Response(JSON.stringify({ message: "Réservation annulée : 1 crédit(s) rendu(s) sur votre Carte 10 cours." }), { status: 200 });
      }
      return new Response(JSON.stringify(page(cancelled ? [] : [row])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    expect(await screen.findByText("Carte 10 cours (1 crédit)")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Annuler la réservation Pole Exotic/ }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    expect(await screen.findByText("Aucun cours à venir. Réservez depuis le planning !")).toBeTruthy();
    const post = fetchMock.mock.calls.find(([url]) => String(url).includes("/cancel"));
    expect(post[0]).toBe("/api/reservations-courses/11/cancel");
    expect(post[1].method).toBe("POST");
  });

  it("reads the paginated history: page 1 first, older past sessions on demand", async () => {
    const past = (id, date) => ({ ...row, reservation_id: id, date, is_past: true, can_cancel: false, title: `Cours ${id}` });
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      const pageNumber = new URL(String(url), "http://localhost").searchParams.get("page");
      if (pageNumber === "1") return new Response(JSON.stringify(page([row, past(21, "2026-03-02T18:30:00+01:00")], "http://testserver/next")), { status: 200 });
      return new Response(JSON.stringify(page([past(22, "2026-02-02T18:30:00+01:00")])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    expect(await screen.findByText("Cours 21")).toBeTruthy();
    expect(screen.queryByText("Cours 22")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: MSG_LOAD_MORE }));
    expect(await screen.findByText("Cours 22")).toBeTruthy();
    expect(screen.queryByRole("button", { name: MSG_LOAD_MORE })).toBeNull();
    const pastRows = screen.getByRole("table", { name: "Cours passés" }).querySelectorAll("tbody tr");
    expect([...pastRows].map((tr) => tr.cells[0].textContent)).toEqual(["Cours 21", "Cours 22"]);
    const pages = fetchMock.mock.calls.map(([url]) => new URL(String(url), "http://localhost").searchParams.get("page"));
    expect(pages).toEqual(["1", "2"]);
    expect(String(fetchMock.mock.calls[0][0]).startsWith("/api/course-feedback/user/3?page=1")).toBe(true);
  });
});

describe("feedback form", () => {
  it("says in French what is missing, marks the fields and focuses the first one", async () => {
    const past = { ...row, reservation_id: 12, is_past: true, can_cancel: false, can_give_feedback: true, rating: null, comment: "" };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify(page([past])), { status: 200 }));
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    fireEvent.click(await screen.findByRole("button", { name: "Enregistrer mon avis" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(MSG_FEEDBACK_REQUIRED);
    const comment = screen.getByLabelText("Commentaire *");
    expect(comment.getAttribute("aria-invalid")).toBe("true");
    expect(comment.getAttribute("aria-describedby")).toBe(alert.id);
    const firstStar = screen.getByRole("radio", { name: "1 sur 5" });
    expect(document.activeElement).toBe(firstStar);
    expect(fetchMock.mock.calls.filter(([, options]) => options?.method === "POST")).toHaveLength(0);
  });
});

describe("my courses: an unpaid hold is paid or released (it was listed with no action)", () => {
  const held = {
    ...row,
    reservation_id: 12,
    status: "held",
    status_label: "En attente de paiement",
    participants: 2,
    paid_with_pass: null,
    credits_spent: 0,
    can_cancel: true,
    can_pay: true,
    total_amount: "50.00",
    hold_expires_at: "2031-03-01T10:15:00+01:00",
  };

  it("pays the hold through the usual order flow, then shows it confirmed", async () => {
    let paid = false;
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      const text = String(url);
      if (text.includes("create-order")) return new Response(JSON.stringify({ id: "SIM-1", status: "CREATED", amount: "50.00", currency: "EUR" }), { status: 201 });
      if (text.includes("simulator/approve")) return new Response(JSON.stringify({ id: "SIM-1", status: "APPROVED" }), { status: 200 });
      if (text.includes("capture-payment")) {
        paid = true;
        return new Response(JSON.stringify({ id: "SIM-1", status: "COMPLETED", amount: "50.00", currency: "EUR", title: "Pole Exotic" }), { status: 200 });
      }
      return new Response(JSON.stringify(page([paid ? { ...held, status: "confirmed", status_label: "Confirmée", can_pay: false, hold_expires_at: null } : held])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" }} listUrl="/api/course-feedback/user/3" paymentConfig={{ provider: "simulator", clientId: "", currency: "EUR" }} />);
    expect(await screen.findByText(holdUntilLabel("10:15"))).toBeTruthy();
    expect(screen.getByText(LABEL_NOT_PAID)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^Payer la réservation Pole Exotic/ }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: MSG_PAY_TITLE })).toBeTruthy();
    // The payment widget is fetched on opening: a line says so meanwhile.
    expect(within(dialog).getByText(MSG_PAY_LOADING)).toBeTruthy();
    expect(MSG_PAY_LOADING).toBe("Chargement du paiement…");
    fireEvent.click(await within(dialog).findByRole("button", { name: /Payer 50,00/ }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Payer (simulation)" }));
    expect(await screen.findByText("Confirmée")).toBeTruthy();
    const create = fetchMock.mock.calls.find(([url]) => String(url).includes("create-order"));
    const body = JSON.parse(create[1].body);
    expect([body.reservation_id, body.amount, body.email]).toEqual([12, "50.00", "emma@example.fr"]);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes("capture-payment"))).toBe(true);
  });

  it("releases the hold with the member's cancellation, saying nothing was charged", async () => {
    let released = false;
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      if (String(url).includes("/cancel")) {
        released = true;
        return new Response(JSON.stringify({ message: "Réservation annulée : les places retenues sont libérées, rien ne vous a été facturé." }), { status: 200 });
      }
      return new Response(JSON.stringify(page(released ? [] : [held])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" />);
    fireEvent.click(await screen.findByRole("button", { name: /Annuler la réservation Pole Exotic/ }));
    expect(screen.getByText(MSG_HOLD_RELEASE)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    expect(await screen.findByText("Aucun cours à venir. Réservez depuis le planning !")).toBeTruthy();
    expect(fetchMock.mock.calls.find(([url]) => String(url).includes("/cancel"))[0]).toBe("/api/reservations-courses/12/cancel");
  });
});

describe("my courses: the page shows its parts together", () => {
  it("asks for the history, the waiting lists and the reminders at once and shows them when all have answered", async () => {
    let answerWaitlist;
    const waitlistAnswered = new Promise((resolve) => {
      answerWaitlist = resolve;
    });
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
      const text = String(url);
      if (text.startsWith("/api/waitlist/mine")) {
        await waitlistAnswered;
        return new Response(JSON.stringify([{ id: 4, session_id: 9, title: "Pole Flow", date: "2031-03-12T19:00:00+01:00", status: "waiting", position: 2 }]), { status: 200 });
      }
      if (text.startsWith("/api/booking-preferences")) return new Response(JSON.stringify({ remind_day_before: true, remind_cancellation_deadline: false, calendar_url: "" }), { status: 200 });
      return new Response(JSON.stringify(page([row])), { status: 200 });
    });
    render(<MyCoursesIsland user={{ id: 3 }} listUrl="/api/course-feedback/user/3" waitlistUrl="/api/waitlist/mine" preferencesUrl="/api/booking-preferences" />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(screen.getByRole("status").textContent).toBe("Chargement de vos cours…");
    expect(screen.queryByRole("table", { name: "Cours à venir" })).toBeNull();
    answerWaitlist();
    expect(await screen.findByRole("table", { name: "Cours à venir" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Mes listes d'attente" })).toBeTruthy();
    expect(screen.getByRole("checkbox", { name: /24 heures avant chaque cours/ }).checked).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});
