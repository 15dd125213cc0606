/*
 * pytfweb.js: Pyodide and pytfweb in a web page, or in a Web Worker (the same file is the worker's
 * script), then the page's <script type="text/python"> blocks.
 *
 *   <script src="pytfweb.js"></script>
 *   <script type="text/python" output="out">
 *     import pytfweb as tf
 *     print(await tf.add(tf.tensor([1, 2]), 1).array())
 *   </script>
 *   <script type="text/python" worker>
 *     model = ...; await model.fit(xs, ys, epochs=20)      # off the page's thread
 *   </script>
 *   <pre id="out"></pre>
 *
 * Blocks run in document order, each once, with top-level await and with `tf` imported; plain
 * blocks share one namespace on the page's thread, `worker` blocks share one in the page's worker
 * (pytfweb.worker()). A block with src="file.py" runs that file. output="ID" sends what the block
 * prints to the element ID as well as to the console (lines printed while the block runs).
 * An error does not stop the next block: its Python traceback goes to the console (console.error),
 * to a "pytfweb:error" event on the document ({error, element}) and, when the loader's tag has
 * data-show-errors, into the page (a <pre class="pytfweb-error"> after the block, or in its output
 * element).
 *
 * Options (data-* attributes of the loader's tag, or pytfweb.load(options)):
 *   indexURL / data-index-url    Pyodide's files (default: pyodide/ beside this file; a CDN works too)
 *   bundleURL / data-bundle-url  the zip of the pytfweb package, gzipped or not (default: pytfweb.zip.gz
 *                                beside this file)
 *   backend / data-backend       the backend to set ("auto", the default: the engine's choice, webgpu
 *                                where it has a hardware adapter and Python can wait for it, else
 *                                webgl; or a name; null or "none": only import pytfweb)
 *   showErrors / data-show-errors  show tracebacks in the page
 *   serviceWorker                false: do not register the site's service worker (build-web's sites
 *                                have one: registered before Pyodide starts, it answers Pyodide's wasm
 *                                from its cache, and once Python is up it fetches the rest of the site;
 *                                a second visit then downloads nothing and loads the wasm compiled)
 *   stdout, stderr               a function called with each line, or a Pyodide handler object
 *                                ({write}, {raw}, {batched}); default console.log / console.error
 *
 * JS API:
 *   await pytfweb.ready                 Pyodide ready on this thread and the page's blocks run (starts
 *                                       loading when nothing has); resolves to the Pyodide object
 *   await pytfweb.load(options)         the same, with options (the first call's options win)
 *   await pytfweb.runPython(code)       run code in the page's namespace; its last expression's value
 *   const w = pytfweb.worker()          the page's worker (new pytfweb.Worker(options) for another)
 *     await w.ready                     Pyodide and pytfweb loaded in the worker
 *     await w.runPython(code, {x: ...}) run code there; variables in, last expression's value out
 *     w.on(kind, fn)                    messages the worker's Python posts with
 *                                       pytfweb.browser.worker.post(kind, data)
 *   await pytfweb.cached                with the site's service worker, once Python is up: true when the
 *                                       worker holds the whole site (false when a fetch failed; null
 *                                       before, or without a worker)
 *   pytfweb.tensor(typedArray, shape, dtype)   a tensor to send; tensors come back in this form
 *                                       ({__pytfweb_tensor__, data, shape, dtype}), buffers transferred
 *
 * pytfweb.timings holds milliseconds since this thread's time origin: gl (the WebGL2 context made,
 * with backend "webgl", while Pyodide starts), gpu (the WebGPU device made, with backend "webgpu" or
 * "auto", while Pyodide starts), sw (on a first visit of a build-web site: its service worker took
 * the page, and Pyodide's wasm request went on), fetched (the bundle's bytes in), pyodide (Pyodide ready),
 * bundle (on sys.path), imported (import pytfweb done), backend (backend set), scripts (blocks done).
 */
