/* cardkit: the page's Python kernel, started from the page's head rather than when the page's scripts ask for
   it (1.3–1.7 s later on the 2-core machine it was measured on; Pyodide's start then runs beside them).
   The page creates this worker and hands it to the kernel in place of the kernel's own (its worker script
   runs here, below), so nothing else changes: the kernel sends its settings and asks for Pyodide as always
   (pyodide-preload.js), and gets the one already started. The build fills in the two names. */
importScripts("pyodide-preload.js");
self.ckStartPyodide({ indexURL: new URL("./", self.location).href, packages: /*PACKAGES*/[] });
importScripts(/*CHUNK*/"");
