/* Chart.js, only what the overview draws (bar charts), registered once. This module is the "charts" chunk: it is
   imported lazily by ChartFigure, so no other page or dashboard section downloads it. */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
Chart.defaults.locale = "fr-FR";
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
Chart.defaults.color = "#2b1033";

export { Chart };
