import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { MSG_FORM_INVALID } from "../messages.js";
import TariffCourses from "./TariffCourses.jsx";
import { tarifsConfig } from "./Tarifs.jsx";
import {
  MSG_COMMITMENT_INVALID,
  MSG_CREDITS_INVALID,
  MSG_FUTURE_CAP_INVALID,
  MSG_PAUSE_WEEKS_INVALID,
  MSG_VALIDITY_INVALID,
} from "./tariffRules.js";

const ROW = {
  id: 4,
  type: "abonnement",
  title: "Un cours par semaine",
  price: "55.00",
  frequency: "par mois",
  pass_credits: 0,
  pass_validity_months: 12,
  pass_unlimited: true,
  pass_weekly_cap: 1,
  max_future_bookings: 2,
  commitment_periods: 6,
  reduced_rate: true,
  pause_weeks_per_year: 3,
  covered_course_ids: [8, 9],
};
const VALID = { type: "abonnement", title: "Un cours par semaine", price: "55" };

describe("tariff form: every rule of the pass", () => {
  it("saves through the API that writes the tariff and its plan at once", () => {
    expect(tarifsConfig.endpoint).toBe("/api/tariff-rules");
    expect(tarifsConfig.itemPath({ id: 4 })).toBe("/api/tariff-rules/4");
  });

  it("round-trips each rule between the API row, the form and the payload", () => {
    const form = tarifsConfig.toForm(ROW);
    expect(form).toMatchObject({ commitment_periods: "6", reduced_rate: "true", pause_weeks_per_year: "3", covered_course_ids: [8, 9] });
    expect(tarifsConfig.toPayload(form)).toMatchObject({
      pass_weekly_cap: 1,
      max_future_bookings: 2,
      commitment_periods: 6,
      reduced_rate: true,
      pause_weeks_per_year: 3,
      covered_course_ids: [8, 9],
      pass_validity_months: 12,
    });
    expect(tarifsConfig.toPayload({ ...form, reduced_rate: "" }).reduced_rate).toBeNull();
    expect(tarifsConfig.toPayload({ ...form, reduced_rate: "false" }).reduced_rate).toBe(false);
    expect(tarifsConfig.toForm({ ...ROW, reduced_rate: null }).reduced_rate).toBe("");
  });

  it("starts a new tariff with the plan's defaults: no commitment of its own, 4 weeks of pause, every course", () => {
    expect(tarifsConfig.toPayload(tarifsConfig.emptyValues())).toMatchObject({
      commitment_periods: 0,
      reduced_rate: null,
      pause_weeks_per_year: 4,
      covered_course_ids: [],
    });
  });

  it("labels each rule and says what it does", () => {
    const fields = tarifsConfig.fields({ options: { courses: [{ value: 8, label: "Barre au sol" }] } });
    const byName = Object.fromEntries(fields.map((field) => [field.name, field]));
    expect(byName.pass_credits.label).toBe("Cours inclus (carte)");
    expect(byName.pass_validity_months.label).toBe("Durée de la carte ou de l'abonnement (mois)");
    expect(byName.pass_weekly_cap.label).toBe("Cours par semaine (0 = illimité)");
    expect(byName.max_future_bookings.label).toBe("Réservations à venir au plus (0 = illimité)");
    expect(byName.commitment_periods.label).toBe("Engagement (périodes, 0 = toute la durée)");
    expect(byName.reduced_rate.label).toBe("Tarif réduit");
    expect(byName.pause_weeks_per_year.label).toBe("Semaines de suspension par an");
    expect(byName.covered_course_ids.label).toBe("Cours couverts");
    expect(byName.covered_course_ids.courses).toEqual([{ value: 8, label: "Barre au sol" }]);
    for (const name of ["pass_credits", "pass_validity_months", "pass_weekly_cap", "max_future_bookings", "commitment_periods", "reduced_rate", "pause_weeks_per_year", "covered_course_ids"]) {
      expect(byName[name].help, name).toBeTruthy();
    }
    expect(byName.covered_course_ids.help).toContain("aucun coché : tous les cours");
  });

  it("refuses each rule out of its range in French before sending", () => {
    const cases = [
      ["pass_credits", "501", MSG_CREDITS_INVALID],
      ["pass_validity_months", "1.5", MSG_VALIDITY_INVALID],
      ["max_future_bookings", "101", MSG_FUTURE_CAP_INVALID],
      ["commitment_periods", "-1", MSG_COMMITMENT_INVALID],
      ["pause_weeks_per_year", "53", MSG_PAUSE_WEEKS_INVALID],
    ];
    for (const [name, value, message] of cases) {
      const invalid = tarifsConfig.validate({ ...VALID, [name]: value });
      expect(invalid.message).toBe(MSG_FORM_INVALID);
      expect(invalid.errors[name]).toBe(message);
    }
    expect(tarifsConfig.validate({ ...VALID, commitment_periods: "12", pause_weeks_per_year: "0" })).toBeNull();
    expect(MSG_COMMITMENT_INVALID).toBe("Le nombre de périodes d'engagement est un nombre entier de 0 (la durée de validité) à 120.");
    expect(MSG_PAUSE_WEEKS_INVALID).toBe("Le nombre de semaines de suspension par an est un nombre entier de 0 (aucune) à 52.");
    expect(MSG_FUTURE_CAP_INVALID).toBe("Le nombre de réservations à venir est un nombre entier de 0 (illimité) à 100.");
    expect(MSG_CREDITS_INVALID).toBe("Le nombre de cours inclus est un nombre entier de 0 à 500.");
    expect(MSG_VALIDITY_INVALID).toBe("La validité est un nombre entier de mois de 0 à 60.");
  });
});

describe("the courses a tariff covers", () => {
  const field = { label: "Cours couverts", courses: [{ value: 8, label: "Barre au sol" }, { value: 9, label: "Pole Dance débutant" }] };

  it("ticks the covered courses and sends the choice back", () => {
    const onChange = vi.fn();
    render(<TariffCourses id="c" field={field} value={[8]} onChange={onChange} />);
    expect(screen.getByLabelText("Barre au sol").checked).toBe(true);
    fireEvent.click(screen.getByLabelText("Pole Dance débutant"));
    expect(onChange).toHaveBeenCalledWith([8, 9]);
    fireEvent.click(screen.getByLabelText("Barre au sol"));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("says every course is covered while there is no course to choose", () => {
    render(<TariffCourses id="c" field={{ ...field, courses: [] }} value={[]} onChange={() => {}} />);
    expect(screen.getByText("Aucun cours pour l'instant : le tarif couvre tous les cours.")).toBeTruthy();
  });
});
