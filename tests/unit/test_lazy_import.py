"""`import pytfweb` loads the core, ops, the gradients and the backend this platform runs; the floors above
ops (layers, train, io, the converter, tf.data, tf.vis, the Keras files, tf.browser, tf.util) load on first
use through the package's __getattr__. A page waits for every module a bare import loads, so the list is
kept here: a new eager import fails the test (move it behind __getattr__, or add it here on purpose)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# On CPython (numpy there, no browser): the cpu backend and its kernels.
EXPECTED = [
    "pytfweb",
    "pytfweb.autodiff",
    "pytfweb.backends",
    "pytfweb.backends.cpu",
    "pytfweb.backends.cpu.kernels",
    "pytfweb.backends.cpu.kernels.conv",
    "pytfweb.backends.cpu.kernels.creation",
    "pytfweb.backends.cpu.kernels.elementwise",
    "pytfweb.backends.cpu.kernels.image",
    "pytfweb.backends.cpu.kernels.indexing",
    "pytfweb.backends.cpu.kernels.linalg",
    "pytfweb.backends.cpu.kernels.losses",
    "pytfweb.backends.cpu.kernels.math",
    "pytfweb.backends.cpu.kernels.matmul",
    "pytfweb.backends.cpu.kernels.nn",
    "pytfweb.backends.cpu.kernels.normalization",
    "pytfweb.backends.cpu.kernels.optimizers",
    "pytfweb.backends.cpu.kernels.pixels",
    "pytfweb.backends.cpu.kernels.pool",
    "pytfweb.backends.cpu.kernels.ragged",
    "pytfweb.backends.cpu.kernels.random_ops",
    "pytfweb.backends.cpu.kernels.reduction",
    "pytfweb.backends.cpu.kernels.shape",
    "pytfweb.backends.cpu.kernels.signal",
    "pytfweb.backends.cpu.kernels.slicing",
    "pytfweb.backends.cpu.kernels.sparse",
    "pytfweb.backends.cpu.kernels.spectral",
    "pytfweb.backends.cpu.kernels.string",
    "pytfweb.backends.cpu.np_dtypes",
    "pytfweb.backends.impl",
    "pytfweb.backends.impl.ragged",
    "pytfweb.backends.impl.sparse",
    "pytfweb.backends.shared",
    "pytfweb.backends.strings",
    "pytfweb.core",
    "pytfweb.core._numpy",
    "pytfweb.core.api",
    "pytfweb.core.dtypes",
    "pytfweb.core.engine",
    "pytfweb.core.environment",
    "pytfweb.core.errors",
    "pytfweb.core.function",
    "pytfweb.core.limits",
    "pytfweb.core.plan",
    "pytfweb.core.prng",
    "pytfweb.core.shapes",
    "pytfweb.core.tape",
    "pytfweb.core.tensor",
    "pytfweb.core.tensor_values",
    "pytfweb.core.types",
    "pytfweb.gradients",
    "pytfweb.gradients._util",
    "pytfweb.gradients.conv",
    "pytfweb.gradients.creation",
    "pytfweb.gradients.elementwise",
    "pytfweb.gradients.image",
    "pytfweb.gradients.indexing",
    "pytfweb.gradients.linalg",
    "pytfweb.gradients.losses",
    "pytfweb.gradients.math",
    "pytfweb.gradients.matmul",
    "pytfweb.gradients.nn",
    "pytfweb.gradients.normalization",
    "pytfweb.gradients.pool",
    "pytfweb.gradients.random_ops",
    "pytfweb.gradients.reduction",
    "pytfweb.gradients.shape",
    "pytfweb.gradients.signal",
    "pytfweb.gradients.slicing",
    "pytfweb.gradients.spectral",
    "pytfweb.kernels",
    "pytfweb.kernels.activations",
    "pytfweb.kernels.conv_geometry",
    "pytfweb.kernels.einsum_plan",
    "pytfweb.kernels.elementwise",
    "pytfweb.kernels.nms",
    "pytfweb.kernels.pixels",
    "pytfweb.ops",
    "pytfweb.ops.conv",
    "pytfweb.ops.creation",
    "pytfweb.ops.einsum",
    "pytfweb.ops.elementwise",
    "pytfweb.ops.fused",
    "pytfweb.ops.image",
    "pytfweb.ops.indexing",
    "pytfweb.ops.linalg",
    "pytfweb.ops.losses",
    "pytfweb.ops.math",
    "pytfweb.ops.matmul",
    "pytfweb.ops.methods",
    "pytfweb.ops.misc",
    "pytfweb.ops.nn",
    "pytfweb.ops.normalization",
    "pytfweb.ops.pool",
    "pytfweb.ops.ragged",
    "pytfweb.ops.random_ops",
    "pytfweb.ops.reduction",
    "pytfweb.ops.shape",
    "pytfweb.ops.signal",
    "pytfweb.ops.slicing",
    "pytfweb.ops.sparse",
    "pytfweb.ops.spectral",
    "pytfweb.ops.string",
    "pytfweb.ops.tfmath",
]

_BARE = "import pytfweb, sys; print(sorted(m for m in sys.modules if m.startswith('pytfweb')))"

# After the bare import, every public name still answers, each floor loaded by its first use.
_AFTER = """
import json, sys
import pytfweb as tf
out = {"before": sorted(m for m in sys.modules if m.startswith("pytfweb"))}
names = dir(tf)
out["dir_has"] = [n for n in ("layers", "io", "train", "data", "vis", "converter", "keras_files", "browser", "util",
                              "load_graph_model", "load_layers_model", "sequential", "AdamOptimizer") if n in names]
