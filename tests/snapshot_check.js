// For tests/test_static_site.py: a Python restored from the static site's memory snapshot, as a page restores
// it (pyodide-preload.js: the snapshot's changes applied to the wasm's data, then its after-restore code),
// beside a Python started from nothing. Prints, as JSON, what each sees of its environment.
// node snapshot_check.js SITE_PYODIDE_DIR
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const dir = path.resolve(process.argv[2]) + "/";
const { loadPyodide } = require(dir + "pyodide.js");
const preload = fs.readFileSync(dir + "pyodide-preload.js", "utf8");
const info = JSON.parse(preload.match(/self\.ckSnapshotInfo = (.*);/)[1]);
const afterRestore = preload.match(/self\.ckAfterSnapshot = `([^`]*)`/)[1];
const LOOK = `
import json, os, sys, time, random
env = {k: v for k, v in os.environ.items() if k != "_"}
json.dumps({"env": env, "path": sys.path, "cwd": os.getcwd(), "modules": sorted(sys.modules),
            "zone": [time.timezone, time.altzone, time.daylight, list(time.tzname)], "random": random.random()})
`;

function snapshot() {
  const memory = new Uint8Array(zlib.gunzipSync(fs.readFileSync(dir + info.file)));
  const wasm = fs.readFileSync(dir + "pyodide.asm.wasm");
  const head = new DataView(memory.buffer, memory.byteOffset).getUint32(4, true);
  for (const [at, address, length] of info.segments) {
    for (let i = 0; i < length; i++) memory[head + address + i] ^= wasm[at + i];
  }
  return memory;
}

(async () => {
  const quiet = { indexURL: dir, stdout: () => {}, stderr: () => {} };
  const fresh = await loadPyodide(quiet);
  const restored = [];
  for (let n = 0; n < 2; n++) {
    const py = await loadPyodide({ ...quiet, _loadSnapshot: snapshot() });
    py.runPython(afterRestore, { globals: py.globals.get("dict")() });
    restored.push(JSON.parse(py.runPython(LOOK)));
  }
  console.log(JSON.stringify({ fresh: JSON.parse(fresh.runPython(LOOK)), restored }));
})().catch((e) => { console.error(String(e)); process.exit(1); });
