import { describe, expect, it } from "vitest";
import { tarifsConfig } from "./Tarifs.jsx";

describe("tarif form", () => {
  it("round-trips what a tariff grants between the API row and the form", () => {
    const row = { id: 2, type: "forfait", title: "Carte 10 cours", price: "190.00", pass_credits: 10, pass_validity_months: 6, pass_unlimited: false };
    const form = tarifsConfig.toForm(row);
    expect(form.pass_credits).toBe("10");
    expect(form.pass_unlimited).toBe(false);
    const payload = tarifsConfig.toPayload({ ...form, pass_unlimited: true, pass_credits: "0" });
    expect(payload).toMatchObject({ pass_credits: 0, pass_validity_months: 6, pass_unlimited: true, price: "190.00" });
  });

  it("starts a new tariff with no pass granted", () => {
    expect(tarifsConfig.toPayload(tarifsConfig.emptyValues())).toMatchObject({ pass_credits: 0, pass_validity_months: 0, pass_unlimited: false });
  });
});