(function () {
  "use strict";
  // Pyodide runs only in module workers: the page starts this file as one ({type: "module"}).
  const IN_WORKER = typeof document === "undefined" && typeof WorkerGlobalScope !== "undefined";
  const thisScript = IN_WORKER ? null : document.currentScript;
  const scriptURL = IN_WORKER ? self.location.href
    : (thisScript && thisScript.src) || new URL("pytfweb.js", location.href).href;
  const base = new URL(".", scriptURL).href;
  // `pytfweb build-web` sets this to its site's service worker (which keeps the loader, the bundle,
  // Pyodide and the pages for the next visit); `pytfweb serve` has none.
  const SERVICE_WORKER = null;
  const BUNDLE_FILE = "pytfweb.zip";   // its name in site-packages: the bytecode's file names say it (host/bundle.py)

  // --- shared: loading ---------------------------------------------------------------------

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`pytfweb: could not load ${src}`));
      document.head.appendChild(s);
    });
  }

  function setStream(py, which, handler) {
    if (handler === undefined) return;
    const set = which === "stdout" ? py.setStdout : py.setStderr;
    if (typeof handler === "function") set({ batched: handler });
    else set(handler || {});
  }

  /* The WebGL2 context, made while Pyodide starts rather than after: the webgl backend's
   * GPGPUContext (backends/webgl/gpgpu_context.py) takes this canvas, once, and asks it for a
   * context with the same attributes (getContext then returns this one). */
  function earlyWebGL() {
    if (typeof OffscreenCanvas === "undefined") return false;
    try {
      const canvas = new OffscreenCanvas(1, 1);
      const gl = canvas.getContext("webgl2", {
        alpha: false, antialias: false, premultipliedAlpha: false, preserveDrawingBuffer: false,
        depth: false, stencil: false, failIfMajorPerformanceCaveat: false });
      if (gl) globalThis.pytfwebEarlyCanvas = canvas;
      return !!gl;
    } catch (err) {
      return false;   // Python makes its own and reports what fails
    }
  }

  /* The WebGPU adapter and device, requested while Pyodide starts rather than after: the webgpu
   * backend's Device.create (backends/webgpu/device.py) takes the promise, once, and asks nothing of
   * the browser again. The limits are the ones it would request itself: the adapter's most. */
  function earlyWebGPU(t) {
    const gpu = typeof navigator !== "undefined" && navigator.gpu;
    if (!gpu) return;
    const made = (async () => {
      const adapter = await gpu.requestAdapter();
      if (!adapter) return null;
      const l = adapter.limits;
      const device = await adapter.requestDevice({ label: "pytfweb-early", requiredLimits: {
        maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
        maxBufferSize: l.maxBufferSize,
        maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize } });
      t.gpu = performance.now();
      return { adapter, device };
    })().catch(() => null);   // Python asks again and reports what fails
    globalThis.pytfwebEarlyGPU = made;
  }

  /* An early device Python did not take (backend "auto" chose another) is given back. */
  function dropEarlyWebGPU() {
    const made = globalThis.pytfwebEarlyGPU;
    if (!made) return;
    delete globalThis.pytfwebEarlyGPU;
    made.then((r) => r && r.device.destroy());
  }

  /* Holds the page's first fetch of `url` (Pyodide's own request for its wasm) until `gate`
   * settles; every other fetch passes. Returns the function that puts fetch back. */
  function holdFetch(url, gate) {
    const plain = globalThis.fetch;
    const held = function fetch(input, init) {
      const target = input instanceof Request ? input.url : String(input);
      if (target !== url) return plain.call(this, input, init);
      restore();
      return gate.then(() => plain.call(globalThis, input, init));
    };
    function restore() {
      if (globalThis.fetch === held) globalThis.fetch = plain;
    }
    globalThis.fetch = held;
    return restore;
  }

  /* The bytes of a stream, inflated by the browser as they arrive when they are gzip's (the bundle is
   * a zip of stored members, compressed whole: host/bundle.py); a plain zip, or one a server already
   * decoded (Content-Encoding), passes as it is. */
  async function inflated(body) {
    const reader = body.getReader();
    const first = await reader.read();
    const head = first.value || new Uint8Array(0);
    const rest = new ReadableStream({
      start(c) { if (head.length) c.enqueue(head); if (first.done) c.close(); },
      async pull(c) {
        const { done, value } = await reader.read();
        if (done) c.close(); else c.enqueue(value);
      },
    });
    const gzipped = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    return new Response(gzipped ? rest.pipeThrough(new DecompressionStream("gzip")) : rest).arrayBuffer();
  }

  function pyodideIndexURL(opts) {
    return new URL(opts.indexURL || "pyodide/", base).href.replace(/\/?$/, "/");
  }

  /* Pyodide, the bundle on sys.path (a zip in site-packages), `import pytfweb as tf` in the main
   * namespace, the backend set: the same steps on the page's thread and in a worker. opts.wasmGate:
   * a promise Pyodide's request for its wasm waits for (startServiceWorker's). */
  async function loadCore(opts, t) {
    const indexURL = pyodideIndexURL(opts);
    const bundleURL = new URL(opts.bundleURL || "pytfweb.zip.gz", base).href;
    const backend = "backend" in opts ? opts.backend : "auto";

    const bundle = fetch(bundleURL).then((r) => {
      if (!r.ok) throw new Error(`pytfweb: ${bundleURL}: HTTP ${r.status}`);
      return inflated(r.body);
    }).then((bytes) => {
      t.fetched = performance.now();
      return bytes;
    });
    bundle.catch(() => {});  // awaited below; this only keeps an early failure from being "unhandled"
    if (backend === "webgl" && earlyWebGL()) t.gl = performance.now();
    if (backend === "webgpu" || backend === "auto") earlyWebGPU(t);
    const wasmURL = indexURL + "pyodide.asm.wasm";
    const release = opts.wasmGate ? holdFetch(wasmURL, opts.wasmGate) : () => {};
    if (typeof globalThis.loadPyodide === "function") {
      // already there (the page loaded it itself)
    } else if (IN_WORKER) {
      globalThis.loadPyodide = (await import(indexURL + "pyodide.mjs")).loadPyodide;
    } else {
      await loadScript(indexURL + "pyodide.js");
    }
    let py;
    try {
      py = await globalThis.loadPyodide({ indexURL });
    } finally {
      release();
    }
    t.pyodide = performance.now();
    setStream(py, "stdout", opts.stdout);
    setStream(py, "stderr", opts.stderr);

    // (site, not sysconfig: importing sysconfig takes longer than all the rest of this step)
    const site = py.runPython("import site; site.getsitepackages()[0]");
    // Not unpacked: the zip is one file on sys.path (zipimport, as for Pyodide's standard library),
    // whose a/b.pyc beside a/b.py it imports. (Writing its ~600 files into site-packages from JS took
    // longer than zipimport's slower imports save: host/bundle.py.)
    const archive = site + "/" + BUNDLE_FILE;
    py.FS.writeFile(archive, new Uint8Array(await bundle), { canOwn: true });
    py.globals.set("_pytfweb_archive", archive);
    py.runPython("import sys\nif _pytfweb_archive not in sys.path:\n    sys.path.insert(0, _pytfweb_archive)\n" +
                 "sys.path_importer_cache.pop(_pytfweb_archive, None)\ndel _pytfweb_archive");
    t.bundle = performance.now();

    await py.runPythonAsync("import pytfweb as tf", { filename: "<pytfweb.js>" });
    t.imported = performance.now();
    if (backend) {
      py.globals.set("_pytfweb_backend", backend);
      await py.runPythonAsync("if _pytfweb_backend != 'auto':\n    tf.set_backend(_pytfweb_backend)\n" +
                              "await tf.ready()\ndel _pytfweb_backend", { filename: "<pytfweb.js>" });
    }
    dropEarlyWebGPU();
    t.backend = performance.now();
    return py;
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

  /* A Python error's text from the first frame of the user's code on (Pyodide's own frames
   * left out), or the whole text when that frame is not found. */
  function traceback(error, filename) {
    const text = String(error && error.message !== undefined ? error.message : error);
    const head = "Traceback (most recent call last):\n";
    const at = filename ? text.indexOf(`  File "${filename}"`) : -1;
    return text.startsWith(head) && at > 0 ? head + text.slice(at) : text;
  }

  async function runCode(py, code, filename) {
    try {
      return await py.runPythonAsync(dedent(code), { filename });
    } catch (err) {
      const e = new Error(traceback(err, filename));
      e.pythonType = err && err.type;
      throw e;
    }
  }

  /* Python values to structured-clone-able ones; tensors as pytfweb.tensor markers. */
  function toPlain(value) {
    if (value && typeof value.toJs === "function") {
      const out = value.toJs({ dict_converter: Object.fromEntries });
      if (value.destroy) value.destroy();
      return out;
    }
    return value;
  }

  function transferables(value, out, depth) {
    out = out || [];
    if (!value || typeof value !== "object" || (depth || 0) > 32) return out;
    if (ArrayBuffer.isView(value)) {
      if (!out.includes(value.buffer)) out.push(value.buffer);
      return out;
    }
    for (const k in value) transferables(value[k], out, (depth || 0) + 1);
    return out;
  }

  function tensor(data, shape, dtype) {
    if (!ArrayBuffer.isView(data)) data = Float32Array.from(data);
    dtype = dtype || (data instanceof Int32Array ? "int32" : data instanceof Uint8Array ? "bool" : "float32");
    return { __pytfweb_tensor__: true, data, shape: shape ? Array.from(shape) : [data.length], dtype };
  }

  // --- the worker's side -----------------------------------------------------------------------

  if (IN_WORKER) {
    const timings = {};
    let py = null, module = null, current = null, queue = Promise.resolve();
    const post = (msg, transfer) => self.postMessage(msg, transfer || []);
    const line = (type) => (text) => post({ type, id: current, text });

    async function init(opts) {
      try {
        py = await loadCore(Object.assign({}, opts, { stdout: line("stdout"), stderr: line("stderr") }), timings);
        module = py.pyimport("pytfweb.browser.worker");
        post({ type: "ready", timings });
      } catch (err) {
        post({ type: "failed", message: String(err && err.message || err) });
      }
    }

    async function run(msg) {
      current = msg.id;
      const filename = msg.filename || `<worker ${msg.id}>`;
      try {
        const value = toPlain(await module.run(dedent(msg.code), filename, msg.variables || {}));
        post({ type: "result", id: msg.id, value }, transferables(value));
      } catch (err) {
        post({ type: "exception", id: msg.id, message: traceback(err, filename) });
      } finally {
        current = null;
      }
    }

    self.onmessage = (e) => {
      const msg = e.data;
      if (msg.type === "init") {
        self.pytfweb.pageURL = msg.page;
        queue = init(msg.options || {});
      }
      else if (msg.type === "run") queue = queue.then(() => run(msg));  // one run at a time, in order
    };
    self.pytfweb = { timings, tensor };
    return;
  }

  // --- the page's side ---------------------------------------------------------------------------

  const api = {
    pyodide: null,
    timings: {},
    tensor,
    _loading: null,
    _core: null,
    _ran: new WeakSet(),
    _output: null,      // the element the running block prints to, if any
    cached: null,       // with the site's service worker: settles once it holds the whole site
  };

  function datasetOptions() {
    const d = (thisScript && thisScript.dataset) || {};
    const opts = {};
    if (d.backend !== undefined) opts.backend = d.backend === "none" ? null : d.backend;
    if (d.indexUrl) opts.indexURL = d.indexUrl;
    if (d.bundleUrl) opts.bundleURL = d.bundleUrl;
    if (d.showErrors !== undefined) opts.showErrors = d.showErrors !== "false";
    return opts;
  }

  function appendText(el, text) {
    if (el) el.appendChild(document.createTextNode(text));
  }

  /* The site's service worker (build-web), registered before Pyodide starts. Returns a promise
   * that settles when Pyodide may fetch its wasm (null when there is no worker to register): at
   * once when a worker already controls the page; on a first visit, when the new worker has taken
   * the page, or after CONTROL_WAIT_MS. The worker answers that request from its cache (the wasm
   * is the first thing it fetches), and Chromium stores the compiled code beside the cache entry,
   * which the second visit loads instead of compiling (see host/site.py's service worker). */
  const CONTROL_WAIT_MS = 1000;
  let swRegistration = null;
  function startServiceWorker(opts) {
    if (swRegistration || !SERVICE_WORKER || opts.serviceWorker === false || !("serviceWorker" in navigator)) {
      return null;
    }
    const sw = navigator.serviceWorker;
    swRegistration = sw.register(new URL(SERVICE_WORKER, base).href);
    swRegistration.catch((err) => console.warn(`pytfweb: the service worker was not registered (${err}); ` +
                                                "the next visit downloads everything again"));
    if (sw.controller) return null;
    if (new URL(pyodideIndexURL(opts)).origin !== location.origin) return null;   // not the worker's to answer
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sw.removeEventListener("controllerchange", done);
        api.timings.sw = performance.now();
        resolve();
      };
      const timer = setTimeout(done, CONTROL_WAIT_MS);
      sw.addEventListener("controllerchange", done);
      swRegistration.catch(done);
    });
  }

  /* Once Python is up: the worker fetches what the visit did not (the rest of the site's files), so
   * that the next visit downloads nothing. pytfweb.cached settles when it has (true) or failed
   * (false). */
  let precacheAsked = false;
  function precacheRest() {
    if (!swRegistration || precacheAsked) return;
    precacheAsked = true;
    const sw = navigator.serviceWorker;
    api.cached = new Promise((resolve) => {
      sw.addEventListener("message", (e) => {
        if (e.data && e.data.type === "pytfweb:cached") resolve(e.data.ok);
      });
      swRegistration.then(() => sw.ready).then((r) => r.active.postMessage("pytfweb:precache"), () => resolve(false));
    });
  }

  api.load = function load(options) {
    if (!api._loading) api._loading = doLoad(options || datasetOptions());
    return api._loading;
  };

  Object.defineProperty(api, "ready", { get: () => api.load(), enumerable: true });

  async function doLoad(opts) {
    api._options = opts;
    const t = api.timings;
    const o = Object.assign({}, opts);
    if (o.stdout === undefined) o.stdout = (s) => { console.log(s); appendText(api._output, s + "\n"); };
    if (o.stderr === undefined) o.stderr = (s) => { console.error(s); appendText(api._output, s + "\n"); };
    o.wasmGate = startServiceWorker(opts);
    api._core = loadCore(o, t);
    const py = await api._core;
    api.pyodide = py;
    precacheRest();
    await api.runScripts();
    t.scripts = performance.now();
    document.dispatchEvent(new CustomEvent("pytfweb:ready", { detail: py }));
    return py;
  }

  /* Run code in the page's namespace (after loading, without waiting for the page's blocks). */
  api.runPython = async function runPython(code, filename) {
    if (!api._core) api.load();
    const py = await api._core;
    return toPlain(await runCode(py, code, filename || "<runPython>"));
  };

  function blockSource(el) {
    if (!el.hasAttribute("src")) return Promise.resolve(el.textContent);
    return fetch(el.src).then((r) => {
      if (!r.ok) throw new Error(`pytfweb: ${el.src}: HTTP ${r.status}`);
      return r.text();
    });
  }

  function blockName(el, n) {
    return el.getAttribute("src") || (el.id ? `<script id=${el.id}>` : `<script ${n}>`);
  }

  function outputOf(el) {
    const id = el.getAttribute("output");
    return id ? document.getElementById(id) : null;
  }

  /* Run the page's plain <script type="text/python"> blocks (each once) in document order. */
  api.runScripts = async function runScripts() {
    const py = api.pyodide;
    const blocks = document.querySelectorAll('script[type="text/python"]');
    let n = 0;
    for (const el of blocks) {
      n += 1;
      if (el.hasAttribute("worker") || api._ran.has(el)) continue;
      api._ran.add(el);
      const filename = blockName(el, n);
      api._output = outputOf(el);
      try {
        await runCode(py, await blockSource(el), filename);
      } catch (err) {
        reportError(err, el);
      } finally {
        api._output = null;
      }
    }
  };

  /* An error: to the console, to a "pytfweb:error" event and, with showErrors, into the page. */
  function reportError(error, element) {
    const text = String(error && error.message ? error.message : error);
    console.error(text);
    const show = (api._options && api._options.showErrors) ||
                 (thisScript && thisScript.dataset && thisScript.dataset.showErrors !== undefined);
    if (show) {
      const pre = document.createElement("pre");
      pre.className = "pytfweb-error";
      pre.style.cssText = "color:#b00;background:#fff4f4;border-left:3px solid #b00;padding:.5em;" +
                          "white-space:pre-wrap;font:12px ui-monospace,monospace";
      pre.textContent = text;
      const out = element && outputOf(element);
      if (out) out.appendChild(pre);
      else if (element && element.parentNode) element.parentNode.insertBefore(pre, element.nextSibling);
      else document.body.prepend(pre);
    }
    document.dispatchEvent(new CustomEvent("pytfweb:error", { detail: { error, element } }));
  }

  // --- worker mode (the page's side) ----------------------------------------------------------------

  class PyWorker {
    constructor(options) {
      const opts = Object.assign({}, datasetOptions(), options || {});
      for (const k of ["stdout", "stderr", "showErrors"]) delete opts[k];  // functions do not cross
      this.worker = new Worker(scriptURL, { type: "module" });
      this._calls = new Map();
      this._outputs = new Map();
      this._handlers = {};
      this._next = 1;
      this.timings = null;
      this.ready = new Promise((resolve, reject) => { this._readyCallbacks = [resolve, reject]; });
      this.ready.catch(() => {});
      this.worker.onmessage = (e) => this._message(e.data);
      this.worker.onerror = (e) => this._readyCallbacks[1](new Error(`pytfweb worker: ${e.message}`));
      this.worker.postMessage({ type: "init", options: opts, page: location.href });
    }

    _message(msg) {
      if (msg.type === "ready") {
        this.timings = msg.timings;
        this._readyCallbacks[0](this);
      } else if (msg.type === "failed") {
        this._readyCallbacks[1](new Error(msg.message));
      } else if (msg.type === "stdout" || msg.type === "stderr") {
        (msg.type === "stdout" ? console.log : console.error)(msg.text);
        appendText(this._outputs.get(msg.id), msg.text + "\n");
      } else if (msg.type === "result" || msg.type === "exception") {
        const call = this._calls.get(msg.id);
        this._calls.delete(msg.id);
        this._outputs.delete(msg.id);
        if (msg.type === "result") call.resolve(msg.value);
        else call.reject(new Error(msg.message));
      } else if (msg.type === "vis") {
        vis(msg);
      } else if (msg.type === "post") {
        for (const fn of this._handlers[msg.kind] || []) fn(msg.data, msg.kind);
        for (const fn of this._handlers["*"] || []) fn(msg.data, msg.kind);
      }
    }

    /* Run code in the worker's namespace; variables (plain values, typed arrays, pytfweb.tensor
     * markers) become Python variables first. Resolves to the last expression's value. */
    runPython(code, variables, options) {
      const id = this._next++;
      const o = options || {};
      if (o.output) this._outputs.set(id, o.output);
      const msg = { type: "run", id, code, filename: o.filename, variables: variables || {} };
      return new Promise((resolve, reject) => {
        this._calls.set(id, { resolve, reject });
        this.worker.postMessage(msg, o.transfer || []);
      });
    }

    on(kind, fn) {
      (this._handlers[kind] = this._handlers[kind] || []).push(fn);
      return this;
    }

    terminate() {
      this.worker.terminate();
    }
  }

  api.Worker = PyWorker;
  api._worker = null;
  api.worker = function worker(options) {
    if (!api._worker) api._worker = new PyWorker(options);
    return api._worker;
  };

  /* Run the page's <script type="text/python" worker> blocks in the page's worker, in order. */
  api.runWorkerScripts = async function runWorkerScripts() {
    const blocks = document.querySelectorAll('script[type="text/python"][worker]');
    if (!blocks.length) return;
    startServiceWorker(api._options || datasetOptions());
    const w = api.worker();
    try {
      await w.ready;
    } catch (err) {
      reportError(err, null);
      return;
    }
    precacheRest();
    let n = 0;
    for (const el of document.querySelectorAll('script[type="text/python"]')) {
      n += 1;
      if (!el.hasAttribute("worker") || api._ran.has(el)) continue;
      api._ran.add(el);
      const filename = blockName(el, n);
      try {
        await w.runPython(await blockSource(el), {}, { filename, output: outputOf(el) });
      } catch (err) {
        reportError(err, el);
      }
    }
    document.dispatchEvent(new CustomEvent("pytfweb:worker-done", { detail: w }));
  };

  // --- tf.vis: what Python draws (on this thread, or posted from a worker) ---------------------------

  const VISOR_CSS = `
  #pytfweb-visor{position:fixed;top:0;right:0;bottom:0;width:min(36rem,92vw);overflow:auto;z-index:2147483000;
    background:#fafafa;border-left:1px solid #ccc;box-shadow:-2px 0 8px rgba(0,0,0,.15);
    font:13px/1.4 system-ui,sans-serif;color:#222;padding:0 .8rem .8rem}
  #pytfweb-visor[hidden]{display:none}
  #pytfweb-visor header{display:flex;align-items:center;gap:.5rem;position:sticky;top:0;background:#fafafa;
    padding:.5rem 0;border-bottom:1px solid #ddd}
  #pytfweb-visor header .title{font-weight:600;flex:1}
  #pytfweb-visor .tabs button{border:0;background:none;padding:.2rem .5rem;cursor:pointer}
  #pytfweb-visor .tabs button.active{border-bottom:2px solid #1f77b4}
  #pytfweb-visor .surface h3{font-size:13px;margin:.8rem 0 .3rem}
  #pytfweb-visor-toggle{position:fixed;right:.5rem;bottom:.5rem;z-index:2147483001}`;

  // Tab and surface names are Python's strings: they go into the page as text (textContent,
  // dataset) and are looked up in a Map, never in markup or as an object's keys.
  const visor = {
    el: null,
    tabs: new Map(),
    current: null,
    make() {
      if (visor.el) return visor.el;
      const style = document.createElement("style");
      style.textContent = VISOR_CSS;
      document.head.appendChild(style);
      const el = document.createElement("aside");
      el.id = "pytfweb-visor";
      const part = (tag, className, text) => {
        const e = document.createElement(tag);
        e.className = className;
        if (text) e.textContent = text;
        return e;
      };
      const header = document.createElement("header");
      const close = part("button", "close", "×");
      close.title = "hide (`)";
      close.onclick = () => visor.set(false);
      header.append(part("span", "title", "Visor"), part("span", "tabs"), close);
      el.append(header, part("div", "body"));
      document.body.appendChild(el);
      const btn = document.createElement("button");
      btn.id = "pytfweb-visor-toggle";
      btn.textContent = "visor";
      btn.title = "show or hide the visor (`)";
      btn.onclick = () => visor.set(el.hidden);
      document.body.appendChild(btn);
      document.addEventListener("keydown", (e) => {
        if (e.key === "`" && !/^(INPUT|TEXTAREA)$/.test(e.target.tagName)) visor.set(el.hidden);
      });
      visor.el = el;
      return el;
    },
    set(open) {
      visor.make().hidden = !open;
    },
    tab(name) {
      const el = visor.make();
      if (!visor.tabs.has(name)) {
        const b = document.createElement("button");
        b.textContent = name;
        b.onclick = () => visor.show(name);
        el.querySelector(".tabs").appendChild(b);
        const page = document.createElement("div");
        page.className = "tab";
        page.dataset.tab = name;
        el.querySelector(".body").appendChild(page);
        visor.tabs.set(name, { button: b, page });
        if (visor.current === null) visor.show(name);
        else page.hidden = true;
      }
      return visor.tabs.get(name).page;
    },
    show(name) {
      for (const [n, t] of visor.tabs) {
        t.page.hidden = n !== name;
        t.button.classList.toggle("active", n === name);
      }
      visor.current = name;
    },
    surface(name, tabName) {
      const page = visor.tab(tabName || "Visor");
      let s = [...page.children].find((c) => c.dataset.name === name);
      if (!s) {
        s = document.createElement("section");
        s.className = "surface";
        s.dataset.name = name;
        const h = document.createElement("h3");
        h.textContent = name;
        const area = document.createElement("div");
        area.className = "draw-area";
        s.append(h, area);
        page.appendChild(s);
      }
      return s.querySelector(".draw-area");
    },
  };

  /* The chart Python drew (vis/svg.py), as a node of this page that can only draw: the text is
   * parsed as XML (DOMParser, image/svg+xml: nothing in it runs or loads), then only SVG drawing
   * elements and attributes are kept (the lists below); a script, a foreignObject, an image, a
   * link, an on* handler, a style, an href, a url() paint go, whatever Python let through.
   * Python escapes and checks all it writes; this is the second line. Not well-formed SVG is an
   * error and nothing is drawn. */
  const SVG_NS = "http://www.w3.org/2000/svg";
  const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
  const SVG_ELEMENTS = new Set(["svg", "g", "rect", "line", "path", "circle", "ellipse", "polyline", "polygon",
                                "text", "tspan", "title", "desc"]);
  const SVG_ATTRIBUTES = new Set(["class", "x", "y", "width", "height", "viewBox", "preserveAspectRatio", "d",
    "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "points", "dx", "dy", "transform", "fill",
    "fill-opacity", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap", "stroke-dasharray",
    "stroke-opacity", "opacity", "text-anchor", "dominant-baseline", "font-family", "font-size", "font-weight"]);
  const SAFE_VALUE = /^[\w#.,%()+\-\/ \t\n\r]*$/;       // numbers, names, colours, path data, transforms

  function keepAttribute(a) {
    if (a.namespaceURI === XMLNS_NS) return a.name === "xmlns" && a.value === SVG_NS;
    if (a.namespaceURI !== null) return false;                 // xlink:href and the like
    if (/^data-[a-z0-9_.-]+$/.test(a.name)) return true;       // names of series and bars: plain text
    return SVG_ATTRIBUTES.has(a.name) && SAFE_VALUE.test(a.value) && !/url\s*\(/i.test(a.value);
  }

  function cleanSvg(el) {
    for (const a of [...el.attributes]) if (!keepAttribute(a)) el.removeAttributeNode(a);
    for (const child of [...el.childNodes]) {
      if (child.nodeType === Node.TEXT_NODE) continue;
      if (child.nodeType === Node.ELEMENT_NODE && child.namespaceURI === SVG_NS && SVG_ELEMENTS.has(child.localName)) {
        cleanSvg(child);
      } else {
        child.remove();                                         // scripts, foreignObject, comments, CDATA, ...
      }
    }
  }

  function safeSvg(markup) {
    if (typeof markup !== "string") throw new TypeError("tf.vis: a chart must be SVG text");
    const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
    const root = doc.documentElement;
    if (doc.getElementsByTagName("parsererror").length || root.namespaceURI !== SVG_NS || root.localName !== "svg") {
      throw new Error("tf.vis: the chart is not well-formed SVG; nothing was drawn");
    }
    cleanSvg(root);
    return document.importNode(root, true);
  }

  /* msg: {op: "draw", target, html} | {op: "visor", action: "open"|"close"|"toggle"|"is_open"} */
  function querySelectorOrNull(selector) {
    try {
      return document.querySelector(selector);
    } catch (err) {
      return null;                                              // not a CSS selector
    }
  }

  function vis(msg) {
    if (msg.op === "visor") {
      const el = visor.make();
      if (msg.action === "toggle") visor.set(el.hidden);
      else if (msg.action === "open" || msg.action === "close") visor.set(msg.action === "open");
      return !el.hidden;
    }
    const t = msg.target;
    let el;
    if (t && typeof t === "object" && t.name !== undefined) el = visor.surface(String(t.name), t.tab);
    else if (typeof t === "string") el = document.getElementById(t) || querySelectorOrNull(t);
    else el = t;
    if (!el || typeof el.replaceChildren !== "function") {
      throw new Error(`tf.vis: no element ${JSON.stringify(t)} in the page`);
    }
    el.replaceChildren(safeSvg(msg.html));
    return true;
  }
  api._vis = vis;
  api.visor = visor;

  window.pytfweb = api;

  function autoLoad() {
    const blocks = [...document.querySelectorAll('script[type="text/python"]')];
    if (blocks.some((b) => b.hasAttribute("worker"))) api.runWorkerScripts();
    if (!api._loading && blocks.some((b) => !b.hasAttribute("worker"))) {
      api.load().catch((err) => reportError(err, null));
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", autoLoad);
  else setTimeout(autoLoad, 0);
})();
