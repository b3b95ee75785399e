import { describe, expect, it } from "vitest";
import {
  confirmErrorMessage,
  forgotErrorMessage,
  generatePassword,
  loginErrorMessage,
  mismatchWarning,
  registrationError,
  resetErrorMessage,
} from "./rules.js";

const M = {
  required: "required",
  phone: "phone",
  email: "email",
  postalCode: "postal",
  passwordShort: "short",
  passwordsDiffer: "differ",
  cgu: "cgu",
};
const OK = {
  last_name: "Bernard",
  first_name: "Chloé",
  phone: "06 11 22 33 44",
  email: "chloe@example.fr",
  postal_code: "69002",
  password: "secret1",
  confirmPassword: "secret1",
  acceptCGU: true,
};

describe("registration checks", () => {
  it("passes a valid form", () => expect(registrationError(OK, M)).toBe(""));
  it.each([
    [{ first_name: " " }, "required"],
    [{ phone: "123" }, "phone"],
    [{ email: "chloe@" }, "email"],
    [{ postal_code: "6900" }, "postal"],
    [{ password: "abc", confirmPassword: "abc" }, "short"],
    [{ confirmPassword: "secret2" }, "differ"],
    [{ acceptCGU: false }, "cgu"],
    [{ phone: "1", email: "x" }, "phone"],
    [{ postal_code: "1", acceptCGU: false }, "postal"],
  ])("%o gives %s (the earliest failing check)", (change, expected) => {
    expect(registrationError({ ...OK, ...change }, M)).toBe(expected);
  });
  it("warns live only once the confirmation differs", () => {
    expect(mismatchWarning("abc", "", "differ")).toBe("");
    expect(mismatchWarning("abc", "ab", "differ")).toBe("differ");
    expect(mismatchWarning("abc", "abc", "differ")).toBe("");
  });
});

describe("password generator", () => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*";
  it("draws 12 characters from the alphabet with crypto.getRandomValues", () => {
    const password = generatePassword(12, alphabet);
    expect(password).toHaveLength(12);
    for (const c of password) expect(alphabet).toContain(c);
    expect(generatePassword(12, alphabet)).not.toBe(password);
  });
  it("rejects bytes that would bias the draw", () => {
    let call = 0;
    const random = (array) => {
      array.fill(call++ === 0 ? 255 : 0); // 255 >= 252 (the last multiple of 70 below 256): rejected
      return array;
    };
    expect(generatePassword(4, alphabet, random)).toBe("AAAA");
  });
});

describe("the server's error codes mapped to French messages", () => {
  const err = (status, message = "") => ({ status, message });
  it("login", () => {
    const m = { network: "net", other: "other" };
    expect(loginErrorMessage(err(401, "Email ou mot de passe incorrect."), m)).toBe("Email ou mot de passe incorrect.");
    expect(loginErrorMessage(err(429, "trop"), m)).toBe("trop");
    expect(loginErrorMessage(err(0), m)).toBe("net");
    expect(loginErrorMessage(err(500, "boom"), m)).toBe("other");
  });
  it("e-mail validation", () => {
    const m = { invalid: "invalid", other: "other" };
    expect(confirmErrorMessage(err(400), m)).toBe("invalid");
    expect(confirmErrorMessage(err(500), m)).toBe("other");
    expect(confirmErrorMessage(err(0), m)).toBe("other");
  });
  it("forgot password", () => {
    const m = { 400: "400", 403: "403", 404: "404", 500: "500", timeout: "t", network: "n", other: "o" };
    expect([400, 403, 404, 500, 502, -1, 0, 418].map((s) => forgotErrorMessage(err(s), m))).toEqual([
      "400", "403", "404", "500", "500", "t", "n", "o",
    ]);
  });
  it("reset password", () => {
    const m = { 400: "400", 404: "404", 500: "500", other: "o", network: "n" };
    expect([400, 404, 500, 0, 418].map((s) => resetErrorMessage(err(s), m))).toEqual(["400", "404", "500", "n", "o"]);
    expect(resetErrorMessage(err(400, "trop court"), m)).toBe("trop court");
  });
});
