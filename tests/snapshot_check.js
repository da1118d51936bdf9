// For tests/test_static_site.py: a Python restored from the static site's memory snapshot by the page's own
// code (pyodide-preload.js: `ckSnapshot` applies the snapshot's changes to the wasm's data, `ckAfterSnapshot`
// runs once it is restored), beside a Python started from nothing. Prints, as JSON, what each sees of its
// environment.   node snapshot_check.js SITE_PYODIDE_DIR
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const dir = path.resolve(process.argv[2]) + "/";
const { loadPyodide } = require(dir + "pyodide.js");
// the page's script, in a worker's global of its own: `self`, and `fetch` reading the site's files
const page = { fetch: async (file) => new Response(fs.readFileSync(file)), Response, Blob, DecompressionStream };
page.self = page;
vm.runInNewContext(fs.readFileSync(dir + "pyodide-preload.js", "utf8"), page);
const LOOK = `
import json, os, sys, time, random
env = {k: v for k, v in os.environ.items() if k != "_"}
json.dumps({"env": env, "path": sys.path, "cwd": os.getcwd(), "modules": sorted(sys.modules),
            "zone": [time.timezone, time.altzone, time.daylight, list(time.tzname)], "random": random.random()})
`;

(async () => {
  const quiet = { indexURL: dir, stdout: () => {}, stderr: () => {} };
  const fresh = await loadPyodide(quiet);
  const restored = [];
  for (let n = 0; n < 2; n++) {
    const wasm = Promise.resolve(new Response(fs.readFileSync(dir + "pyodide.asm.wasm")));
    const py = await loadPyodide({ ...quiet, _loadSnapshot: page.ckSnapshot(dir, page.ckSnapshotInfo, wasm) });
    py.runPython(page.ckAfterSnapshot, { globals: py.globals.get("dict")() });
    restored.push(JSON.parse(py.runPython(LOOK)));
  }
  console.log(JSON.stringify({ fresh: JSON.parse(fresh.runPython(LOOK)), restored }));
})().catch((e) => { console.error(String(e)); process.exit(1); });
