/* docs/decisions.md 50 in the users section: "Ajouter un client" creates a member at the desk and says the invitation
   left; "Fiche client" shows what the studio knows of them, in French dates, statuses and euros. */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import ResourceSection from "../ResourceSection.jsx";
import { MSG_HISTORY_LOAD, MSG_NO_PASSWORD_YET, NOTHING, passUsage } from "./ClientHistory.jsx";
import { polyfillDialog } from "../../../testing/dialog.js";
import {
  MSG_CLIENT_EMAIL_INVALID,
  MSG_CLIENT_NAMES_REQUIRED,
  MSG_CLIENT_PHONE_INVALID,
  usersConfig,
} from "./Users.jsx";

const json = (body, status = 200) => new Response(JSON.stringify(body), { status });
const row = (id, extra = {}) => ({
  id, role: "user", first_name: `P${id}`, last_name: `N${id}`, email: `u${id}@example.fr`, phone: "", address: "",
  postal_code: "", city: "", country: "France", can_edit: true, no_shows: 0, ...extra,
});
const CREATED = "Client créé : un e-mail pour choisir son mot de passe a été envoyé à ines@example.fr.";
const TAKEN = "Un compte existe déjà avec cet e-mail : Emma Petit (emma@example.fr). Retrouvez-le dans la liste des utilisateurs.";

const HISTORY = {
  profile: {
    id: 4, first_name: "Inès", last_name: "Moreau", email: "ines@example.fr", phone: "0611223344", city: "",
    role: "user", role_label: "Membre", date_joined: "2026-11-29T10:30:00+01:00", email_confirmed: false,
    password_set: false, is_active: true,
  },
  passes: [
    { id: 1, title: "Carte 10 cours", state: "active", state_label: "Valable", is_card: true, credits_total: 10,
      credits_left: 7, starts_on: "2026-09-01", expires_on: "2027-02-28", weekly_cap: 0 },
  ],
  upcoming_bookings: [
    { id: 8, course: "Pole débutant", start: "2026-12-12T19:00:00+01:00", participants: 2, status: "confirmed",
      status_label: "Confirmée", pass_title: "Carte 10 cours", credits_spent: 2, attendance: null, attendance_label: "",
      created_at: "2026-11-29T10:40:00+01:00" },
  ],
  past_bookings: [
    { id: 7, course: "Souplesse", start: "2026-11-20T18:00:00+01:00", participants: 1, status: "confirmed",
      status_label: "Confirmée", pass_title: null, credits_spent: 0, attendance: "absent", attendance_label: "Absent(e)",
      created_at: "2026-11-10T09:00:00+01:00" },
  ],
  orders: [
    { order_id: "SIM-1", title: "Carte 10 cours", amount: "180.00", status: "COMPLETED", status_label: "Payée",
      provider: "simulator", provider_label: "Simulateur", created_at: "2026-09-01T12:00:00+02:00", completed_at: null },
  ],
  invoices: [
    { id: 3, number: "2026-000012", kind: "invoice", kind_label: "Facture", issued_at: "2026-09-01T12:00:00+02:00",
      description: "Carte 10 cours", total_amount: "1234.50", credited_number: null, pdf_url: "/api/invoices/3/pdf" },
  ],
  subscriptions: [],
  staff_actions: [
    { action: "client_created", summary: "Compte créé à l'accueil", staff_name: "Paul Durand",
      created_at: "2026-11-29T10:30:00+01:00" },
  ],
};

let calls;
function mockServer({ post = () => json({ ...row(5), email: "ines@example.fr", message: CREATED }, 201), history = () => json(HISTORY) } = {}) {
  calls = [];
  globalThis.fetch = vi.fn(async (url, options = {}) => {
    const method = options.method || "GET";
    calls.push({ url, method, body: options.body && JSON.parse(options.body) });
    if (method === "POST") return post(JSON.parse(options.body));
    if (url.includes("/history")) return history();
    // A member's health answers are the admins' only: the server refuses the supervisor these tests sign in as.
    if (url.includes("/health-declaration")) return json({ error: "Accès refusé.", message: "Accès refusé." }, 403);
    return json({ count: 1, next: null, previous: null, results: [row(4)] });
  });
}

const renderUsers = () =>
  render(<ResourceSection config={usersConfig} user={{ id: 9, role: "supervisor", isAdmin: false }} />);

const fill = (label, value) => fireEvent.change(screen.getByLabelText(new RegExp(`^${label}`)), { target: { value } });

beforeAll(polyfillDialog);
beforeEach(() => {
  document.cookie = "csrftoken=jeton";
});
afterEach(cleanup);

