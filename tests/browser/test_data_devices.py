"""tf.data.microphone and tf.data.webcam in the page, on Chromium's fake media devices, beside TF.js 4.22
in the same page (its cpu backend), on the same devices.

This module launches its own Chromium (the session's browser has no fake devices): the flags
--use-fake-ui-for-media-stream (getUserMedia is granted without a prompt) and
--use-fake-device-for-media-stream (a synthetic camera: a moving test pattern; a synthetic microphone:
here it plays a 1 kHz sine from a WAV file this module writes, through --use-file-for-fake-audio-capture)
are given to that browser only. Both libraries read the same devices at different moments, so values are
compared by what must hold for both (shapes, dtypes, ranges, the sine's frequency bin, the pattern's colour
statistics), not element by element."""
import json
import math
import os
import struct
import wave

import pytest

from pytfweb.host import browser_config
from pytfweb.host.chromium import Browser
from pytfweb.host.server import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TFJS_DIST = os.path.join(ROOT, "node_modules", "@tensorflow", "tfjs", "dist")
SINE_HZ, RATE = 1000, 44100

pytestmark = pytest.mark.skipif(not os.path.isdir(TFJS_DIST), reason="node_modules/@tensorflow/tfjs is needed")


def _write_sine(path, seconds=3):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(12000 * math.sin(2 * math.pi * SINE_HZ * i / RATE)))
                               for i in range(RATE * seconds)))


@pytest.fixture(scope="module")
def page(tmp_path_factory, browser):
    sine = tmp_path_factory.mktemp("media") / "sine.wav"
    _write_sine(sine)
    args = browser_config.LAUNCH_ARGS + ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                                         f"--use-file-for-fake-audio-capture={sine}"]
    # a second Chromium through the session's Playwright (a thread runs one sync Playwright at a time)
    with Server(routes={"/tfjs/": TFJS_DIST}) as server, \
            Browser(playwright=browser.playwright, args=args) as browser:
        p, _ = browser.open(server.url, backend="webgl")
        p.add_script_tag(url=server.url + "tfjs/tf.min.js")
        p.evaluate("async () => { await tf.setBackend('cpu'); }")
        yield p
        p.close()


_PY = '''
import json as _json
async def _main():
{body}
_json.dumps(await _main())
'''


def run_py(page, body):
    """The value the Python body (the inside of an async function) returns, through JSON."""
    code = _PY.format(body="\n".join("    " + line for line in body.strip("\n").splitlines()))
    return json.loads(page.evaluate("(code) => pytfweb.pyodide.runPythonAsync(code)", code))


def run_js(page, body):
    return page.evaluate(f"async () => {{ {body} }}")


# --- microphone ------------------------------------------------------------------------------------
MIC = {"fftSize": 1024, "numFramesPerSpectrogram": 8, "columnTruncateLength": 200, "includeWaveform": True,
       "audioTrackConstraints": {"echoCancellation": False, "noiseSuppression": False, "autoGainControl": False}}
PY_STATS = '''
def stats(t):
    v = t.data_sync()
    finite = [x for x in v if x == x and abs(x) != float("inf")]
    return {"shape": list(t.shape), "dtype": t.dtype, "min": min(finite) if finite else None,
            "max": max(finite) if finite else None, "ninf": sum(1 for x in v if x == float("-inf"))}
'''
JS_STATS = '''
const stats = t => { const v = t.dataSync(); let mn = Infinity, mx = -Infinity, ninf = 0;
  for (const x of v) { if (x === -Infinity) ninf++; else if (Number.isFinite(x)) { mn = Math.min(mn, x); mx = Math.max(mx, x); } }
  return {shape: t.shape, dtype: t.dtype, min: mn === Infinity ? null : mn, max: mx === -Infinity ? null : mx, ninf}; };
'''


def _peak_bin(rows):
    """The most common loudest frequency bin over the frames that are not padding or silence."""
    peaks = [max(range(len(r)), key=r.__getitem__) for r in rows if max(r) > -200 and any(x != 0 for x in r)]
    return max(set(peaks), key=peaks.count) if peaks else None


