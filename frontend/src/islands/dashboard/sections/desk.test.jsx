import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SECTIONS, sectionFromPath } from "../sections.js";
import { AttendanceSheet, MSG_CANCEL_FAILED, MSG_CHOOSE_CLIENT, MSG_MEANS_DO_NOT_ADD_UP } from "./Attendance.jsx";
import Desk, { MSG_PERIODS_LOAD, MSG_SALE_INCOMPLETE, MSG_SALE_NOT_SHARED, MSG_TAKINGS_LOAD, periodLabel, takingsCsvUrl } from "./Desk.jsx";
import { MSG_NO_CLIENT_FOUND, linesForApi, remainderCents } from "./DeskParts.jsx";
import { euros } from "../../../components/format.js";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const EMMA = { id: 9, first_name: "Emma", last_name: "Petit", email: "emma@example.fr" };
const CARD = { id: 4, title: "Carte 10 cours", price: "190.00" };
const TAKINGS = {
  date: "2026-11-29",
  by_means: [
    { means: "cash", label: "Espèces", count: 1, total: "140.00" },
    { means: "pass_sport", label: "Pass'Sport", count: 1, total: "50.00" },
  ],
  total: "190.00",
  sales: [],
};
const SOLD = "Vente enregistrée : Carte 10 cours, 190,00 € (Pass'Sport 50,00 €, Espèces 140,00 €).";

function deskServer({ periods = [], sold = SOLD } = {}) {
  return vi.fn((url, options) => {
    if (url.startsWith("/api/users")) return json(200, { count: 1, next: null, previous: null, results: [EMMA] });
    if (url === "/api/tarifs") return json(200, [CARD, { id: 5, title: "Offert", price: "0.00" }]);
    if (url.startsWith("/api/desk/takings")) return json(200, TAKINGS);
    if (url === "/api/desk/periods?user_id=9") return json(200, periods);
    if (url === "/api/desk/sales" && options?.method === "POST") return json(201, { message: sold });
    return json(404, { error: "?" });
  });
}

const PERIOD = { charge_id: 31, subscription_id: 6, title: "Abonnement mensuel", period: 2, periods_committed: 12, amount: "55.00", due_on: "2030-02-10" };
const PERIOD_SOLD = "Vente enregistrée : Abonnement mensuel – période 2/12, 55,00 € (Espèces 30,00 €, Pass'Sport 25,00 €).";

async function chooseEmma(searchLabel = "Rechercher un client (nom ou e-mail)") {
  fireEvent.change(screen.getByLabelText(searchLabel), { target: { value: "emma" } });
  fireEvent.click(await screen.findByRole("button", { name: "Emma Petit · emma@example.fr" }));
}

