import { describe, expect, it } from "vitest";
import { SECTIONS } from "../sections.js";
import { MSG_PROMO_CODE_REQUIRED, MSG_PROMO_VALUE_REQUIRED, promoCodesConfig, validatePromo } from "./PromoCodes.jsx";

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