def test_microphone_matches_tfjs(page):
    py = run_py(page, PY_STATS + f'''
import asyncio
start = tf.memory().num_tensors
mic = await tf.data.microphone({MIC!r})
await asyncio.sleep(0.5)
out = {{"rate": mic.get_sample_rate(), "caps": []}}
for _ in range(3):
    x = await mic.capture()
    s, w = x["spectrogram"], x["waveform"]
    rows = s.reshape([8, 200])
    out["caps"].append({{"s": stats(s), "w": stats(w), "rows": rows.array_sync()}})
    tf.dispose([s, w, rows])
mic.stop()
out["after_stop"] = await mic.next()
out["left"] = tf.memory().num_tensors - start
try:
    await mic.to_array()
except ValueError as e:
    out["to_array"] = str(e)
return out
''')
    js = run_js(page, JS_STATS + f'''
const mic = await tf.data.microphone({json.dumps(MIC)});
await new Promise(r => setTimeout(r, 500));
const out = {{rate: mic.getSampleRate(), caps: []}};
for (let k = 0; k < 3; k++) {{
  const x = await mic.capture();
  out.caps.push({{s: stats(x.spectrogram), w: stats(x.waveform), rows: x.spectrogram.reshape([8, 200]).arraySync()}});
  tf.dispose([x.spectrogram, x.waveform]);
}}
mic.stop();
out.after_stop = await mic.next();
return out;
''')
    assert py["rate"] == js["rate"] == RATE and py["left"] == 0
    assert py["after_stop"] == {"value": None, "done": True} and js["after_stop"]["done"] is True
    assert "infinite audio stream" in py["to_array"]
    for got, want in zip(py["caps"], js["caps"]):
        for key, shape in (("s", [8, 200, 1]), ("w", [8 * 1024, 1])):
            assert got[key]["shape"] == want[key]["shape"] == shape and got[key]["dtype"] == want[key]["dtype"]
        assert -1.0 <= got["w"]["min"] and got["w"]["max"] <= 1.0   # samples
        assert got["s"]["max"] <= 20   # decibels (0 is full scale); padding frames hold 0
    # the device plays a 1 kHz sine: both hear it, loudest in the same frequency bin (width RATE / 2048 Hz)
    assert max(c["w"]["max"] for c in py["caps"]) > 0.05 and max(c["w"]["max"] for c in js["caps"]) > 0.05
    want_bin = round(SINE_HZ / (RATE / 2048))
    py_bin = _peak_bin([r for c in py["caps"] for r in c["rows"]])
    js_bin = _peak_bin([r for c in js["caps"] for r in c["rows"]])
    assert py_bin == js_bin and abs(py_bin - want_bin) <= 1, (py_bin, js_bin, want_bin)


def test_microphone_options_and_errors(page):
    got = run_py(page, '''
out = {}
start = tf.memory().num_tensors
mic = await tf.data.microphone(fft_size=256, num_frames_per_spectrogram=4, include_spectrogram=False,
                               include_waveform=True)
x = await mic.capture()
out["waveform"], out["spectrogram"] = list(x["waveform"].shape), x["spectrogram"]
x["waveform"].dispose()
mic.stop()
for bad in ({"fftSize": 100}, {"fftSize": 8}, {"includeSpectrogram": False}, {"sampleRateHz": 8000}):
    try:
        m = await tf.data.microphone(bad)
        m.stop()
        out[str(bad)] = "no error"
    except (ValueError, TypeError) as e:
        out[str(bad)] = type(e).__name__
out["left"] = tf.memory().num_tensors - start
return out
''')
    assert got["waveform"] == [4 * 256, 1] and got["spectrogram"] is None
    assert got["{'fftSize': 100}"] == got["{'fftSize': 8}"] == got["{'includeSpectrogram': False}"] == "ValueError"
    assert got["{'sampleRateHz': 8000}"] == "ValueError"   # the device runs at 44100 Hz
    assert got["left"] == 0


# --- webcam ------------------------------------------------------------------------------------------
def test_webcam_matches_tfjs(page):
    configs = [{"resizeWidth": 64, "resizeHeight": 48},                                  # a hidden element
               {"element": [160, 120], "resizeWidth": 40, "resizeHeight": 30, "centerCrop": True},
               {"element": [160, 120], "resizeWidth": 40, "resizeHeight": 60},
               {"element": [96, 72]}]                                                     # no resizing
    py = run_py(page, f'''
import js
start = tf.memory().num_tensors
out = []
for cfg in {configs!r}:
    cfg = dict(cfg)
    el = None
    if "element" in cfg:
        el = js.document.createElement("video")
        el.width, el.height = cfg.pop("element")
    cam = await tf.data.webcam(el, cfg)
    frames = []
    for _ in range(2):
        img = await cam.capture()
        v = img.data_sync()
        frames.append({{"shape": list(img.shape), "dtype": img.dtype, "min": min(v), "max": max(v),
                        "means": [sum(v[c::3]) / (len(v) // 3) for c in range(3)]}})
        img.dispose()
    cam.stop()
    frames.append(await cam.next())
    out.append(frames)
return {{"frames": out, "left": tf.memory().num_tensors - start}}
''')
    js = run_js(page, f'''
const out = [];
for (const c of {json.dumps(configs)}) {{
  const cfg = Object.assign({{}}, c);
  let el = null;
  if (cfg.element) {{ el = document.createElement('video'); [el.width, el.height] = cfg.element; delete cfg.element; }}
  const cam = await tf.data.webcam(el, cfg);
  await new Promise(r => setTimeout(r, 300));   // TF.js reads whatever the element holds: let a frame arrive
  const frames = [];
  for (let k = 0; k < 2; k++) {{
    const img = await cam.capture();
    const v = img.dataSync();
    let mn = Infinity, mx = -Infinity; const sums = [0, 0, 0];
    v.forEach((x, i) => {{ mn = Math.min(mn, x); mx = Math.max(mx, x); sums[i % 3] += x; }});
    frames.push({{shape: img.shape, dtype: img.dtype, min: mn, max: mx, means: sums.map(s => s / (v.length / 3))}});
    img.dispose();
  }}
  cam.stop();
  frames.push(await cam.next());
  out.push(frames);
}}
return out;
''')
    assert py["left"] == 0
    for cfg, got, want in zip(configs, py["frames"], js):
        assert got[-1] == {"value": None, "done": True} and want[-1]["done"] is True
        for g, w in zip(got[:-1], want[:-1]):
            assert (g["shape"], g["dtype"]) == (w["shape"], w["dtype"]), cfg
            for x in (g, w):   # a picture, not a blank frame
                assert 0 <= x["min"] and x["max"] <= 255 and x["max"] - x["min"] > 50, (cfg, x)
    assert py["frames"][0][0]["dtype"] == "int32" and py["frames"][1][0]["dtype"] == "float32"
    assert py["frames"][1][0]["shape"] == [30, 40, 3] and py["frames"][2][0]["shape"] == [60, 40, 3]