describe("Ajouter un client", () => {
  it("sits at the top of the section, before the list", async () => {
    mockServer();
    renderUsers();
    const add = screen.getByRole("button", { name: "Ajouter un client" });
    const table = await screen.findByRole("table");
    expect(add.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Ajouter un utilisateur/ })).toBeNull();
  });

  it("creates the client, says the invitation left, reloads the list and gives the focus back", async () => {
    mockServer();
    renderUsers();
    await screen.findByRole("table");
    const add = screen.getByRole("button", { name: "Ajouter un client" });
    add.focus();
    fireEvent.click(add);
    const dialog = screen.getByRole("dialog", { name: "Ajouter un client" });
    fill("Prénom", " Inès ");
    fill("Nom", "Moreau");
    fill("E-mail", "ines@example.fr");
    fill("Téléphone", "06 11 22 33 44");
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(screen.getByText(CREATED)).toBeTruthy());
    expect(screen.getByText(CREATED).getAttribute("role")).toBe("status");
    const post = calls.find((call) => call.method === "POST");
    expect(post.url).toBe("/api/users");
    expect(post.body).toEqual({ first_name: "Inès", last_name: "Moreau", email: "ines@example.fr", phone: "06 11 22 33 44" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(add);
    await waitFor(() => expect(calls.filter((call) => call.method === "GET" && call.url.startsWith("/api/users?")).length).toBe(2));
  });

  it("checks the names, the e-mail and the optional phone before sending", async () => {
    mockServer();
    renderUsers();
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un client" }));
    const dialog = screen.getByRole("dialog", { name: "Ajouter un client" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    expect(within(dialog).getByRole("alert").textContent).toBe(MSG_CLIENT_NAMES_REQUIRED);
    fill("Prénom", "Inès");
    fill("Nom", "Moreau");
    fill("E-mail", "ines@");
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    expect(within(dialog).getByRole("alert").textContent).toBe(MSG_CLIENT_EMAIL_INVALID);
    fill("E-mail", "ines@example.fr");
    fill("Téléphone", "06 12");
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    expect(within(dialog).getByRole("alert").textContent).toBe(MSG_CLIENT_PHONE_INVALID);
    expect(calls.some((call) => call.method === "POST")).toBe(false);
    fill("Téléphone", "");
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await screen.findByText(CREATED);
  });

  it("shows the server's refusal naming the account that has the address", async () => {
    mockServer({ post: () => json({ error: TAKEN, message: TAKEN, code: "client_email_taken", existing_user_id: 2 }, 409) });
    renderUsers();
    fireEvent.click(screen.getByRole("button", { name: "Ajouter un client" }));
    fill("Prénom", "Emma");
    fill("Nom", "Petit");
    fill("E-mail", "emma@example.fr");
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect((await screen.findByRole("alert")).textContent).toBe(TAKEN);
    expect(screen.getByRole("dialog", { name: "Ajouter un client" })).toBeTruthy();
  });
});

describe("Fiche client", () => {
  it("opens from the row and shows the file in French", async () => {
    mockServer();
    renderUsers();
    const open = await screen.findByRole("button", { name: "Fiche client de P4 N4" });
    open.focus();
    fireEvent.click(open);
    const dialog = screen.getByRole("dialog", { name: "Fiche client : P4 N4" });
    await within(dialog).findByText("Compte créé à l'accueil");
    expect(calls.some((call) => call.url.startsWith("/api/users/4/history"))).toBe(true);
    const text = dialog.textContent.replace(/\u202f|\u00a0/g, " ");
    expect(text).toContain("par Paul Durand, le 29/11/2026 10:30");
    expect(text).toContain(MSG_NO_PASSWORD_YET);
    expect(text).toContain("Carte 10 cours (Valable) : 7 crédits restants sur 10, valable du 01/09/2026 au 28/02/2027");
    expect(text).toContain("Pole débutant — 12/12/2026 19:00 · Confirmée · 2 personnes · Carte 10 cours");
    expect(text).toContain("Souplesse — 20/11/2026 18:00 · Confirmée · Absent(e)");
    expect(text).toContain("Carte 10 cours — 180,00 € · Payée · Simulateur · le 01/09/2026");
    expect(text).toContain("Facture 2026-000012 — 1 234,50 € · le 01/09/2026");
    expect(within(dialog).getByRole("link", { name: "Facture 2026-000012" }).getAttribute("href")).toBe("/api/invoices/3/pdf");
    expect(within(within(dialog).getByRole("region", { name: "Abonnements mensuels" })).getByText(NOTHING)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Fermer la fiche" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it("says so in French when the file cannot be read", async () => {
    mockServer({ history: () => json({}, 500) });
    renderUsers();
    fireEvent.click(await screen.findByRole("button", { name: "Fiche client de P4 N4" }));
    expect((await screen.findByRole("alert")).textContent).toBe(MSG_HISTORY_LOAD);
  });

  it("writes a subscription's pass as its weekly cap or unlimited", () => {
    const pass = { is_card: false, weekly_cap: 0, starts_on: "2026-09-01", expires_on: "2027-08-31" };
    expect(passUsage(pass)).toBe("Illimité, valable du 01/09/2026 au 31/08/2027");
    expect(passUsage({ ...pass, weekly_cap: 2 })).toBe("2 cours par semaine, valable du 01/09/2026 au 31/08/2027");
    expect(passUsage({ ...pass, is_card: true, credits_left: 1, credits_total: 5 })).toBe(
      "1 crédit restant sur 5, valable du 01/09/2026 au 31/08/2027",
    );
  });
});
