// Compile Python sources to bytecode with Pyodide's own Python (the interpreter the page runs), under node.
//   node compile_pyc.js PYODIDE_DIR SRC_DIR OUT_DIR ARCHIVE_NAME
// SRC_DIR holds the .py files to compile (any depth); OUT_DIR receives, for each a/b.py, a/b.pyc (the
// layout zipimport reads: the page imports from the bundle's zip on sys.path, nothing unpacked), hash-based
// and unchecked, so the importer takes the .pyc without reading or hashing the source. Each code object's
// file is where the page puts it (SITE/ARCHIVE_NAME/a/b.py, SITE being site.getsitepackages()[0]): tracebacks
// name that file, and linecache gets its lines from the zip's copy of the source. Prints the cache tag.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const [pyodideDir, srcDir, outDir, archiveName] = process.argv.slice(2);
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
  py.globals.set("_archive", archiveName);
  const tag = py.runPython(`
import os, py_compile, site, sys
_shown = os.path.join(site.getsitepackages()[0], _archive)
for rel in _files:
    py_compile.compile(os.path.join(_root, rel), cfile=os.path.join(_root, rel[:-3] + ".pyc"),
                       dfile=os.path.join(_shown, rel), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
sys.implementation.cache_tag
`);
  for (const rel of files) {
    const pyc = rel.slice(0, -3) + ".pyc";
    const out = path.join(outDir, pyc);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, py.FS.readFile(path.posix.join(root, pyc)));
  }
  process.stdout.write(tag + "\n");
}

main().catch((err) => { process.stderr.write(String(err && err.stack || err) + "\n"); process.exit(1); });
