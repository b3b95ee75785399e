/* docs/decisions.md 32 in the dashboard: a supervisor is offered member rows only, never a staff member's e-mail. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MSG_EMAIL_STAFF_ADMIN_ONLY } from "./messages.js";
import ResourceSection from "./ResourceSection.jsx";
import { usersConfig } from "./sections/Users.jsx";

const json = (body, status = 200) => new Response(JSON.stringify(body), { status });
const row = (id, role, extra = {}) => ({
  id, role, first_name: `P${id}`, last_name: `N${id}`, email: `u${id}@example.fr`, phone: "", address: "",
  postal_code: "", city: "", country: "France", can_edit: true, ...extra,
});

let calls;
function mockServer(rows, put = (body) => json(body)) {
  calls = [];
  globalThis.fetch = vi.fn(async (url, options = {}) => {
    const method = options.method || "GET";
    calls.push({ url, method, body: options.body });
    if (method === "PUT") return put(JSON.parse(options.body));
    return json({ count: rows.length, next: null, previous: null, results: rows });
  });
}

beforeEach(() => {
  document.cookie = "csrftoken=jeton";
});
afterEach(cleanup);

describe("users section (docs/decisions.md 32)", () => {
  it("offers a supervisor no edit or delete on admin and supervisor rows", async () => {
    mockServer([row(2, "admin", { can_edit: false }), row(3, "supervisor", { can_edit: false }), row(4, "user")]);
    render(<ResourceSection config={usersConfig} user={{ id: 9, role: "supervisor", isAdmin: false }} />);
    await screen.findByRole("button", { name: /Modifier P4 N4/ });
    expect(screen.queryByRole("button", { name: /Modifier P2 N2/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Modifier P3 N3/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Supprimer P2 N2/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Supprimer P3 N3/ })).toBeNull();
  });

  it("lets a supervisor edit their own row but not their e-mail, and sends no e-mail", async () => {
    mockServer([row(9, "supervisor")]);
    render(<ResourceSection config={usersConfig} user={{ id: 9, role: "supervisor", isAdmin: false }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier P9 N9/ }));
    expect(screen.getByLabelText(/^E-mail/).disabled).toBe(true);
    expect(screen.getByText(MSG_EMAIL_STAFF_ADMIN_ONLY)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === "PUT").body)).not.toHaveProperty("email");
  });

  it("shows the server's message when a new e-mail waits for its confirmation", async () => {
    const pending = "Un lien de confirmation a été envoyé à la nouvelle adresse.";
    mockServer([row(4, "user")], (body) => json({ ...row(4, "user"), pending_email: body.email, message: pending }));
    render(<ResourceSection config={usersConfig} user={{ id: 1, role: "admin", isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier P4 N4/ }));
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: "nouvelle@example.fr" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(await screen.findByText(pending)).toBeTruthy();
  });
});
