/* A staff list's actions: the "Actions" menu of a row (keyboard and focus), and the French confirmation every action
   leaves in the section's status region. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import ActionsMenu from "./ActionsMenu.jsx";
import { MSG_DELETED, MSG_SAVED } from "./messages.js";
import ResourceSection from "./ResourceSection.jsx";

const json = (body, status = 200) => new Response(body === null ? "" : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  document.cookie = "csrftoken=jeton";
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderMenu(extra = null) {
  return render(
    <ActionsMenu label="Pole Flow du 14/01/2030">
      {(close) => (
        <>
          <button type="button">Participants</button>
          <button type="button">Présences</button>
          <button type="button" disabled>
            Indisponible
          </button>
          <button type="button" onClick={() => close()}>
            Modifier
          </button>
          {extra}
        </>
      )}
    </ActionsMenu>
  );
}

describe("the Actions menu of a row", () => {
  it("is a real menu button: closed, then open on the first item, its items menu items", () => {
    renderMenu();
    const button = screen.getByRole("button", { name: "Actions : Pole Flow du 14/01/2030" });
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    const menu = screen.getByRole("menu");
    expect(button.getAttribute("aria-controls")).toBe(menu.id);
    expect(within(menu).getAllByRole("menuitem").map((item) => item.textContent)).toEqual(["Participants", "Présences", "Modifier"]);
    expect(document.activeElement.textContent).toBe("Participants");
  });

  it("moves with the arrow keys, Home and End, wrapping round, skipping what is disabled", () => {
    renderMenu();
    fireEvent.click(screen.getByRole("button", { name: /^Actions/ }));
    const menu = screen.getByRole("menu");
    const focused = () => document.activeElement.textContent;
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(focused()).toBe("Présences");
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(focused()).toBe("Modifier");
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(focused()).toBe("Participants");
    fireEvent.keyDown(menu, { key: "ArrowUp" });
    expect(focused()).toBe("Modifier");
    fireEvent.keyDown(menu, { key: "Home" });
    expect(focused()).toBe("Participants");
    fireEvent.keyDown(menu, { key: "End" });
    expect(focused()).toBe("Modifier");
  });

  it("closes on Escape and gives the focus back to its button", () => {
    renderMenu();
    const button = screen.getByRole("button", { name: /^Actions/ });
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button);
  });

  it("opens from the keyboard: ↓ on the first item, ↑ on the last", () => {
    renderMenu();
    const button = screen.getByRole("button", { name: /^Actions/ });
    fireEvent.keyDown(button, { key: "ArrowUp" });
    expect(document.activeElement.textContent).toBe("Modifier");
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    fireEvent.keyDown(button, { key: "ArrowDown" });
    expect(document.activeElement.textContent).toBe("Participants");
  });

  it("closes when an item closes it, or on a click elsewhere", () => {
    renderMenu();
    const button = screen.getByRole("button", { name: /^Actions/ });
    fireEvent.click(button);
    fireEvent.click(screen.getByRole("menuitem", { name: "Modifier" }));
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(screen.getByRole("menu")).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole("menu")).toBeNull();
  });
});

const NOTE = { id: 3, title: "Note du jour" };
const notesConfig = {
  key: "notes",
  title: "Notes",
  noun: "une note",
  endpoint: "/api/notes",
  itemPath: (row) => `/api/notes/${row.id}`,
  label: (row) => row.title,
  columns: [{ key: "title", label: "Titre" }],
  fields: () => [{ name: "title", label: "Titre", required: true }],
  toForm: (row) => ({ title: row.title }),
  emptyValues: () => ({ title: "" }),
  // A section's own action reports through ctx.notify.
  rowActions: (row, ctx, closeMenu) => (
    <button
      type="button"
      onClick={() => {
        closeMenu?.();
        ctx.notify(`Note « ${row.title} » envoyée.`);
      }}
    >
      Envoyer
    </button>
  ),
};

function notesServer() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url, options = {}) => {
      const method = options.method || "GET";
      if (method === "DELETE") return new Response(null, { status: 204 });
      if (method === "POST" || method === "PUT") return json(NOTE, method === "POST" ? 201 : 200);
      return json([NOTE]);
    })
  );
}

const status = () => screen.getByRole("status");

describe("a staff list confirms each action in French", () => {
  it("after adding, editing and deleting", async () => {
    notesServer();
    render(<ResourceSection config={notesConfig} user={{ role: "admin" }} />);
    await screen.findByRole("cell", { name: "Note du jour" });
    fireEvent.click(screen.getByRole("button", { name: "Ajouter une note" }));
    fireEvent.change(screen.getByLabelText(/Titre/), { target: { value: "Note du jour" } });
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(status().textContent).toBe(MSG_SAVED));
    expect(MSG_SAVED).toBe("Enregistré avec succès.");

    fireEvent.click(screen.getByRole("button", { name: "Modifier Note du jour" }));
    fireEvent.click(within(document.querySelector("dialog[open]")).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(document.querySelector("dialog[open]")).toBeNull());
    expect(status().textContent).toBe(MSG_SAVED);

    fireEvent.click(screen.getByRole("button", { name: "Supprimer Note du jour" }));
    fireEvent.click(within(document.querySelector("dialog[open]")).getByRole("button", { name: /Supprimer|Confirmer|Oui/ }));
    await waitFor(() => expect(status().textContent).toBe(MSG_DELETED));
    expect(MSG_DELETED).toBe("Supprimé avec succès.");
  });

  it("after a section's own action, from the row's Actions menu, which closes on its button", async () => {
    notesServer();
    render(<ResourceSection config={{ ...notesConfig, actionsMenu: true }} user={{ role: "admin" }} />);
    const button = await screen.findByRole("button", { name: "Actions : Note du jour" });
    // One button in the row: the edit and delete are menu items.
    expect(within(button.closest("tr")).getAllByRole("button")).toHaveLength(1);
    fireEvent.click(button);
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual(["Envoyer", "Modifier Note du jour", "Supprimer Note du jour"]);
    fireEvent.click(screen.getByRole("menuitem", { name: "Envoyer" }));
    expect(status().textContent).toBe("Note « Note du jour » envoyée.");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("gives the focus back to the Actions button when the edit dialog opened from its menu closes", async () => {
    notesServer();
    render(<ResourceSection config={{ ...notesConfig, actionsMenu: true }} user={{ role: "admin" }} />);
    const button = await screen.findByRole("button", { name: "Actions : Note du jour" });
    fireEvent.click(button);
    fireEvent.click(screen.getByRole("menuitem", { name: "Modifier Note du jour" }));
    const dialog = document.querySelector("dialog[open]");
    expect(dialog).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Enregistrer" }));
    await waitFor(() => expect(status().textContent).toBe(MSG_SAVED));
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(document.activeElement).toBe(button);
  });

  it("gives the focus to the table when the row acted on leaves the reloaded list", async () => {
    let rows = [NOTE, { id: 4, title: "Autre note" }];
    vi.stubGlobal("fetch", vi.fn(async () => json(rows)));
    const config = {
      ...notesConfig,
      actionsMenu: true,
      rowActions: (row, ctx, closeMenu) => (
        <button
          type="button"
          onClick={() => {
            closeMenu?.();
            rows = rows.filter((r) => r.id !== row.id);
            ctx.notify("Note archivée.");
            ctx.reload();
          }}
        >
          Archiver
        </button>
      ),
    };
    render(<ResourceSection config={config} user={{ role: "admin" }} />);
    fireEvent.click(await screen.findByRole("button", { name: "Actions : Note du jour" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Archiver" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Actions : Note du jour" })).toBeNull());
    expect(status().textContent).toBe("Note archivée.");
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("region", { name: "Tableau : Notes" })));
  });
});
