"""The cpu backend's plan runner (pytfweb/backends/cpu/plan_runner.py): a replayed tf.function
gives the eager bits (compared as bytes: NaN payloads and -0 count) for every kernel family it
compiles into numpy calls with preallocated outputs, and for the kernels it leaves to their
kernel functions; it is the runner actually used; outputs and variables get fresh data on every
call; memory stays flat; errors leave the engine working."""
import asyncio
import gc
import weakref

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.backends.cpu.plan_runner import CPUPlanRunner

RS = np.random.RandomState(11)

# edge values first, then ordinary ones
F = np.concatenate([np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, -2.5, 1e38, -1e38, 1e-45,
                              3.0, 7.5, -6.0, 100.0], "float32"), RS.randn(16).astype("float32") * 3]).reshape(4, 8)
G = RS.randn(4, 8).astype("float32")
G[0, :4] = [np.nan, -0.0, np.inf, 0.0]
ROW = RS.randn(8).astype("float32")
COL = RS.randn(4, 1).astype("float32")
I = np.concatenate([np.array([2 ** 31 - 1, -2 ** 31, 0, -1, 1, 7, -7, 3], "int32"),
                    RS.randint(-100, 100, 24).astype("int32")]).reshape(4, 8)
J = RS.randint(-5, 6, (4, 8)).astype("int32")
B = RS.rand(4, 8) > 0.5
C = RS.rand(4, 8) > 0.3


def _bits(x):
    a = np.ascontiguousarray(x)
    return str(a.dtype), a.shape, a.tobytes()


def _runner(f):
    (plan,) = [p for p in f.plans.values() if p is not None]
    return plan.runner


def check(fn, *arrays, compiled=(), fallback=()):
    """fn traced == fn eager, bitwise, on the first replay and on a later one (reused buffers);
    the named kernels ran compiled / through their kernel functions. Returns the runner."""
    ins = [tf.tensor(a) for a in arrays]
    want = tf.tidy(lambda: [_bits(t.numpy()) for t in _flat(fn(*ins))])
    f = tf.function(fn)
    before = tf.memory()["num_tensors"]
    for call in range(3):   # the trace, then two replays
        got = f(*ins)
        assert [_bits(t.numpy()) for t in _flat(got)] == want, f"call {call}"
        tf.dispose(got)
        assert tf.memory()["num_tensors"] == before
    runner = _runner(f)
    assert isinstance(runner, CPUPlanRunner)
    for name in compiled:
        assert name in runner.compiled, (name, runner.compiled, runner.fallback)
    for name in fallback:
        assert name in runner.fallback, (name, runner.compiled, runner.fallback)
    f.dispose()
    tf.dispose(ins)
    return runner


