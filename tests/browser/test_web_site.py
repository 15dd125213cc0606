"""The static site of `pytfweb build-web`, served by a plain static server (python -m http.server,
started here on a free port), used as a person uses it: a page with <script> tags, the worker
mode, and tf.vis charts checked on screenshots (build/screenshots/).

One site and one static server for the module; the session's Chromium (conftest); one page per test.
"""
import base64
import json
import socket
import struct
import subprocess
import sys
import time
import urllib.request
import zlib
from pathlib import Path

import numpy as np
import pytest

from pytfweb.host.browser_config import TIMEOUTS
from pytfweb.host.site import build_web

from .conftest import auto_backend

APP = '''\
import pytfweb as tf
print("backend", tf.get_backend())
x = tf.tensor([1.0, 2.0, 3.0])
print("doubled", await (x * 2).array())
'''

# Script-tag use: output elements, an error shown in the page, a later block still running,
# pytfweb.ready and pytfweb.runPython from JS.
TAGS_PAGE = '''<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="pytfweb.js" data-show-errors></script></head>
<body>
<pre id="first"></pre><pre id="second"></pre><pre id="third"></pre>
<script type="text/python" output="first">
import asyncio
await asyncio.sleep(0.01)
total = tf.sum(tf.tensor([[1, 2], [3, 4]]))
print("sum", await total.array())
</script>
<script type="text/python" output="second">
def broken():
    return 1 / 0
broken()
</script>
<script type="text/python" output="third">
print("after the error, total is still", total.array_sync())
import js
tf.vis.render.barchart("bars", {"a": 3, "b": 1})
tf.vis.render.linechart(js.document.getElementById("line"), [1.0, 0.5, 0.25])
tf.vis.show.model_summary(tf.vis.visor().surface("Summary", tab="Model"),
                          tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[3])]))
</script>
<div id="bars"></div><div id="line"></div>
<pre id="w1"></pre><pre id="w2"></pre>
<script type="text/python" worker output="w1">
from pytfweb.browser import worker
print("worker", worker.in_worker(), tf.get_backend())
</script>
<script type="text/python" worker output="w2">
def fails():
    raise ValueError("from the worker")
fails()
</script>
</body></html>
'''


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    app = root.parent / "app_script.py"
    app.write_text(APP)
    build_web(root, app=app)
    (root / "tags.html").write_text(TAGS_PAGE)
    return root


