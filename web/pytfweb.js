/*
 * pytfweb.js: load Pyodide and pytfweb into a page, then run its <script type="text/python"> blocks.
 *
 *   <script src="pytfweb.js"></script>
 *   <script type="text/python">
 *     import pytfweb as tf
 *     print(tf.add(tf.tensor([1, 2]), 1).array_sync())
 *   </script>
 *
 * A page with Python blocks loads by itself (options from data-* attributes of this script tag:
 * data-backend, data-index-url, data-bundle-url). Or call it yourself:
 *
 *   const py = await pytfweb.load({indexURL, backend: 'webgl', bundleURL});
 *
 * indexURL: where Pyodide's files are (default: /pyodide/ of the server that served this file;
 *           a CDN such as https://cdn.jsdelivr.net/pyodide/v314.0.7/full/ works too).
 * bundleURL: the zip of the pytfweb package (default: pytfweb.zip beside this file).
 * backend: the backend to set ('webgl'); null to only import pytfweb.
 * stdout, stderr: a function called with each line, or a Pyodide handler object ({write}, {raw},
 *           {batched}); default console.log / console.error.
 *
 * Errors (loading, or a Python block) are printed with console.error and dispatched on the document
 * as a "pytfweb:error" event whose detail is {error, element}.
 *
 * After load, pytfweb.timings holds milliseconds since the page's time origin (navigation start):
 * pyodide (Pyodide ready), bundle (unpacked), imported (import pytfweb done), backend (backend set),
 * scripts (Python blocks done).
 */
(function () {
  "use strict";
  const thisScript = document.currentScript;
  const base = thisScript && thisScript.src ? new URL(".", thisScript.src).href : new URL(".", location.href).href;

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`pytfweb: could not load ${src}`));
      document.head.appendChild(s);
    });
  }

  function dedent(code) {
    const lines = code.replace(/\r\n?/g, "\n").split("\n");
    let indent = Infinity;
    for (const line of lines) {
      if (line.trim()) indent = Math.min(indent, line.match(/^[ \t]*/)[0].length);
    }
    if (!isFinite(indent)) indent = 0;
    return lines.map((l) => l.slice(indent)).join("\n");
  }

  function setStream(py, which, handler) {
    if (handler === undefined) return;
    const set = which === "stdout" ? py.setStdout : py.setStderr;
    if (typeof handler === "function") set({ batched: handler });
    else set(handler || {});
  }

  const api = {
    pyodide: null,
    timings: {},
    _loading: null,
    _ran: new WeakSet(),
  };

  api.load = function load(options) {
    if (!api._loading) api._loading = doLoad(options || {});
    return api._loading;
  };

  async function doLoad(opts) {
    const t = api.timings;
    const indexURL = new URL(opts.indexURL || "pyodide/", base).href.replace(/\/?$/, "/");
    const bundleURL = new URL(opts.bundleURL || "pytfweb.zip", base).href;
    const backend = "backend" in opts ? opts.backend : "webgl";

    const bundle = fetch(bundleURL).then((r) => {
      if (!r.ok) throw new Error(`pytfweb: ${bundleURL}: HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    bundle.catch(() => {});  // awaited below; this only keeps an early failure from being "unhandled"
    if (typeof globalThis.loadPyodide !== "function") await loadScript(indexURL + "pyodide.js");
    const py = await globalThis.loadPyodide({ indexURL });
    t.pyodide = performance.now();
    setStream(py, "stdout", opts.stdout);
    setStream(py, "stderr", opts.stderr);

    const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    py.unpackArchive(await bundle, "zip", { extractDir: site });
    py.runPython("import importlib; importlib.invalidate_caches()");
    t.bundle = performance.now();

    await py.runPythonAsync("import pytfweb as tf", { filename: "<pytfweb.js>" });
    t.imported = performance.now();
    if (backend) {
      py.globals.set("_pytfweb_backend", backend);
      await py.runPythonAsync("tf.set_backend(_pytfweb_backend)\nawait tf.ready()\ndel _pytfweb_backend",
                              { filename: "<pytfweb.js>" });
    }
    t.backend = performance.now();
    api.pyodide = py;

    await api.runScripts();
    t.scripts = performance.now();
    document.dispatchEvent(new CustomEvent("pytfweb:ready", { detail: py }));
    return py;
  }

  /* Run the page's <script type="text/python"> blocks (each once), in document order, with
   * top-level await; an error is printed and the next block still runs. */
  api.runScripts = async function runScripts() {
    const py = api.pyodide;
    const blocks = document.querySelectorAll('script[type="text/python"]');
    let n = 0;
    for (const el of blocks) {
      n += 1;
      if (api._ran.has(el)) continue;
      api._ran.add(el);
      let code = el.textContent;
      let filename = el.id ? `<script id=${el.id}>` : `<script ${n}>`;
      try {
        if (el.src) {
          const r = await fetch(el.src);
          if (!r.ok) throw new Error(`pytfweb: ${el.src}: HTTP ${r.status}`);
          code = await r.text();
          filename = el.getAttribute("src");
        }
        await py.runPythonAsync(dedent(code), { filename });
      } catch (err) {
        reportError(err, el);
      }
    }
  };

  /* Errors go to the console and, as a "pytfweb:error" event ({error, element}), to the document. */
  function reportError(error, element) {
    console.error(String(error && error.message ? error.message : error));
    document.dispatchEvent(new CustomEvent("pytfweb:error", { detail: { error, element } }));
  }

  window.pytfweb = api;

  function autoLoad() {
    if (api._loading || !document.querySelector('script[type="text/python"]')) return;
    const d = (thisScript && thisScript.dataset) || {};
    const opts = {};
    if (d.backend !== undefined) opts.backend = d.backend === "none" ? null : d.backend;
    if (d.indexUrl) opts.indexURL = d.indexUrl;
    if (d.bundleUrl) opts.bundleURL = d.bundleUrl;
    api.load(opts).catch((err) => reportError(err, null));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", autoLoad);
  else setTimeout(autoLoad, 0);
})();
