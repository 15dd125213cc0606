"""model.warmup() (core/warmup.py): after it, a predict at that input shape compiles no program (counted
in the backend's program cache: webgl's programs, webgpu's pipelines), its values are those of a model
that never warmed up, and the pass leaves no tensor behind. A layers model with the predict-time fused
chain (conv -> batch norm -> relu6), a depthwise conv and a dense head, and the MobileNet-like graph
model of tests/graph_models.py."""
import base64

import numpy as np

from tests.graph_models import mobilenet_v1

from .conftest import BACKEND
from .test_graph_model import _cpu

_PAGE = '''
import base64
from pytfweb.core.engine import ENGINE
from pytfweb.core.warmup import program_count

def forget_programs():
    # the page's earlier tests compiled programs of these keys already: the counts start from none
    ENGINE.backend.programs.clear()

def layers_model():
    return tf.sequential([
        tf.layers.conv2d(filters=8, kernel_size=3, strides=2, padding="same", input_shape=[16, 16, 3]),
        tf.layers.batch_normalization(),
        tf.layers.re_lu(max_value=6),
        tf.layers.depthwise_conv2d(kernel_size=3, padding="same"),
        tf.layers.global_average_pooling2d(),
        tf.layers.dense(units=4, activation="softmax")])

before = tf.memory()["num_tensors"]
out = {}

warmed, fresh = layers_model(), layers_model()
fresh.set_weights(warmed.get_weights())
x = tf.random_uniform([1, 16, 16, 3], seed=3)
mark = tf.memory()["num_tensors"]
forget_programs()
base = program_count()
compiled = warmed.warmup()
after_warmup = program_count()
leaked_by_warmup = tf.memory()["num_tensors"] - mark
y = warmed.predict(x)
after_predict = program_count()
y_fresh = fresh.predict(x)
out["layers"] = {"compiled": compiled, "counted": after_warmup - base, "new_in_predict": after_predict - after_warmup,
                 "leaked_by_warmup": leaked_by_warmup, "again": warmed.warmup(),
                 "y": await y.array(), "y_fresh": await y_fresh.array()}
tf.dispose([x, y, y_fresh])
warmed.dispose(); fresh.dispose()

a = dict(artifacts)
a["weightData"] = base64.b64decode(a["weightData"])
graph = tf.load_graph_model_sync(tf.io.from_memory(a))
feeds = {k: tf.tensor(v["values"], v["shape"], "float32") for k, v in inputs.items()}
mark = tf.memory()["num_tensors"]
forget_programs()
base = program_count()
compiled = await graph.warmup_async([list(t.shape) for t in feeds.values()])   # (warmup's awaited twin)
after_warmup = program_count()
leaked_by_warmup = tf.memory()["num_tensors"] - mark
y = graph.predict(feeds)
out["graph"] = {"compiled": compiled, "counted": after_warmup - base, "new_in_predict": program_count() - after_warmup,
                "leaked_by_warmup": leaked_by_warmup, "y": await y.array()}
tf.dispose([y, *feeds.values()])
graph.dispose()
result = {"out": out, "leaked": tf.memory()["num_tensors"] - before, "backend": tf.get_backend()}
'''


def test_after_warmup_a_predict_compiles_no_program(run_py):
    b, sig, inputs = mobilenet_v1(np.random.default_rng(5))
    artifacts = b.artifacts(signature=sig)
    want = _cpu(artifacts, inputs, None)[0]
    sent = dict(artifacts, weightData=base64.b64encode(artifacts["weightData"]).decode("ascii"))
    result = run_py(_PAGE, artifacts=sent,
                    inputs={k: {"values": v.ravel().tolist(), "shape": list(v.shape)} for k, v in inputs.items()})
    assert result["backend"] == BACKEND and result["leaked"] == 0
    layers, graph = result["out"]["layers"], result["out"]["graph"]
    for case in (layers, graph):
        assert case["compiled"] > 0 and case["compiled"] == case["counted"], case
        assert case["new_in_predict"] == 0, case
        assert case["leaked_by_warmup"] == 0, case
    assert layers["again"] == 0
    # what the warm-up pass made (no draws on webgl) did not stand in for real values
    np.testing.assert_allclose(layers["y"], layers["y_fresh"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(graph["y"], np.float32), want, rtol=1e-4, atol=1e-5)