opt = tf.train.adam(0.01)
out["adam"] = type(opt).__name__
out["same_class"] = tf.AdamOptimizer is type(opt)
model = tf.sequential()
model.add(tf.layers.dense(units=2, input_shape=[3]))
y = model.predict(tf.ones([1, 3]))
out["predict_shape"] = y.shape
y.dispose()
from pytfweb import layers
out["from_import"] = layers is tf.layers
out["load_layers_model"] = tf.load_layers_model.__module__
# io's import registers its routers: a url finds its handler once tf.io has loaded
out["http_handlers"] = len(tf.io.get_load_handlers("http://localhost/model.json"))
out["graph"] = tf.load_graph_model.__module__
out["missing"] = None
try:
    tf.no_such_name
except AttributeError as exc:
    out["missing"] = str(exc)
ns = {}
exec("from pytfweb import *", ns)
out["star"] = all(n in ns for n in ("sequential", "load_graph_model", "AdamOptimizer", "add", "browser"))
print(json.dumps(out))
"""


def _run(code):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_bare_import_loads_only_the_listed_modules():
    loaded = eval(_run(_BARE))  # noqa: S307 - our own subprocess's repr of a list of str
    grew = sorted(set(loaded) - set(EXPECTED))
    assert not grew, f"`import pytfweb` now also loads {grew}: load them on first use, or list them in EXPECTED"
    shrank = sorted(set(EXPECTED) - set(loaded))
    assert not shrank, f"`import pytfweb` no longer loads {shrank}: take them out of EXPECTED"


def test_the_lazy_names_work_after_a_bare_import():
    out = json.loads(_run(_AFTER))
    assert out["before"] == EXPECTED
    assert out["dir_has"] == ["layers", "io", "train", "data", "vis", "converter", "keras_files", "browser", "util",
                              "load_graph_model", "load_layers_model", "sequential", "AdamOptimizer"]
    assert out["adam"] == "AdamOptimizer" and out["same_class"]
    assert out["predict_shape"] == [1, 2]
    assert out["from_import"]
    assert out["load_layers_model"] == "pytfweb.layers.saving"
    assert out["http_handlers"] == 1
    assert out["graph"] == "pytfweb.converter.graph_model"
    assert out["missing"] == "module 'pytfweb' has no attribute 'no_such_name'"
    assert out["star"]
