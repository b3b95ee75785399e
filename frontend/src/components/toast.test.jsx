import { describe, expect, it } from "vitest";
import { waitFor } from "@testing-library/react";
import { notify } from "./toast.jsx";

describe("toast", () => {
  it("shows a success message once, not twice (issue 24, bug 6)", async () => {
    notify("Feedback enregistré avec succès", "success");
    await waitFor(() => expect(document.querySelectorAll(".Toastify__toast").length).toBeGreaterThan(0));
    // let React settle any queued toasts
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const shown = Array.from(document.querySelectorAll(".Toastify__toast")).filter((el) => el.textContent.includes("Feedback enregistré"));
    expect(shown).toHaveLength(1);
  });
});
