"""The model zoo (pytfweb/host/zoo.py) on the session's GPU backend (webgl, or webgpu with
PYTFWEB_TEST_BACKEND=webgpu): each real TF.js graph model, loaded over http:// from /zoo/models/
and fed its catalog photo as the browser decodes it (tf.browser.from_pixels of an <img>, prepared
by zoo.prepare), gives every output as TensorFlow.js 4.22 on the same backend does in the same
Chromium (its own page, TF.js loaded as `pytfweb bench` loads it), and leaves no tensor and no GPU
object behind. TF.js prepares its own input from the same <img>, which must agree with pytfweb's,
and then runs the model on pytfweb's input values: the outputs compare the models' kernels, not
the one-unit differences of a truncated resize (compare_input)."""
import base64

import numpy as np
import pytest

from pytfweb.host import zoo
from pytfweb.host.bench import _TFJS_EXTRA
from pytfweb.host.paths import npm_package_dir
from pytfweb.host.server import Server

from .conftest import BACKEND, tolerance
from .webgpu_gate import no_webgpu

# Tolerance of a float32 output: TF.js's own test epsilon (expectArraysClose: 1e-3) times the
# output's scale (its largest magnitude, at least 1): the outputs range from probabilities to
# pixel coordinates in the hundreds, and the two libraries' GPU programs sum in other orders.
EPSILON = 1e-3

# Models TF.js's webgpu backend cannot run in this Chromium, and the TF.js backend the webgpu pass
# compares them with instead. TF.js reads some tensors synchronously while it runs a model
# (dataSync in its control-flow and NonMaxSuppression ops); its webgpu readSync goes through a
# WebGPU OffscreenCanvas context, which in headless Chromium on SwiftShader loses the device ("A
# valid external Instance reference no longer exists") and with it every later TF.js run in the
# page. pytfweb's webgpu backend runs these models; TF.js's webgl backend is the reference then.
TFJS_WEBGPU_CANNOT = {"handtrack": "webgl"}

# Models with dynamic ops (control flow, NonMaxSuppression): they run node by node every time,
# and their second run is a fresh first run; the others replay a recorded kernel plan.
# models with value-dependent ops: the recorded plans of their static islands, in order (tests/unit/test_zoo.py)
DYNAMIC = {"handtrack": [True, True, True]}

# TF.js's side: its own input from the photo drawn from an <img>, prepared as zoo.prepare does
# (returned for comparison), then the model run for all its outputs on pytfweb's input values.
# Values travel as base64 of their bytes (centernet's outputs hold 1.4M floats).
_TFJS_RUN = """
async ({model: {name, size, channels, dtype, scale, offset, photo}, input, backend}) => {
  if (tf.getBackend() !== backend) {
    await tf.setBackend(backend);
    await tf.ready();
  }
  const b64 = (typed) => {
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  // (a float32 tensor's data may come as an Int32Array, as handtrack's detection count does)
  const typed = async (t) => (t.dtype === 'int32' ? Int32Array : Float32Array).from(await t.data());
  const plain = async (t) => ({shape: t.shape, dtype: t.dtype, values: b64(await typed(t))});
  const before = tf.memory().numTensors;
  const x = await zooInput('/zoo/assets/' + photo, size, channels, dtype, scale, offset);   // web/bench_models.js
  const bytes = Uint8Array.from(atob(input.values), (c) => c.charCodeAt(0));
  const given = tf.tensor(new (dtype === 'int32' ? Int32Array : Float32Array)(bytes.buffer), input.shape, dtype);
  const model = await tf.loadGraphModel('/zoo/models/' + name + '.json');
  const names = model.outputs.map((o) => o.name);
  let outs = await model.executeAsync(given, names);
  outs = Array.isArray(outs) ? outs : [outs];
  const result = {input: await plain(x), outputs: []};
  for (let i = 0; i < outs.length; i++) result.outputs.push({name: names[i], ...(await plain(outs[i]))});
  tf.dispose([x, given, ...outs]);
  model.dispose();
  result.left = tf.memory().numTensors - before;
  return result;
}
"""

# pytfweb's side, in the session's page.
_PY_RUN = """
import base64
from pytfweb.host import zoo

async def plain(t):
    values = await t.data()
    raw = values.tobytes() if hasattr(values, "tobytes") else bytes(values)
    return {"shape": list(t.shape), "dtype": t.dtype, "values": base64.b64encode(raw).decode()}

model = zoo.BY_NAME[name]
before = (tf.memory()["num_tensors"], in_use())
x = await zoo.photo_input(model)
graph = await tf.load_graph_model("/zoo/models/" + name + ".json")
names = [o.name for o in graph.outputs]
outs = await graph.execute_async(x, names)
outs = outs if isinstance(outs, list) else [outs]
result = {"input": await plain(x), "outputs": [{"name": n, **(await plain(t))} for n, t in zip(names, outs)]}
# the second run replays the kernel plan the first recorded (a static graph: converter/executor.py)
again = await graph.execute_async(x, names)
again = again if isinstance(again, list) else [again]
result["replayed"] = [{"name": n, **(await plain(t))} for n, t in zip(names, again)]
result["recorded"] = [plan is not None for node_plan in graph.executor.node_plans.values()
                      for plan in node_plan.recorded.values()]
tf.dispose([x, *outs, *again])
graph.dispose()
result["left"] = [tf.memory()["num_tensors"] - before[0], in_use() - before[1]]
"""

