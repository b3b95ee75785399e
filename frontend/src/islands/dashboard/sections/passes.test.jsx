import { describe, expect, it } from "vitest";
import { MSG_FIELD_REQUIRED } from "../messages.js";
import { MSG_CREDITS_INTEGER, creditsText, passesConfig, validatePass } from "./Passes.jsx";

describe("dashboard passes section", () => {
  it("always asks for a reason, and a member's e-mail to grant", () => {
    expect(validatePass({ reason: "", member_email: "" }, "add").errors).toEqual({ reason: MSG_FIELD_REQUIRED, member_email: MSG_FIELD_REQUIRED });
    expect(validatePass({ reason: "Geste commercial", credits_delta: "2.5" }, "edit").errors).toEqual({ credits_delta: MSG_CREDITS_INTEGER });
    expect(validatePass({ reason: "Blessure", credits_delta: "-2" }, "edit")).toBeNull();
  });

  it("shows credits left over the total, or unlimited", () => {
    expect(creditsText({ kind: "card", credits_left: 7, credits_total: 10 })).toBe("7 / 10");
    expect(creditsText({ kind: "subscription", credits_left: null })).toBe("Illimité");
  });

  it("sends a grant and an adjustment as the API expects", () => {
    const grant = passesConfig.toPayload({ member_email: " emma@example.fr ", tariff_id: "4", kind: "", credits: "", starts_on: "", expires_on: "", reason: " offert " }, "add");
    expect(grant).toEqual({ member_email: "emma@example.fr", tariff_id: 4, kind: "", credits: null, starts_on: "", expires_on: "", reason: "offert" });
    const adjust = passesConfig.toPayload({ credits_delta: "3", expires_on: "2031-06-30", reason: "Blessure" }, "edit");
    expect(adjust).toEqual({ credits_delta: 3, expires_on: "2031-06-30", reason: "Blessure" });
    const cardFields = passesConfig.fields({ mode: "edit", options: {}, row: { kind: "card" } }).map((f) => f.name);
    const subFields = passesConfig.fields({ mode: "edit", options: {}, row: { kind: "subscription" } }).map((f) => f.name);
    expect(cardFields).toEqual(["credits_delta", "expires_on", "reason"]);
    expect(subFields).toEqual(["expires_on", "reason"]);
  });
});
