/* cardkit: the in-browser kernel's Pyodide, started early, with the heaviest modules imported as soon as
   Python is up.

   jupyterlite-pyodide-kernel loads Pyodide from the script its `pyodideUrl` names; the site names this one.
   It loads Pyodide's own `pyodide.js` from the same folder, and once Pyodide and the preloaded packages are
   there it imports IPython, ipywidgets, the kit and the kernel's own module (which sets up IPython's shell)
   at once. The kernel would import them a moment later anyway, but by then it works in its own folder on
   JupyterLite's in-browser drive, and every import would first look there, each look a round trip through
   the page (about a hundred of them). Importing them here, in Pyodide's own folder, spares those.

   The page does not wait for its scripts to ask for the kernel: `kernel-worker.js` is the kernel's own worker,
   created from the page's head, which starts this Pyodide at once (`ckStartPyodide`) and then runs the
   kernel's worker script. When the kernel asks for Pyodide, it gets the one already on its way. */
/* IPython's package imports its terminal (prompt_toolkit: about 0.4 s of a page's start) only to offer
   `IPython.embed`, which a kernel in a page never calls: a stand-in takes its place while IPython is imported.
   Should anyone call it, it imports the real one, which says that prompt_toolkit is not there (the site does
   not ship IPython's terminal). */
self.ckBoot = `
import sys, types

def embed(**kwargs):
    from IPython.terminal.embed import embed
    return embed(**kwargs)

stand_in = sys.modules["IPython.terminal.embed"] = types.ModuleType("IPython.terminal.embed")
stand_in.embed = embed
try:
    import IPython, comm, ipywidgets, cardkit, piplite.piplite, pyodide_kernel
finally:
    del sys.modules["IPython.terminal.embed"]
`;

/* Python does not start from nothing: the build saved Pyodide's memory once Python had started (a memory
   snapshot, Pyodide's own, experimental in 0.29), as its changes from the memory's starting contents, which the
   wasm file holds. The page restores it (about 2 s less on a 2-core machine). If anything goes wrong on the way
   (no such file, a browser without DecompressionStream, a snapshot Pyodide refuses), Python starts as usual. */
self.ckSnapshotInfo = /*SNAPSHOT*/null;

/* What Python's start downloads, counted as it arrives, so that the page can say "Starting Python: 3.2 of 13.7 MB"
   rather than promise a time: the build lists the files it fetches with their sizes (the WebAssembly file, the
   standard library, the snapshot, the lock file and the wheels loaded at once; Pyodide's two scripts, loaded by
   importScripts, are not counted). Each such answer is read a second time beside its real reader, and the page
   that created this worker is sent `{ckStart: {done, total}}` now and then (a message with no `type`, which the
   kernel's own handler ignores). */
self.ckDownloads = /*DOWNLOADS*/null;
(() => {
  const sizes = self.ckDownloads, netFetch = self.fetch;
  if (!sizes || !netFetch || self.ckCounting) return;
  self.ckCounting = true;
  const total = Object.values(sizes).reduce((a, b) => a + b, 0), got = {};
  let sent = 0;
  const report = (now) => {
    if (!now && Date.now() - sent < 150) return;
    sent = Date.now();
    let done = 0;
    for (const name in got) done += Math.min(got[name], sizes[name]);
    try { self.postMessage({ ckStart: { done, total } }); } catch (e) { /* not in a worker */ }
  };
  self.fetch = async (input, init) => {
    const response = await netFetch(input, init);
    let name;
    try { name = new URL(input instanceof Request ? input.url : String(input), self.location).pathname.split("/").pop(); }
    catch (e) { return response; }
    if (!(name in sizes) || !response.ok || !response.body) return response;
    got[name] = 0;
    const reader = response.clone().body.getReader();
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        got[name] += value.byteLength;
        report(false);
      }
      got[name] = sizes[name];
      report(true);
    })().catch(() => {});
    return response;
  };
  report(true);
})();

