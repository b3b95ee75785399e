import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { LABEL_PAY_BY_CARD, MSG_REQUIRED, clickOutcome, formatDay, formatTotal, isUsablePass, normalizeParticipants, passCost, passLabel, seatsLabel } from "./messages.js";

vi.mock("../../components/PaymentWidget.jsx", () => ({
  default: ({ order, totalAmount }) => <p data-testid="widget">{`${order.kind}:${order.reservationId}:${totalAmount}`}</p>,
}));
vi.mock("../../components/toast.jsx", () => ({ notify: vi.fn() }));

const { default: ReservationForm } = await import("./ReservationForm.jsx");

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const session = {
  id: 7,
  course_title: "Exotic Pole",
  date: "2031-03-10T18:30:00+01:00",
  end_date: "2031-03-10T19:45:00+01:00",
  instructor: "Léa",
  seats_left: 4,
  price_per_participant: "25.00",
};
const user = { id: 3, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };

describe("rules", () => {
  it("normalizes participants: non-numeric and below 1 become 1, capped at the seats left", () => {
    expect(normalizeParticipants("abc", 5)).toBe(1);
    expect(normalizeParticipants("", 5)).toBe(1);
    expect(normalizeParticipants("0", 5)).toBe(1);
    expect(normalizeParticipants("3", 5)).toBe(3);
    expect(normalizeParticipants("9", 5)).toBe(5);
  });

  it("computes the total with 2 decimals", () => {
    expect(formatTotal("25.00", 3)).toBe("75.00");
    expect(formatTotal("19.99", 3)).toBe("59.97");
  });

  it("labels full sessions 'Complet'", () => {
    expect(seatsLabel(0)).toBe("Complet");
    expect(seatsLabel(1)).toBe("1 place restante");
  });

  it("decides what a click opens", () => {
    const now = new Date("2031-03-01T00:00:00Z");
    expect(clickOutcome({ user: null, session, now })).toBe("login");
    expect(clickOutcome({ user, session, now: new Date("2031-04-01T00:00:00Z") })).toBe("past");
    expect(clickOutcome({ user, session: { ...session, seats_left: 0 }, now })).toBe("full");
    expect(clickOutcome({ user, session, now })).toBe("reserve");
  });
});

describe("ReservationForm", () => {
  it("prefills the member, refuses blank required fields, then holds and shows the payment widget", async () => {
    const held = { id: 42, total_amount: "50.00", hold_expires_at: "2031-03-01T10:15:00+01:00", first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine") ? new Response("[]", { status: 200 }) : new Response(JSON.stringify(held), { status: 201 }),
    );
    const onHeld = vi.fn();
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={onHeld} onPaid={() => {}} />);
    expect(screen.getByLabelText("Prénom *").value).toBe("Emma");
    fireEvent.change(screen.getByLabelText("Participants"), { target: { value: "2" } });
    expect(screen.getByText("50,00 €")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Email *"), { target: { value: " " } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_REQUIRED);
    // the blank field is marked, tied to the message and focused
    expect(screen.getByLabelText("Email *").getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(screen.getByLabelText("Email *").getAttribute("aria-describedby")).textContent).toBe(MSG_REQUIRED);
    expect(document.activeElement).toBe(screen.getByLabelText("Email *"));
    const reservePosts = () => fetchMock.mock.calls.filter(([url]) => String(url).includes("/api/reservations-courses"));
    expect(reservePosts()).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Email *"), { target: { value: "emma@example.fr" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect((await screen.findByTestId("widget")).textContent).toBe("reservation:42:50.00");
    const body = JSON.parse(reservePosts()[0][1].body);
    expect(body).toMatchObject({ session_id: 7, participants: 2, type: "cours", total_amount: "50.00" });
    expect(onHeld).toHaveBeenCalled();
  });
});