_NP = {"float32": np.float32, "int32": np.int32}


def _array(t):
    return np.frombuffer(base64.b64decode(t["values"]), dtype=_NP[t["dtype"]]).reshape(t["shape"])


@pytest.fixture(scope="module")
def tfjs_page(browser):
    """A page with TF.js 4.22 on the session's backend, in the session's Chromium (its own server:
    the session's serves no TF.js)."""
    tfjs = npm_package_dir("@tensorflow/tfjs")
    assert tfjs is not None, "@tensorflow/tfjs is not installed: run `npm ci` (make does it)"
    routes = {"/tfjs/": tfjs / "dist"}
    if BACKEND in _TFJS_EXTRA:
        package, route, script = _TFJS_EXTRA[BACKEND]
        routes[route] = npm_package_dir(package) / "dist"
    with Server(routes=routes) as srv:
        page = browser.new_page()
        page.goto(srv.url + "bench.html")
        if BACKEND in _TFJS_EXTRA:
            page.add_script_tag(url=route + script)
        ok = page.evaluate("async (b) => { const ok = await tf.setBackend(b); await tf.ready(); return ok; }",
                           BACKEND)
        if not ok and BACKEND == "webgpu":
            page.close()
            no_webgpu("no WebGPU in this browser: TF.js's webgpu backend did not initialise")
        assert ok, f"TF.js's {BACKEND} backend did not initialise"
        yield page
        page.close()


def compare(model_name, got, want):
    """Every output: name, shape and dtype as TF.js gives, values within the model's tolerance."""
    assert [o["name"] for o in got] == [o["name"] for o in want], model_name
    for g, w in zip(got, want):
        where = f"{model_name} output {w['name']} on {BACKEND}"
        assert g["shape"] == w["shape"], f"{where}: shape {g['shape']}, TF.js {w['shape']}"
        assert g["dtype"] == w["dtype"], f"{where}: dtype {g['dtype']}, TF.js {w['dtype']}"
        actual, expected = _array(g), _array(w)
        if w["dtype"] == "float32":
            scale = max(1.0, float(np.nanmax(np.abs(expected))) if expected.size else 1.0)
            _, atol = tolerance(0, EPSILON * scale)
            np.testing.assert_allclose(actual, expected, rtol=0, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(actual, expected, err_msg=where)


def compare_input(model_name, actual, expected):
    """The prepared inputs agree: floats (scaled to about [-1, 1]) within the rounding of the resize; int32 ones (truncated after the
    resize) within 1, where a value falls on an integer. There pytfweb's resize lands on it exactly
    (its source positions are exact fractions, as on the cpu backends of both libraries) and TF.js's
    webgl program (positions and mix() in GPU floats) a hair below, which truncates to one less."""
    where = f"{model_name} input on {BACKEND}"
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, where
    if actual.dtype == np.int32:
        np.testing.assert_allclose(actual, expected, rtol=0, atol=1, err_msg=where)
    else:
        np.testing.assert_allclose(actual, expected, rtol=0, atol=tolerance(0, 1e-4)[1], err_msg=where)


@pytest.mark.parametrize("model", zoo.MODELS, ids=lambda m: m.name)
def test_zoo_model_matches_tfjs(model, run_py, tfjs_page):
    got = run_py(_PY_RUN, name=model.name)
    assert got["left"] == [0, 0], f"{model.name}: tensors and GPU objects left after dispose: {got['left']}"
    backend = TFJS_WEBGPU_CANNOT.get(model.name, BACKEND) if BACKEND == "webgpu" else BACKEND
    want = tfjs_page.evaluate(_TFJS_RUN, {"model": model._asdict(), "input": got["input"], "backend": backend})
    assert want["left"] == 0, f"TF.js left {want['left']} tensors"
    compare_input(model.name, _array(got["input"]), _array(want["input"]))
    compare(model.name, got["outputs"], want["outputs"])
    # the replay runs the very programs the first run ran: the same values, bit for bit
    assert got["recorded"] == DYNAMIC.get(model.name, [True]), f"{model.name}: {got['recorded']}"
    for first, replayed in zip(got["outputs"], got["replayed"]):
        np.testing.assert_array_equal(_array(replayed), _array(first), err_msg=f"{model.name} {first['name']} replayed")
