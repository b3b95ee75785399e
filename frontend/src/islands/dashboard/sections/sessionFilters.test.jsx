import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionFilters, filterParams, filtersFromSearch } from "./SessionFilters.jsx";

afterEach(cleanup);

describe("staff session list filters", () => {
  it("opens on upcoming sessions and reads the filters from the address", () => {
    expect(filtersFromSearch("")).toEqual({ when: "upcoming" });
    expect(filtersFromSearch("?when=cancelled&course_id=3&search=flow")).toEqual({ when: "cancelled", course_id: "3", search: "flow" });
    expect(filterParams({ when: "", course_id: "3", instructor: "" })).toEqual({ course_id: "3" });
  });

  it("writes a change to the address and reports it", () => {
    window.history.replaceState(null, "", "/admin/sessions");
    const onChange = vi.fn();
    render(<SessionFilters filters={{ when: "upcoming" }} courses={[{ value: "3", label: "Pole Flow" }]} onChange={onChange} />);
    fireEvent.change(screen.getByLabelText("Période"), { target: { value: "past" } });
    expect(onChange).toHaveBeenCalledWith({ when: "past" });
    expect(window.location.search).toBe("?when=past");
    fireEvent.change(screen.getByLabelText("Recherche"), { target: { value: " Inès " } });
    fireEvent.click(screen.getByRole("button", { name: "Filtrer" }));
    expect(onChange).toHaveBeenLastCalledWith({ when: "upcoming", instructor: "", search: "Inès" });
    expect(window.location.search).toBe("?when=upcoming&search=In%C3%A8s");
  });
});
