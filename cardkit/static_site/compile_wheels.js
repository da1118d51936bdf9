// Compile wheels to Python bytecode with the Pyodide that will run them (so the bytecode is Python 3.13's,
// whatever Python builds the site): node compile_wheels.js PYODIDE_DIR OUT_DIR WHEEL...
// Every module becomes a sourceless .pyc (unchecked-hash, so the bytes do not depend on the time), the
// wheel's RECORD lists the new files, and the zip's entries keep their order with a fixed date: the same
// wheels give the same bytes. A module that does not compile keeps its source.
const fs = require("fs");
const path = require("path");

const [pyodideDir, outDir, ...wheels] = process.argv.slice(2);
const { loadPyodide } = require(path.resolve(pyodideDir));

const COMPILE = `
import base64, hashlib, io, py_compile, warnings, zipfile

def compile_wheel(src, dst):
    zin = zipfile.ZipFile(src)
    out = []
    for info in zin.infolist():
        name, data = info.filename, zin.read(info)
        top = name.split("/")[0]
        if name.endswith(".py") and not top.endswith((".dist-info", ".data")):
            with open("/tmp/module.py", "wb") as f:
                f.write(data)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    py_compile.compile("/tmp/module.py", cfile="/tmp/module.pyc", dfile=name, doraise=True,
                                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
                with open("/tmp/module.pyc", "rb") as f:
                    name, data = name + "c", f.read()
            except py_compile.PyCompileError:
                pass
        out.append((name, data, info.external_attr))
    record = next(n for n, _, _ in out if n.endswith(".dist-info/RECORD"))
    lines = []
    for n, data, _ in out:
        if n == record:
            lines.append(f"{n},,")
        else:
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            lines.append(f"{n},sha256={digest},{len(data)}")
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data, attr in out:
            if n == record:
                data = ("\\n".join(lines) + "\\n").encode()
            info = zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0))
            info.external_attr, info.compress_type = attr, zipfile.ZIP_DEFLATED
            z.writestr(info, data)
`;

(async () => {
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", stdout: () => {}, stderr: (t) => console.error(t) });
  py.runPython(COMPILE);
  const compile = py.globals.get("compile_wheel");
  fs.mkdirSync(outDir, { recursive: true });
  for (const wheel of wheels) {
    const name = path.basename(wheel);
    py.FS.writeFile("/tmp/in.whl", fs.readFileSync(wheel));
    compile("/tmp/in.whl", "/tmp/out.whl");
    fs.writeFileSync(path.join(outDir, name), py.FS.readFile("/tmp/out.whl"));
  }
})().catch((e) => { console.error(String(e)); process.exit(1); });
