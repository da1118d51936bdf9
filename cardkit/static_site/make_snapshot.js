// Pyodide's memory once Python has started, for the site's pages to start from (Pyodide 0.29's experimental
// memory snapshot): node make_snapshot.js PYODIDE_DIR OUT_FILE
// It is made before any package is loaded or imported: Pyodide's snapshot cannot hold references to
// JavaScript objects other than its own, and loading a package makes some. Pyodide checks, as it restores the
// snapshot, that it was made by the same Pyodide build. The build runs this in UTC (pyodide-preload.js sets a
// restored Python's time zone).
const fs = require("fs");
const path = require("path");

const [pyodideDir, outFile] = process.argv.slice(2);

// The same site gives the same snapshot (a returning visitor's browser fetches the site again when a file
// changes): the "random" bytes Python asks for as it starts (its hash seed, `random`'s seed) are a fixed
// sequence here. A page seeds `random` afresh once restored (pyodide-preload.js).
let state = 0x9e3779b9;
const fixedRandom = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;     // xorshift32
    bytes[i] = state & 0xff;
  }
  return view;
};
require("crypto").randomFillSync = fixedRandom;
globalThis.crypto.getRandomValues = fixedRandom;
const T0 = Date.UTC(1980, 0, 1);
Date.now = () => T0;
performance.now = () => 0;
const { loadPyodide } = require(path.resolve(pyodideDir, "pyodide.js"));

(async () => {
  // `_` in the environment as a browser has it (Node would put this script's path there)
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", _makeSnapshot: true,
                                 env: { _: "./this.program" }, stdout: () => {}, stderr: (t) => console.error(t) });
  py.runPython("import gc; gc.collect()");
  fs.writeFileSync(outFile, py.makeMemorySnapshot());
})().catch((e) => { console.error(String(e)); process.exit(1); });
