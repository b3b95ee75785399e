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
