// Runs Lighthouse (mobile settings, the default config) on each page with Debian's Chromium.
// Usage: node bench/lighthouse.mjs <baseUrl> <runs> <categories,comma,separated> <path> [<path> ...]
// LIGHTHOUSE_COOKIES (optional, JSON): { "<path>": { "sessionid": "…" } }, the browser's cookies for that page (a
// logged-in page); set in the browser itself, so that the page's own requests carry them as a visitor's would.
// Prints one JSON object: { "<path>": { "<category>": [score, score, ...], "metrics": [...], "failing": [...] } }
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [baseUrl, runsArg, categoriesArg, ...paths] = process.argv.slice(2);
const runs = Number(runsArg) || 1;
const categories = categoriesArg.split(",");
const cookies = JSON.parse(process.env.LIGHTHOUSE_COOKIES || "{}");
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
const scores = {};
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
const cdp = await browser.target().createCDPSession();
try {
  for (const path of paths) {
    scores[path] = {};
    await cdp.send("Storage.clearCookies");
    const pageCookies = Object.entries(cookies[path] || {}).map(([name, value]) => ({ name, value, url: baseUrl }));
    if (pageCookies.length) await cdp.send("Storage.setCookies", { cookies: pageCookies });
    for (let i = 0; i < runs; i += 1) {
      let lhr;
      let artifacts;
      // A run that fails to load the page at all (runtimeError, e.g. NO_NAVSTART on a busy machine) is tried once
      // more before it counts.
      for (let attempt = 0; attempt < 2 && (!lhr || lhr.runtimeError); attempt += 1) {
        const result = await lighthouse(baseUrl + path, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: categories,
        });
        lhr = result.lhr;
        artifacts = result.artifacts;
      }
      // LIGHTHOUSE_DUMP=<folder>: each run's full report and trace, to read what the LCP element was and what delayed it.
      if (process.env.LIGHTHOUSE_DUMP) {
        const { writeFileSync } = await import("node:fs");
        const stem = `${process.env.LIGHTHOUSE_DUMP}/${path.replaceAll("/", "_") || "_"}-${i + 1}`;
        writeFileSync(`${stem}.json`, JSON.stringify(lhr));
        // The page's trace (chrome://tracing, DevTools' performance panel): what the main thread did before the LCP.
        if (artifacts?.Trace) writeFileSync(`${stem}.trace.json`, JSON.stringify(artifacts.Trace));
      }
      for (const category of categories) {
        (scores[path][category] ||= []).push(Math.round((lhr.categories[category]?.score ?? 0) * 100));
      }
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        .map((a) => a.id);
      const metric = (id) => Math.round(lhr.audits[id]?.numericValue ?? -1);
      (scores[path].metrics ||= []).push({
        fcp: metric("first-contentful-paint"),
        lcp: metric("largest-contentful-paint"),
        tbt: metric("total-blocking-time"),
        si: metric("speed-index"),
        cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? -1,
      });
      if (lhr.runtimeError) failing.push(`runtimeError: ${lhr.runtimeError.code}`);
      scores[path].failing = [...new Set([...(scores[path].failing || []), ...failing])];
    }
  }
} finally {
  await browser.disconnect();
  await chrome.kill();
}
process.stdout.write(JSON.stringify(scores));