@pytest.fixture(scope="module")
def static_url(site):
    """python -m http.server serving the site: nothing of pytfweb runs on the server side."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site),
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "pytfweb.js", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("python -m http.server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def page(browser):
    p = browser.new_page()
    p.console = []
    p.on("console", lambda m: p.console.append((m.type, m.text)))
    yield p
    p.close()


def test_the_site_holds_what_a_page_needs(site):
    for rel in ("index.html", "app.py", "pytfweb.js", "pytfweb.zip.gz", "pyodide/pyodide.js", "pyodide/pyodide.mjs",
                "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"):
        assert (site / rel).is_file(), rel
    index = (site / "index.html").read_text()
    assert '<script type="text/python" src="app.py" output="output"></script>' in index
    assert not (site / "bench.html").exists()


def test_index_runs_the_app_from_a_static_server(page, static_url):
    page.goto(static_url)
    page.wait_for_function("document.getElementById('status').textContent !== 'Loading Pyodide and pytfweb\u2026'",
                           timeout=TIMEOUTS["load"])
    assert page.text_content("#status") == "Done."
    out = page.text_content("#output")
    assert f"backend {auto_backend(page)}" in out
    assert "doubled [2.0, 4.0, 6.0]" in out
    assert ("log", "doubled [2.0, 4.0, 6.0]") in page.console       # print goes to the console too


def test_script_tags_output_errors_and_js_api(page, static_url):
    page.goto(static_url + "tags.html")
    page.evaluate("pytfweb.ready.then(() => 1)")             # waits for load and the three blocks
    assert page.text_content("#first") == "sum 10.0\n"
    assert page.text_content("#third") == "after the error, total is still 10.0\n"
    shown = page.text_content("#second .pytfweb-error")
    assert shown.startswith("Traceback (most recent call last):\n")
    assert 'File "<script 2>", line 3, in broken' in shown and shown.rstrip().endswith("division by zero")
    assert "_pyodide" not in shown                            # Pyodide's own frames are left out
    assert any(kind == "error" and "ZeroDivisionError" in text for kind, text in page.console)
    # JS and Python together: the blocks' namespace, values back as JS values, errors as rejections
    assert page.evaluate("pytfweb.runPython('int(total.array_sync()) * 2')") == 20
    assert page.evaluate("pytfweb.runPython('{\"a\": [1, 2]}')") == {"a": [1, 2]}
    err = page.evaluate("pytfweb.runPython('nope').then(() => 'no error', (e) => e.message)")
    assert err.startswith("Traceback") and "NameError: name 'nope' is not defined" in err
    # tf.vis on the page's thread: by element id, by JS element, into a visor surface
    assert page.locator("#bars svg.tfvis rect.bar").count() == 2
    assert page.locator("#line svg.tfvis path.series").count() == 1
    assert page.locator("#pytfweb-visor section[data-name='Summary'] svg.tfvis").count() == 1
    # worker blocks: their output element, and their traceback in the page
    page.wait_for_function("document.querySelector('#w2 .pytfweb-error') !== null", timeout=TIMEOUTS["load"])
    assert page.text_content("#w1") == f"worker True {auto_backend(page)}\n"
    shown = page.text_content("#w2 .pytfweb-error")
    assert shown.startswith("Traceback") and 'File "<script 5>", line 3, in fails' in shown
    assert shown.rstrip().endswith("ValueError: from the worker")


# --- worker mode and tf.vis: web/examples/train.html -------------------------------------------

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
FIT_SECONDS = 5


def decode_png(data):
    """RGB(A) 8-bit PNG bytes (Chromium's screenshots) -> uint8 array [height, width, 3]."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    w, h, depth, color, _, _, interlace = head
    assert depth == 8 and color in (2, 6) and interlace == 0, head
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = np.zeros((h, stride), np.uint8)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((np.frombuffer(line, np.uint8) + np.frombuffer(prev, np.uint8)).tobytes())
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y] = np.frombuffer(line, np.uint8)
        prev = line
    return out.reshape(h, w, bpp)[:, :, :3]


def near(img, rgb, tol=40):
    return np.abs(img.astype(int) - np.array(rgb)).sum(axis=2) <= tol


SERIES_RGB = [(0x1f, 0x77, 0xb4), (0xff, 0x7f, 0x0e)]   # tf.vis's first two series colours


def check_chart(img, box, name):
    """A line chart on a screenshot: drawn at all, dark axes along the plot area's bottom and
    left edges, and curves in the series' colours inside the plot area, across its width. The
    colours are taken together: where loss and val_loss run within a stroke of each other, the
    one drawn last hides the other (a CI run's epoch chart showed loss only from 128 px on)."""
    x, y, w, h = (int(round(v)) for v in box)
    assert (img.min(axis=2) < 200).mean() > 0.01, f"{name}: the screenshot is blank"
    dark = img.max(axis=2) < 110
    bottom = max(dark[y + h + d, x:x + w].mean() for d in (-2, -1, 0, 1, 2))
    left = max(dark[y:y + h, x + d].mean() for d in (-2, -1, 0, 1, 2))
    assert bottom > 0.9, f"{name}: no x axis along the bottom of the plot area ({bottom:.2f} of it dark)"
    assert left > 0.9, f"{name}: no y axis along the left of the plot area ({left:.2f} of it dark)"
    inside = img[y + 1:y + h - 2, x + 3:x + w]
    curve = near(inside, SERIES_RGB[0]) | near(inside, SERIES_RGB[1])
    cols, rows = np.nonzero(curve.any(axis=0))[0], np.nonzero(curve.any(axis=1))[0]
    assert curve.sum() > 50, f"{name}: no curve in the plot area ({curve.sum()} pixels of the series colours)"
    assert cols.max() - cols.min() > 0.6 * w, f"{name}: the curve spans only {cols.max() - cols.min()} of {w} px"
    assert rows.max() - rows.min() > 5, f"{name}: the curve is flat: not drawn from the data"
    return {"curve_pixels": int(curve.sum()), "x_span": int(cols.max() - cols.min()),
            "y_span": int(rows.max() - rows.min())}


