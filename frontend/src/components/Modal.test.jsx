/* Closing a modal gives the focus back to the button that opened it (WCAG 2.4.3), whichever way it closes:
   Escape, the × button, Annuler, or a save; and whether the parent closes it with open={false} or stops rendering
   it ({editing && <Modal open …/>}, as the dashboard does). */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useRef, useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { polyfillDialog } from "../testing/dialog.js";
import Modal from "./Modal.jsx";

beforeAll(() => {
  polyfillDialog();
});

afterEach(cleanup);

/** Escape on an open modal dialog: the browser fires a cancelable "cancel" event on it. */
function pressEscape() {
  const dialog = document.querySelector("dialog[open]");
  fireEvent.keyDown(dialog, { key: "Escape" });
  fireEvent(dialog, new Event("cancel", { cancelable: true }));
}

function Mounted({ onSaved }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Modifier la séance
      </button>
      {open && (
        <Modal open title="Modifier" onClose={() => setOpen(false)}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setOpen(false);
              onSaved?.();
            }}
          >
            <input aria-label="Titre" />
            <button type="button" onClick={() => setOpen(false)}>
              Annuler
            </button>
            <button type="submit">Enregistrer</button>
          </form>
        </Modal>
      )}
    </>
  );
}

function Toggled() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Geler
      </button>
      <Modal open={open} title="Geler" onClose={() => setOpen(false)}>
        <input aria-label="Jusqu'au" />
      </Modal>
    </>
  );
}

function open(name) {
  const opener = screen.getByRole("button", { name });
  opener.focus();
  fireEvent.click(opener);
  screen.getByRole("textbox").focus();
  expect(document.activeElement).not.toBe(opener);
  return opener;
}

describe.each([
  ["rendered only while open", Mounted, "Modifier la séance"],
  ["closed with open={false}", Toggled, "Geler"],
])("a modal %s", (_, Component, name) => {
  it("gives the focus back to its opener on Escape", () => {
    render(<Component />);
    const opener = open(name);
    pressEscape();
    expect(document.querySelector("dialog[open]")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("gives the focus back to its opener when its × button closes it", () => {
    render(<Component />);
    const opener = open(name);
    fireEvent.click(screen.getByRole("button", { name: "Fermer" }));
    expect(document.activeElement).toBe(opener);
  });
});

describe("a dashboard form in a modal", () => {
  it("gives the focus back to its opener after Annuler and after a save", () => {
    let saved = 0;
    render(<Mounted onSaved={() => (saved += 1)} />);
    let opener = open("Modifier la séance");
    fireEvent.click(screen.getByRole("button", { name: "Annuler" }));
    expect(document.activeElement).toBe(opener);
    opener = open("Modifier la séance");
    fireEvent.click(screen.getByRole("button", { name: "Enregistrer" }));
    expect(saved).toBe(1);
    expect(document.activeElement).toBe(opener);
  });
});

function RowList() {
  const [rows, setRows] = useState([1, 2]);
  const [deleting, setDeleting] = useState(null);
  const table = useRef(null);
  const returnFocus = useRef(null);
  return (
    <div ref={table} tabIndex={0} role="region" aria-label="Tableau : Séances">
      {rows.map((row) => (
        <button key={row} type="button" onClick={() => setDeleting(row)}>
          Supprimer {row}
        </button>
      ))}
      {deleting && (
        <Modal open title="Confirmer" onClose={() => setDeleting(null)} returnFocus={returnFocus}>
          <button
            type="button"
            onClick={() => {
              returnFocus.current = table.current;
              setRows((current) => current.filter((row) => row !== deleting));
              setDeleting(null);
            }}
          >
            Oui
          </button>
        </Modal>
      )}
    </div>
  );
}

describe("a modal whose opener goes away", () => {
  it("gives the focus to what the page names instead (the list, after a deletion)", () => {
    render(<RowList />);
    const opener = screen.getByRole("button", { name: "Supprimer 1" });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(screen.getByRole("button", { name: "Oui" }));
    expect(opener.isConnected).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole("region", { name: "Tableau : Séances" }));
  });

  it("falls back to the opener's nearest focusable ancestor still on the page", () => {
    function Vanishing() {
      const [shown, setShown] = useState(true);
      const [open, setOpen] = useState(false);
      return (
        <div tabIndex={-1} data-testid="section">
          <div tabIndex={0} role="region" aria-label="Liste">
            {shown && (
              <button type="button" onClick={() => setOpen(true)}>
                Ouvrir
              </button>
            )}
          </div>
          {open && (
            <Modal
              open
              title="T"
              onClose={() => {
                setShown(false);
                setOpen(false);
              }}
            >
              <p>…</p>
            </Modal>
          )}
        </div>
      );
    }
    render(<Vanishing />);
    const opener = screen.getByRole("button", { name: "Ouvrir" });
    opener.focus();
    fireEvent.click(opener);
    pressEscape();
    expect(document.activeElement).toBe(screen.getByRole("region", { name: "Liste" }));
  });
});
