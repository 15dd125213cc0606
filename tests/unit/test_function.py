"""tf.function (pytfweb/core/function.py) on the recorded kernel plans of pytfweb/core/plan.py:
a traced function gives what the eager one gives (bitwise on cpu) for a representative op of
every op family, gradients and all seven optimizers; random ops draw new values on each call;
graph breaks are named; retraces are counted; memory stays flat; errors leave nothing behind."""
import gc
import weakref

import numpy as np
import pytest

import pytfweb as tf
import pytfweb.core.function as function_module

RS = np.random.RandomState(7)


def _f32(*shape):
    return RS.randn(*shape).astype("float32")


X44, Y44, X1552, F3323 = _f32(4, 4), _f32(4, 4), _f32(1, 5, 5, 2), _f32(3, 3, 2, 3)
IDX = np.array([3, 0, 2], "int32")

# (family, function of tensors, numpy inputs, reason expected in fn.breaks or None)
CASES = [
    ("elementwise", lambda a, b: tf.where(tf.greater(a, 0), tf.sigmoid(a) * 2 + b, tf.abs(b) - 1), (X44, Y44), None),
    ("creation", lambda a: tf.ones_like(a) * tf.range(0, 4) + tf.fill([4, 4], 0.5) + tf.eye(4), (X44,), None),
    ("matmul", lambda a, b: tf.mat_mul(a, b, transpose_b=True), (X44, Y44), None),
    ("conv", lambda x, f: tf.conv2d(x, f, 1, "same"), (X1552, F3323), None),
    ("pool", lambda x: tf.max_pool(x, 2, 1, "valid"), (X1552,), None),
    ("reduction", lambda a: [tf.sum(a, 1), tf.mean(a), tf.arg_max(a, 0)], (X44,), None),
    ("shape", lambda a, b: tf.concat([tf.transpose(a), tf.reshape(b, [2, 8]).reshape([4, 4])], 1), (X44, Y44), None),
    ("slicing", lambda a: [a[1:3, ::2], tf.slice(a, [0, 1], [2, 2]), tf.strided_slice(a, [0, 0], [4, 4], [2, 1])],
     (X44,), None),
    ("indexing", lambda a, i: tf.gather(a, i), (X44, IDX), None),
    ("nn", lambda a: [tf.softmax(a), tf.log_softmax(a), tf.relu6(a * 4)], (X44,), None),
    ("normalization", lambda x: tf.batch_norm(x, tf.ones([2]), tf.ones([2]) * 2, tf.ones([2]) * 0.5,
                                               tf.ones([2]) * 3, 1e-3), (X1552,), None),
    ("losses", lambda a, b: tf.losses.softmax_cross_entropy(tf.softmax(b), a), (X44, Y44), None),
    ("fused", lambda a, b: tf.fused.mat_mul(a, b, bias=tf.ones([4]), activation="relu"), (X44, Y44), None),
    ("einsum", lambda a, b: tf.einsum("ij,jk->ik", a, b), (X44, Y44), None),
    ("image", lambda x: tf.image.resize_bilinear(x, [3, 4]), (X1552,), None),
    ("linalg", lambda a: tf.linalg.band_part(a, 1, 0), (X44,), None),
    ("math", lambda a: [tf.cumsum(a, 1), tf.add_n([a, a, a]), tf.norm(a)], (X44,), None),
    ("spectral", lambda a: tf.real(tf.spectral.fft(tf.complex(a, a * 0.5))), (X44,), None),
    ("signal", lambda a: tf.signal.frame(tf.reshape(a, [16]), 4, 2), (X44,), None),
    ("misc", lambda a: tf.pad2d(a, [[1, 0], [0, 2]]), (X44,), None),
    ("tfmath", lambda a, b: tf.math.confusion_matrix(a, b, 4), (np.array([0, 1, 3], "int32"),
                                                                np.array([0, 2, 3], "int32")), None),
    ("string", lambda s: tf.string.string_to_hash_bucket_fast(s, 7), (np.array(["a", "bc", "d"]),), None),
    ("sparse", lambda i, v: tf.sparse_to_dense(i, v, [5]), (np.array([1, 3], "int32"), np.array([2., 4.], "float32")),
     None),
    # value-dependent: the output's shape depends on the values (graph breaks, eager for that signature)
    ("unique", lambda a: tf.unique(a)[0], (np.array([3, 1, 3, 2], "int32"),), "Unique"),
    ("where", lambda a: tf.where(tf.greater(a, 0)), (X44,), "split at read of"),
    ("boolean_mask", lambda a: tf.boolean_mask(a, tf.greater(a, 0)), (X44,), "split at read of"),
    ("setdiff1d", lambda a, b: tf.setdiff1d(a, b)[0], (np.array([3, 1, 2], "int32"), np.array([1], "int32")),
     "split at read of"),
]


