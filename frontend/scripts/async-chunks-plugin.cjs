/* Writes, for each named dynamic import (`import(/* webpackChunkName: "…" *\/ …)`), the files the browser must
   fetch for it beyond its entry's own, so that a page opening on that code can ask for them with the entry's
   scripts instead of one round trip later (studio/templatetags/islands.py, `{% async_chunks %}`). */
const fs = require("fs");

class AsyncChunksPlugin {
  constructor({ path }) {
    this.path = path;
  }

  apply(compiler) {
    compiler.hooks.emit.tap("AsyncChunksPlugin", (compilation) => {
      const groups = {};
      for (const [name, group] of compilation.namedChunkGroups) {
        if (group.isInitial()) continue;
        // The files its parents (the entry) already load are not repeated: the shared runtime and vendor chunks.
        const loaded = new Set();
        for (const parent of group.getParents()) for (const f of parent.getFiles()) loaded.add(f);
        groups[name] = group.getFiles().filter((f) => /\.(js|css)$/.test(f) && !loaded.has(f));
      }
      fs.writeFileSync(this.path, JSON.stringify(groups, null, 2));
    });
  }
}

module.exports = AsyncChunksPlugin;
