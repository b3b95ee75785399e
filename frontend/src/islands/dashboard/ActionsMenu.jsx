/* A row's actions behind one "Actions" button, so that a row of a staff list stays one or two lines tall whatever
   it offers (a session: participants, attendance, waiting list, cancel, edit, delete).
   The menu follows the WAI-ARIA menu button pattern: the button says aria-haspopup/aria-expanded; Enter, Space or
   ↓ open it on the first item, ↑ on the last; ↑ ↓ Home End move between items; Escape closes it and gives the
   focus back to the button; Tab or a click elsewhere closes it.
   Its items are any buttons or links its children render: a section's own components (each opening its dialog)
   work unchanged inside it. A dialog opened from an item lives inside the menu, so the menu stays open under it
   and the focus comes back to that item when it closes; an action that calls `close` (children given as a
   function) closes the menu first and its dialog gives the focus back to the "Actions" button. */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from "react";

const ITEMS = "button, a[href]";
// The menu's own place: under the button (above it when there is no room below), a gap from the window's edges.
const GAP = 4;

function itemsOf(menu) {
  if (!menu) return [];
  return Array.from(menu.querySelectorAll(ITEMS)).filter((el) => !el.closest("dialog") && !el.disabled);
}

function markItems(menu) {
  for (const item of itemsOf(menu)) {
    item.setAttribute("role", "menuitem");
    item.tabIndex = -1;
  }
}

export default function ActionsMenu({ label, children }) {
  const [open, setOpen] = useState(false);
  const button = useRef(null);
  const menu = useRef(null);
  const focusOnOpen = useRef("first");
  const id = useId();

  // The focus goes back to the button at once (a dialog opening next remembers it as its opener), and again once the
  // menu has left the page, unless a dialog holds it by then: an item's dialog unmounted with the menu sends it on.
  const close = useCallback((giveFocusBack = true) => {
    setOpen(false);
    if (!giveFocusBack) return;
    button.current?.focus();
    setTimeout(() => {
      const active = document.activeElement;
      if (button.current?.isConnected && !active?.closest?.("dialog[open]")) button.current.focus();
    }, 0);
  }, []);

  const moveFocus = (where) => {
    const items = itemsOf(menu.current);
    if (!items.length) return;
    const current = items.indexOf(document.activeElement);
    let next = 0;
    if (where === "last") next = items.length - 1;
    else if (where === "next") next = current < 0 ? 0 : (current + 1) % items.length;
    else if (where === "previous") next = current <= 0 ? items.length - 1 : current - 1;
    items[next].focus();
  };

  const measure = useCallback(() => {
    const anchor = button.current;
    const popup = menu.current;
    if (!anchor || !popup) return;
    const rect = anchor.getBoundingClientRect();
    const height = popup.offsetHeight;
    const below = rect.bottom + GAP + height <= window.innerHeight || rect.top - GAP - height < 0;
    // Written on the element before the browser paints it (and before an item takes the focus), not through state.
    popup.style.top = `${below ? rect.bottom + GAP : Math.max(0, rect.top - GAP - height)}px`;
    // Right edges aligned; on a phone, where the button sits at the card's left, left edges aligned instead.
    const viewport = document.documentElement.clientWidth;
    if (rect.right - popup.offsetWidth < GAP) {
      popup.style.left = `${Math.max(GAP, Math.min(rect.left, viewport - popup.offsetWidth - GAP))}px`;
      popup.style.right = "auto";
    } else {
      popup.style.left = "auto";
      popup.style.right = `${Math.max(0, viewport - rect.right)}px`;
    }
  }, []);

  // Opened: roles on the items (also those a child renders later, e.g. after a class is cancelled), the menu placed
  // by its button (fixed, so that the table's sideways-scrolling box does not clip it), the focus on an item.
  useLayoutEffect(() => {
    if (!open) return undefined;
    const popup = menu.current;
    markItems(popup);
    measure();
    if (focusOnOpen.current) moveFocus(focusOnOpen.current);
    focusOnOpen.current = null;
    const observer = typeof MutationObserver === "function" ? new MutationObserver(() => markItems(popup)) : null;
    observer?.observe(popup, { childList: true, subtree: true });
    return () => observer?.disconnect();
  }, [open, measure]);

  useEffect(() => {
    if (!open) return undefined;
    const dialogOpen = () => Boolean(menu.current?.querySelector("dialog[open]"));
    const outside = (event) => {
      if (dialogOpen()) return;
      if (menu.current?.contains(event.target) || button.current?.contains(event.target)) return;
      setOpen(false);
    };
    const follow = () => !dialogOpen() && measure();
    document.addEventListener("pointerdown", outside);
    window.addEventListener("scroll", follow, true);
    window.addEventListener("resize", follow);
    return () => {
      document.removeEventListener("pointerdown", outside);
      window.removeEventListener("scroll", follow, true);
      window.removeEventListener("resize", follow);
    };
  }, [open, measure]);

  const onButtonKeyDown = (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusOnOpen.current = event.key === "ArrowUp" ? "last" : "first";
      if (open) moveFocus(focusOnOpen.current);
      else setOpen(true);
    }
  };

  const onMenuKeyDown = (event) => {
    // Keys pressed inside an item's dialog are the dialog's own.
    if (event.target.closest?.("dialog")) return;
    const moves = { ArrowDown: "next", ArrowUp: "previous", Home: "first", End: "last" };
    if (moves[event.key]) {
      event.preventDefault();
      moveFocus(moves[event.key]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === "Tab") {
      close(false);
    }
  };

  return (
    <div className="dash-menu">
      <button
        ref={button}
        type="button"
        className="button button-small button-secondary dash-menu-button"
        aria-haspopup="menu"
        aria-expanded={open ? "true" : "false"}
        aria-controls={open ? `${id}-menu` : undefined}
        id={`${id}-button`}
        onClick={() => {
          focusOnOpen.current = "first";
          setOpen((current) => !current);
        }}
        onKeyDown={onButtonKeyDown}
      >
        Actions<span className="visually-hidden"> : {label}</span>
        <span aria-hidden="true"> ▾</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          className="dash-menu-list"
          onKeyDown={onMenuKeyDown}
        >
          {typeof children === "function" ? children(close) : children}
        </div>
      )}
    </div>
  );
}