self.ckSnapshot = async function (indexURL, info, wasm) {
  const unpack = async (response) => {
    if (!response.ok) throw new Error(`${info.file}: ${response.status}`);
    const bytes = await response.arrayBuffer(), magic = new Uint8Array(bytes, 0, 2);
    if (magic[0] !== 0x1f || magic[1] !== 0x8b) return bytes;   // a host that sent it gzip-encoded: unpacked already
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  };
  const [changes, start] = await Promise.all([
    fetch(indexURL + info.file).then(unpack),
    wasm.then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
  ]);
  const memory = new Uint8Array(changes);
  const head = new DataView(changes).getUint32(4, true);      // the snapshot's header; the memory follows it
  for (const [at, address, length] of info.segments) {
    const to = memory.subarray(head + address, head + address + length), from = start.subarray(at, at + length);
    for (let i = 0; i < length; i++) to[i] ^= from[i];
  }
  return memory;
};

/* What a restored Python must not keep from the build: `random`'s state (Python imported it as it started, and
   seeded it then; the kit's deals draw from os.urandom, other code may not), the time zone (the snapshot is made
   in UTC; `time`'s zone figures are set again as CPython sets them where the C library names no zone: from
   January's and July's local time; the C library's own names, as in strftime's %Z, stay UTC's), and the empty
   folder Pyodide puts first on Python's path as it starts (there twice after a restore). */
self.ckAfterSnapshot = `
import random, sys, time
random.seed()
if sys.path[:2] == ["", ""]:
    del sys.path[0]

def zone(t):
    offset = time.localtime(t).tm_gmtoff
    return -offset, "UTC%s%02d%02d" % ("+" if offset > 0 else "-", abs(offset) // 3600, abs(offset) % 3600 // 60)

year = (365 * 24 + 6) * 3600
jan, jul = zone(time.time() // year * year), zone(time.time() // year * year + year // 2)
std, dst = (jul, jan) if jan[0] < jul[0] else (jan, jul)
time.timezone, time.altzone, time.daylight, time.tzname = std[0], dst[0], int(jan[0] != jul[0]), (std[1], dst[1])
`;

self.ckStartPyodide = self.ckStartPyodide || function (config) {
  self.ckPyodide = self.ckPyodide || (async () => {
    importScripts(config.indexURL + "pyodide.js");       // Pyodide's own loadPyodide
    const load = self.loadPyodide;
    let pyodide = null;
    if (self.ckSnapshotInfo && self.DecompressionStream) {
      // The wasm file is fetched once, for Pyodide (which compiles it as it arrives) and for the snapshot.
      const wasmURL = new URL("pyodide.asm.wasm", config.indexURL).href, fetchAnything = self.fetch;
      const wasm = fetchAnything(wasmURL).then((r) => { if (!r.ok) throw new Error(`${wasmURL}: ${r.status}`); return r; });
      self.fetch = (input, init) =>
        new URL(String(input), self.location).href === wasmURL ? wasm.then((r) => r.clone()) : fetchAnything(input, init);
      try {
        const snapshot = self.ckSnapshot(config.indexURL, self.ckSnapshotInfo, wasm.then((r) => r.clone()));
        pyodide = await load({ ...config, _loadSnapshot: snapshot });
        pyodide.runPython(self.ckAfterSnapshot, { globals: pyodide.globals.get("dict")() });
        self.ckFromSnapshot = true;
      } catch (e) {
        console.warn("Python starts without its snapshot: " + e);
        pyodide = null;
      } finally {
        self.fetch = fetchAnything;
      }
    }
    pyodide = pyodide || await load(config);
    pyodide.runPython(self.ckBoot, { globals: pyodide.globals.get("dict")() });  // (nothing left in the page's namespace)
    return pyodide;
  })();
  return self.ckPyodide;
};

self.ckLoadPyodide = async function (config) {
  const pyodide = await self.ckStartPyodide(config);
  if (config.stdout) pyodide.setStdout({ batched: config.stdout });     // the kernel's own log, from now on
  if (config.stderr) pyodide.setStderr({ batched: config.stderr });
  return pyodide;
};
self.loadPyodide = self.ckLoadPyodide;
