import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MSG_DELETE, MSG_FIELD_REQUIRED, MSG_SAVE, MSG_TARIFS_LOAD } from "./messages.js";
import ResourceSection from "./ResourceSection.jsx";
import { tarifsConfig } from "./sections/Tarifs.jsx";
import { usersConfig } from "./sections/Users.jsx";

// The generic list's behaviour, shown on the tariffs' section without the courses its form offers to choose from.
const TARIFS = { ...tarifsConfig, options: undefined };
const json = (body, status = 200) => new Response(body === null ? "" : JSON.stringify(body), { status });
const TARIF = { id: 7, type: "forfait", title: "Carte 10 cours", price: "190.00", description: "", frequency: "", validity: "", reduction_percentage: null, conditions: "", details: "" };

let calls;
function mockServer(handler) {
  calls = [];
  globalThis.fetch = vi.fn(async (url, options = {}) => {
    const method = options.method || "GET";
    calls.push({ url, method, body: options.body });
    return handler(url, method, options);
  });
}

beforeEach(() => {
  document.cookie = "csrftoken=jeton";
});
afterEach(cleanup);

describe("ResourceSection", () => {
  it("shows the load error", async () => {
    mockServer(() => json({ error: "boom" }, 503));
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    expect(await screen.findByRole("alert")).toHaveProperty("textContent", MSG_TARIFS_LOAD);
  });

  it("checks the browser rules, then shows the server's field errors beside their fields", async () => {
    mockServer((url, method) =>
      method === "PUT" ? json({ error: "Un nombre valide est requis.", errors: { price: ["Un nombre valide est requis."] } }, 400) : json([TARIF])
    );
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier Carte 10 cours/ }));
    const price = screen.getByLabelText(/Prix/);
    expect(price.value).toBe("190.00");
    fireEvent.change(price, { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(document.getElementById(price.getAttribute("aria-describedby")).textContent).toBe(MSG_FIELD_REQUIRED);
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);

    fireEvent.change(price, { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(price.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(price.getAttribute("aria-describedby")).textContent).toBe("Un nombre valide est requis.");
    const put = calls.find((c) => c.method === "PUT");
    expect(put.url).toBe("/api/tariff-rules/7");
    expect(JSON.parse(put.body)).toMatchObject({ title: "Carte 10 cours", price: "12", type: "forfait" });
  });

  it("falls back to 'Erreur lors de la sauvegarde.' without a server message", async () => {
    mockServer((url, method) => (method === "PUT" ? json(null, 502) : json([TARIF])));
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier Carte 10 cours/ }));
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findByText(MSG_SAVE)).toBeTruthy();
  });

  it("deletes only after confirmation", async () => {
    mockServer((url, method) => (method === "DELETE" ? json(null, 500) : json([TARIF])));
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Supprimer Carte 10 cours/ }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    const dialog = screen.getByText(/Voulez-vous vraiment supprimer « Carte 10 cours »/).closest(".modal-content");
    fireEvent.click(within(dialog).getByRole("button", { name: "Supprimer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url === "/api/tariff-rules/7")).toBe(true));
    expect((await screen.findByRole("alert")).textContent).toContain(MSG_DELETE);
  });

  it("users: a supervisor sees the role read-only and sends no role; the server sorts and searches", async () => {
    const member = { id: 5, first_name: "Emma", last_name: "Petit", email: "emma@example.fr", role: "user", phone: "", address: "", postal_code: "", city: "", country: "France" };
    mockServer((url, method) => (method === "PUT" ? json(member) : json({ count: 1, next: null, previous: null, results: [member] })));
    render(<ResourceSection config={usersConfig} user={{ id: 1, role: "supervisor", isAdmin: false }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier Emma Petit/ }));
    expect(screen.getByLabelText("Rôle").disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === "PUT").body)).not.toHaveProperty("role");
    expect(calls[0].url).toBe("/api/users?page=1&page_size=10&ordering=last_name");
    fireEvent.click(screen.getByRole("button", { name: /^E-mail/ }));
    await waitFor(() => expect(calls.at(-1).url).toContain("ordering=email"));
    fireEvent.change(screen.getByLabelText("Rechercher par nom ou e-mail"), { target: { value: "emma" } });
    await waitFor(() => expect(calls.at(-1).url).toContain("search=emma"));
  });
});

describe("read-only lists", () => {
  it("have no empty 'Actions' column", async () => {
    const { reservationsConfig } = await import("./sections/Lists.jsx");
    mockServer(() => json([{ id: 3, date: "2031-03-10T18:30:00+01:00", course_title: "Exotic Pole", instructor: "Léa", seats_taken: 2, max_attendees: 10, attendees: [] }]));
    render(<ResourceSection config={reservationsConfig} user={{ id: 1, isAdmin: true }} />);
    expect(await screen.findByText("Exotic Pole")).toBeTruthy();
    expect(screen.queryByRole("columnheader", { name: "Actions" })).toBeNull();
    expect(document.querySelectorAll("td.dash-actions")).toHaveLength(0);
  });

  it("keep the column where a row can be changed", async () => {
    mockServer(() => json([TARIF]));
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    expect(await screen.findByRole("columnheader", { name: "Actions" })).toBeTruthy();
  });
});

describe("dashboard forms in error", () => {
  it("focus the first field in error after a failed submit, and not while typing", async () => {
    mockServer(() => json([TARIF]));
    render(<ResourceSection config={TARIFS} user={{ id: 1, isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier Carte 10 cours/ }));
    const price = screen.getByLabelText(/Prix/);
    const title = screen.getByLabelText(/Titre/);
    fireEvent.change(price, { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(document.activeElement).toBe(price));
    title.focus();
    fireEvent.change(price, { target: { value: "1" } });
    expect(document.activeElement).toBe(title);
  });
});
