"""The optimizers' fused update kernels on webgl (ApplyAdam, ApplyMomentum, ...): the same steps
as the composed ops (which run where a backend has no such kernel) and as the cpu backend, edge
values included."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.train.optimizer import Optimizer

from .conftest import as_stored, lost_infinities, tolerance

SHAPES = {"kernel": (2, 3), "bias": (3,), "scale": ()}
CASES = [("sgd", [0.1]), ("momentum", [0.1, 0.9]), ("momentum", [0.05, 0.8, True]), ("adagrad", [0.2, 0.5]),
         ("adadelta", [1.0, 0.9, 1e-6]), ("adam", [0.05, 0.8, 0.95]), ("adamax", [0.02, 0.8, 0.99, 1e-3, 0.1]),
         ("rmsprop", [0.01, 0.8, 0.5]), ("rmsprop", [0.01, 0.9, 0.9, None, True])]

# runs `steps` in the page or here: the variables and slots after them, and the tensors left
_STEPS = '''
from pytfweb.train.optimizer import Optimizer

def optimizer_run(name, args, fused, start, grads, tag, as_stored=lambda v: v):
    real = Optimizer._fused_update
    ran = []      # what each fused update call did: True where the kernel ran

    def fused_update(self, *rest):
        ran.append(fused and real(self, *rest))
        return ran[-1]
    Optimizer._fused_update = fused_update
    try:
        before = tf.memory().num_tensors
        variables = {k: tf.tidy(lambda k=k: tf.variable(tf.tensor(as_stored(v)), name=f"{k}_{tag}"))
                     for k, v in start.items()}
        opt = getattr(tf.train, name)(*args)
        for g in grads:
            tf.tidy(lambda: opt.apply_gradients({f"{k}_{tag}": tf.tensor(as_stored(v)) for k, v in g.items()}))
        weights = opt.get_weights()
        out = [v.array_sync() for v in variables.values()] + [w["tensor"].array_sync() for w in weights[1:]]
        weights[0]["tensor"].dispose()
        opt.dispose()
        tf.dispose(list(variables.values()))
        return out, tf.memory().num_tensors - before, ran
    finally:
        Optimizer._fused_update = real
'''


@pytest.mark.parametrize("name, args", CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_fused_update_matches_composed_ops_and_cpu(run_py, name, args):
    rng = np.random.default_rng(5)
    start = {k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()} for _ in range(4)]
    grads[2]["kernel"][1, 2], grads[3]["bias"][0] = np.nan, np.inf
    plain = {"start": {k: v.tolist() for k, v in start.items()},
             "grads": [{k: v.tolist() for k, v in g.items()} for g in grads], "name": name, "args": args}
    out = run_py(_STEPS + '''
result = [optimizer_run(name, args, True, start, grads, "fused"),
          optimizer_run(name, args, False, start, grads, "composed")]
''', **plain)
    (fused, fused_left, ran), (composed, composed_left, not_ran) = out
    assert fused_left == 0 and composed_left == 0
    assert ran == [True] * 12 and not_ran == [False] * 12   # 3 variables, 4 steps
    ns = {"tf": tf}
    exec(_STEPS, ns)  # noqa: S102 - the test's own code
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        here, left, _ = ns["optimizer_run"](name, args, False, start, grads, "here", as_stored)
    finally:
        tf.set_backend(previous)
    assert left == 0 and Optimizer._fused_update.__name__ == "_fused_update"
    rtol, atol = tolerance(1e-5, 1e-6)
    for f, c, h in zip(fused, composed, here):
        f, c = np.asarray(f, np.float32), np.asarray(c, np.float32)
        np.testing.assert_allclose(f, c, rtol, atol, equal_nan=True)
        np.testing.assert_allclose(lost_infinities(f, h), h, rtol, atol, equal_nan=True)
    assert np.isnan(np.asarray(fused[0])).any()   # the NaN gradient reached its variable


def test_one_draw_per_update_or_one_per_output_with_few_draw_buffers(run_py):
    """An update writes the variable and its slots in one draw (render targets); on a context
    allowed fewer draw buffers than outputs, one draw each: the same values."""
    rng = np.random.default_rng(8)
    start = {k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()} for _ in range(2)]
    out = run_py(_STEPS + """
from pytfweb.backends.webgl.backend import WebGLBackend
def draws_and_values(backend, name, args):
    tf.set_backend(backend)
    be = tf.backend()
    draw, count = be.ctx.draw, [0]
    def counting(*a):
        count[0] += 1
        return draw(*a)
    be.ctx.draw = counting
    try:
        values, left, _ = optimizer_run(name, args, True, start, grads, backend)
    finally:
        be.ctx.draw = draw
    return [count[0], values, left]
