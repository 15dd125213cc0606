"""tf.function and graph-model replay on the session's GPU backend (webgl; webgpu with
PYTFWEB_TEST_BACKEND=webgpu): the replayed kernels give exactly what the eager calls give on the
same backend (the same programs, fused or not), for a representative op of each family,
gradients and all seven optimizers; random ops draw anew; breaks are named; memory and GPU
objects stay flat over 1000 replays; a graph model's replay equals its first execute. One page
run per check group, each case once."""
import base64

import numpy as np

from tests.graph_models import mobilenet_v1

# Each: a function of the inputs, as source, and the inputs' (shape, dtype).
OP_CASES = {
    "elementwise": ("lambda a, b: tf.where(tf.greater(a, 0), tf.sigmoid(a) * 2 + b, tf.abs(b) - 1)",
                    [([4, 4], "float32"), ([4, 4], "float32")]),
    "matmul": ("lambda a, b: tf.mat_mul(a, b, transpose_b=True) + tf.ones([4])", [([4, 4], "float32")] * 2),
    "conv": ("lambda x, f: tf.relu(tf.conv2d(x, f, 1, 'same'))",
             [([1, 5, 5, 2], "float32"), ([3, 3, 2, 3], "float32")]),
    "pool": ("lambda x: tf.max_pool(x, 2, 1, 'valid') + tf.avg_pool(x, 2, 1, 'valid')", [([1, 5, 5, 2], "float32")]),
    "reduction": ("lambda a: [tf.sum(a, 1), tf.mean(a), tf.arg_max(a, 0)]", [([4, 4], "float32")]),
    "shape": ("lambda a: tf.concat([tf.transpose(a), tf.reshape(a, [2, 8]).reshape([4, 4])], 1)",
              [([4, 4], "float32")]),
    "slicing": ("lambda a: [a[1:3, ::2], tf.strided_slice(a, [0, 0], [4, 4], [2, 1])]", [([4, 4], "float32")]),
    "indexing": ("lambda a: tf.gather(a, tf.tensor([3, 0, 2], dtype='int32'))", [([4, 4], "float32")]),
    "nn": ("lambda a: [tf.softmax(a), tf.log_softmax(a)]", [([4, 4], "float32")]),
    "normalization": ("lambda x: tf.batch_norm(x, tf.ones([2]), tf.ones([2]) * 2, tf.ones([2]), tf.ones([2]), 1e-3)",
                      [([1, 5, 5, 2], "float32")]),
    "fused": ("lambda a, b: tf.fused.mat_mul(a, b, bias=tf.ones([4]), activation='relu')", [([4, 4], "float32")] * 2),
    "image": ("lambda x: tf.image.resize_bilinear(x, [3, 4])", [([1, 5, 5, 2], "float32")]),
    "math": ("lambda a: [tf.cumsum(a, 1), tf.add_n([a, a, a])]", [([4, 4], "float32")]),
    "spectral": ("lambda a: tf.real(tf.spectral.fft(tf.complex(a, a * 0.5)))", [([4, 4], "float32")]),
}

_PAGE_OPS = r'''
import math
import random
# the GPU runners replay eager's programs; CPU forwarding (a small elementwise plan computed in
# JavaScript, within float32 of them) has its own test (test_cpu_forward_runner.py)
tf.env().set("WEBGL_CPU_FORWARD", False)
tf.env().set("WEBGPU_CPU_FORWARD", False)
random.seed(5)
out = {}
for name, (src, specs) in cases.items():
    fn = eval(src)
    ins = [tf.tensor([random.uniform(-2, 2) for _ in range(math.prod(s))], s, d) for s, d in specs]
    want = tf.tidy(lambda: fn(*ins))
    traced = tf.function(fn)
    # the trace, the first replay (webgl's runner captures its draws) and two replays by the runner
    got = [traced(*ins) for _ in range(4)]
    flat = lambda x: x if isinstance(x, list) else [x]
    want_v = [t.data_sync().tolist() for t in flat(want)]
    same = all([t.data_sync().tolist() for t in flat(g)] == want_v for g in got)
    out[name] = {"same": same, "breaks": traced.breaks, "traces": traced.trace_count}
    tf.dispose([want, got, ins])
result = out
'''


def test_traced_ops_equal_eager_on_the_gpu(run_py, fusion_both_ways):
    out = run_py(_PAGE_OPS, cases={k: [src, specs] for k, (src, specs) in OP_CASES.items()})
    for name in OP_CASES:
        assert out[name]["breaks"] == [], (name, out[name]["breaks"])
        assert out[name]["traces"] == 1, name
        assert out[name]["same"], f"{name}: a replay differs from the eager result"