def _flat(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


BINARY_F = [("Add", tf.add), ("Sub", tf.sub), ("Multiply", tf.mul), ("RealDiv", tf.div), ("Maximum", tf.maximum),
            ("Minimum", tf.minimum), ("Equal", tf.equal), ("NotEqual", tf.not_equal), ("Greater", tf.greater),
            ("GreaterEqual", tf.greater_equal), ("Less", tf.less), ("LessEqual", tf.less_equal),
            ("Atan2", tf.atan2), ("SquaredDifference", tf.squared_difference)]


@pytest.mark.parametrize("kernel,op", BINARY_F, ids=[k for k, _ in BINARY_F])
def test_binary_float32_with_broadcasting(kernel, op):
    # same shapes, a row, a column against a row; the result feeds a second compiled call
    check(lambda a, b, r, c: [op(a, b), op(a, r), op(c, r), tf.add(op(a, b), op(b, a)) if kernel not in
                              ("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual") else op(b, a)],
          F, G, ROW, COL, compiled=[kernel])


BINARY_I = [("Add", tf.add), ("Sub", tf.sub), ("Multiply", tf.mul), ("Maximum", tf.maximum), ("Minimum", tf.minimum),
            ("Equal", tf.equal), ("Less", tf.less), ("GreaterEqual", tf.greater_equal),
            ("SquaredDifference", tf.squared_difference), ("BitwiseAnd", tf.bitwise_and)]


@pytest.mark.parametrize("kernel,op", BINARY_I, ids=[k for k, _ in BINARY_I])
def test_binary_int32_wraps_as_eager(kernel, op):
    check(lambda a, b: [op(a, b), op(a, a)], I, J, compiled=[kernel])


def test_int32_kernels_numpy_would_promote_run_their_kernel_functions():
    # (int32 / int32 is FloorDiv, as in TF.js)
    check(lambda a, b: [tf.div(a, b), tf.mod(a, b), tf.pow(a, tf.abs(b))], I, J, fallback=["FloorDiv", "Mod", "Pow"])


def test_bool_kernels():
    check(lambda a, b: [tf.logical_and(a, b), tf.logical_or(a, b), tf.logical_not(a), tf.equal(a, b),
                        tf.cast(a, "float32"), tf.cast(a, "int32")], B, C,
          compiled=["LogicalAnd", "LogicalOr", "LogicalNot", "Equal", "Cast"])


UNARY_F = [("Neg", tf.neg), ("Abs", tf.abs), ("Exp", tf.exp), ("Log", tf.log), ("Log1p", tf.log1p),
           ("Sqrt", tf.sqrt), ("Tanh", tf.tanh), ("Sin", tf.sin), ("Cos", tf.cos), ("Floor", tf.floor),
           ("Ceil", tf.ceil), ("Square", tf.square), ("Sigmoid", tf.sigmoid), ("Rsqrt", tf.rsqrt),
           ("Reciprocal", tf.reciprocal), ("Relu", tf.relu), ("IsNan", tf.is_nan), ("IsInf", tf.is_inf),
           ("IsFinite", tf.is_finite), ("Expm1", tf.expm1), ("Asinh", tf.asinh), ("Atan", tf.atan)]


@pytest.mark.parametrize("kernel,op", UNARY_F, ids=[k for k, _ in UNARY_F])
def test_unary_float32(kernel, op):
    # the second call reads the first's reused buffer
    check(lambda a: [op(a), op(tf.mul(a, a))], F, compiled=[kernel])


@pytest.mark.parametrize("kernel,op", [("Neg", tf.neg), ("Abs", tf.abs), ("Relu", tf.relu), ("Square", tf.square)])
def test_unary_int32(kernel, op):
    check(lambda a: op(tf.add(a, a)), I, compiled=[kernel])


def test_casts():
    check(lambda f, i, b: [tf.cast(tf.mul(f, 2), "bool"), tf.cast(tf.add(i, i), "float32"),
                           tf.cast(tf.add(i, i), "bool"), tf.cast(tf.logical_not(b), "float32"),
                           tf.cast(tf.mul(f, 3), "int32")],
          F, I, B, compiled=["Cast"], fallback=["Cast"])


def test_clip_where_and_relu_with_edges():
    check(lambda a, b, c: [tf.clip_by_value(tf.mul(a, 2), -3, 1e30), tf.where(c, tf.add(a, b), b),
                           tf.where(tf.greater(a, 0), a, tf.neg(a)), tf.relu(tf.neg(a))],
          F, G, C, compiled=["ClipByValue", "Select", "Relu"])


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul(ta, tb):
    a = RS.randn(*((5, 6) if ta else (6, 5))).astype("float32")
    b = RS.randn(*((4, 5) if tb else (5, 4))).astype("float32")
    check(lambda a, b: tf.mat_mul(tf.add(a, 1), tf.sub(b, 1), transpose_a=ta, transpose_b=tb), a, b,
          compiled=["BatchMatMul"])


def test_batched_matmul_broadcasting_int32_and_fused():
    a, b = RS.randn(3, 4, 5).astype("float32"), RS.randn(5, 2).astype("float32")
    check(lambda a, b: tf.mat_mul(a, tf.expand_dims(b, 0)), a, b, compiled=["BatchMatMul"])
    ia, ib = RS.randint(-9, 9, (4, 5)).astype("int32"), RS.randint(-9, 9, (5, 3)).astype("int32")
    check(lambda a, b: tf.mat_mul(tf.add(a, a), b), ia, ib, compiled=["BatchMatMul"])
    x, w, bias = RS.randn(8, 6).astype("float32"), RS.randn(6, 4).astype("float32"), RS.randn(4).astype("float32")
    for act in ("linear", "relu"):
        check(lambda x, w, c: tf.fused.mat_mul(tf.mul(x, 2), w, bias=c, activation=act), x, w, bias,
              compiled=["_FusedMatMul"])


def test_reductions():
    check(lambda a: [tf.sum(tf.mul(a, 1), 1), tf.sum(tf.mul(a, 1)), tf.mean(tf.mul(a, 1), 0, True),
                     tf.max(tf.mul(a, 1), [0, 1]), tf.min(tf.mul(a, 1), -1), tf.prod(tf.mul(a, 1), 0)],
          G, compiled=["Sum", "Mean", "Max", "Min", "Prod"])
    check(lambda a: [tf.sum(tf.add(a, a), 0), tf.max(tf.add(a, a), 1, True)], I, compiled=["Sum", "Max"])
    check(lambda a: [tf.max(tf.mul(a, 2), 1), tf.sum(tf.mul(a, 2), 1)], F, compiled=["Max", "Sum"])


def test_softmax_and_log_softmax():
    check(lambda a: [tf.softmax(tf.mul(a, 2)), tf.log_softmax(tf.mul(a, 2))], G,
          compiled=["Softmax", "LogSoftmax"])


def test_reshapes_of_buffers_inputs_and_outputs():
    # an output that is a reshape of an intermediate, of an input, and the same data twice
    def fn(a, b):
        y = tf.add(a, b)
        z = tf.reshape(tf.mul(y, 2), [8, 4])
        return [tf.reshape(y, [32]), tf.reshape(a, [2, 16]), z, z, tf.expand_dims(tf.sub(tf.reshape(z, [32]), 1), 0)]
    check(fn, F, G, compiled=["Reshape", "ExpandDims", "Add"])


def test_kernels_left_to_their_functions_read_and_feed_compiled_calls():
    # transpose and tile run as kernel functions on buffers; compiled calls read their results
    check(lambda a, b: [tf.add(tf.transpose(tf.mul(a, b)), 1), tf.mul(tf.tile(tf.sub(a, b), [2, 1]), 3)],
          F, G, compiled=["Multiply", "Add", "Sub"], fallback=["Transpose", "Tile"])


def test_gradients_and_optimizer_step():
    w0 = RS.randn(6, 3).astype("float32")
    x = tf.tensor(RS.randn(5, 6).astype("float32"))
    ws = [tf.variable(tf.tensor(w0)) for _ in range(2)]
    opts = [tf.train.adam(0.01) for _ in range(2)]

    def step(w, opt):
        return opt.minimize(lambda: tf.mean(tf.square(tf.relu(tf.mat_mul(x, w)) - 0.5)), return_cost=True,
                            var_list=[w])
    f = tf.function(step)
    for _ in range(4):
        eager = step(ws[0], opts[0])
        traced = f(ws[1], opts[1])
        assert _bits(traced.numpy()) == _bits(eager.numpy())
        assert _bits(ws[1].numpy()) == _bits(ws[0].numpy())
        tf.dispose([eager, traced])
    runner = _runner(f)
    assert isinstance(runner, CPUPlanRunner)
    assert {"ReluGrad", "BatchMatMul", "Relu", "ApplyAdam"} <= set(runner.compiled), runner.compiled
    f.dispose()


def test_mlp_train_on_batch_traced_equals_eager():
    from pytfweb.host.bench_models import mlp
    rows = RS.rand(8, 784).astype("float32")
    labels = np.eye(10, dtype="float32")[np.arange(8)]
    x, y = tf.tensor(rows), tf.tensor(labels)
    models = []
    for jit in (False, True):
        m = mlp()
        m.compile(optimizer="adam", loss="categoricalCrossentropy", jit_compile=jit)
        models.append(m)
    models[1].set_weights(models[0].get_weights())
    loop = asyncio.new_event_loop()
    try:
        for _ in range(3):
            losses = [loop.run_until_complete(m.train_on_batch(x, y)) for m in models]
            assert np.float32(losses[0]).tobytes() == np.float32(losses[1]).tobytes()
        for a, b in zip(models[0].get_weights(), models[1].get_weights()):
            assert _bits(a.numpy()) == _bits(b.numpy())
        runner = _runner(models[1].train_function)
        assert isinstance(runner, CPUPlanRunner)
        assert {"_FusedMatMul", "Softmax", "ApplyAdam", "Sum"} <= set(runner.compiled), runner.compiled
    finally:
        loop.close()
        for m in models:
            m.dispose()
        tf.dispose([x, y])


def test_chained_adds_share_a_few_buffers():
    def chain(x, one):
        y = x
        for _ in range(1000):
            y = y + one
        return y
    runner = check(chain, np.zeros(64, "float32"), np.ones(64, "float32"))
    assert runner.compiled == ["Add"] * 1000 and not runner.fallback
    assert runner.num_buffers == 2   # each sum lives until the next add has read it


def test_dispose_releases_the_buffers():
    f = tf.function(lambda a, b: tf.sum(tf.mul(tf.add(a, b), 2)))
    a, b = tf.tensor(F), tf.tensor(G)
    for _ in range(2):
        f(a, b).dispose()
    runner = _runner(f)   # (held here: only its dispose() can let the buffers go)
    buffers = [weakref.ref(x) for x in runner.fixed if isinstance(x, np.ndarray)]
    assert buffers
    f.dispose()
    gc.collect()
    assert all(r() is None for r in buffers)


def test_variables_outputs_are_fresh_and_memory_flat_over_1000_calls():
    v, u = tf.variable(tf.zeros([4])), tf.variable(tf.zeros([4]))
    x = tf.tensor(np.array([1, 2, 3, 4], "float32"))

    def fn(x):
        old = tf.clone(v)
        v.assign(tf.add(v, x))              # the variable takes a fresh array
        u.assign(tf.reshape(tf.mul(v, 2), [4]))
        return [tf.add(old, 0), tf.mul(v, 1), old]
    f = tf.function(fn)
    keep = []
    for i in range(3):
        keep.append(f(x))
    for i, (a, b, c) in enumerate(keep):   # each call's outputs are its own
        assert a.numpy().tolist() == [k * i for k in (1, 2, 3, 4)]
        assert b.numpy().tolist() == [k * (i + 1) for k in (1, 2, 3, 4)]
        assert c.numpy().tolist() == a.numpy().tolist()
    tf.dispose(keep)
    assert isinstance(_runner(f), CPUPlanRunner)
    before = tf.memory()
    for _ in range(1000):
        tf.dispose(f(x))
    after = tf.memory()
    assert (after["num_tensors"], after["num_bytes"], after["num_data_buffers"]) == \
        (before["num_tensors"], before["num_bytes"], before["num_data_buffers"])
    assert v.numpy().tolist() == [k * 1003 for k in (1, 2, 3, 4)]
    assert u.numpy().tolist() == [k * 2006 for k in (1, 2, 3, 4)]
    # the backend holds nothing more than the tensors do
    assert len(tf.engine().find_backend("cpu").store) == after["num_data_buffers"]
    f.dispose()


def test_random_draws_are_new_on_each_call():
    f = tf.function(lambda x: tf.add(tf.random_uniform([4]), tf.mul(x, 0)))
    x = tf.zeros([4])
    draws = [f(x) for _ in range(3)]
    assert isinstance(_runner(f), CPUPlanRunner)
    assert not np.array_equal(draws[1].numpy(), draws[2].numpy())
    tf.dispose(draws)
    before = tf.memory()["num_bytes"]
    for _ in range(50):
        tf.dispose(f(x))
    assert tf.memory()["num_bytes"] == before
    f.dispose()


def test_errors_leave_the_engine_working():
    v = tf.variable(tf.ones([3]))
    w = tf.variable(tf.ones([3]))
    f = tf.function(lambda x: [tf.add(x, v), tf.mul(tf.add(x, 1), w)])
    x = tf.ones([3])
    tf.dispose(f(x))
    tf.dispose(f(x))
    assert isinstance(_runner(f), CPUPlanRunner)
    gone = tf.ones([3])
    gone.dispose()
    with pytest.raises(Exception, match="disposed"):
        f(gone)
    w.dispose()   # read after the first output is made: what that call made goes
    before = tf.memory()
    with pytest.raises(Exception, match="disposed"):
        f(x)
    after = tf.memory()
    assert (after["num_tensors"], after["num_bytes"], after["num_data_buffers"]) == \
        (before["num_tensors"], before["num_bytes"], before["num_data_buffers"])
    assert len(tf.engine().find_backend("cpu").store) == after["num_data_buffers"]
    g = tf.function(lambda x: tf.add(x, v))
    for _ in range(3):
        out = g(x)
        assert out.numpy().tolist() == [2, 2, 2]
        out.dispose()
    f.dispose()
    g.dispose()