def test_webcam_options_and_errors(page):
    got = run_py(page, '''
out = {}
for args, kw in (((None, {"resizeWidth": 10}), {}), ((None, {"resizeWidth": 8, "resizeHeight": 8}),
                                                     {"facing_mode": "sideways"}),
                 ((None,), {"resize_width": 8, "resize_height": 8, "zoom": 2})):
    try:
        cam = await tf.data.webcam(*args, **kw)
        cam.stop()
        out[repr((args, kw))] = "no error"
    except (ValueError, TypeError) as e:
        out[repr((args, kw))] = type(e).__name__
cam = await tf.data.webcam(None, resize_width=32, resize_height=24, facing_mode="environment")
img = await cam.capture()
out["shape"], out["dtype"] = list(img.shape), img.dtype
img.dispose()
cam.stop()
try:
    await cam.to_array()
except ValueError as e:
    out["to_array"] = str(e)
return out
''')
    assert list(got.values())[:3] == ["ValueError", "ValueError", "TypeError"]
    assert got["dtype"] == "int32" and sorted(got["shape"][:2]) == [24, 32] and got["shape"][2] == 3
    assert "infinite video stream" in got["to_array"]


def test_webcam_frames_are_tfjs_frames(page):
    """The same frame (the element paused) read by pytfweb's iterator and by TF.js's steps for it
    (fromPixels; for a resize, its crop box, cropAndResize bilinear and reshape): the same values."""
    configs = [{"element": [160, 120], "resizeWidth": 40, "resizeHeight": 30, "centerCrop": True},
               {"element": [160, 120], "resizeWidth": 40, "resizeHeight": 60},
               {"element": [96, 72]}]
    for cfg in configs:
        w, h = cfg["element"]
        opts = {k: v for k, v in cfg.items() if k != "element"}
        got = run_py(page, f'''
import js
el = js.document.createElement("video")
el.width, el.height = {w}, {h}
cam = await tf.data.webcam(el, {opts!r})
(await cam.capture()).dispose()
el.pause()
js.window.__camElement = el
img = await cam.capture()
out = {{"shape": list(img.shape), "dtype": img.dtype, "values": list(img.data_sync())}}
img.dispose()
return out
''')
        want = run_js(page, f'''
const el = window.__camElement, cfg = {json.dumps(opts)};
const img = tf.browser.fromPixels(el);
let out = img;
if (cfg.resizeWidth && (el.width !== cfg.resizeWidth || el.height !== cfg.resizeHeight)) {{
  let box = [0, 0, 1, 1];
  if (cfg.centerCrop) {{
    const wr = cfg.resizeWidth / el.width, hr = cfg.resizeHeight / el.height;
    const w0 = (1 - wr) / 2, h0 = (1 - hr) / 2;
    box = [h0, w0, hr + h0, w0 + wr];
  }}
  const r = tf.image.cropAndResize(tf.expandDims(tf.cast(img, 'float32'), 0), tf.tensor2d(box, [1, 4]),
                                   tf.tensor1d([0], 'int32'), [cfg.resizeHeight, cfg.resizeWidth], 'bilinear');
  out = tf.reshape(r, r.shape.slice(1));
}}
const res = {{shape: out.shape, dtype: out.dtype, values: Array.from(out.dataSync())}};
el.srcObject.getTracks().forEach(t => t.stop());
el.srcObject = null;
return res;
''')
        assert (got["shape"], got["dtype"]) == (want["shape"], want["dtype"]), cfg
        worst = max(abs(a - b) for a, b in zip(got["values"], want["values"]))
        assert worst <= (0 if got["dtype"] == "int32" else 0.05), (cfg, worst)
        assert max(got["values"]) - min(got["values"]) > 50   # a picture
