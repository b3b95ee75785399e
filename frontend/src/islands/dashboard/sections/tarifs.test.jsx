import { describe, expect, it } from "vitest";
import { MSG_WEEKLY_CAP_INVALID } from "../messages.js";
import { validateTarif } from "../validation.js";
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

describe("tarif form: the weekly cap", () => {
  const base = { type: "abonnement", title: "Abonnement trimestriel", price: "120", pass_unlimited: true, pass_validity_months: "3" };

  it("shows the stored cap and sends it back as a whole number", () => {
    const row = { id: 7, ...base, price: "120.00", pass_credits: 0, pass_validity_months: 3, pass_weekly_cap: 1 };
    const form = tarifsConfig.toForm(row);
    expect(form.pass_weekly_cap).toBe("1");
    expect(tarifsConfig.toPayload({ ...form, pass_weekly_cap: "2" })).toMatchObject({ pass_weekly_cap: 2 });
    expect(tarifsConfig.toPayload({ ...form, pass_weekly_cap: "" })).toMatchObject({ pass_weekly_cap: 0 });
    expect(tarifsConfig.toPayload(tarifsConfig.emptyValues())).toMatchObject({ pass_weekly_cap: 0 });
  });

  it("offers the cap as a field staff can edit", () => {
    const field = tarifsConfig.fields({}).find((f) => f.name === "pass_weekly_cap");
    expect(field).toMatchObject({ label: "Cours par semaine (0 = illimité)", type: "number", min: 0, max: 14, step: "1" });
    expect(tarifsConfig.columns.map((c) => c.label)).toContain("Cours / semaine");
    const column = tarifsConfig.columns.find((c) => c.label === "Cours / semaine");
    expect(column.render({ pass_weekly_cap: 1 })).toBe("1");
    expect(column.render({ pass_weekly_cap: 0, pass_unlimited: true })).toBe("Illimité");
    expect(column.render({ pass_weekly_cap: 0, pass_unlimited: false })).toBe("");
  });

  it("refuses a cap that is not a whole number from 0 to 14, in French", () => {
    for (const value of ["-1", "15", "1.5", "deux"]) {
      const invalid = validateTarif({ ...base, pass_weekly_cap: value });
      expect(invalid.errors.pass_weekly_cap).toBe(MSG_WEEKLY_CAP_INVALID);
    }
    for (const value of ["", "0", "1", "14"]) expect(validateTarif({ ...base, pass_weekly_cap: value })).toBeNull();
    expect(MSG_WEEKLY_CAP_INVALID).toBe("Le nombre de cours par semaine est un nombre entier de 0 (illimité) à 14.");
  });
});

describe("tariff form: the cap of future bookings", () => {
  it("reads and sends it, 0 for no cap", () => {
    const field = tarifsConfig.fields({}).find((f) => f.name === "max_future_bookings");
    expect(field.label).toBe("Réservations à venir au plus (0 = illimité)");
    const form = tarifsConfig.toForm({ id: 3, title: "Carte 5", type: "forfait", price: "90.00", max_future_bookings: 2 });
    expect(form.max_future_bookings).toBe("2");
    expect(tarifsConfig.toPayload({ ...form, max_future_bookings: "" })).toMatchObject({ max_future_bookings: 0 });
  });
});

describe("tariff form: the discovery offer", () => {
  it("reads the flag, sends it back and says it is sold once per person, in French", () => {
    const field = tarifsConfig.fields({}).find((f) => f.name === "discovery_offer");
    expect(field).toMatchObject({ label: "Offre découverte", type: "checkbox" });
    expect(field.help).toBe("Vendue une seule fois par personne : un même compte, une même adresse e-mail ou un même téléphone ne l'achète qu'une fois.");
    const form = tarifsConfig.toForm({ id: 9, title: "Premier cours", type: "cours", price: "15.00", discovery_offer: true });
    expect(form.discovery_offer).toBe(true);
    expect(tarifsConfig.toPayload({ ...form, discovery_offer: false })).toMatchObject({ discovery_offer: false });
    expect(tarifsConfig.toPayload(tarifsConfig.emptyValues())).toMatchObject({ discovery_offer: false });
  });

  it("marks the offer in the list", () => {
    const column = tarifsConfig.columns.find((c) => c.key === "title");
    expect(column.render({ title: "Premier cours", discovery_offer: true })).toBe("Premier cours (Offre découverte)");
    expect(column.render({ title: "Carte 10 cours", discovery_offer: false })).toBe("Carte 10 cours");
  });
});