_PAGE_TRAIN = r'''
import math
import random

def rand(*shape):
    return tf.tensor([random.uniform(-1, 1) for _ in range(math.prod(shape))], list(shape))

def train(make_opt, traced):
    random.seed(3)
    w = tf.tidy(lambda: tf.variable(rand(3, 2)))
    b = tf.tidy(lambda: tf.variable(tf.zeros([2])))
    x, y = rand(8, 3), rand(8, 2)
    opt = make_opt()
    def step(x, y):
        return opt.minimize(lambda: tf.losses.mean_squared_error(y, tf.add(tf.mat_mul(x, w), b)), return_cost=True)
    f = tf.function(step) if traced else step
    losses = []
    for _ in range(4):
        c = f(x, y)
        losses.append(c.data_sync()[0])
        c.dispose()
    res = (w.data_sync().tolist(), b.data_sync().tolist(), losses, getattr(f, "breaks", []))
    opt.dispose()
    tf.dispose([w, b, x, y])
    return res

opts = {"sgd": lambda: tf.train.sgd(0.1), "momentum": lambda: tf.train.momentum(0.1, 0.9),
        "adagrad": lambda: tf.train.adagrad(0.1), "adadelta": lambda: tf.train.adadelta(0.5),
        "adam": lambda: tf.train.adam(0.05), "adamax": lambda: tf.train.adamax(0.05),
        "rmsprop": lambda: tf.train.rmsprop(0.05, centered=True, momentum=0.5)}
result = {}
for name, make in opts.items():
    eager, traced = train(make, False), train(make, True)
    result[name] = {"same": eager[:3] == traced[:3], "breaks": traced[3]}

w = tf.variable(rand(4, 4))
x = rand(4, 4)
def grads(x):
    f = lambda a: tf.sum(tf.tanh(tf.mat_mul(a, w)) ** 2)
    value, vg = tf.variable_grads(lambda: f(x))
    return [tf.grad(f)(x), value, vg[w.name]]
want = [t.data_sync().tolist() for t in tf.tidy(lambda: grads(x))]
g = tf.function(grads)
result["gradients"] = {"same": all([t.data_sync().tolist() for t in g(x)] == want for _ in range(3)),
                       "breaks": g.breaks}
'''


def test_gradients_and_optimizers_traced_equal_eager_on_the_gpu(run_py):
    out = run_py(_PAGE_TRAIN)
    assert len(out) == 8
    for name, r in out.items():
        assert r["breaks"] == [], (name, r["breaks"])
        assert r["same"], f"{name}: the traced training step differs from the eager one"


_PAGE_MISC = r'''
r = {}
f = tf.function(lambda x: [x + tf.random_normal([32]), tf.dropout(tf.ones([32]), 0.5)])
x = tf.zeros([32])
a, b = f(x), f(x)
r["random_differs"] = all(u.data_sync().tolist() != v.data_sync().tolist() for u, v in zip(a, b))
r["random_traces"] = f.trace_count
tf.dispose([a, b])

u = tf.function(lambda t: tf.unique(t * 2)[0])
r["unique"] = u(tf.tensor([1, 1, 2], dtype="int32")).data_sync().tolist()
r["unique_breaks"] = u.breaks

calls = []
def reads(t):   # a read inside: a guard, replayed while the values read are a trace's
    calls.append(1)
    y = tf.relu(t * 2 - 1)
    return y * 3 if y.data_sync()[0] > 0 else y - 1
h = tf.function(reads)
pos, neg = tf.tensor([1.0, 2.0, 3.0]), tf.tensor([0.0, 2.0, 3.0])
start = tf.memory()["num_tensors"]
r["guard"] = [h(v).data_sync().tolist() for v in (pos, pos, pos, neg, neg, pos)]
r["guard_calls"] = len(calls)
r["guard_breaks"] = [reason for _, reason in h.breaks]
r["guard_left"] = tf.memory()["num_tensors"] - start - len(r["guard"])

w = tf.variable(tf.ones([8, 8]))
g = tf.function(lambda t: tf.tanh(tf.mat_mul(t, w) + 0.5) * 2 - 1)
t = tf.ones([4, 8])
g(t).dispose()   # the trace
g(t).dispose()   # the first replay: the runner is built and keeps its intermediates' textures
before = (tf.memory()["num_tensors"], tf.memory()["num_bytes"], in_use())
for _ in range(1000):
    g(t).dispose()
r["flat"] = (tf.memory()["num_tensors"], tf.memory()["num_bytes"], in_use()) == before
r["flat_detail"] = [before, (tf.memory()["num_tensors"], tf.memory()["num_bytes"], in_use())]
result = r
'''


def test_random_breaks_and_flat_memory_on_the_gpu(run_py):
    r = run_py(_PAGE_MISC)
    assert r["random_differs"] and r["random_traces"] == 1
    assert r["unique"] == [2, 4]
    assert len(r["unique_breaks"]) == 1 and "Unique" in r["unique_breaks"][0][1]
    assert r["guard"] == [[3.0, 9.0, 15.0]] * 3 + [[-1.0, 2.0, 4.0]] * 2 + [[3.0, 9.0, 15.0]]
    assert r["guard_calls"] == 2, "another value read is traced once, as a variant; then both replay"
    assert len(r["guard_breaks"]) == 1 and "split at read of float32[3]" in r["guard_breaks"][0]
    assert r["guard_left"] == 0
    assert r["flat"], r["flat_detail"]


_PAGE_GRAPH = r'''
import base64
a = dict(artifacts)
a["weightData"] = base64.b64decode(a["weightData"])
model = tf.load_graph_model_sync(tf.io.from_memory(a))
x = tf.tensor(inputs["values"], inputs["shape"], "float32")
first = model.predict(x)
first_v = first.data_sync().tolist()
runs = []
for _ in range(2):
    y = model.predict(x)
    runs.append(y.data_sync().tolist())
    y.dispose()
held = tf.memory()["num_bytes"]
model.predict(x).dispose()
result = {"same": all(r == first_v for r in runs), "flat": tf.memory()["num_bytes"] == held,
          "recorded": sum(p is not None for n in model.executor.node_plans.values() for p in n.recorded.values())}
tf.dispose([first, x])
model.dispose()
'''


def test_graph_model_replay_equals_first_execute_on_the_gpu(run_py):
    b, sig, inputs = mobilenet_v1(np.random.default_rng(11))
    artifacts = b.artifacts(signature=sig)
    sent = dict(artifacts, weightData=base64.b64encode(artifacts["weightData"]).decode("ascii"))
    (x,) = inputs.values()
    r = run_py(_PAGE_GRAPH, artifacts=sent, inputs={"values": x.ravel().tolist(), "shape": list(x.shape)})
    assert r["recorded"] == 1
    assert r["same"] and r["flat"]