# webgl made before the flag changes (in the webgpu pass this may be its first use): only
# webgl-2rt is to read the lowered limit
tf.set_backend("webgl")
flag = "WEBGL_MAX_DRAW_BUFFERS"
old = tf.env().get(flag)
tf.env().set(flag, 2)
tf.copy_registered_kernels("webgl", "webgl-2rt")
tf.register_backend("webgl-2rt", WebGLBackend)
try:
    result = [[draws_and_values(b, name, args) for b in ("webgl", "webgl-2rt")]
              for name, args in (("adam", [0.05, 0.8, 0.95]), ("rmsprop", [0.01, 0.9, 0.9, None, True]))]
finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-2rt")
    tf.env().set(flag, old)
""", start={k: v.tolist() for k, v in start.items()}, grads=[{k: v.tolist() for k, v in g.items()} for g in grads])
    for ((draws, values, left), (draws_2rt, values_2rt, left_2rt)), outputs in zip(out, (3, 4)):
        # 3 variables, 2 steps: outputs - 1 more draws per update on the 2-target context
        assert draws_2rt - draws == 3 * 2 * (outputs - 1), (draws, draws_2rt)
        assert left == 0 and left_2rt == 0
        for a, b in zip(values, values_2rt):
            np.testing.assert_array_equal(np.asarray(a, np.float32), np.asarray(b, np.float32))


@pytest.mark.webgl_only("records the webgl backend's optimizer programs (run_outputs, shapeless read modes)")
def test_update_reads_each_gradient_layout_and_shares_programs(run_py):
    """A gradient as a bias's gradient from a reduction comes (one texture column), and one viewed
    through a reshape of another texture width: the values are cpu's, and the programs are shared
    by shape (shapeless) except where the compiler's getters must read the other width."""
    rng = np.random.default_rng(11)
    start = {"kernel": rng.normal(size=(2, 3)), "wide": rng.normal(size=(4, 3)), "bias": rng.normal(size=(3,)),
             "bias5": rng.normal(size=(5,))}
    grads = [{k: rng.normal(size=v.shape) for k, v in start.items()} for _ in range(2)]
    out = run_py("""
be = tf.backend()
keys, run_outputs = set(), be.run_outputs

def recording(program, *rest):
    if program.key.startswith("optimizers:"):
        keys.add(program.key if program.shapeless else (program.key, program.output_shape))
    return run_outputs(program, *rest)
be.run_outputs = recording
variables = {k: tf.variable(tf.tensor(v), name=f"{k}_layouts") for k, v in start.items()}
opt = tf.train.adam(0.05, 0.8, 0.95)

def gradient(k, v):
    if k.startswith("bias"):            # a column: [n, 1] data viewed as [n]
        return tf.reshape(tf.tensor([[x] for x in v]), [len(v)])
    if k == "wide":                     # [3, 4] data (texture width 4) viewed as [4, 3]
        flat = [x for row in v for x in row]
        return tf.reshape(tf.tensor([flat[i:i + 4] for i in range(0, 12, 4)]), [4, 3])
    return tf.tensor(v)
for g in grads:
    tf.tidy(lambda: opt.apply_gradients({f"{k}_layouts": gradient(k, v) for k, v in g.items()}))
be.run_outputs = run_outputs
values = [v.array_sync() for v in variables.values()]
opt.dispose()
tf.dispose(list(variables.values()))
result = [values, sorted(map(str, keys))]
""", start={k: v.tolist() for k, v in start.items()}, grads=[{k: v.tolist() for k, v in g.items()} for g in grads])
    values, keys = out
    # kernel: every input at its own texel; bias and bias5: the gradient a column, one program
    # for both shapes; wide: the getters (its key without read modes, once per shape)
    assert keys == sorted(["optimizers:adam:value:m:v:same:same:same:same:one:one",
                           "optimizers:adam:value:m:v:same:column:same:same:one:one",
                           "('optimizers:adam:value:m:v', (4, 3))"]), keys
    ns = {"tf": tf}
    exec(_STEPS, ns)  # noqa: S102 - the test's own code
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        here, left, _ = ns["optimizer_run"]("adam", [0.05, 0.8, 0.95], True, start, grads, "layouts")
    finally:
        tf.set_backend(previous)
    assert left == 0
    rtol, atol = tolerance(1e-5, 1e-6)
    for got, want in zip(values, here[:len(values)]):
        np.testing.assert_allclose(np.asarray(got, np.float32), np.asarray(want, np.float32), rtol, atol)
