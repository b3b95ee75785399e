import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { bucketLabel, change, formatEuros, formatPercent, plural, pointChange } from "./overview/numbers.js";
import { periodFromSearch, periodRange, previousRange, statsUrl } from "./overview/period.js";
import { filterFromAddress } from "./Subscriptions.jsx";

const charts = vi.hoisted(() => ({ made: [] }));
vi.mock("./overview/chartjs.js", () => ({
  Chart: class {
    constructor(canvas, config) {
      this.config = config;
      charts.made.push(this);
    }
    destroy() {
      this.destroyed = true;
    }
  },
}));

const pair = (current, previous) => ({ current, previous });
const amount = (current, previous, currentCount, previousCount) => ({ current, previous, current_count: currentCount, previous_count: previousCount });

const STATS = {
  period: { from: "2026-03-01", to: "2026-03-29", days: 29 },
  previous: { from: "2026-01-31", to: "2026-02-28", days: 29 },
  money: {
    bucket: "week",
    money_in: amount("1234.50", "1000.00", 12, 10),
    card_payments: amount("1124.50", "945.00", 10, 9),
    subscription_periods: amount("110.00", "55.00", 2, 1),
    refunds: amount("190.00", "0.00", 1, 0),
    cards_sold: amount("380.00", "190.00", 2, 1),
    subscriptions_sold: amount("55.00", "0.00", 1, 0),
    unpaid: amount("55.00", "110.00", 1, 2),
    classes_held: pair(20, 18),
    revenue_per_class: pair("52.23", "55.56"),
    series: [
      { start: "2026-02-23", money_in: "200.00", refunds: "0.00" },
      { start: "2026-03-02", money_in: "1034.50", refunds: "190.00" },
    ],
  },
  classes: {
    held: pair(20, 18),
    cancelled: pair(1, 0),
    full: pair(3, 2),
    places: pair(200, 180),
    seats_taken: pair(150, 120),
    fill_rate: pair(0.75, 0.6667),
    fill_bands: [
      { band: "0-24", sessions: 2 },
      { band: "25-49", sessions: 3 },
      { band: "50-74", sessions: 5 },
      { band: "75-99", sessions: 7 },
      { band: "100", sessions: 3 },
    ],
    courses: [{ course_id: 4, title: "Pole débutant", sessions: 10, places: 100, seats_taken: 80, fill_rate: 0.8 }],
    timetable: [{ weekday: 2, hour: 19, sessions: 4, places: 40, seats_taken: 38, fill_rate: 0.95 }],
    waitlist_entries: pair(6, 2),
    waitlist_members: pair(5, 2),
    waitlist_sessions: pair(3, 1),
    waitlist_booked: pair(2, 1),
    present: pair(120, 100),
    no_shows: pair(8, 10),
    attendance_rate: pair(0.9375, 0.9091),
  },
  members: { active: pair(42, 40), new: pair(5, 3), stopped_coming: pair(7, 9), cards_running_out: 4, subscriptions_running_out: 2 },
  upcoming: {
    classes: [{ id: 31, start: "2026-03-30T19:00:00+02:00", course: "Exotic flow", status: "scheduled", places: 10, seats_taken: 10, waiting: 2 }],
    unpaid_count: 1,
    unpaid_amount: "55.00",
    unpaid: [{ subscription_id: 7, member: "Emma Petit", email: "emma@example.fr", title: "Illimité mensuel", period: 3, due_on: "2026-03-10", amount: "55.00", status: "failed" }],
  },
};

// Intl writes French numbers with no-break spaces (U+202F between thousands, U+00A0 before € and %).
const plain = (text) => String(text).replace(/[\u202f\u00a0]/g, " ");
// An accessible name, its parts' spaces as the browser joins them ("1 234,50 € . Voir" = "1 234,50 €. Voir").
const named = (text) => ({ name: (name) => plain(name).replace(/\s+/g, " ").replace(/ \./g, ".").trim() === text });

function answer(status, body) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

