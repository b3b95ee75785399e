import { describe, expect, it } from "vitest";
import { coursesConfig } from "./Courses.jsx";

describe("course form: the picture", () => {
  it("offers a picture upload and its alt text", () => {
    const fields = coursesConfig.fields();
    const image = fields.find((field) => field.name === "image");
    expect(image).toMatchObject({ type: "file", label: "Photo du cours (JPEG, PNG, GIF ou WebP, facultatif)" });
    expect(image.accept).toBe("image/jpeg,image/png,image/gif,image/webp");
    expect(fields.find((field) => field.name === "image_alt").label).toBe("Texte alternatif de la photo");
    expect(coursesConfig.columns.find((column) => column.key === "image_url").label).toBe("Photo");
  });

  it("sends JSON without a new picture, multipart with one", () => {
    const form = coursesConfig.toForm({ id: 1, title: "Cabaret", description: "d", level: "Avancé", duration: 75, image_alt: "Illustration" });
    expect(form.image).toBe(null);
    expect(form.image_alt).toBe("Illustration");
    const json = coursesConfig.toPayload(form);
    expect(json).toMatchObject({ title: "Cabaret", image_alt: "Illustration" });
    expect(json instanceof FormData).toBe(false);
    const file = new File(["x"], "photo.png", { type: "image/png" });
    const multipart = coursesConfig.toPayload({ ...form, image: file });
    expect(multipart instanceof FormData).toBe(true);
    expect(multipart.get("image").name).toBe("photo.png");
    expect(multipart.get("title")).toBe("Cabaret");
    expect(multipart.get("duration")).toBe("75");
  });
});

describe("course form: the booking and cancellation windows", () => {
  it("edits the free-cancellation hours and the opening, blank opening fields for the studio's settings", () => {
    const fields = coursesConfig.fields();
    expect(fields.find((field) => field.name === "free_cancellation_hours").label).toBe("Annulation gratuite (heures avant le cours)");
    expect(fields.find((field) => field.name === "booking_opens_days_before").help).toBe("Vide : le réglage du studio.");
    const form = coursesConfig.toForm({ id: 1, title: "Cabaret", description: "d", level: "Avancé", duration: 75, free_cancellation_hours: 12, booking_opens_days_before: null, booking_opens_time: "08:00" });
    expect([form.free_cancellation_hours, form.booking_opens_days_before, form.booking_opens_time]).toEqual(["12", "", "08:00"]);
    expect(coursesConfig.toPayload(form)).toMatchObject({ free_cancellation_hours: 12, booking_opens_days_before: null, booking_opens_time: "08:00" });
    const cleared = coursesConfig.toPayload({ ...form, booking_opens_days_before: "7", booking_opens_time: "", image: new File(["x"], "p.png", { type: "image/png" }) });
    expect([cleared.get("booking_opens_days_before"), cleared.get("booking_opens_time")]).toEqual(["7", ""]);
  });
});