def _run_case(fn, arrays, calls=3):
    ins = [tf.tensor(a) for a in arrays]
    want = tf.tidy(lambda: fn(*ins))
    traced = tf.function(fn)
    got = [traced(*ins) for _ in range(calls)]
    return ins, want, got, traced


def _np(x):
    return [_np(v) for v in x] if isinstance(x, (list, tuple)) else x.numpy()


def _assert_same(a, b, what):
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), what
        for u, v in zip(a, b):
            _assert_same(u, v, what)
    else:
        assert a.dtype == b.dtype, what
        np.testing.assert_array_equal(a, b, err_msg=what)


@pytest.mark.parametrize("family, fn, arrays, breaks", CASES, ids=[c[0] for c in CASES])
def test_traced_equals_eager(family, fn, arrays, breaks):
    ins, want, got, traced = _run_case(fn, arrays)
    for g in got:   # the trace and two replays (or eager calls, after a break)
        _assert_same(_np(want), _np(g), family)
    assert traced.trace_count == 1
    if breaks is None:
        assert traced.breaks == [], traced.breaks
        assert len(traced.plans) == 1 and None not in traced.plans.values()
    else:
        assert len(traced.breaks) == 1 and breaks in traced.breaks[0][1], traced.breaks


def test_replay_runs_the_recorded_kernels_only():
    w = tf.variable(tf.tensor(X44))
    f = tf.function(lambda x: tf.relu(tf.mat_mul(x, w) + 1) * 2)
    x = tf.tensor(Y44)
    f(x)
    (plan,) = f.plans.values()
    # the scalars 1 and 2 are constants of the plan; the variable is read at each call
    assert plan.kernel_names() == ["BatchMatMul", "Add", "Relu", "Multiply"]


def test_constants_are_folded():
    """Kernels computed from constants and captured tensors only run once, while tracing."""
    c = tf.tensor(X44)
    f = tf.function(lambda x: x + tf.exp(c) * tf.ones([4, 4]))
    x = tf.tensor(Y44)
    np.testing.assert_array_equal(f(x).numpy(), f(x).numpy())
    (plan,) = f.plans.values()
    assert plan.kernel_names() == ["Add"]


def test_variables_are_read_at_each_call():
    v = tf.variable(tf.tensor([1.0, 2.0]))
    f = tf.function(lambda x: x * v)
    x = tf.tensor([3.0, 4.0])
    assert f(x).array_sync() == [3.0, 8.0]
    v.assign(tf.tensor([10.0, 20.0]))
    assert f(x).array_sync() == [30.0, 80.0]
    assert f.trace_count == 1


def test_variable_writes_are_replayed():
    v = tf.variable(tf.tensor([1.0, 2.0]))

    @tf.function
    def bump(x):
        v.assign(v + x)
        v.assign(v * 2)
        return v * 1

    x = tf.tensor([1.0, 1.0])
    outs = [bump(x).array_sync() for _ in range(3)]
    assert outs == [[4.0, 6.0], [10.0, 14.0], [22.0, 30.0]]
    assert v.array_sync() == [22.0, 30.0]


