"""`pytfweb build-web OUTDIR [--app script.py]`: a static site that any static server or CDN can
host, laid out as `pytfweb serve` serves it, so that pages work the same from both:

    OUTDIR/pytfweb.js        the loader (also the worker's script)
    OUTDIR/pytfweb.zip.gz    the package with its shaders, gzipped (host.bundle)
    OUTDIR/pyodide/          Pyodide's core files from the npm package
    OUTDIR/index.html        a page running the app (--app) in a text/python block, or the demo
    OUTDIR/app.py            the app's script (--app)
    OUTDIR/...               the other pages of web/ (REPL, examples/)
    OUTDIR/zoo/              what examples/landmarks.html needs of the model zoo (ZOO_MODELS, ZOO_ASSETS)
    OUTDIR/api/              the API reference (host/apidocs.py), when pdoc is installed; without it the
                             site is built without api/ and build-web says so on stderr
    OUTDIR/pytfweb-sw.js     the service worker the loader registers before Pyodide starts: it keeps the
                             site's files (zoo/ and api/ as pages fetch them) in a cache named after a hash of the
                             build, so a second visit downloads nothing, and answers Pyodide's wasm from
                             that cache on the first visit already, so a second visit loads it compiled;
                             a new build is a new cache, taken when the site's open tabs have closed

Try it: pytfweb build-web build/site --app examples/demo.py && python -m http.server -d build/site
"""
import hashlib
import html
import json
import shutil
import sys
from pathlib import Path

from . import apidocs, paths, zoo
from .bundle import DOWNLOAD, build_download

#: Pyodide's files a page needs (the npm package's core; no extra wheels are shipped).
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")

#: web/ files that need more than the site holds (the benchmark needs TensorFlow.js from npm).
LEFT_OUT = ("bench.html", "bench_models.js")

#: The model zoo's files the landmarks demo reads (its models and the photos of PHOTOS in
#: web/examples/landmarks.py), copied from the installed npm package into zoo/ at build time, the
#: layout `pytfweb serve` serves. Without the package the demo's pages are left out.
ZOO_MODELS = ("movenet-lightning", "facemesh")
ZOO_ASSETS = ("samples.jpg",)
ZOO_PAGES = ("examples/landmarks.html", "examples/landmarks.py")

APP_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<style>
  body {{ font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }}
  #output {{ font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap; background: #f6f6f6;
            padding: .6rem; min-height: 3rem; }}
  #status {{ color: #666; }}
</style>
<script src="pytfweb.js" data-show-errors></script>
<script>
  document.addEventListener("pytfweb:{done}", () => {{
    document.getElementById("status").textContent = "Done.";
  }});
  document.addEventListener("pytfweb:error", () => {{
    const s = document.getElementById("status");
    s.textContent = "The script failed (traceback below and in the console).";
    s.style.color = "#b00";
  }});
</script>
</head>
<body>
<h1>{title}</h1>
<p id="status">Loading Pyodide and pytfweb&hellip;</p>
<div id="charts"></div>
<pre id="output"></pre>
<script type="text/python" src="{src}" output="output"{worker}></script>
</body>
</html>
"""


SERVICE_WORKER = "pytfweb-sw.js"
#: The loader's line that build-web rewrites to name the site's service worker.
SERVICE_WORKER_LINE = "  const SERVICE_WORKER = null;\n"

# Cache first, for the site's own GETs: the cache is the build's (VERSION), so what it answers is
# always one build's files, never a mix; the files not listed in PRECACHE (the zoo) join it when fetched.
# A hit is answered with the cached response itself, never a copy: Chromium keeps a wasm module's
# compiled code beside it, written by the page that runs the module from it, which a copy would lose.
# The first install (no worker of the site yet) precaches nothing and takes the page at once
# (skipWaiting, clients.claim): the loader registers it before Pyodide starts and holds Pyodide's
# wasm request until the worker controls the page (or 1 s has passed); the worker fetches the wasm
# into its cache first and answers that request from the cache entry, so the first visit's page,
# which runs Pyodide, stores the compiled code there and the second visit loads it instead of
# compiling. Until then it answers nothing else (the page's other requests go to the network as
# without a worker); once Python is up the loader posts "pytfweb:precache" and the worker fetches
# the rest of PRECACHE, replying {type: "pytfweb:cached", ok}.
# A later build's worker installs with the whole PRECACHE and takes over only when no page of the
# old build is open (no skipWaiting then).
SERVICE_WORKER_JS = """// pytfweb build-web: the site's service worker (see pytfweb/host/site.py)
"use strict";
const CACHE = "pytfweb-" + {version};
const PRECACHE = {precache};

