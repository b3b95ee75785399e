import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

const charts = vi.hoisted(() => ({ made: [] }));
vi.mock("./overview/chartjs.js", () => ({
  Chart: class {
    constructor(canvas, config) {
      this.config = config;
      charts.made.push(this);
    }
    destroy() {}
  },
}));
const { ChartFigure } = await import("./overview/ChartFigure.jsx");

// A browser's IntersectionObserver, with the test saying when the chart comes near the screen.
const observers = [];
class FakeObserver {
  constructor(callback) {
    this.callback = callback;
    this.targets = [];
    observers.push(this);
  }
  observe(target) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets = [];
  }
}
const scrollNear = () => act(() => observers.forEach((o) => o.targets.length && o.callback(o.targets.map((target) => ({ target, isIntersecting: true })))));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  charts.made.length = 0;
  observers.length = 0;
});

const props = {
  title: "Encaissé par semaine",
  summary: "100 € encaissés.",
  labels: ["sem. 1"],
  datasets: [{ label: "Encaissé", data: [100] }],
  table: { columns: [{ key: "w", label: "Semaine" }], rows: [{ key: "1", w: "sem. 1" }] },
};

describe("an overview chart below the screen", () => {
  it("is drawn when it comes near the screen, not while the page first shows", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    render(<ChartFigure {...props} />);
    expect(screen.getByRole("img", { name: "Encaissé par semaine. 100 € encaissés." })).toBeTruthy();
    await act(async () => {});
    expect(charts.made).toHaveLength(0);
    scrollNear();
    await vi.waitFor(() => expect(charts.made).toHaveLength(1));
  });

  it("offers its data as a table before it is drawn", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    render(<ChartFigure {...props} />);
    act(() => screen.getByRole("button", { name: "Voir les données" }).click());
    expect(screen.getByRole("table", { name: "Encaissé par semaine" })).toBeTruthy();
    expect(charts.made).toHaveLength(0);
  });
});