beforeEach(() => {
  charts.made.length = 0;
  window.scrollTo = vi.fn();
  window.history.replaceState({}, "", "/admin/overview");
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("overview periods", () => {
  it("runs each period up to today (Paris days), the season from 1 September", () => {
    expect(periodRange("week", "2026-03-29")).toEqual({ from: "2026-03-23", to: "2026-03-29" }); // a Sunday
    expect(periodRange("week", "2026-03-23")).toEqual({ from: "2026-03-23", to: "2026-03-23" });
    expect(periodRange("month", "2026-03-29")).toEqual({ from: "2026-03-01", to: "2026-03-29" });
    expect(periodRange("30days", "2026-03-29")).toEqual({ from: "2026-02-28", to: "2026-03-29" });
    expect(periodRange("season", "2026-03-29")).toEqual({ from: "2025-09-01", to: "2026-03-29" });
    expect(periodRange("season", "2026-09-02")).toEqual({ from: "2026-09-01", to: "2026-09-02" });
    expect(previousRange({ from: "2026-03-01", to: "2026-03-29" })).toEqual({ from: "2026-01-31", to: "2026-02-28" });
  });

  it("reads the period from the address, the month by default", () => {
    expect(periodFromSearch("", "2026-03-29")).toEqual({ period: "month", from: "2026-03-01", to: "2026-03-29" });
    expect(periodFromSearch("?period=season", "2026-03-29").from).toBe("2025-09-01");
    expect(periodFromSearch("?period=custom&from=2026-01-05&to=2026-02-01", "2026-03-29")).toEqual({ period: "custom", from: "2026-01-05", to: "2026-02-01" });
    expect(periodFromSearch("?period=nope", "2026-03-29").period).toBe("month");
    expect(statsUrl({ from: "2026-03-01", to: "2026-03-29" })).toBe("/api/dashboard/stats?from=2026-03-01&to=2026-03-29");
  });

  it("writes numbers, euros and changes the French way", () => {
    expect(plain(formatEuros("1234.5"))).toBe("1 234,50 €");
    expect(plain(formatPercent(0.756))).toBe("76 %");
    expect(bucketLabel("2026-03-02", "week")).toBe("sem. du 2 mars");
    expect(bucketLabel("2026-03-01", "month")).toBe("mars 2026");
    expect(plain(change("1234.50", "1000.00").text)).toBe("+23 %");
    expect(change("0.00", "190.00").direction).toBe("down");
    expect(plain(change("0.00", "190.00").text)).toBe("−100 %");
    expect(change("5", "0")).toEqual({ direction: "new", text: "nouveau" });
    expect(pointChange(0.75, 0.6667)).toEqual({ direction: "up", text: "+8 pts" });
    expect(plural(0, "remboursement", "remboursements")).toBe("0 remboursement");
    expect(plural(1, "place obtenue", "places obtenues")).toBe("1 place obtenue");
    expect(plural(2, "place obtenue", "places obtenues")).toBe("2 places obtenues");
  });

  it("lets the subscriptions list open on the filter a figure links to", () => {
    expect(filterFromAddress("?filter=unpaid")).toBe("unpaid");
    expect(filterFromAddress("?filter=nope")).toBe("");
  });
});

describe("Vue d'ensemble", () => {
  it("shows the figures with their change, links each to its list, and draws charts with their data behind a toggle", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, STATS));
    const { default: Overview } = await import("./Overview.jsx");
    render(<Overview />);
    expect(await screen.findByText(/Du 1 mars 2026 au 29 mars 2026 \(29 jours\)/)).toBeTruthy();
    expect(String(fetchMock.mock.calls[0][0])).toMatch(/^\/api\/dashboard\/stats\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);

    const paid = screen.getByRole("link", named("Encaissé : 1 234,50 €. Voir les commandes"));
    expect(paid.getAttribute("href")).toBe("/admin/orders");
    expect(plain(paid.closest("li").textContent)).toContain("en hausse +23 %");
    expect(plain(paid.closest("li").textContent)).toContain("(avant : 1 000,00 €)");
    expect(screen.getByRole("link", named("Échéances impayées : 55,00 €. Voir les abonnements impayés")).getAttribute("href")).toBe("/admin/subscriptions?filter=unpaid");
    expect(screen.getByRole("link", named("Cours annulés : 1. Voir les cours annulés")).getAttribute("href")).toBe("/admin/sessions?when=cancelled");
    expect(screen.getByRole("link", named("Cours complets : 3. Voir les cours complets")).getAttribute("href")).toBe("/admin/sessions?when=full");
    expect(screen.getByRole("link", named("Taux de remplissage : 75 %. Voir les cours passés")).closest("li").textContent).toContain("+8 pts");
    expect(screen.getByRole("link", named("Abonnements qui se terminent : 2. Voir les abonnements qui se terminent")).getAttribute("href")).toBe(
      "/admin/subscriptions?filter=ending",
    );

    // Chart.js (mocked here) draws the money by week with French labels; its data sit behind "Voir les données".
    await waitFor(() => expect(charts.made.length).toBe(3));
    const money = charts.made.find((c) => c.config.data.datasets[0].label === "Encaissé");
    expect(money.config.data.labels).toEqual(["sem. du 23 févr.", "sem. du 2 mars"]);
    expect(plain(money.config.options.scales.y.ticks.callback(1500))).toBe("1 500,00 €");
    const figure = screen.getByText("Encaissé et remboursé par semaine").closest("figure");
    const toggle = within(figure).getByRole("button", { name: "Voir les données" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    const table = within(figure).getByRole("table", { name: "Encaissé et remboursé par semaine" });
    expect(within(table).getByRole("rowheader", { name: "sem. du 2 mars" })).toBeTruthy();
    expect(plain(table.textContent)).toContain("1 034,50 €");
    expect(plain(table.textContent)).toContain("190,00 €");
    expect(money.destroyed).toBe(true);
    fireEvent.click(within(figure).getByRole("button", { name: "Voir le graphique" }));
    expect(within(figure).queryByRole("table")).toBeNull();

    // The timetable's heat map has its table too; the next 7 days list the class and the unpaid period to chase.
    const heat = screen.getByText("Remplissage par jour et par heure").closest("figure");
    fireEvent.click(within(heat).getByRole("button", { name: "Voir les données" }));
    expect(within(heat).getByRole("rowheader", { name: "mardi 19 h" })).toBeTruthy();
    expect(within(heat).getByText("38 / 40")).toBeTruthy();
    const soon = screen.getByRole("table", { name: "Les cours des 7 prochains jours" });
    expect(within(soon).getByText("10 / 10 (complet)")).toBeTruthy();
    expect(within(soon).getByText("lun. 30 mars 2026 19:00")).toBeTruthy();
    expect(screen.getByRole("table", { name: "Échéances d'abonnement impayées" }).textContent).toContain("Emma Petit");
  });

  it("switches period, keeps it in the address, and refuses a custom range that ends before it starts", async () => {
    // A day on which the month so far and the last 30 days differ (on 30 November they are the same dates).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-15T12:00:00+01:00"));
    onTestFinished(() => vi.useRealTimers());
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, STATS));
    const { default: Overview, MSG_CUSTOM_RANGE } = await import("./Overview.jsx");
    render(<Overview />);
    await screen.findByText(/Du 1 mars 2026/);
    fireEvent.change(screen.getByLabelText("Période"), { target: { value: "30days" } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(window.location.search).toBe("?period=30days");
    fireEvent.change(screen.getByLabelText("Période"), { target: { value: "custom" } });
    fireEvent.change(screen.getByLabelText("Du"), { target: { value: "2026-02-10" } });
    fireEvent.change(screen.getByLabelText("Au"), { target: { value: "2026-02-01" } });
    fireEvent.click(screen.getByRole("button", { name: "Afficher" }));
    expect(screen.getByRole("alert").textContent).toBe(MSG_CUSTOM_RANGE);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    fireEvent.change(screen.getByLabelText("Au"), { target: { value: "2026-02-20" } });
    fireEvent.click(screen.getByRole("button", { name: "Afficher" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(String(fetchMock.mock.calls[2][0])).toBe("/api/dashboard/stats?from=2026-02-10&to=2026-02-20");
    expect(window.location.search).toBe("?period=custom&from=2026-02-10&to=2026-02-20");
  });

  it("tells the period it shows at once, before its figures arrive", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => new Promise(() => {}));
    window.history.replaceState({}, "", "/admin/overview?period=custom&from=2026-02-10&to=2026-02-20");
    const { default: Overview } = await import("./Overview.jsx");
    render(<Overview />);
    expect(plain(screen.getByRole("status").textContent).replace(/\s+/g, " ")).toBe(
      "Du 10 février 2026 au 20 février 2026 (11 jours), comparé à la période précédente, du 30 janvier 2026 au 9 février 2026."
    );
    expect(screen.getByText("Chargement…")).toBeTruthy();
  });

  it("shows the server's French refusal", async () => {
    const message = "La période ne peut pas dépasser 400 jours.";
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(400, { error: message, message }));
    window.history.replaceState({}, "", "/admin/overview?period=custom&from=2020-01-01&to=2026-01-01");
    const { default: Overview } = await import("./Overview.jsx");
    render(<Overview />);
    expect((await screen.findByRole("alert")).textContent).toBe(message);
  });

  it("moves to the list behind a figure inside the dashboard, its filter in the address", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(() => answer(200, STATS));
    const popped = vi.fn();
    window.addEventListener("popstate", popped);
    const { default: Overview } = await import("./Overview.jsx");
    render(<Overview />);
    fireEvent.click(await screen.findByRole("link", named("Échéances impayées : 55,00 €. Voir les abonnements impayés")));
    expect(window.location.pathname + window.location.search).toBe("/admin/subscriptions?filter=unpaid");
    expect(popped).toHaveBeenCalledTimes(1);
    window.removeEventListener("popstate", popped);
  });
});
