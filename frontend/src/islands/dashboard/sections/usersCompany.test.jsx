/* A member's company to invoice (docs/decisions.md 54) in the staff's user editor: sent with the rest, and the
   server's refusal (a SIREN whose key is wrong) shown beside its field. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import ResourceSection from "../ResourceSection.jsx";
import { COMPANY_FIELD_LABELS, usersConfig } from "./Users.jsx";

const MSG_SIREN_INVALID = "Le numéro SIREN doit compter 9 chiffres et sa clé de contrôle être juste.";
const json = (body, status = 200) => new Response(JSON.stringify(body), { status });
const member = {
  id: 5, role: "user", first_name: "Emma", last_name: "Petit", email: "emma@example.fr", phone: "", address: "",
  postal_code: "", city: "", country: "France", can_edit: true,
  company_name: "Lumière SA", company_siren: "732829320", company_vat_number: "", company_address: "",
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("users: the company to invoice", () => {
  it("shows the member's company, sends it, and puts the server's refusal beside the SIREN", async () => {
    const puts = [];
    vi.stubGlobal("fetch", vi.fn(async (url, options = {}) => {
      if (options.method === "PUT") {
        puts.push(JSON.parse(options.body));
        if (puts.length === 1) return json({ error: MSG_SIREN_INVALID, message: MSG_SIREN_INVALID, code: "siren_invalid", errors: { company_siren: [MSG_SIREN_INVALID] } }, 400);
        return json({ ...member, ...puts.at(-1) });
      }
      return json({ count: 1, next: null, previous: null, results: [member] });
    }));
    document.cookie = "csrftoken=jeton";
    render(<ResourceSection config={usersConfig} user={{ id: 1, role: "admin", isAdmin: true }} />);
    fireEvent.click(await screen.findByRole("button", { name: /Modifier Emma Petit/ }));
    expect(screen.getByLabelText(COMPANY_FIELD_LABELS.company_name).value).toBe("Lumière SA");
    expect(screen.getByLabelText(COMPANY_FIELD_LABELS.company_siren).value).toBe("732829320");
    fireEvent.change(screen.getByLabelText(COMPANY_FIELD_LABELS.company_siren), { target: { value: "732 829 321" } });
    fireEvent.change(screen.getByLabelText(COMPANY_FIELD_LABELS.company_vat_number), { target: { value: " FR44732829320 " } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    const siren = screen.getByLabelText(COMPANY_FIELD_LABELS.company_siren);
    await waitFor(() => expect(siren.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(siren.getAttribute("aria-describedby").split(" ").find((id) => document.getElementById(id)?.className === "field-error")).textContent).toBe(MSG_SIREN_INVALID);
    expect(puts[0]).toMatchObject({ company_name: "Lumière SA", company_siren: "732 829 321", company_vat_number: "FR44732829320", company_address: "" });

    fireEvent.change(siren, { target: { value: "732829320" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].company_siren).toBe("732829320");
  });
});