describe("the front desk's till", () => {
  it("is the « Caisse » section at /admin/desk", () => {
    expect(SECTIONS.find((s) => s.key === "desk").label).toBe("Caisse");
    expect(sectionFromPath("/admin/desk")).toBe("desk");
    expect(takingsCsvUrl("2026-11-29")).toBe("/api/desk/takings.csv?date=2026-11-29");
  });

  it("keeps the amounts in cents and leaves out empty lines", () => {
    expect(remainderCents(19000, [{ means: "pass_sport", amount: "50" }, { means: "cash", amount: "139,99" }])).toBe(1);
    expect(linesForApi([{ means: "cash", amount: "140" }, { means: "cheque", amount: "" }])).toEqual([{ means: "cash", amount: "140.00" }]);
  });

  it("sells a card split between Pass'Sport and cash with a running remainder, then shows the day's totals", async () => {
    const fetchMock = deskServer();
    vi.stubGlobal("fetch", fetchMock);
    render(<Desk />);
    await chooseEmma();
    await waitFor(() => expect(screen.getByRole("option", { name: `Carte 10 cours – ${euros("190")}` })).toBeTruthy());
    expect(screen.queryByRole("option", { name: /Offert/ })).toBeNull();
    fireEvent.change(screen.getByLabelText("Vendu"), { target: { value: "4" } });
    expect(screen.getByText("Le total est réparti.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Moyen 1"), { target: { value: "pass_sport" } });
    fireEvent.change(screen.getByLabelText("Montant 1 (€)"), { target: { value: "50" } });
    expect(screen.getByText((_, el) => el?.className === "desk-remainder" && el.textContent === `Reste à répartir : ${euros("140")}`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la vente" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_SALE_NOT_SHARED);
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un moyen de paiement" }));
    expect(screen.getByLabelText("Montant 2 (€)").value).toBe("140.00");
    expect(screen.getByLabelText("Moyen 2").value).toBe("cash");
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la vente" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(SOLD));
    // Ready for the next client: no one chosen, no earlier search left on screen.
    expect(screen.queryByRole("button", { name: "Emma Petit · emma@example.fr" })).toBeNull();
    expect(screen.getByLabelText("Rechercher un client (nom ou e-mail)").value).toBe("");
    const sale = fetchMock.mock.calls.find(([url, options]) => url === "/api/desk/sales" && options?.method === "POST");
    const body = JSON.parse(sale[1].body);
    expect(body).toMatchObject({ user_id: 9, tariff_id: 4, payments: [{ means: "pass_sport", amount: "50.00" }, { means: "cash", amount: "140.00" }] });
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const table = screen.getByRole("table", { name: "Encaissements par moyen de paiement" });
    await waitFor(() => expect(within(table).getByRole("row", { name: /Pass'Sport/ }).textContent).toContain(euros("50")));
    expect(within(table).getByRole("row", { name: /Espèces/ }).textContent).toContain(euros("140"));
    expect(within(table).getByRole("row", { name: /Total de la journée/ }).textContent).toContain(euros("190"));
    expect(screen.getByRole("link", { name: "Exporter en CSV" }).getAttribute("href")).toMatch(/^\/api\/desk\/takings\.csv\?date=\d{4}-\d{2}-\d{2}$/);
  });
});

const LINE = { reservation_id: 5, user_id: 7, first_name: "Lucie", last_name: "Martin", email: "lucie@example.fr", participants: 1, payment: "Carte bancaire", attendance: null, walk_in: false, no_shows: 0 };
const SHEET = { session: { id: 3, status: "scheduled", price_per_participant: "25.00", attendance_open: true, attendance_opens_at: "2026-11-28T16:30:00+01:00" }, counts: { booked: 1, present: 0, absent: 0, unmarked: 1 }, results: [LINE] };
const BOOKED = "Emma Petit est inscrit(e) au cours « Pole débutant » du 29/11/2026 19:00 (payé à l'accueil).";

describe("a subscription's period paid at the desk", () => {
  it("lists the chosen client's periods due and pays one by two means", async () => {
    const fetchMock = deskServer({ periods: [PERIOD], sold: PERIOD_SOLD });
    vi.stubGlobal("fetch", fetchMock);
    render(<Desk />);
    expect(screen.queryByRole("option", { name: /Période 2/ })).toBeNull(); // no client chosen yet
    await chooseEmma();
    const option = await screen.findByRole("option", { name: `Abonnement mensuel – Période 2 – ${euros("55")} – due le 10/02/2030` });
    expect(periodLabel(PERIOD)).toBe(`Abonnement mensuel – Période 2 – ${euros("55")} – due le 10/02/2030`);
    expect(euros("55")).toMatch(/^55,00\s€$/);
    fireEvent.change(screen.getByLabelText("Vendu"), { target: { value: option.value } });
    expect(screen.getByLabelText("Montant 1 (€)").value).toBe("55.00");
    fireEvent.change(screen.getByLabelText("Moyen 1"), { target: { value: "cash" } });
    fireEvent.change(screen.getByLabelText("Montant 1 (€)"), { target: { value: "30" } });
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un moyen de paiement" }));
    fireEvent.change(screen.getByLabelText("Moyen 2"), { target: { value: "pass_sport" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la vente" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(PERIOD_SOLD));
    const sale = fetchMock.mock.calls.find(([url, options]) => url === "/api/desk/sales" && options?.method === "POST");
    const body = JSON.parse(sale[1].body);
    expect(body).toMatchObject({ user_id: 9, charge_id: 31, payments: [{ means: "cash", amount: "30.00" }, { means: "pass_sport", amount: "25.00" }] });
    expect(body.tariff_id).toBeUndefined();
  });

  it("says in French when the client's periods cannot be read", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((url) => {
        if (url.startsWith("/api/users")) return json(200, { results: [EMMA] });
        if (url === "/api/tarifs") return json(200, [CARD]);
        if (url.startsWith("/api/desk/periods")) return json(500, {});
        return json(200, TAKINGS);
      })
    );
    render(<Desk />);
    await chooseEmma();
    await waitFor(() => expect(screen.getAllByRole("alert").map((a) => a.textContent)).toContain(MSG_PERIODS_LOAD));
    expect(MSG_PERIODS_LOAD).toBe("Les échéances d'abonnement du client n'ont pas pu être chargées.");
  });
});

describe("« Ajouter un client » on the staff's attendance sheet", () => {
  it("books a client paid at the desk by two means adding up to the class price, and says so", async () => {
    let booked = false;
    const fetchMock = vi.fn((url, options) => {
      if (url.startsWith("/api/users")) return json(200, { results: [EMMA] });
      if (url === "/api/course-sessions/3/bookings") {
        booked = true;
        return json(201, { message: BOOKED });
      }
      const results = booked ? [LINE, { ...LINE, reservation_id: 6, user_id: 9, first_name: "Emma", last_name: "Petit", payment: "Payé à l'accueil" }] : [LINE];
      return json(200, { ...SHEET, results });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} canBook />);
    await waitFor(() => expect(screen.getByText("Lucie Martin")).toBeTruthy());
    expect(screen.queryByLabelText("E-mail de son compte")).toBeNull(); // the walk-in form is the instructors'
    fireEvent.click(screen.getByRole("button", { name: "Inscrire au cours" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_CHOOSE_CLIENT);
    await chooseEmma();
    fireEvent.click(screen.getByLabelText("Payé à l'accueil"));
    fireEvent.change(screen.getByLabelText("Montant 1 (€)"), { target: { value: "10" } });
    expect(screen.getByText((_, el) => el?.className === "desk-remainder" && el.textContent === `Reste à répartir : ${euros("15")}`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Inscrire au cours" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_MEANS_DO_NOT_ADD_UP);
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un moyen de paiement" }));
    fireEvent.change(screen.getByLabelText("Moyen 2"), { target: { value: "card_terminal" } });
    fireEvent.click(screen.getByRole("button", { name: "Inscrire au cours" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(BOOKED));
    expect(screen.getByText("Emma Petit")).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/course-sessions/3/bookings");
    const body = JSON.parse(call[1].body);
    expect(body).toMatchObject({ user_id: 9, participants: 1, paid_with: "desk", payments: [{ means: "cash", amount: "10.00" }, { means: "card_terminal", amount: "15.00" }] });
  });

  it("books « à régler » without means and shows the server's French refusal", async () => {
    const refusal = "Cette session est complète.";
    const fetchMock = vi.fn((url) => {
      if (url.startsWith("/api/users")) return json(200, { results: [EMMA] });
      if (url === "/api/course-sessions/3/bookings") return json(409, { error: refusal });
      return json(200, SHEET);
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} canBook />);
    await waitFor(() => expect(screen.getByText("Lucie Martin")).toBeTruthy());
    await chooseEmma();
    fireEvent.click(screen.getByLabelText("À régler"));
    expect(screen.queryByText("Moyens de paiement")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Inscrire au cours" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(refusal));
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/course-sessions/3/bookings");
    expect(JSON.parse(call[1].body)).toEqual({ user_id: 9, participants: 1, paid_with: "due" });
  });
});

describe("a booking « à régler » on the staff's attendance sheet", () => {
  it("is settled at the desk by a sale of that reservation", async () => {
    const due = { ...LINE, payment: "À régler", desk_payment: "due", participants: 2 };
    const settled = "Vente enregistrée : Pole débutant, 50,00 € (Chèque 50,00 €).";
    let paid = false;
    const fetchMock = vi.fn((url) => {
      if (url === "/api/desk/sales") {
        paid = true;
        return json(201, { message: settled });
      }
      return json(200, { ...SHEET, results: [paid ? { ...due, payment: "Payé à l'accueil", desk_payment: "paid" } : due] });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} canBook />);
    fireEvent.click(await screen.findByRole("button", { name: "Régler à l'accueil" }));
    const form = screen.getByRole("form", { name: "Régler la séance de Lucie Martin" });
    expect(within(form).getByLabelText("Montant 1 (€)").value).toBe("50.00");
    fireEvent.change(within(form).getByLabelText("Moyen 1"), { target: { value: "cheque" } });
    fireEvent.click(within(form).getByRole("button", { name: "Encaisser" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(settled));
    expect(screen.queryByRole("button", { name: "Régler à l'accueil" })).toBeNull();
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/desk/sales");
    expect(JSON.parse(call[1].body)).toMatchObject({ user_id: 7, reservation_id: 5, payments: [{ means: "cheque", amount: "50.00" }] });
  });
});

describe("a class that has started", () => {
  it("takes a late arrival as a walk-in, since booking on behalf ends at the start", async () => {
    const started = { ...SHEET, session: { ...SHEET.session, date: "2020-01-01T19:00:00+01:00" } };
    vi.stubGlobal("fetch", vi.fn(() => json(200, started)));
    render(<AttendanceSheet sessionId={3} canBook />);
    await waitFor(() => expect(screen.getByText("Lucie Martin")).toBeTruthy());
    expect(screen.getByRole("button", { name: "Ajouter et pointer présent" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Inscrire au cours" })).toBeNull();
  });
});

describe("the till's own messages", () => {
  it("asks for a client and an item, says when nobody matches, and when the takings cannot load", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((url) => {
        if (url.startsWith("/api/users")) return json(200, { results: [] });
        if (url === "/api/tarifs") return json(200, [CARD]);
        return json(500, {});
      })
    );
    render(<Desk />);
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer la vente" }));
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).toContain(MSG_SALE_INCOMPLETE);
    expect(MSG_SALE_INCOMPLETE).toBe("Choisissez le client et ce qui est vendu.");
    fireEvent.change(screen.getByLabelText("Rechercher un client (nom ou e-mail)"), { target: { value: "zz" } });
    expect(await screen.findByText(MSG_NO_CLIENT_FOUND)).toBeTruthy();
    expect(MSG_NO_CLIENT_FOUND).toBe("Aucun client ne correspond à cette recherche.");
    await waitFor(() => expect(screen.getAllByRole("alert").map((a) => a.textContent)).toContain(MSG_TAKINGS_LOAD));
    expect(MSG_TAKINGS_LOAD).toBe("La caisse du jour n'a pas pu être chargée.");
  });

  it("says a day without desk sales, and money taken beyond the price", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((url) => {
        if (url.startsWith("/api/users")) return json(200, { results: [EMMA] });
        if (url === "/api/tarifs") return json(200, [CARD]);
        return json(200, { ...TAKINGS, by_means: [], total: "0.00", sales: [] });
      })
    );
    render(<Desk />);
    expect(await screen.findByText("Aucune vente à l'accueil ce jour-là.")).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("option", { name: `Carte 10 cours – ${euros("190")}` })).toBeTruthy());
    fireEvent.change(screen.getByLabelText("Vendu"), { target: { value: "4" } });
    fireEvent.change(screen.getByLabelText("Montant 1 (€)"), { target: { value: "200" } });
    expect(screen.getByText((_, el) => el?.className === "desk-remainder" && el.textContent === `Trop perçu : ${euros("10")}`)).toBeTruthy();
  });
});

describe("cancelling on a member's behalf from the staff's sheet", () => {
  it("asks once more, then cancels under the member's rules and says what happened", async () => {
    const said = "Réservation de Lucie Martin annulée. Réservation annulée : 1 crédit(s) rendu(s) sur votre Carte 10 cours.";
    let cancelled = false;
    const fetchMock = vi.fn((url) => {
      if (url === "/api/course-sessions/3/bookings/5/cancel") {
        cancelled = true;
        return json(200, { reservation_id: 5, late: false, message: said });
      }
      return json(200, { ...SHEET, results: cancelled ? [] : [LINE] });
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<AttendanceSheet sessionId={3} canBook />);
    fireEvent.click(await screen.findByRole("button", { name: "Annuler sa réservation" }));
    const group = screen.getByRole("group", { name: "Annuler la réservation de Lucie Martin" });
    fireEvent.click(within(group).getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(said));
    expect(screen.getByText("Personne n'est inscrit à ce cours.")).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url, options]) => url === "/api/course-sessions/3/bookings/5/cancel" && options.method === "POST")).toBe(true);
  });

  it("shows the server's refusal in French", async () => {
    const refusal = "Ce cours a déjà commencé : la réservation ne peut plus être annulée.";
    vi.stubGlobal("fetch", vi.fn((url) => (url.endsWith("/cancel") ? json(409, { error: refusal }) : json(200, SHEET))));
    render(<AttendanceSheet sessionId={3} canBook />);
    fireEvent.click(await screen.findByRole("button", { name: "Annuler sa réservation" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'annulation" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe(refusal));
    expect(MSG_CANCEL_FAILED).toBe("L'annulation n'a pas pu être enregistrée. Veuillez réessayer.");
  });
});
