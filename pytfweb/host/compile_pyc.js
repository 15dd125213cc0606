// Compile Python sources to bytecode with Pyodide's own Python (the interpreter the page runs), under node.
//   node compile_pyc.js PYODIDE_DIR SRC_DIR OUT_DIR
// SRC_DIR holds the .py files to compile (any depth); OUT_DIR receives, for each a/b.py,
// a/__pycache__/b.<cache_tag>.pyc: hash-based and unchecked, so the page's importer takes the .pyc
// without reading or hashing the source, which stays beside it for tracebacks. Prints the cache tag.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const [pyodideDir, srcDir, outDir] = process.argv.slice(2);
  const { loadPyodide } = require(path.resolve(pyodideDir, "pyodide.js"));
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
  const root = "/tmp/pytfweb_src";
  const files = [];
  (function walk(rel) {
    for (const entry of fs.readdirSync(path.join(srcDir, rel), { withFileTypes: true })) {
      const r = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(r);
      else if (entry.name.endsWith(".py")) files.push(r);
    }
  })("");
  for (const rel of files) {
    py.FS.mkdirTree(path.posix.join(root, path.posix.dirname(rel)));
    py.FS.writeFile(path.posix.join(root, rel), fs.readFileSync(path.join(srcDir, rel)));
  }
  py.globals.set("_root", root);
  py.globals.set("_files", py.toPy(files));
  const tag = py.runPython(`
import importlib.util, os, py_compile, sys
for rel in _files:
    # the importer sets co_filename to where the source is in the page, so tracebacks name that file
    py_compile.compile(os.path.join(_root, rel), cfile=importlib.util.cache_from_source(os.path.join(_root, rel)),
                       doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
sys.implementation.cache_tag
`);
  for (const rel of files) {
    const pyc = py.runPython(`importlib.util.cache_from_source(os.path.join(_root, ${JSON.stringify(rel)}))`);
    const out = path.join(outDir, path.relative(root, pyc));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, py.FS.readFile(pyc));
  }
  process.stdout.write(tag + "\n");
}

main().catch((err) => { process.stderr.write(String(err && err.stack || err) + "\n"); process.exit(1); });
