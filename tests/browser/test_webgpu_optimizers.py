"""The optimizers' fused update kernels on webgpu (ApplyAdam, ApplyMomentum, ...): the same steps
as the composed ops (which run where a backend has no such kernel) and as the cpu backend, with
NaN and infinite gradients and a learning rate changed between steps; in one dispatch per
variable where the device binds enough buffers, and split in two (slots, then the value) where
it does not."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.train.optimizer import Optimizer

from .test_webgpu_backend import webgpu  # noqa: F401  (fixture)

SHAPES = {"kernel": (2, 3), "bias": (3,), "scale": ()}
CASES = [("sgd", [0.1]), ("momentum", [0.1, 0.9]), ("momentum", [0.05, 0.8, True]), ("adagrad", [0.2, 0.5]),
         ("adadelta", [1.0, 0.9, 1e-6]), ("adam", [0.05, 0.8, 0.95]), ("adamax", [0.02, 0.8, 0.99, 1e-3, 0.1]),
         ("rmsprop", [0.01, 0.8, 0.5]), ("rmsprop", [0.01, 0.9, 0.9, None, True])]
STEPS = 5

# runs the steps in the page or here; returns the variables and the optimizer's slot tensors after
# them (to read: awaited in the page), a function freeing everything that gives the tensors left
# since the start, and whether each update ran the fused kernel. The learning rate changes after
# the second step.
_STEPS = '''
from pytfweb.train.optimizer import Optimizer

def optimizer_run(name, args, fused, start, grads, tag):
    real = Optimizer._fused_update
    ran = []

    def fused_update(self, *rest):
        ran.append(fused and real(self, *rest))
        return ran[-1]
    Optimizer._fused_update = fused_update
    try:
        before = tf.memory().num_tensors
        variables = {k: tf.tidy(lambda k=k, v=v: tf.variable(tf.tensor(v), name=f"{k}_{tag}"))
                     for k, v in start.items()}
        opt = getattr(tf.train, name)(*args)
        for step, g in enumerate(grads):
            if step == 2:
                rate = opt.learning_rate * 0.5
                opt.set_learning_rate(rate) if hasattr(opt, "set_learning_rate") else setattr(opt, "learning_rate", rate)
            tf.tidy(lambda: opt.apply_gradients({f"{k}_{tag}": tf.tensor(v) for k, v in g.items()}))
        weights = opt.get_weights()

        def free():
            weights[0]["tensor"].dispose()
            opt.dispose()
            tf.dispose(list(variables.values()))
            return tf.memory().num_tensors - before
        return list(variables.values()) + [w["tensor"] for w in weights[1:]], free, ran
    finally:
        Optimizer._fused_update = real
'''


@pytest.mark.parametrize("split", [False, True], ids=["device_limit", "split"])
@pytest.mark.parametrize("name, args", CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_fused_update_matches_composed_ops_and_cpu(webgpu, name, args, split):
    rng = np.random.default_rng(5)
    start = {k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()} for _ in range(STEPS)]
    grads[2]["kernel"][1, 2], grads[3]["bias"][0], grads[4]["bias"][1] = np.nan, np.inf, -np.inf
    plain = {"start": {k: v.tolist() for k, v in start.items()},
             "grads": [{k: v.tolist() for k, v in g.items()} for g in grads], "name": name, "args": args,
             "split": split}
    out = webgpu(_STEPS + '''
from pytfweb.backends.webgpu.programs import optimizers as _optimizers
_optimizers.MAX_BINDINGS = 4 if split else None   # 4: every update with a slot in two dispatches
try:
    result = []
    for fused, tag in ((True, "fused"), (False, "composed")):
        tensors, free, ran = optimizer_run(name, args, fused, start, grads, tag)
        result.append(([await t.array() for t in tensors], free(), ran))
finally:
    _optimizers.MAX_BINDINGS = None
''', **plain)
    (fused, fused_left, ran), (composed, composed_left, not_ran) = out
    assert fused_left == 0 and composed_left == 0
    assert ran == [True] * 3 * STEPS and not_ran == [False] * 3 * STEPS
    ns = {"tf": tf}
    exec(_STEPS, ns)  # noqa: S102 - the test's own code
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        tensors, free, _ = ns["optimizer_run"](name, args, False, start, grads, "here")
        here = [t.array_sync() for t in tensors]
        left = free()
    finally:
        tf.set_backend(previous)
    assert left == 0 and Optimizer._fused_update.__name__ == "_fused_update"
    assert len(fused) == len(composed) == len(here)
    for f, c, h in zip(fused, composed, here):
        f, c = np.asarray(f, np.float32), np.asarray(c, np.float32)
        np.testing.assert_allclose(f, c, 1e-5, 1e-6, equal_nan=True)
        np.testing.assert_allclose(f, h, 1e-5, 1e-6, equal_nan=True)
    assert np.isnan(np.asarray(fused[0])).any()   # the NaN gradient reached its variable


def test_one_dispatch_per_variable(webgpu):
    # each update is one dispatch writing the variable and its slots; one needing more storage
    # buffers than the device binds (Adam: 3 outputs, 6 inputs; WebGPU's default limit is 8) is two
    out = webgpu('''
b = tf.engine().backend
v, g = tf.variable(tf.tensor([1.0, 2.0])), tf.tensor([0.5, -0.5])
s = tf.scalar(0.5)
counts = []
for kernel, slots, scalars, attrs in (
        ("ApplyGradientDescent", 0, 0, {"learning_rate": 0.1}),
        ("ApplyMomentum", 1, 0, {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": False}),
        ("ApplyAdam", 2, 2, {"learning_rate": 0.1, "beta1": 0.9, "beta2": 0.99, "epsilon": 1e-7})):
    before = b.dispatches
    outs = tf.engine().run_kernel(kernel, [v, g] + [g] * slots + [s] * scalars, attrs)
    counts.append([b.dispatches - before, len(outs), [await t.data() for t in outs][0][0]])
    tf.dispose(outs)
tf.dispose([v, g, s])
result = [counts, int(b.device.device.limits.maxStorageBuffersPerShaderStage)]
''')
    counts, limit = out
    assert counts[0] == [1, 1, pytest.approx(0.95)] and counts[1][:2] == [1, 2]
    assert counts[2][:2] == [1 if limit >= 9 else 2, 3]