_BOXES_JS = """() => {
  const root = document.getElementById("charts").getBoundingClientRect();
  return [...document.querySelectorAll("#charts rect.plot-area")].map((r) => {
    const b = r.getBoundingClientRect();
    return [b.x - root.x, b.y - root.y, b.width, b.height];
  });
}"""

_FRAMES_JS = """() => {
  const s = trainStats;
  const f = s.frames.filter((t) => t >= s.fitStart && t <= s.fitEnd);
  const ticks = [s.fitStart, ...f, s.fitEnd];
  let gap = 0;
  for (let i = 1; i < ticks.length; i++) gap = Math.max(gap, ticks[i] - ticks[i - 1]);
  // The test's own screenshot (taken during the fit) holds the compositor: its interval is cut
  // out of the fit's time before the fit is split into fifths.
  const [a, b] = s.shot;
  const shown = (t) => t < a ? t - s.fitStart : t > b ? t - s.fitStart - (b - a) : null;
  const span = s.fitEnd - s.fitStart - (b - a);
  const fifths = (times) => {
    const n = Array(5).fill(0);
    for (const t of times) {
      if (t >= s.fitStart && t <= s.fitEnd && shown(t) !== null) n[Math.min(4, Math.floor(shown(t) / span * 5))]++;
    }
    return n;
  };
  return {frames: f.length, ms: s.fitEnd - s.fitStart, max_gap_ms: gap, screenshot_ms: b - a,
          frames_per_fifth: fifths(f), ticks_per_fifth: fifths(window.__mainThreadTicks), fit: s.fit,
          predictions: s.predictions};
}"""


