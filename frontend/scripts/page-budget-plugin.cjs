/* Prints the gzipped JS and CSS each page loads (the shell plus one island) and fails the build over budget. */
const zlib = require("zlib");
const fs = require("fs");

class PageBudgetPlugin {
  constructor({ budgets, sharedEntry, report }) {
    this.budgets = budgets;
    this.sharedEntry = sharedEntry;
    this.report = report;
  }

  apply(compiler) {
    compiler.hooks.emit.tap("PageBudgetPlugin", (compilation) => {
      const sizes = {};
      const gz = (file) => {
        if (!(file in sizes)) {
          const asset = compilation.getAsset(file);
          sizes[file] = asset ? zlib.gzipSync(asset.source.buffer(), { level: 9 }).length : 0;
        }
        return sizes[file];
      };
      const filesOf = (entry) => {
        const files = new Set();
        for (const chunk of compilation.entrypoints.get(entry).chunks) for (const f of chunk.files) files.add(f);
        return files;
      };
      const shellFiles = filesOf(this.sharedEntry);
      const rows = [];
      for (const [name] of compilation.entrypoints) {
        const files = new Set([...shellFiles, ...(name === this.sharedEntry ? [] : filesOf(name))]);
        let js = 0;
        let css = 0;
        for (const f of files) {
          if (f.endsWith(".js")) js += gz(f);
          if (f.endsWith(".css")) css += gz(f);
        }
        const budget = this.budgets[name] || this.budgets.default;
        rows.push({ page: name === this.sharedEntry ? "(pages sans îlot)" : name, js, css, budget });
        if (js > budget) {
          compilation.errors.push(
            new Error(`Budget dépassé pour ${name}: ${(js / 1024).toFixed(1)} KB de JS gzip > ${(budget / 1024).toFixed(0)} KB`)
          );
        }
      }
      const kb = (n) => (n / 1024).toFixed(1).padStart(7);
      console.log("\nBundle report (gzip)        JS KB  CSS KB  budget KB");
      for (const r of rows) console.log(`  ${r.page.padEnd(24)} ${kb(r.js)} ${kb(r.css)} ${kb(r.budget)}`);
      if (this.report) fs.writeFileSync(this.report, JSON.stringify(rows, null, 2));
    });
  }
}

module.exports = PageBudgetPlugin;