/* The files of PRECACHE the cache does not hold yet. */
async function precache() {{
  const cache = await caches.open(CACHE);
  const held = new Set((await cache.keys()).map((r) => r.url));
  await cache.addAll(PRECACHE.filter((rel) => !held.has(new URL(rel, self.location.href).href)));
}}

// The wasm files of PRECACHE (Pyodide's). On a first install the worker fetches them into the cache
// at once (filling) and, until the page asks for the rest, answers nothing else (firstVisit): the
// page's other requests go to the network as if there were no worker.
const WASM = PRECACHE.filter((rel) => rel.endsWith(".wasm")).map((rel) => new URL(rel, self.location.href).href);
let filling = null;
let firstVisit = false;

self.addEventListener("install", (event) => {{
  if (!self.registration.active) {{
    self.skipWaiting();
    firstVisit = true;
    filling = caches.open(CACHE).then((cache) => cache.addAll(WASM)).catch(() => {{}});
    return;
  }}
  event.waitUntil(precache());
}});

self.addEventListener("activate", (event) => {{
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("pytfweb-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
}});

self.addEventListener("message", (event) => {{
  if (event.data !== "pytfweb:precache") return;
  const reply = (ok) => event.source && event.source.postMessage({{ type: "pytfweb:cached", ok }});
  event.waitUntil(precache().then(() => {{
    firstVisit = false;
    reply(true);
  }}, (err) => {{
    reply(false);
    throw err;
  }}));
}});

self.addEventListener("fetch", (event) => {{
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (firstVisit && !WASM.includes(request.url)) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {{
    const hit = await cache.match(request);
    if (hit) return hit;
    if (filling && WASM.includes(request.url)) {{
      await filling;
      const filled = await cache.match(request);
      if (filled) return filled;
    }}
    const response = await fetch(request);
    if (!response.ok || response.type !== "basic") return response;
    if (response.headers.get("Content-Type") === "application/wasm") {{
      // answered from the cache entry, so that the compiled code is stored beside it (from the
      // network again when the cache cannot take it, as when the storage quota is reached)
      try {{
        await cache.put(request, response);
        const entry = await cache.match(request);
        if (entry) return entry;
      }} catch (err) {{}}
      return fetch(request);
    }}
    event.waitUntil(cache.put(request, response.clone()));
    return response;
  }}));
}});
"""


def service_worker(out, files):
    """The service worker's text for the files written into out (site paths): its cache is named
    after their contents; every file but the zoo's and the API reference's is precached, and directories
    with an index.html by their own URL too (a page is visited as "./", not "./index.html")."""
    files = sorted(set(files))   # a file written twice (the app's index.html over the demo's) is listed once
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0" + hashlib.sha256((Path(out) / rel).read_bytes()).digest())
    precache = []
    for rel in files:
        if rel.startswith(("zoo/", "api/")):   # (cached as pages fetch them: the API reference is ~14 MB)
            continue
        precache.append(rel)
        if rel == "index.html" or rel.endswith("/index.html"):
            precache.append(rel[:-len("index.html")] or "./")
    return SERVICE_WORKER_JS.format(version=json.dumps(h.hexdigest()[:16]), precache=json.dumps(precache, indent=1))


def app_page(src, title, worker=False):
    """The index page of an app: one text/python block running src, printing into #output."""
    return APP_PAGE.format(title=html.escape(title), src=html.escape(src), worker=" worker" if worker else "",
                           done="worker-done" if worker else "ready")