def test_gradients_traced_equal_eager():
    w = tf.variable(tf.tensor(X44))
    x = tf.tensor(Y44)

    def loss_grads(x):
        f = lambda a: tf.sum(tf.tanh(tf.mat_mul(a, w)) ** 2)  # noqa: E731
        g = tf.grads(lambda a, b: tf.sum(a * b * b))([x, x])
        value, vg = tf.variable_grads(lambda: f(x))
        return [tf.grad(f)(x), *g, value, vg[w.name]]

    want = _np(tf.tidy(lambda: loss_grads(x)))
    traced = tf.function(loss_grads)
    for _ in range(3):
        got = _np(traced(x))
        for a, b in zip(want, got):
            np.testing.assert_array_equal(a, b)
    assert traced.breaks == []
    # nothing of the tape (its saved tensors) stays with the plan or the calls
    before = tf.memory()
    for _ in range(10):
        tf.dispose(traced(x))
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (before.num_tensors, before.num_bytes)


def _train(make_opt, traced, steps=4):
    rs = np.random.RandomState(0)
    w = tf.tidy(lambda: tf.variable(tf.tensor(rs.randn(3, 2).astype("float32"))))
    b = tf.tidy(lambda: tf.variable(tf.zeros([2])))
    x = tf.tensor(rs.randn(8, 3).astype("float32"))
    y = tf.tensor(rs.randn(8, 2).astype("float32"))
    opt = make_opt()

    def step(x, y):
        return opt.minimize(lambda: tf.losses.mean_squared_error(y, tf.add(tf.mat_mul(x, w), b)), return_cost=True)

    f = tf.function(step) if traced else step
    losses = []
    for _ in range(steps):
        cost = f(x, y)
        losses.append(cost.data_sync()[0])
        cost.dispose()
    out = (w.numpy(), b.numpy(), losses, getattr(f, "breaks", []))
    opt.dispose()
    tf.dispose([w, b, x, y])
    return out


