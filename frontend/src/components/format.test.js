import { describe, expect, it } from "vitest";
import { amountTimes, euros, eurosTimes, formatDate, formatDateTime, formatter, formatLongDate, formatMediumDateTime, formatShortDate, formatTime, toAmount, toCents } from "./format.js";

const NBSP = /[\u00a0\u202f]/g;
const plain = (text) => text.replace(NBSP, " ");

describe("the shared French formatter", () => {
  it("formats euros the French way, with a space that never breaks before the sign", () => {
    expect(plain(euros("25.00"))).toBe("25,00 €");
    expect(plain(euros(1234.5))).toBe("1 234,50 €");
    expect(plain(euros("19,9"))).toBe("19,90 €");
    expect(plain(euros(null))).toBe("0,00 €");
    expect(euros(25)).not.toContain(" €"); // a no-break space, not a plain one
    expect(plain(eurosTimes("19.99", 3))).toBe("59,97 €");
    expect(toCents("0.1")).toBe(10);
  });

  it("gives the amount Intl writes for fr-FR/EUR: a narrow or plain no-break space, a decimal comma", () => {
    expect(euros("25.00")).toBe(new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" }).format(25));
    expect(euros("25.00")).toMatch(/^25,00[\u00a0\u202f]€$/);
    expect(plain(euros("1234.5"))).toBe("1 234,50 €");
    expect(plain(euros("abc"))).toBe("0,00 €");
  });

  it("keeps the API's decimal strings apart from what is shown", () => {
    expect(toAmount("25,5")).toBe("25.50");
    expect(toAmount(190)).toBe("190.00");
    expect(toAmount(undefined)).toBe("0.00");
    expect(amountTimes("25.00", 2)).toBe("50.00");
    expect(amountTimes("0.1", 3)).toBe("0.30");
    expect(amountTimes("", 3)).toBe("0.00");
  });

  it("shows instants in Paris, whatever the offset they come with", () => {
    expect(formatTime("2031-03-10T17:30:00Z")).toBe("18:30");
    expect(formatTime("2031-07-10T16:30:00Z")).toBe("18:30");
    expect(formatLongDate("2031-03-10T18:30:00+01:00")).toBe("lundi 10 mars 2031");
    expect(formatLongDate("2031-03-10T23:30:00Z")).toBe("mardi 11 mars 2031");
    expect(formatShortDate("2031-03-10T18:30:00+01:00")).toBe("lun. 10 mars 2031");
    expect(formatDateTime("2031-03-10T18:30:00+01:00")).toBe("10/03/2031 18:30");
    expect(formatMediumDateTime("2031-03-10T18:30:00+01:00")).toContain("18:30");
  });

  it("keeps plain days and Paris wall-clock datetimes as they are", () => {
    expect(formatDate("2031-03-10")).toBe("10/03/2031");
    expect(formatLongDate("2031-03-10")).toBe("lundi 10 mars 2031");
    expect(formatDateTime("2031-03-10 18:30:00")).toBe("10/03/2031 18:30");
    expect(formatTime("2031-03-10T18:30")).toBe("18:30");
    expect(formatDate("")).toBe("");
  });
});

describe("formatter", () => {
  it("builds its Intl formatter on first use only, then gives the same one", () => {
    let built = 0;
    const money = formatter(() => {
      built += 1;
      return new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
    });
    expect(built).toBe(0);
    expect(plain(money().format(25))).toBe("25,00 €");
    expect(money()).toBe(money());
    expect(built).toBe(1);
  });
});
