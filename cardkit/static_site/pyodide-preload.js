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
   `IPython.embed`, which a kernel in a page never calls: a stand-in takes its place while IPython is imported,
   and the terminal is imported if anyone calls it. */
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

self.ckStartPyodide = self.ckStartPyodide || function (config) {
  self.ckPyodide = self.ckPyodide || (async () => {
    importScripts(config.indexURL + "pyodide.js");       // Pyodide's own loadPyodide
    const pyodide = await self.loadPyodide(config);
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
