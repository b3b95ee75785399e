import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SECTIONS, sectionFromPath } from "../sections.js";
import { MSG_EMAILS_LOAD, MSG_RESEND_FAILED, ResendButton, emailsConfig } from "./Emails.jsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answer(status, body) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } })));
}

describe("dashboard undelivered e-mails section", () => {
  it("is a section of the sidebar at /admin/emails", () => {
    expect(SECTIONS.find((s) => s.key === "emails").label).toBe("E-mails non remis");
    expect(sectionFromPath("/admin/emails")).toBe("emails");
  });

  it("lists the staff API's undelivered mails", () => {
    const config = emailsConfig(() => {});
    expect(config.endpoint).toBe("/api/emails/undelivered");
    expect(config.messages.load).toBe(MSG_EMAILS_LOAD);
    expect(MSG_EMAILS_LOAD).toBe("Erreur lors du chargement des e-mails non remis.");
    const row = { id: 3, to: ["a@example.fr", "b@example.fr"], status_label: "Non remis" };
    expect(config.columns.find((c) => c.key === "to").render(row)).toBe("a@example.fr, b@example.fr");
    expect(config.columns.find((c) => c.key === "status").render(row)).toBe("Non remis");
  });

  it("resends a mail and reports the server's message", async () => {
    const fetchMock = answer(200, { message: "L'e-mail est remis en file d'envoi.", email: {} });
    vi.stubGlobal("fetch", fetchMock);
    const onDone = vi.fn();
    render(<ResendButton row={{ id: 7, subject: "Votre reçu" }} onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: /Renvoyer/ }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ text: "L'e-mail est remis en file d'envoi.", error: false }));
    expect(fetchMock.mock.calls[0][0]).toBe("/api/emails/7/resend");
    expect(fetchMock.mock.calls[0][1].method).toBe("POST");
  });

  it("says when the resend was refused, or could not be sent", async () => {
    vi.stubGlobal("fetch", answer(400, { error: "Cet e-mail a déjà été envoyé." }));
    const onDone = vi.fn();
    render(<ResendButton row={{ id: 7, subject: "Reçu" }} onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: /Renvoyer/ }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ text: "Cet e-mail a déjà été envoyé.", error: true }));
    cleanup();
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("offline"))));
    const offline = vi.fn();
    render(<ResendButton row={{ id: 8, subject: "Reçu" }} onDone={offline} />);
    fireEvent.click(screen.getByRole("button", { name: /Renvoyer/ }));
    await waitFor(() => expect(offline).toHaveBeenCalledWith({ text: MSG_RESEND_FAILED, error: true }));
    expect(MSG_RESEND_FAILED).toBe("L'e-mail n'a pas pu être remis en file d'envoi.");
  });
});
