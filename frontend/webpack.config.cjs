/* One entry per island (frontend/src/islands/<name>/index.jsx), the vanilla `shell` entry on every page,
   a shared runtime and vendor chunk, and per-page gzip budgets that fail the build. */
const fs = require("fs");
const path = require("path");
const BundleTracker = require("webpack-bundle-tracker");
const MiniCssExtractPlugin = require("mini-css-extract-plugin");
const PageBudgetPlugin = require("./scripts/page-budget-plugin.cjs");
const AsyncChunksPlugin = require("./scripts/async-chunks-plugin.cjs");
const { InjectManifest } = require("workbox-webpack-plugin");

const root = __dirname;
const islandsDir = path.join(root, "src", "islands");

function islandEntries() {
  const entries = {};
  for (const name of fs.readdirSync(islandsDir)) {
    for (const file of ["index.jsx", "index.js"]) {
      const candidate = path.join(islandsDir, name, file);
      if (fs.existsSync(candidate)) {
        entries[name] = candidate;
        break;
      }
    }
  }
  return entries;
}

// Gzipped JS budgets per page (shell + the page's islands, before any lazily loaded chunk), in bytes. The calendar
// keeps to the common budget: FullCalendar is fetched by its island once the page has painted.
const BUDGETS = { default: 90 * 1024 };

module.exports = (env, argv) => {
  const production = argv.mode !== "development";
  return {
    context: root,
    entry: { shell: path.join(root, "src", "shell", "index.js"), ...islandEntries() },
    output: {
      path: path.join(root, "..", "static", "dist"),
      publicPath: "/static/dist/",
      filename: production ? "[name].[contenthash:8].js" : "[name].js",
      chunkFilename: production ? "[name].[contenthash:8].js" : "[name].js",
      clean: false, // parallel builds must not delete files a running server still points to
    },
    resolve: { extensions: [".js", ".jsx"] },
    module: {
      rules: [
        { test: /\.jsx?$/, exclude: /node_modules/, loader: "esbuild-loader", options: { loader: "jsx", jsx: "automatic", target: "es2020" } },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, "css-loader"] },
      ],
    },
    optimization: {
      runtimeChunk: "single",
      splitChunks: {
        chunks: "all",
        cacheGroups: {
          react: { test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, name: "vendor-react", priority: 20, chunks: "all" },
          // Chart.js stays in the overview's lazy "charts" chunk: one file, loaded by that section only.
          charts: { test: /[\\/](node_modules[\\/](chart\.js|@kurkle)[\\/]|overview[\\/]chartjs\.js$)/, name: "charts", priority: 30, chunks: "async", enforce: true },
        },
      },
    },
    devtool: production ? false : "eval-cheap-module-source-map",
    performance: { hints: false },
    plugins: [
      new MiniCssExtractPlugin({ filename: production ? "[name].[contenthash:8].css" : "[name].css" }),
      new BundleTracker({ path: root, filename: "webpack-stats.json" }),
      new AsyncChunksPlugin({ path: path.join(root, "webpack-async-chunks.json") }),
      new PageBudgetPlugin({ budgets: BUDGETS, sharedEntry: "shell", report: path.join(root, "bundle-report.json") }),
      // The service worker (docs/decisions.md 53): served at /sw.js by Django (studio/pwa.py) for the site-wide scope.
      // It precaches what the offline pages need to start: the runtime, React, the shell, the planning and "Mes cours".
      new InjectManifest({
        swSrc: path.join(root, "src", "sw", "index.js"),
        swDest: "sw.js",
        chunks: ["runtime", "vendor-react", "shell", "pwa", "calendar", "mount", "calendar-view", "calendar-full", "my-courses"],
        exclude: [/\.LICENSE\.txt$/, /\.map$/],
        ...(production ? {} : { maximumFileSizeToCacheInBytes: 10 * 1024 * 1024 }),
      }),
    ],
  };
};