OPTIMIZERS = {
    "sgd": lambda: tf.train.sgd(0.1), "momentum": lambda: tf.train.momentum(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf.train.adagrad(0.1), "adadelta": lambda: tf.train.adadelta(0.5),
    "adam": lambda: tf.train.adam(0.05), "adamax": lambda: tf.train.adamax(0.05),
    "rmsprop": lambda: tf.train.rmsprop(0.05, centered=True, momentum=0.5),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_minimize_traced_equals_eager(name):
    w1, b1, l1, _ = _train(OPTIMIZERS[name], False)
    w2, b2, l2, breaks = _train(OPTIMIZERS[name], True)
    assert breaks == []
    np.testing.assert_array_equal(w1, w2)
    np.testing.assert_array_equal(b1, b2)
    assert l1 == l2
    assert tf.memory().num_tensors == 0


def test_random_ops_draw_new_values_on_each_call():
    f = tf.function(lambda x: [x + tf.random_normal([64]), tf.random_uniform([64]), tf.random_gamma([8], 2.0),
                               tf.dropout(tf.ones([64]), 0.5), tf.multinomial(tf.zeros([2, 10]), 16)])
    x = tf.zeros([64])
    a, b = _np(f(x)), _np(f(x))
    for u, v in zip(a, b):
        assert not np.array_equal(u, v)
    assert f.trace_count == 1 and f.breaks == []
    before = tf.memory()
    for _ in range(10):
        tf.dispose(f(x))
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (before.num_tensors, before.num_bytes)
    # a draw a variable takes: new values each call, the variable holding them alone
    v = tf.tidy(lambda: tf.variable(tf.zeros([16])))

    @tf.function
    def h():
        v.assign(tf.random_uniform([16]) + 1)
    seen = []
    for _ in range(3):
        h()
        seen.append(v.numpy().tolist())
        if len(seen) == 1:
            held = tf.memory()
    assert len({tuple(s) for s in seen}) == 3 and min(min(s) for s in seen) >= 1
    assert held.num_tensors == before.num_tensors + 1   # the variable (the plan holds the constant 1's data)
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (held.num_tensors, held.num_bytes)
    # a seed gives the same values on every call, as eagerly
    g = tf.function(lambda: tf.random_normal([8], seed=3))
    assert g().array_sync() == g().array_sync() == tf.random_normal([8], seed=3).array_sync()


def test_reading_values_inside_guards_the_replay_on_them():
    calls = []

    def fn(x):
        calls.append(1)
        y = x * 2
        return y + 1 if y.data_sync()[0] > 0 else y - 1

    f = tf.function(fn)
    pos, neg = tf.tensor([1.0, 2.0]), tf.tensor([-1.0, 2.0])
    start = tf.memory().num_tensors

    def call(x, want):
        out = f(x)
        assert out.array_sync() == want
        out.dispose()

    for _ in range(3):
        call(pos, [3.0, 5.0])
    assert len(calls) == 1, "the calls whose read gave the trace's values replay"
    ((sig, reason),) = f.breaks
    assert "float32[2]" in sig and "split at read of float32[2]" in reason and "test_function.py" in reason \
        and "in fn" in reason
    # another value read: traced again as a variant of the signature; both replay from then on
    for _ in range(3):
        call(neg, [-3.0, 3.0])
    call(pos, [3.0, 5.0])
    assert len(calls) == 2 and f.trace_count == 2 and len(f.breaks) == 1
    # values that keep changing: variants up to MAX_VARIANTS, then eager calls, then the plans go
    for v in range(3, 3 + function_module.MAX_VARIANTS - 2 + function_module.MAX_DIVERGENCES):
        call(tf.tensor([float(v), 0.0]), [2.0 * v + 1, 1.0])
    assert len(calls) == 2 + function_module.MAX_VARIANTS - 2 + function_module.MAX_DIVERGENCES
    assert f.trace_count == function_module.MAX_VARIANTS
    assert list(f.plans.values()) == [None] and "matched none" in f.breaks[-1][1]
    call(pos, [3.0, 5.0])
    assert tf.memory().num_tensors == start + (function_module.MAX_VARIANTS - 2 + function_module.MAX_DIVERGENCES)
    tf.dispose([pos, neg])


def test_reading_values_after_a_variable_write_breaks():
    v = tf.variable(tf.tensor([1.0]))

    def fn(x):
        v.assign(v + x)
        return x * 2 if v.data_sync()[0] > 0 else x

    f = tf.function(fn)
    x = tf.tensor([1.0])
    for want in ([2.0], [3.0], [4.0]):
        tf.dispose(f(x))
        assert v.array_sync() == want
    ((_, reason),) = f.breaks
    assert "after a variable write" in reason and list(f.plans.values()) == [None]
    tf.dispose([v, x])


def test_reading_constants_does_not_break():
    f = tf.function(lambda x: tf.reshape(x, [int(tf.tensor(2).data_sync()[0]), -1]))
    x = tf.tensor(X44)
    assert f(x).shape == f(x).shape == (2, 8)
    assert f.breaks == []


def test_signature_and_retracing():
    f = tf.function(lambda x, scale=1.0: x * scale)
    x3, x4 = tf.zeros([3]), tf.zeros([4])
    f(x3)
    f(tf.ones([3]))
    assert f.trace_count == 1
    f(x4)
    f(x3, scale=2.0)
    f(tf.zeros([3], "int32"), scale=2)
    assert f.trace_count == 4
    with pytest.raises(TypeError, match="argument 'scale'.*unhashable ndarray"):
        f(x3, scale=np.ones(3))
    g = tf.function(lambda x, n: x * n)
    with pytest.warns(RuntimeWarning, match="traced 6 times"):
        for n in range(6):
            g(x3, n)
    assert g.trace_count == 6


def test_plans_are_kept_for_the_most_recently_called_signatures_only():
    from pytfweb.core.function import MAX_PLANS
    f = tf.function(lambda x: tf.tanh(x * tf.fill([8], 0.5)) + tf.range(0, 8, 1, "float32"))
    xs = [tf.fill([k + 1, 8], 0.25) for k in range(3 * MAX_PLANS)]
    marks = []
    with pytest.warns(RuntimeWarning, match="traced"):
        for k, x in enumerate(xs):
            f(x).dispose()
            f(xs[0]).dispose()   # the first signature stays the most recently called but one
            m = tf.memory()
            marks.append((m.num_tensors, m.num_bytes, m.num_data_buffers))
    assert len(f.plans) == MAX_PLANS
    # (each plan holds its constants: once the cap is reached, what the plans hold stays the same)
    assert marks[MAX_PLANS:] == [marks[MAX_PLANS - 1]] * (len(marks) - MAX_PLANS)
    assert f.trace_count == len(xs)   # the first signature was never dropped
    with pytest.warns(RuntimeWarning, match="traced"):
        f(xs[1]).dispose()            # its plan was dropped: traced again
        assert f.trace_count == len(xs) + 1
        out = f(xs[5])
    np.testing.assert_array_equal(out.array_sync(), np.tanh(np.full([6, 8], 0.125, "float32")) +
                                  np.arange(8, dtype="float32"))
    out.dispose()
    f.dispose()
    tf.dispose(xs)


def test_same_tensor_twice_is_its_own_signature():
    f = tf.function(lambda a, b: a - b)
    x, y = tf.tensor([1.0]), tf.tensor([3.0])
    assert f(x, x).array_sync() == [0.0]
    assert f(x, y).array_sync() == [-2.0]
    assert f.trace_count == 2


def test_python_side_effects_run_only_while_tracing():
    seen = []

    @tf.function
    def f(x):
        seen.append(1)
        return x + 1

    x = tf.zeros([2])
    for _ in range(3):
        f(x)
    assert seen == [1]


def test_structures_in_and_out():
    @tf.function
    def f(d, pair, k):
        return {"sum": d["a"] + pair[0], "same": pair[1], "k": k, "list": [pair[0] * k]}

    a, b, c = tf.tensor([1.0]), tf.tensor([2.0]), tf.tensor([3.0])
    for _ in range(2):
        out = f({"a": a}, (b, c), 2)
        assert out["sum"].array_sync() == [3.0] and out["same"] is c and out["k"] == 2
        assert out["list"][0].array_sync() == [4.0]


def test_tidy_keep_dispose_and_flat_memory():
    w = tf.variable(tf.tensor(X44))
    f = tf.function(lambda x: tf.tanh(tf.mat_mul(x, w) + tf.scalar(0.5)) - 1)
    x = tf.tensor(Y44)
    f(x).dispose()
    start = tf.memory()
    for _ in range(1000):
        f(x).dispose()
    end = tf.memory()
    assert (end.num_tensors, end.num_bytes, end.num_data_buffers) == \
        (start.num_tensors, start.num_bytes, start.num_data_buffers)
    kept = tf.tidy(lambda: [tf.keep(f(x)), f(x)][0])   # tidy disposes what it made but the kept one
    assert tf.memory().num_tensors == start.num_tensors + 1 and not kept.is_disposed
    kept.dispose()


def test_error_inside_propagates_and_leaves_nothing():
    calls = []

    @tf.function
    def f(x, fail):
        y = tf.exp(x)
        calls.append(1)
        if fail:
            raise RuntimeError("boom")
        return y * 2

    x = tf.tensor([1.0])
    before = tf.memory()
    with pytest.raises(RuntimeError, match="boom"):
        f(x, True)
    assert tf.memory().num_tensors == before.num_tensors and tf.memory().num_bytes == before.num_bytes
    assert tf.engine().recorder is None
    assert f(x, False).shape == (1,)
    # a replay whose kernel raises (a captured tensor disposed since) leaves nothing behind either
    c = tf.tensor([2.0])
    g = tf.function(lambda x: tf.exp(x) * c + x)
    g(x).dispose()
    held = tf.memory()
    c.dispose()
    with pytest.raises(tf.DisposedTensorError):
        g(x)
    assert tf.memory().num_bytes == held.num_bytes - 4


def test_eager_when_turned_off_or_under_a_tape():
    f = tf.function(lambda x: x * x)
    x = tf.tensor([3.0])
    tf.env().set("TRACE_FUNCTIONS", False)
    try:
        assert f(x).array_sync() == [9.0]
        assert f.trace_count == 0
    finally:
        tf.env().set("TRACE_FUNCTIONS", True)
    f(x)
    # inside a gradient the kernels must be taped: the call runs eagerly and the gradient flows
    assert tf.grad(lambda a: f(a))(x).array_sync() == [6.0]
    assert f.trace_count == 1


def test_async_or_non_callable_refused():
    async def coro(x):
        return x
    with pytest.raises(TypeError, match="must not be async"):
        tf.function(coro)
    with pytest.raises(TypeError, match="callable"):
        tf.function(3)
    f = tf.function(lambda x: coro(x))   # an awaitable result: refused, nothing left behind
    x = tf.zeros([1])
    with pytest.raises(TypeError, match="returned an awaitable"):
        f(x)
    assert tf.memory().num_tensors == 1 and tf.engine().recorder is None



def test_replay_runs_no_op_level_python(monkeypatch):
    w = tf.variable(tf.tensor(X44))
    f = tf.function(lambda x: tf.sigmoid(tf.mat_mul(x, w)) + 1)
    x = tf.tensor(Y44)
    want = f(x).numpy()
    calls = []
    engine = tf.engine()
    real = engine.run_kernel
    monkeypatch.setattr(engine, "run_kernel", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    np.testing.assert_array_equal(f(x).numpy(), want)
    assert calls == []


def test_a_reset_engine_retraces():
    f = tf.function(lambda x: x * 2 + tf.scalar(1.0))
    assert f(tf.tensor([1.0])).array_sync() == [3.0]
    tf.engine().dispose_all()   # the plan's constant went with everything else
    assert f(tf.tensor([2.0])).array_sync() == [5.0]
    assert f.trace_count == 2


def test_methods_are_traced_per_instance():
    class Scale:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Scale(2.0), Scale(3.0)
    x = tf.tensor([1.0])
    assert [a(x).array_sync(), b(x).array_sync(), a(x).array_sync()] == [[2.0], [3.0], [2.0]]
    assert a.__call__.trace_count == 1
    gone = weakref.ref(b)
    del b
    gc.collect()
    assert gone() is None   # the traced method does not keep its instance alive


def _load_graph(builder, sig=None):
    return tf.load_graph_model_sync(tf.io.from_memory(builder.artifacts(signature=sig)))


def test_graph_model_records_then_replays():
    from tests.graph_models import mobilenet_v1
    b, sig, inputs = mobilenet_v1(np.random.default_rng(3))
    model = _load_graph(b, sig)
    (x,) = [tf.tensor(v) for v in inputs.values()]
    first = model.predict(x)
    (node_plan,) = model.executor.node_plans.values()
    (recorded,) = node_plan.recorded.values()
    assert recorded is not None and recorded.num_steps > 0 and node_plan.breaks == {}
    held = tf.memory()
    for _ in range(3):
        again = model.predict(x)
        np.testing.assert_array_equal(again.numpy(), first.numpy())
        again.dispose()
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (held.num_tensors, held.num_bytes)
    # another input shape records another plan
    x2 = tf.tensor(np.concatenate([inputs[next(iter(inputs))]] * 2))
    tf.dispose(model.predict(x2))
    assert len(node_plan.recorded) == 2
    tf.dispose([first, x, x2])
    model.dispose()
    assert tf.memory().num_tensors == 0 and tf.memory().num_bytes == 0


def test_graph_model_reading_its_feeds_replays_while_the_values_stay():
    from tests.graph_builder import GraphBuilder, dt
    b = GraphBuilder()
    x = b.placeholder("x", [-1])
    shape = b.placeholder("shape", [2], "int32")
    b.op("Reshape", "out", [x, shape], T=dt("float32"), Tshape=dt("int32"))
    model = _load_graph(b)
    xs = tf.tensor([1.0, 2.0, 3.0, 4.0])
    node_plan = None
    for i, dims in enumerate(([2, 2], [2, 2], [1, 4], [4, 1], [1, 4])):   # values that change the output's shape
        feeds = {"x": xs, "shape": tf.tensor(dims, dtype="int32")}
        out = model.execute(feeds, "out")
        assert list(out.shape) == dims and out.array_sync() == np.reshape([1.0, 2.0, 3.0, 4.0], dims).tolist()
        tf.dispose([out, feeds["shape"]])
        if i == 1:
            (node_plan,) = model.executor.node_plans.values()
            (recorded,) = node_plan.recorded.values()
            assert recorded is not None and recorded.splits[0].startswith("read of int32[2]")
    assert list(node_plan.recorded.values()) == [None]   # three runs read other values: node by node
    assert "changed from run to run" in next(iter(node_plan.breaks.values()))
    model.dispose()
    xs.dispose()
    assert tf.memory().num_tensors == 0


def test_every_host_kernel_of_value_dependent_shape_breaks_a_trace():
    """The kernels that read their inputs back to size their outputs (the GPU backends' host
    kernels, the sparse and ragged ones) are the ones a trace must not replay blindly."""
    from pytfweb.backends.gpu.host_kernels import HOST_FUNCTIONS
    from pytfweb.backends.impl import ragged, sparse
    from pytfweb.kernels import VALUE_DEPENDENT_KERNELS
    assert set(HOST_FUNCTIONS) | set(sparse.HOST_KERNELS) | set(ragged.HOST_KERNELS) <= VALUE_DEPENDENT_KERNELS


def _detector(rng, n=16):
    """A small detector: ten static nodes from the input to boxes and scores, then non-max
    suppression (a value-dependent op: execute_async) and a gather of the kept boxes."""
    from tests.graph_builder import GraphBuilder, dt, f, i
    f32, i32 = dt("float32"), dt("int32")
    b = GraphBuilder()
    x = b.placeholder("x", [n, 8])
    w = b.const("w", rng.normal(size=(8, 8)).astype(np.float32), "float32")
    h = b.op("Relu", "h", [b.op("MatMul", "mm", [x, w], T=f32, transpose_a=f(False), transpose_b=f(False))], T=f32)
    for k in range(4):
        h = b.op("Tanh", f"t{k}", [b.op("Add", f"a{k}", [h, b.const(f"c{k}", np.float32(0.1 * k), "float32")],
                                        T=f32)], T=f32)
    corners = b.op("Sigmoid", "corners", [h], T=f32)
    begin, size = b.const("begin", np.int32([0, 0]), "int32"), b.const("size", np.int32([-1, 4]), "int32")
    boxes = b.op("Slice", "boxes", [corners, begin, size], T=f32, Index=i32)
    scores = b.op("Max", "scores", [corners, b.const("axis", np.int32(1), "int32")], T=f32, Tidx=i32,
                  keep_dims=f(False))
    keep = b.op("NonMaxSuppressionV3", "nms", [boxes, scores, b.const("k", np.int32(5), "int32"),
                                                b.const("iou", np.float32(0.3), "float32"),
                                                b.const("min", np.float32(0.0), "float32")], T=f32)
    b.op("GatherV2", "kept", [boxes, keep, b.const("ax0", np.int32(0), "int32")], Tparams=f32, Tindices=i32,
         Taxis=i32, batch_dims=i(0))
    return b, rng.normal(size=(n, 8)).astype(np.float32)


def test_a_dynamic_graph_replays_its_static_part():
    """execute_async of a graph whose value-dependent op comes last: the nodes before it run as
    one static island through execute(), so their kernels replay from a recorded plan; the result
    is the node-by-node one."""
    import asyncio
    b, value = _detector(np.random.default_rng(11))
    model = _load_graph(b)
    x = tf.tensor(value)
    tf.env().set("TRACE_FUNCTIONS", False)
    want = asyncio.run(model.execute_async({"x": x}, ["kept", "scores"]))
    tf.env().set("TRACE_FUNCTIONS", True)
    held = tf.memory()
    for _ in range(3):
        got = asyncio.run(model.execute_async({"x": x}, ["kept", "scores"]))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
        tf.dispose(got)
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (held.num_tensors, held.num_bytes)
    segments = [p for p in model.executor.node_plans.values() if p.dynamic is None]
    (static,) = segments
    (recorded,) = static.recorded.values()
    assert recorded is not None and "NonMaxSuppressionV3" not in recorded.kernel_names()
    assert "Tanh" in recorded.kernel_names()
    (dynamic,) = [p for p in model.executor.node_plans.values() if p.dynamic is not None]
    (island,) = {id(i): i for i in dynamic.islands.values()}.values()
    assert sorted(n.name for n, _ in island.border) == ["boxes", "scores"]
    assert "nms" not in island.members and "kept" not in island.members
    tf.dispose(want + [x])
    model.dispose()
    assert tf.memory().num_tensors == 0


def test_a_graph_records_plans_for_a_bounded_number_of_feed_signatures():
    from tests.graph_builder import GraphBuilder, dt
    from pytfweb.converter import executor
    b = GraphBuilder()
    x = b.placeholder("x", [-1])
    b.op("Neg", "out", [b.op("Exp", "e", [x], T=dt("float32"))], T=dt("float32"))
    model = _load_graph(b)
    for n in range(1, executor._MAX_RECORDED + 4):
        xs = tf.ones([n])
        out = model.execute({"x": xs}, "out")
        np.testing.assert_allclose(out.numpy(), -np.e * np.ones(n), rtol=1e-6)
        tf.dispose([out, xs])
    (node_plan,) = model.executor.node_plans.values()
    assert len(node_plan.recorded) == executor._MAX_RECORDED
    model.dispose()
    assert tf.memory().num_tensors == 0 and tf.memory().num_bytes == 0


def test_a_value_dependent_kernel_splits_the_plan_and_shapes_are_checked():
    """unique's output shape depends on the values: the plan keeps it as a split, replays while its
    output shapes are those of the trace; a call whose shapes differ is traced again as a variant
    (nothing of the failed replay left behind), and the variants replay from then on."""
    f = tf.function(lambda x: tf.sum(tf.unique(x * 2)[0] + 1))
    x = tf.tensor([1, 1, 2, 3], dtype="int32")          # 3 unique values
    same = tf.tensor([5, 6, 6, 7], dtype="int32")       # 3 unique values too
    other = tf.tensor([1, 2, 3, 4], dtype="int32")      # 4
    assert f(x).array_sync() == 15
    (plan,) = f.plans.values()
    assert plan is not None and plan.splits == ["Unique"]
    assert len(f.breaks) == 1 and "split at Unique" in f.breaks[0][1]
    for _ in range(3):
        out = f(same)
        assert out.array_sync() == 39
        out.dispose()
    assert f.trace_count == 1
    f(other).dispose()                                  # the variant's trace
    held = tf.memory()
    for t, want in ((other, 24), (x, 15), (same, 39), (other, 24)):
        out = f(t)
        assert out.array_sync() == want
        out.dispose()
    assert f.trace_count == 2 and plan.divergences == 0
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (held.num_tensors, held.num_bytes)
    f.dispose()
    tf.dispose([x, same, other])


def test_a_value_dependent_kernel_after_a_variable_write_breaks():
    v = tf.variable(tf.tensor([1, 2, 2], dtype="int32"))

    def step(x):
        v.assign(v + x)
        return tf.unique(v)[0]
    f = tf.function(step)
    x = tf.tensor([0, 0, 1], dtype="int32")
    f(x).dispose()
    assert list(f.plans.values()) == [None]
    assert "after a variable write" in f.breaks[0][1]
    assert v.array_sync() == [1, 2, 3]
    tf.dispose([v, x])


def test_a_graph_with_a_value_dependent_kernel_replays_until_its_shapes_change():
    from tests.graph_builder import GraphBuilder, dt, f
    i32 = dt("int32")
    b = GraphBuilder()
    x = b.placeholder("x", [4], "int32")
    u = b.op("Unique", "u", [b.op("Mul", "m", [x, b.const("two", np.int32(2), "int32")], T=i32)], T=i32,
             out_idx=i32)
    b.op("Sum", "out", [b.op("AddV2", "a", [u, b.const("one", np.int32(1), "int32")], T=i32),
                        b.const("axis", np.int32(0), "int32")], T=i32, Tidx=i32, keep_dims=f(False))
    model = _load_graph(b)
    feeds = [tf.tensor(v, dtype="int32") for v in ([1, 1, 2, 3], [5, 6, 6, 7], [1, 2, 3, 4])]
    got = []
    for t in feeds[:2] + [feeds[2]] * 3 + [feeds[0]]:
        out = model.execute({"x": t}, "out")
        got.append(out.array_sync())
        out.dispose()
    assert got == [15, 39, 24, 24, 24, 15]
    (node_plan,) = model.executor.node_plans.values()
    assert list(node_plan.recorded.values()) == [None]   # dropped after three divergences
    assert "changed from run to run" in next(iter(node_plan.breaks.values()))
    model.dispose()
    tf.dispose(feeds)
    assert tf.memory().num_tensors == 0
