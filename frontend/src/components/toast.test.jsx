import { describe, expect, it } from "vitest";
import { waitFor } from "@testing-library/react";
import { notify } from "./toast.jsx";

const shown = (text) => Array.from(document.querySelectorAll(".Toastify__toast")).filter((el) => el.textContent.includes(text));

describe("toast", () => {
  it("shows a message once even when it is sent twice while still on screen", async () => {
    notify("Feedback enregistré avec succès", "success");
    notify("Feedback enregistré avec succès", "success");
    await waitFor(() => expect(shown("Feedback enregistré").length).toBeGreaterThan(0));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(shown("Feedback enregistré")).toHaveLength(1);
  });

  it("still shows different messages side by side", async () => {
    notify("Premier message", "info");
    notify("Second message", "info");
    await waitFor(() => expect(shown("Second message")).toHaveLength(1));
    expect(shown("Premier message")).toHaveLength(1);
  });
});