describe("passes in the popup", () => {
  const card = { id: 5, kind: "card", title: "Carte 10 cours", credits_left: 7, state: "active", expires_on: "2031-05-22" };
  const subscription = { id: 6, kind: "subscription", title: "Abonnement annuel illimité", credits_left: null, state: "active", expires_on: "2031-12-31" };

  it("labels passes and keeps only usable ones", () => {
    expect(formatDay("2031-05-22")).toBe("22/05/2031");
    expect(passLabel(card)).toBe("Carte 10 cours — 7 crédits restants, valable jusqu'au 22/05/2031");
    expect(passLabel(subscription)).toBe("Abonnement annuel illimité — illimité, valable jusqu'au 31/12/2031");
    expect(isUsablePass(card)).toBe(true);
    expect(isUsablePass({ ...card, credits_left: 0 })).toBe(false);
    expect(isUsablePass({ ...card, state: "expired" })).toBe(false);
    expect(isUsablePass(subscription)).toBe(true);
    expect(passCost(card, 2)).toBe("2 crédits");
    expect(passCost(subscription, 1)).toBe("inclus dans votre abonnement");
  });

  it("books with the card by default, confirmed at once, without the payment widget", async () => {
    const booked = { id: 43, status: "confirmed", message: "✅ Réservation confirmée avec votre Carte 10 cours." };
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine")
        ? new Response(JSON.stringify([card, { ...card, id: 9, state: "expired" }]), { status: 200 })
        : new Response(JSON.stringify(booked), { status: 201 }),
    );
    const onPaid = vi.fn();
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={onPaid} />);
    const option = await screen.findByLabelText(/Utiliser : Carte 10 cours/);
    expect(option.checked).toBe(true);
    expect(screen.getAllByRole("radio")).toHaveLength(2); // the usable card and the bank card
    expect(screen.getByText("1 crédit")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalledWith(booked));
    const post = fetchMock.mock.calls.find(([url]) => String(url).includes("/api/reservations-courses"));
    const body = JSON.parse(post[1].body);
    expect(body.pass_id).toBe(5);
    expect(body.total_amount).toBeUndefined();
    expect(screen.queryByTestId("widget")).toBeNull();
  });

  it("can still pay by bank card", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine")
        ? new Response(JSON.stringify([card]), { status: 200 })
        : new Response(JSON.stringify({ id: 44, total_amount: "25.00", hold_expires_at: "2031-03-01T10:15:00+01:00" }), { status: 201 }),
    );
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={() => {}} />);
    fireEvent.click(await screen.findByLabelText(LABEL_PAY_BY_CARD));
    expect(screen.getByText("25,00 €")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    expect((await screen.findByTestId("widget")).textContent).toBe("reservation:44:25.00");
  });
});

describe("one number format and one 'Annuler' in the popup", () => {
  it("writes every amount the French way", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("[]", { status: 200 }));
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={() => {}} />);
    fireEvent.change(screen.getByLabelText("Participants"), { target: { value: "2" } });
    const text = document.body.textContent.replace(/[\u00a0\u202f]/g, " ");
    expect(text).toContain("25,00 € par participant");
    expect(text).toContain("Montant total : 50,00 €");
    expect(text).not.toMatch(/\d\.\d\d €/);
  });

  it("shows a single 'Annuler' while the payment step is open", async () => {
    const held = { id: 42, total_amount: "25.00", hold_expires_at: "2031-03-01T10:15:00+01:00", first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url) =>
      String(url).includes("/api/passes/mine") ? new Response("[]", { status: 200 }) : new Response(JSON.stringify(held), { status: 201 }),
    );
    render(<ReservationForm session={session} user={user} reserveUrl="/api/reservations-courses" loginUrl="/login" onCancel={() => {}} onHeld={() => {}} onPaid={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réservation" }));
    await screen.findByTestId("widget");
    // the mocked widget stands for the simulator, which has its own "Annuler le paiement"
    expect(screen.queryAllByRole("button", { name: /^Annuler$/ })).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Fermer" })).toBeTruthy();
  });
});