def zoo_files(package):
    """{site path: source file} of what the demo needs from the zoo's npm package at `package`
    (each model's model.json and the weight shards it names, the photos); None when anything is
    missing."""
    files = {}
    for name in ZOO_MODELS:
        model = package / "models" / f"{name}.json"
        if not model.is_file():
            return None
        files[f"zoo/models/{model.name}"] = model
        for group in json.loads(model.read_text(encoding="utf-8"))["weightsManifest"]:
            for shard in group["paths"]:
                # a shard is named beside its model.json: no path may lead out of the site
                if not isinstance(shard, str) or Path(shard).name != shard or shard in ("", ".", ".."):
                    raise ValueError(f"build-web: {model}: weight shard {shard!r} is not a file name")
                files[f"zoo/models/{shard}"] = package / "models" / shard
    for asset in ZOO_ASSETS:
        files[f"zoo/assets/{asset}"] = package / "assets" / asset
    return files if all(f.is_file() for f in files.values()) else None


def build_web(outdir, app=None, worker=False, pyodide_dir=None, web_dir=None, zoo_dir=None, api_docs=True):
    """Write the site into outdir (created; files of an earlier build are replaced). Returns the
    list of files written, relative to outdir. zoo_dir: the zoo's npm package (default: the
    installed one, host/zoo.py). api_docs: put the API reference in api/ (where pdoc imports)."""
    out = Path(outdir)
    web = Path(web_dir) if web_dir else paths.web_dir()
    pyodide = Path(pyodide_dir) if pyodide_dir else paths.pyodide_dir()
    package = Path(zoo_dir) if zoo_dir else zoo.package_dir()
    from_zoo = zoo_files(package) if package is not None else None
    left_out = LEFT_OUT + (() if from_zoo else ZOO_PAGES)
    if app is not None and not Path(app).is_file():
        raise FileNotFoundError(f"--app {app}: no such file")
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def put(rel, data=None, src=None):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src is not None:
            shutil.copyfile(src, target)
        else:
            target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        written.append(rel)

    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if path.is_file() and rel not in left_out and "__pycache__" not in rel:
            put(rel, src=path)
    for rel, src in (from_zoo or {}).items():
        put(rel, src=src)
    for name in PYODIDE_FILES:
        if (pyodide / name).is_file():
            put(f"pyodide/{name}", src=pyodide / name)
    put(DOWNLOAD, build_download())
    if api_docs:
        try:
            reference = apidocs.rendered()
        except ImportError:
            reference = {}   # main() says the reference is left out
        for rel, data in reference.items():
            put(f"api/{rel}", data)
    if app is not None:
        put("app.py", src=app)
        put("index.html", app_page("app.py", Path(app).name, worker))
    loader = out / "pytfweb.js"
    if "pytfweb.js" in written:
        text = loader.read_text(encoding="utf-8")
        if SERVICE_WORKER_LINE not in text:
            raise ValueError(f"build-web: {loader} has no line {SERVICE_WORKER_LINE.strip()!r} to name the service worker")
        loader.write_text(text.replace(SERVICE_WORKER_LINE, f"  const SERVICE_WORKER = {json.dumps(SERVICE_WORKER)};\n", 1),
                          encoding="utf-8")
        put(SERVICE_WORKER, service_worker(out, written))
    return written


def main(outdir, app=None, worker=False):
    try:
        files = build_web(outdir, app, worker)
    except FileNotFoundError as exc:
        print(f"pytfweb build-web: {exc}", file=sys.stderr)
        return 1
    size = sum((Path(outdir) / f).stat().st_size for f in files)
    print(f"pytfweb build-web: {len(files)} files, {size / 1e6:.1f} MB in {outdir}")
    if ZOO_PAGES[0] not in files:
        print(f"pytfweb build-web: left out {', '.join(ZOO_PAGES)}: the model zoo ({zoo.PACKAGE}) is not installed "
              f"(`npm ci` in the checkout installs it)", file=sys.stderr)
    if "api/index.html" not in files:
        print("pytfweb build-web: left out api/ (the API reference): pdoc is not installed (pip install pdoc)",
              file=sys.stderr)
    print(f"Try it: python -m http.server --directory {outdir} 8000   then open http://127.0.0.1:8000/")
    return 0