@pytest.fixture(scope="module")
def training(browser, static_url):
    """web/examples/train.html on the static site: train.py in a worker for FIT_SECONDS s. Gives
    the page, the screenshots taken while it trained and after, and the frame counts."""
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 1000})
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    # at least two epochs whatever the machine's speed: the epoch charts need two points
    # A timer on the page's thread: it ticks whenever that thread is free. (Frames are reported
    # too, but on SwiftShader the GPU process that composites them also runs the worker's draws,
    # so under load frames stall for seconds while the page's thread is free.)
    page.add_init_script("window.__mainThreadTicks = [];"
                         " setInterval(() => window.__mainThreadTicks.push(performance.now()), 50);")
    page.goto(static_url + f"examples/train.html?seconds={FIT_SECONDS}&min_epochs=2")
    page.wait_for_function("trainStats.fitStart !== null", timeout=TIMEOUTS["load"])
    # live: once the batch curve has a few points, and before fit has ended
    page.wait_for_function("(() => { const p = document.querySelector('#charts path.series');"
                           " return p && p.getAttribute('d').split('L').length >= 6; })()", timeout=60_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("trainStats.shot = [performance.now(), null]")
    live_png = page.locator("#charts").screenshot(path=str(SCREENSHOTS / "train_live_charts.png"))
    page.evaluate("trainStats.shot[1] = performance.now()")
    live_boxes = page.evaluate(_BOXES_JS)
    still_training = page.evaluate("trainStats.fitEnd === null")
    page.wait_for_function("document.getElementById('status').textContent === 'Done.' || "
                           "document.querySelector('.pytfweb-error') !== null", timeout=TIMEOUTS["call"])
    result = {"page": page, "errors": errors, "live_png": live_png, "live_boxes": live_boxes,
              "still_training": still_training, "frames": page.evaluate(_FRAMES_JS),
              "done_png": page.screenshot(path=str(SCREENSHOTS / "train_done.png"), full_page=True)}
    yield result
    page.close()


def test_worker_keeps_the_page_answering_during_fit(training):
    assert training["errors"] == [] and training["page"].query_selector(".pytfweb-error") is None
    f = training["frames"]
    print("the page's frames and timer ticks during the worker's fit:", f)
    assert f["ms"] >= FIT_SECONDS * 1000 * 0.9, f"the fit was meant to last {FIT_SECONDS} s: {f}"
    # The page's thread is free: its timer keeps ticking through the whole fit. A fit on the
    # page's thread that does not yield stops it for its whole length. Counted per fifth of the fit
    # (a second or more each), not as a rate: how fast a loaded machine runs is the bench's
    # business, not a test's.
    assert all(n > 0 for n in f["ticks_per_fifth"]), f"the page's thread was blocked during the worker's fit: {f}"
    assert f["fit"]["epochs"] >= 2


def test_live_charts_on_screenshots(training):
    assert training["still_training"], "the 'live' screenshot was taken after fit had ended"
    live = decode_png(training["live_png"])
    boxes = training["live_boxes"]
    assert len(boxes) == 4           # loss and acc, per batch and per epoch
    print("live batch-loss chart:", check_chart(live, boxes[0], "loss (batch), during fit"))
    done = training["page"]
    end_png = done.locator("#charts").screenshot()
    end_boxes = done.evaluate(_BOXES_JS)
    end = decode_png(end_png)
    for box, name in zip(end_boxes, ["loss (batch)", "acc (batch)", "loss (epoch)", "acc (epoch)"]):
        print(name, check_chart(end, box, name + ", after fit"))
    # what the pixels cannot tell apart when curves overlap: both epoch charts draw loss and
    # val_loss (acc, val_acc) with one point per epoch
    paths = done.evaluate("""() => [...document.querySelectorAll('#charts svg')].map((s) =>
        [...s.querySelectorAll('path.series')].map((p) => [p.dataset.name, p.getAttribute('d').split('L').length]))""")
    epochs = training["frames"]["fit"]["epochs"]
    assert paths[-2:] == [[["loss", epochs], ["val_loss", epochs]], [["acc", epochs], ["val_acc", epochs]]], paths


def test_predictions_drawn_on_the_canvas_and_visor(training):
    page = training["page"]
    assert training["frames"]["predictions"] == 12
    canvas = decode_png(page.locator("#predictions").screenshot())
    first = canvas[4:52, 8:56]                       # image 0: 48 x 48 grey pixels from to_pixels
    assert first.std() > 20 and (first[:, :, 0] == first[:, :, 1]).all()
    assert page.locator("#pytfweb-visor").is_visible()
    assert page.locator("#pytfweb-visor section[data-name='Summary'] svg").count() == 1
    assert "conv2d" in page.locator("#pytfweb-visor section[data-name='Summary']").inner_text().lower()
    page.keyboard.press("`")                          # the visor toggles
    assert not page.locator("#pytfweb-visor").is_visible()
    page.keyboard.press("`")
    assert page.locator("#pytfweb-visor").is_visible()


def test_worker_tensors_cross_as_typed_arrays(training):
    page = training["page"]
    out = page.evaluate("""async () => {
      const w = pytfweb.worker();
      const r = await w.runPython("y = x * 2 + tf.ones([2, 2]); y",
                                  {x: pytfweb.tensor(new Float32Array([1, 2, 3, 4]), [2, 2])});
      const i = await w.runPython("[tf.cast(y, 'int32'), {'n': 3}]");
      const err = await w.runPython("1 / 0").then(() => "no error", (e) => e.message);
      const obj = await w.runPython("model");
      return {isF32: r.data instanceof Float32Array, values: Array.from(r.data), shape: r.shape, dtype: r.dtype,
              isI32: i[0].data instanceof Int32Array, ints: Array.from(i[0].data), n: i[1].n, err, obj};
    }""")
    assert out["isF32"] and out["values"] == [3, 5, 7, 9] and out["shape"] == [2, 2] and out["dtype"] == "float32"
    assert out["isI32"] and out["ints"] == [3, 5, 7, 9] and out["n"] == 3
    assert out["err"].startswith("Traceback") and "ZeroDivisionError" in out["err"]
    assert "Sequential" in out["obj"]                 # train.py's model, as its repr


# --- the landmarks demo: web/examples/landmarks.html --------------------------------------------

RESULTS = Path(__file__).resolve().parents[2] / "test-results"     # git-ignored
KEYPOINT_RGB, MESH_RGB = (0, 255, 0), (0, 200, 255)                 # landmarks.py's colours
NOSE = (285, 93)    # the nose of the man "At a table", in the page's 480 x 352 frame (read off the photo)
_CANVAS_PNG_JS = "document.getElementById('view').toDataURL('image/png').split(',')[1]"


def test_landmarks_demo_draws_keypoints_and_mesh_on_the_person(browser, static_url):
    """The site's landmarks page: both zoo models load from the site's zoo/, the first frame is
    drawn, and the canvas's pixels show the keypoints where MoveNet put them, on the man's body,
    and the face mesh on his face; frames keep coming without leaking; the webcam, refused by
    the headless browser, leaves the photo on."""
    wall = time.perf_counter()
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    try:
        page.goto(static_url + "examples/landmarks.html")
        page.wait_for_function("window.landmarksDemo && landmarksDemo.frames >= 1 || "
                               "document.querySelector('.pytfweb-error') !== null", timeout=TIMEOUTS["load"])
        assert page.query_selector(".pytfweb-error") is None, page.text_content(".pytfweb-error")
        first_frame = time.perf_counter() - wall
        state = page.evaluate("landmarksDemo")
        RESULTS.mkdir(exist_ok=True)
        page.screenshot(path=str(RESULTS / "landmarks_page.png"), full_page=True)
        # the canvas's own pixels (an element screenshot may be off by a row where the page lays it
        # out at a fraction of a pixel)
        shot = decode_png(base64.b64decode(page.evaluate(_CANVAS_PNG_JS)))
        result = state["result"]
        assert state["photo"] == "At a table" and state["source"] == "photo"
        assert shot.shape[:2] == (result["height"], result["width"]) == (352, 480)

        kp = np.array(result["keypoints"])
        print("keypoints (x, y, score):", np.round(kp, 2).tolist())
        nose = kp[0]
        assert nose[2] > 0.3, f"MoveNet's nose score {nose[2]:.2f} on the photo"
        assert np.hypot(*(nose[:2] - NOSE)) < 20, f"the nose at {nose[:2]}, not on the man's nose near {NOSE}"
        assert (kp[5:7, 1] > nose[1] + 30).all() and (kp[5:7, 2] > 0.3).all(), "the shoulders are not below the head"
        drawn = near(shot, KEYPOINT_RGB, tol=30)
        seen = kp[kp[:, 2] >= 0.3]
        assert len(seen) >= 10
        for x, y, _ in seen:      # each keypoint's dot is drawn where MoveNet put it
            x, y = int(round(x)), int(round(y))
            assert drawn[y - 1:y + 2, x - 1:x + 2].mean() > 0.5, f"no keypoint drawn at ({x}, {y})"
        assert drawn.sum() < 0.05 * drawn.size, "the keypoint colour is everywhere: not dots"

        # the face mesh: on the face box MoveNet's head keypoints gave, around the nose, drawn there
        assert result["face_score"] > 0.5 and len(result["mesh"]) == 468
        mesh = np.array(result["mesh"])[:, :2]
        assert (mesh.min(axis=0) < nose[:2]).all() and (nose[:2] < mesh.max(axis=0)).all()
        assert (mesh.max(axis=0) - mesh.min(axis=0) > 40).all(), "the mesh has collapsed"
        left, top, size = (int(v) for v in result["face"])
        on_face = near(shot[top:top + size, left:left + size], MESH_RGB, tol=60)
        assert on_face.sum() > 300, f"only {on_face.sum()} mesh-coloured pixels in the face box"
        assert near(shot, MESH_RGB, tol=60).sum() < 1.2 * on_face.sum() + 50, "mesh colour outside the face"
        # the loop goes on with no tensor left behind; the webcam refused, the photo stays
        page.click("#webcam")
        page.wait_for_function("document.getElementById('status').textContent.startsWith('No webcam')",
                               timeout=TIMEOUTS["call"])
        page.wait_for_function(f"landmarksDemo.frames >= {state['frames'] + 2}", timeout=TIMEOUTS["call"])
        later = page.evaluate("landmarksDemo")
        assert later["source"] == "photo" and later["tensors"] == state["tensors"], (state["tensors"], later["tensors"])
        assert later["fps"] > 0 and page.query_selector(".pytfweb-error") is None
        page.screenshot(path=str(RESULTS / "landmarks_page_later.png"), full_page=True)
        fps_text = page.text_content("#fps")
        assert "frames/s · MoveNet" in fps_text and fps_text.endswith(auto_backend(page)), fps_text
        assert errors == [], errors
        print(f"landmarks demo: first frame {first_frame:.1f} s after goto, test {time.perf_counter() - wall:.1f} s; "
              f"{page.text_content('#fps')}; {page.text_content('#status')}")
    finally:
        page.close()


WASM_CACHE_CATEGORY = "disabled-by-default-devtools.timeline"   # where Chromium 156 records v8.wasm.moduleCacheHit


def _wasm_events(trace, name="v8.wasm.moduleCacheHit"):
    """How many events `name` a trace of Playwright's start_tracing with WASM_CACHE_CATEGORY holds:
    v8.wasm.moduleCacheHit, Chromium took a wasm module's compiled code from its code cache;
    v8.wasm.cachedModule, it stored one."""
    return sum(e.get("name") == name for e in json.loads(trace)["traceEvents"])


def test_a_second_visit_downloads_nothing_and_compiles_no_wasm(browser, site, tmp_path):
    """The site's service worker (registered by the loader before Pyodide starts) answers the
    second visit from its cache: the static server sees no request for it. And what makes a cached
    visit fast besides the bytes: the first visit's Pyodide ran its wasm from the worker's cache
    entry (the loader held the wasm request until the worker controlled the page), so Chromium
    stored the compiled code beside it and the second visit loads it instead of compiling (a
    trace's v8.wasm.moduleCacheHit; a loader whose first visit runs the wasm from the network gets
    its first hit on the third visit). Counted, not timed."""
    port = _free_port()
    log = tmp_path / "server.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site),
                                 str(port)], stdout=subprocess.DEVNULL, stderr=err)
    url = f"http://127.0.0.1:{port}/"
    context = browser.browser.new_context()   # its own: no service worker or cache from other tests
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "pytfweb.js", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        done = "document.getElementById('status').textContent === 'Done.'"
        first = context.new_page()
        browser.browser.start_tracing(page=first, categories=[WASM_CACHE_CATEGORY])
        try:
            first.goto(url)
            first.wait_for_function(done, timeout=TIMEOUTS["load"])
            # the worker took the page it was registered from (before Pyodide fetched its wasm)
            controller = first.evaluate("navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL")
            assert controller == url + "pytfweb-sw.js"
            # the worker fetched what the visit did not once Python was up (pytfweb.cached; false when
            # a fetch failed, as for a precache list naming a file that is not there)
            cached = first.evaluate("() => Promise.race([pytfweb.cached,"
                                    "                    new Promise((r) => setTimeout(() => r('not cached'), 60000))])")
            assert cached is True
            # V8 hands the compiled code over once no function has been optimized for 2 s
            # (--wasm-caching-timeout-ms): the page stays open well past that
            first.wait_for_timeout(5000)
        finally:
            trace = browser.browser.stop_tracing()
        assert _wasm_events(trace, "v8.wasm.cachedModule") >= 1, "the first visit stored no compiled wasm"
        seen = log.read_text().count('"GET ')
        assert seen > 0
        first.close()

        second = context.new_page()
        browser.browser.start_tracing(page=second, categories=[WASM_CACHE_CATEGORY])
        try:
            second.goto(url)
            second.wait_for_function(done, timeout=TIMEOUTS["load"])
        finally:
            trace = browser.browser.stop_tracing()
        assert "doubled [2.0, 4.0, 6.0]" in second.text_content("#output")
        assert second.evaluate("navigator.serviceWorker.controller !== null")
        assert _wasm_events(trace) == 1
        # (the browser may ask whether the worker's script changed: a new build would replace it)
        fetched = [line for line in log.read_text().splitlines() if '"GET ' in line][seen:]
        assert [line for line in fetched if '"GET /pytfweb-sw.js ' not in line] == []
    finally:
        context.close()
        proc.terminate()
        proc.wait(timeout=10)
