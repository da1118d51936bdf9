/* cardkit: the in-browser kernel's Pyodide, with the heaviest modules imported as soon as Python is up.
   jupyterlite-pyodide-kernel loads Pyodide from the script its `pyodideUrl` names; the site names this one,
   which loads Pyodide's own `pyodide.js` from the same folder and wraps `loadPyodide`: once Pyodide and the
   preloaded packages are there, IPython, ipywidgets and the kit are imported at once. The kernel would import
   them a moment later anyway, but by then it works in its own folder on JupyterLite's in-browser drive,
   and every import would first look there, each look a round trip through the page (about a hundred of
   them). Importing them here, in Pyodide's own folder, spares those. */
self.loadPyodide = async function (config) {
  importScripts(config.indexURL + "pyodide.js");       // Pyodide's own loadPyodide takes the name's place
  const pyodide = await self.loadPyodide(config);
  pyodide.runPython("import micropip, IPython, comm, ipywidgets, cardkit");
  return pyodide;
};
