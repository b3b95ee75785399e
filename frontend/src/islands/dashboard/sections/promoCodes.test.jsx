import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SECTIONS } from "../sections.js";
import {
  MSG_PROMO_CODE_REQUIRED,
  MSG_PROMO_TARIFFS_LOAD,
  MSG_PROMO_VALUE_REQUIRED,
  PROMO_NO_TARIFF,
  promoCodesConfig,
  validatePromo,
} from "./PromoCodes.jsx";

describe("promo codes section", () => {
  it("is listed in the sidebar", () => {
    expect(SECTIONS.map((s) => s.key)).toContain("promo-codes");
  });

  it("asks for a code and a value, in French", () => {
    expect(validatePromo(promoCodesConfig.emptyValues())).toEqual({ code: MSG_PROMO_CODE_REQUIRED, value: MSG_PROMO_VALUE_REQUIRED });
  });

  it("sends blank limits and dates as none, and keeps the tariffs of a code edited", () => {
    const row = { id: 4, code: "ETE", label: "", kind: "percent", value: "15.00", starts_on: null, ends_on: "2026-08-31", max_uses: null, max_uses_per_member: 1, active: true, tariffs: [3] };
    expect(promoCodesConfig.toPayload({ ...promoCodesConfig.toForm(row), max_uses_per_member: "" })).toEqual({
      code: "ETE",
      label: "",
      kind: "percent",
      value: "15.00",
      starts_on: null,
      ends_on: "2026-08-31",
      max_uses: null,
      max_uses_per_member: null,
      active: true,
      tariffs: [3],
    });
  });
});

describe("promo codes: the tariffs covered", () => {
  const choices = [
    { value: 3, label: "Carte 10 cours" },
    { value: 5, label: "Cours à l'unité" },
  ];

  it("offers each tariff as a checkbox, none checked meaning every purchase, in French", () => {
    const field = promoCodesConfig.fields({ options: { tariffs: choices } }).find((f) => f.name === "tariffs");
    expect(field).toMatchObject({ label: "Tarifs couverts", choices });
    expect(field.help).toBe("Le code ne vaut que pour les tarifs cochés ; aucun coché : tous les achats.");
    expect(promoCodesConfig.options.tariffs.endpoint).toBe("/api/tarifs");
    expect(promoCodesConfig.options.tariffs.map([{ id: 3, title: "Carte 10 cours", price: "150.00" }])).toEqual([choices[0]]);
    expect(MSG_PROMO_TARIFFS_LOAD).toBe("Erreur lors du chargement des tarifs.");
    const onChange = vi.fn();
    render(<field.component id="t" field={field} value={[5]} onChange={onChange} />);
    expect(screen.getByRole("checkbox", { name: "Cours à l'unité" }).checked).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Carte 10 cours" }));
    expect(onChange).toHaveBeenCalledWith([5, 3]);
  });

  it("says a code covers every purchase when there is no tariff to choose", () => {
    const field = promoCodesConfig.fields({ options: {} }).find((f) => f.name === "tariffs");
    render(<field.component id="t" field={field} value={[]} onChange={() => {}} />);
    expect(screen.getByText(PROMO_NO_TARIFF)).toBeTruthy();
    expect(PROMO_NO_TARIFF).toBe("Aucun tarif pour l'instant : le code vaut pour tous les achats.");
  });

  it("sends the tariffs checked, in order, and lists them by title", () => {
    const form = { ...promoCodesConfig.emptyValues(), code: "BIENVENUE15", value: "15", tariffs: [5, 3] };
    expect(promoCodesConfig.toPayload(form).tariffs).toEqual([3, 5]);
    const column = promoCodesConfig.columns.find((c) => c.label === "Tarifs");
    expect(column.render({ tariffs: [] }, { options: { tariffs: choices } })).toBe("Tous");
    expect(column.render({ tariffs: [3, 5] }, { options: { tariffs: choices } })).toBe("Carte 10 cours, Cours à l'unité");
  });
});
