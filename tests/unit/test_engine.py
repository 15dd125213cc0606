"""The engine: backends and their priorities, the kernel registry, tidy scopes, keep/dispose,
memory accounting, variables, data moving between backends, and the public names."""
import asyncio
import gc
import json
import pathlib
import warnings

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.backends.base import Backend
from pytfweb.backends.cpu.backend import CPUBackend

from .helpers import assert_raises

ENGINE = tf.engine()


def mem():
    m = tf.memory()
    return m.num_tensors, m.num_data_buffers, m.num_bytes


def reshape(t, shape):
    """Reshape at the engine level, independent of the tf.reshape op."""
    return ENGINE.run_kernel("Reshape", [t], {"shape": tuple(shape)})


# --- backends ----------------------------------------------------------------------------------

def test_cpu_is_the_default_backend():
    ENGINE.reset()
    assert tf.get_backend() == "cpu"
    assert isinstance(tf.backend(), CPUBackend)
    assert tf.find_backend("cpu") is tf.backend()
    assert tf.find_backend("nope") is None


def test_set_backend_returns_true_and_unknown_names_raise_backend_error():
    assert tf.set_backend("cpu") is True
    assert issubclass(tf.BackendError, RuntimeError)
    assert_raises(tf.BackendError, lambda: tf.set_backend("tpu"), "'tpu'", "not registered", "cpu")
    assert tf.get_backend() == "cpu"


def test_ready():
    asyncio.run(tf.ready())
    assert tf.get_backend() == "cpu"


class DummyBackend(Backend):
    """A backend that stores plain lists and has no kernels."""
    name = "dummy"

    def __init__(self):
        from pytfweb.core.tensor import DataId
        self._data_id = DataId
        self.store = {}

    def write(self, values, shape, dtype, data_id=None):
        if data_id is None:
            data_id = self._data_id(self)
        data_id.backend = self
        self.store[data_id] = (list(values), dtype)
        return data_id

    def read_sync(self, data_id):
        import array
        values, dtype = self.store[data_id]
        return array.array({"float32": "f", "int32": "i", "bool": "B"}[dtype], values)

    def dispose_data(self, data_id):
        self.store.pop(data_id, None)


@pytest.fixture
def dummy_backend():
    assert tf.register_backend("dummy", DummyBackend, priority=100)
    yield
    tf.remove_backend("dummy")


def test_highest_priority_backend_becomes_the_default(dummy_backend):
    ENGINE.reset()
    assert tf.get_backend() == "dummy"
    t = tf.tensor([1, 2, 3])
    assert t.data_id.backend is tf.find_backend("dummy")
    assert t.data_sync().tolist() == [1, 2, 3]
    # no kernel is registered for it: the error names kernel and backend, and nothing leaks
    with pytest.raises(NotImplementedError, match="'Exp'.*'dummy'"):
        tf.exp(t)
    assert mem() == (1, 1, 12)
    tf.remove_backend("dummy")
    assert tf.get_backend() == "cpu"
    assert tf.register_backend("dummy", DummyBackend, priority=100)  # for the fixture to remove


def test_register_backend_twice_returns_false(dummy_backend):
    assert tf.register_backend("dummy", DummyBackend) is False
    assert tf.find_backend_factory("dummy") is DummyBackend


def test_a_backend_that_fails_to_initialise_is_skipped():
    def broken():
        raise RuntimeError("no GPU here")
    tf.register_backend("broken", broken, priority=1000)
    try:
        ENGINE.reset()
        assert tf.get_backend() == "cpu"
        assert_raises(tf.BackendError, lambda: tf.set_backend("broken"), "'broken'", "no GPU here")
        assert tf.get_backend() == "cpu"
    finally:
        tf.remove_backend("broken")
    assert_raises(tf.BackendError, lambda: tf.remove_backend("broken"), "broken")


# --- kernel registry ---------------------------------------------------------------------------

def test_kernel_registry():
    add = tf.get_kernel("Add", "cpu")
    assert callable(add)
    assert tf.get_kernel("Add", "nope") is None
    assert tf.get_kernel("NoSuchKernel", "cpu") is None
    assert {"Add", "Identity", "Reshape", "Cast"} <= set(tf.get_kernels_for_backend("cpu"))


def test_running_an_unregistered_kernel_raises_not_implemented_error():
    t = tf.tensor([1.0])
    assert_raises(NotImplementedError, lambda: ENGINE.run_kernel("NoSuchKernel", [t]), "'NoSuchKernel'", "'cpu'")


def test_register_and_unregister_a_kernel():
    def times_two(backend, inputs, attrs):
        (x,) = inputs
        return backend.output(backend.values(x) * attrs["factor"], x.dtype)

    tf.register_kernel("TimesN", "cpu", times_two)
    try:
        assert tf.get_kernel("TimesN", "cpu") is times_two
        out = ENGINE.run_kernel("TimesN", [tf.tensor([1.0, 2.5])], {"factor": 2})
        assert (out.shape, out.dtype, out.array_sync()) == ((2,), "float32", [2.0, 5.0])
    finally:
        tf.unregister_kernel("TimesN", "cpu")
    assert tf.get_kernel("TimesN", "cpu") is None
    assert_raises(ValueError, lambda: tf.unregister_kernel("TimesN", "cpu"), "TimesN", "cpu")


# --- memory ------------------------------------------------------------------------------------

def test_memory_is_exact_after_each_step():
    assert mem() == (0, 0, 0)
    f = tf.tensor([[1, 2, 3], [4, 5, 6]])              # 6 float32
    assert mem() == (1, 1, 24)
    i = tf.tensor([1, 2], dtype="int32")
    assert mem() == (2, 2, 32)
    b = tf.tensor([True, False, True])                # bool: one byte each
    assert mem() == (3, 3, 35)
    r = reshape(f, [3, 2])                            # shares f's data
    assert r.data_id is f.data_id and r.array_sync() == [[1, 2], [3, 4], [5, 6]]
    assert mem() == (4, 3, 35)
    c = f.clone()                                     # shares it too
    assert mem() == (5, 3, 35)
    f.dispose()
    assert mem() == (4, 3, 35)
    assert r.data_sync().tolist() == [1, 2, 3, 4, 5, 6]
    r.dispose()
    assert mem() == (3, 3, 35)
    c.dispose()                                       # the last holder frees the data
    assert mem() == (2, 2, 11)
    s = tf.add(i, 1)
    assert mem() == (3, 3, 19)
    tf.dispose([i, b, s])
    assert mem() == (0, 0, 0)


def test_memory_info_reads_as_attributes_and_as_a_dict():
    tf.zeros([4])
    m = tf.memory()
    assert m["num_tensors"] == m.num_tensors == 1
    assert m["num_bytes"] == 16 and m.unreliable is False


def test_engine_reset_forgets_everything():
    tf.tensor([1, 2])
    tf.variable(tf.zeros([3]), name="w")
    ENGINE.reset()
    assert mem() == (0, 0, 0)
    tf.variable(tf.zeros([3]), name="w")  # the name is free again


# --- tidy ------------------------------------------------------------------------------------

def test_tidy_disposes_intermediates_and_keeps_the_result():
    a = tf.tensor([1.0, 2.0])

    def f():
        b = a + 1
        c = b * 2
        assert mem()[0] == 3
        return c
    r = tf.tidy(f)
    assert r.array_sync() == [4.0, 6.0]
    assert mem() == (2, 2, 16)
    assert not a.is_disposed


@pytest.mark.parametrize("pack, unpack", [
    (lambda x, y: [x, y], lambda r: r),
    (lambda x, y: (x, y), lambda r: r),
    (lambda x, y: {"x": x, "nested": {"y": y}}, lambda r: (r["x"], r["nested"]["y"])),
    (lambda x, y: [(x, "label"), [{"y": y}], 3], lambda r: (r[0][0], r[1][0]["y"])),
])
def test_tidy_keeps_every_tensor_of_a_returned_structure(pack, unpack):
    a = tf.tensor([1.0])
    inner = []

    def f():
        x, y, waste = a + 1, a + 2, a + 3
        inner.append(waste)
        return pack(x, y)
    x, y = unpack(tf.tidy(f))
    assert (x.data_sync()[0], y.data_sync()[0]) == (2.0, 3.0)
    assert inner[0].is_disposed
    assert mem()[0] == 3


def test_tidy_returning_no_tensor_disposes_everything():
    a = tf.tensor([1.0])
    assert tf.tidy(lambda: (a * 2, 7)[1]) == 7
    assert tf.tidy(lambda: None) is None
    assert mem() == (1, 1, 4)


def test_nested_tidy_moves_results_to_the_parent_scope():
    a = tf.tensor([1.0])
    seen = {}

    def outer():
        kept = tf.tidy(lambda: a + 1)                 # survives the inner scope ...
        lost = tf.tidy("inner", lambda: [a + 2, a * 0][0])
        seen["kept"], seen["lost"] = kept, lost
        assert not kept.is_disposed and not lost.is_disposed
        assert mem()[0] == 3
        return kept                                   # ... and the outer one only if returned
    r = tf.tidy("outer", outer)
    assert r is seen["kept"] and r.data_sync()[0] == 2.0
    assert seen["lost"].is_disposed
    assert mem()[0] == 2


def test_tidy_does_not_dispose_tensors_from_outside_its_scope():
    a = tf.tensor([1.0])

    def outer():
        b = a + 1
        tf.tidy(lambda: (b + 1, b)[1])                # returns a tensor of the outer scope
        assert not b.is_disposed
        return b
    assert tf.tidy(outer).data_sync()[0] == 2.0


def test_tidy_as_a_decorator_on_a_function_with_parameters():
    @tf.tidy
    def affine(x, w, b=1.0):
        """Doc."""
        return x * w + b
    a = tf.tensor([1.0, 2.0])
    assert affine.__name__ == "affine" and affine.__doc__ == "Doc."
    assert affine(a, 3).array_sync() == [4.0, 7.0]
    assert affine(a, w=2, b=0).array_sync() == [2.0, 4.0]
    assert mem()[0] == 3  # a and the two results; the products were disposed


def test_tidy_called_as_a_decorator_factory():
    a = tf.tensor([2.0])

    @tf.tidy()
    def no_args():
        return a * a + 1

    @tf.tidy("named")
    def with_args(x, y=1):
        return x * y + 1
    assert callable(no_args) and callable(with_args)
    assert mem()[0] == 1                              # nothing ran at decoration time
    assert no_args().data_sync()[0] == 5.0
    assert with_args(a, y=3).data_sync()[0] == 7.0
    assert mem()[0] == 3


def test_bare_tidy_on_a_function_without_parameters_runs_it_at_once():
    # tf.tidy(fn) runs fn, as in TF.js, so a bare decorator on a function of no parameters
    # replaces it by its result; use @tf.tidy() to get a function.
    @tf.tidy
    def value():
        return tf.scalar(1.0) + 1
    assert isinstance(value, tf.Tensor) and value.data_sync()[0] == 2.0
    assert mem()[0] == 1


def test_an_exception_inside_tidy_disposes_the_scope_and_propagates():
    a = tf.tensor([1.0])
    made = []

    def boom():
        made.append(a + 1)
        tf.tidy(lambda: made.append(a + 2))
        raise KeyError("boom")
    with pytest.raises(KeyError, match="boom"):
        tf.tidy(boom)
    assert all(t.is_disposed for t in made) and len(made) == 2
    assert mem() == (1, 1, 4)
    assert ENGINE.scopes == []

    def nested_failure():
        made.append(a * 3)
        return tf.tidy(lambda: [made.append(a * 4), tf.exp("not a tensor")])
    with pytest.raises(TypeError, match="exp"):
        tf.tidy(nested_failure)
    assert all(t.is_disposed for t in made) and mem() == (1, 1, 4)
    assert ENGINE.scopes == []
    assert tf.tidy(lambda: a + 1).data_sync()[0] == 2.0


def test_tidy_refuses_an_async_function_without_leaking_or_warning():
    a = tf.tensor([1.0])

    async def fetch():
        return a + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert_raises(tf.EngineError, lambda: tf.tidy(fetch), "tidy", "async")
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_keep_survives_tidy():
    a = tf.tensor([1.0])
    held = {}

    def f():
        held["kept"] = tf.keep(a + 1)
        held["lost"] = a + 2
        return None
    tf.tidy(f)
    assert not held["kept"].is_disposed and held["kept"].data_sync()[0] == 2.0
    assert held["lost"].is_disposed
    assert tf.keep(a) is a
    assert_raises(TypeError, lambda: tf.keep([a]), "keep")


def test_dispose_takes_tensors_and_nested_structures():
    ts = [tf.tensor([float(i)]) for i in range(5)]
    tf.dispose(ts[0])
    assert ts[0].is_disposed and mem()[0] == 4
    tf.dispose([ts[1], {"a": (ts[2], [ts[3]]), "b": "text"}, 5, None])
    assert all(t.is_disposed for t in ts[:4])
    assert not ts[4].is_disposed
    tf.dispose(ts)                                     # already disposed ones are skipped
    assert mem() == (0, 0, 0)
    tf.dispose(None)
    tf.dispose([])


# --- disposed tensors and the engine ----------------------------------------------------------

def test_the_engine_keeps_working_after_a_disposed_tensor_is_used():
    t = tf.tensor([1.0, 2.0])
    u = t * 2
    t.dispose()
    with pytest.raises(tf.DisposedTensorError, match="mul: Tensor is disposed"):
        tf.tidy(lambda: u * t)
    assert ENGINE.scopes == []
    assert mem() == (1, 1, 8)
    assert (u + 1).array_sync() == [3.0, 5.0]


# --- variables ---------------------------------------------------------------------------------

def test_variable_attributes():
    v = tf.variable(tf.tensor([1.0, 2.0]))
    assert isinstance(v, tf.Variable) and isinstance(v, tf.Tensor)
    assert (v.shape, v.dtype, v.trainable) == ((2,), "float32", True)
    assert isinstance(v.name, str)
    w = tf.variable([[1, 2]], trainable=False, name="w", dtype="int32")
    assert (w.name, w.trainable, w.dtype, w.array_sync()) == ("w", False, "int32", [[1, 2]])
    assert (v + 1).array_sync() == [2.0, 3.0]          # a variable is a tensor to every op


def test_variable_from_python_values_holds_the_only_tensor():
    v = tf.variable([1.7, -2.2], dtype="int32")
    assert v.array_sync() == [1, -2]
    assert mem() == (1, 1, 8)


def test_variable_shares_its_initial_values_data():
    t = tf.tensor([1.0, 2.0])
    v = tf.variable(t)
    assert mem() == (2, 1, 8)
    t.dispose()
    assert v.array_sync() == [1.0, 2.0] and mem() == (1, 1, 8)


def test_variable_names_are_unique():
    tf.variable([0.0], name="w")
    assert_raises(ValueError, lambda: tf.variable([1.0], name="w"), "variable", "'w'")
    a, b = tf.variable([0.0]), tf.variable([0.0])
    assert a.name != b.name
    assert_raises(TypeError, lambda: tf.variable([0.0], name=3), "variable", "'name'")


def test_auto_names_skip_names_taken_by_the_user():
    nxt = str(ENGINE.next_variable_id)
    tf.variable(tf.zeros([1]), name=nxt)
    v = tf.variable(tf.zeros([1]))                    # would have been named nxt
    assert v.name != nxt


def test_a_disposed_variables_name_is_free_again():
    v = tf.variable(tf.zeros([1]), name="w")
    v.dispose()
    assert tf.variable(tf.ones([1]), name="w").data_sync()[0] == 1.0


def test_assign_swaps_data():
    v = tf.variable([1.0, 2.0])
    new = tf.tensor([5.0, 6.0])
    assert v.assign(new) is v
    assert v.array_sync() == [5.0, 6.0]
    assert mem() == (2, 1, 8)                          # the old data is gone, the new one shared
    new.dispose()
    assert v.array_sync() == [5.0, 6.0] and mem() == (1, 1, 8)
    v.assign([7, 8])                                   # Python values: no tensor left behind
    assert v.array_sync() == [7.0, 8.0] and mem() == (1, 1, 8)


def test_assign_checks_dtype_and_shape():
    v = tf.variable(tf.tensor([1.0, 2.0]))
    i = tf.tensor([1, 2], dtype="int32")
    wide = tf.tensor([1.0, 2.0, 3.0])
    assert_raises(TypeError, lambda: v.assign(i), "assign", "int32", "float32")
    assert_raises(ValueError, lambda: v.assign(wide), "assign", "[3]", "[2]")
    assert_raises(TypeError, lambda: v.assign([True, False]), "assign", "bool")
    assert_raises(ValueError, lambda: v.assign([1.0]), "assign", "[1]")
    assert v.array_sync() == [1.0, 2.0]
    v.dispose()
    assert_raises(tf.DisposedTensorError, lambda: v.assign([1.0, 2.0]), "assign", "disposed")


def test_variables_survive_tidy():
    v = tf.tidy(lambda: tf.variable(tf.ones([2]) * 3, name="v"))
    assert v.array_sync() == [3.0, 3.0]
    assert mem() == (1, 1, 8)
    tf.tidy(lambda: v.assign(v + 1))                   # the new value outlives its scope in v
    assert v.array_sync() == [4.0, 4.0] and not v.is_disposed
    assert mem() == (1, 1, 8)

    def make_inside():
        tf.variable(tf.zeros([1]), name="inner")
        return None
    tf.tidy(make_inside)
    assert mem()[0] == 2


def test_dispose_variables():
    t = tf.tensor([1.0])
    vs = [tf.variable([0.0, 0.0]) for _ in range(3)]
    tf.dispose_variables()
    assert all(v.is_disposed for v in vs)
    assert not t.is_disposed and mem() == (1, 1, 4)


# --- data moving between backends --------------------------------------------------------------

@pytest.fixture
def second_cpu():
    """'cpu2': another numpy backend with the cpu kernels registered for it by name."""
    tf.register_backend("cpu2", CPUBackend, priority=0)
    names = tf.get_kernels_for_backend("cpu")
    for name in names:
        tf.register_kernel(name, "cpu2", tf.get_kernel(name, "cpu"))
    yield
    for name in tf.get_kernels_for_backend("cpu2"):
        tf.unregister_kernel(name, "cpu2")
    tf.set_backend("cpu")
    tf.remove_backend("cpu2")


def test_data_moves_to_the_backend_that_uses_it(second_cpu):
    cpu = tf.find_backend("cpu")
    a = tf.tensor([1.0, 2.0, 3.0])
    shared = reshape(a, [3, 1])
    assert a.data_id.backend is cpu
    assert tf.set_backend("cpu2") and tf.get_backend() == "cpu2"
    cpu2 = tf.find_backend("cpu2")
    assert cpu2 is not cpu
    b = a + 1
    assert b.data_id.backend is cpu2
    assert a.data_id.backend is cpu2 and shared.data_id.backend is cpu2   # shared data moves once
    assert a.data_id not in cpu.store and len(cpu.store) == 0
    assert mem() == (3, 2, 24)
    assert b.array_sync() == [2.0, 3.0, 4.0] and shared.array_sync() == [[1.0], [2.0], [3.0]]

    # reading does not move data; the next kernel on cpu moves it back
    tf.set_backend("cpu")
    assert a.data_sync().tolist() == [1.0, 2.0, 3.0] and a.data_id.backend is cpu2
    c = tf.mul(a, b)
    assert a.data_id.backend is cpu and b.data_id.backend is cpu
    assert c.array_sync() == [2.0, 6.0, 12.0]
    assert len(cpu2.store) == 0 and mem() == (4, 3, 36)


def test_a_kernel_missing_on_the_active_backend_is_not_borrowed_from_another(second_cpu):
    tf.unregister_kernel("Exp", "cpu2")
    tf.set_backend("cpu2")
    a = tf.tensor([0.0])
    assert_raises(NotImplementedError, lambda: tf.exp(a), "'Exp'", "'cpu2'")
    assert (a + 1).data_sync()[0] == 1.0


# --- public names --------------------------------------------------------------------------------

from pytfweb.host.coverage import tfjs_api
API = tfjs_api()
TF_NAMES = API["python_names"]["tf"]
TFJS_NAMESPACES = [k for k in API["python_names"] if k != "tf"]


def _norm(name):
    return name.replace("_", "").lower()


def _misspelled(names, ns=None):
    """Names that are a TF.js function under another spelling (matMul, matmul, isnan, ...).
    Classes keep their CamelCase names (tf.Tensor beside tf.tensor)."""
    expected = {_norm(js): py for js, py in TF_NAMES.items()}
    return {n: expected[_norm(n)] for n in names
            if not n.startswith("_") and _norm(n) in expected and n != expected[_norm(n)]
            and not isinstance(getattr(ns, n, None), type)}


def test_exported_names_are_spelled_as_tfjs_python_names():
    assert _misspelled(dir(tf), tf) == {}
    assert _misspelled(tf.__all__, tf) == {}


def test_tensor_methods_are_spelled_as_tfjs_python_names():
    assert _misspelled(dir(tf.Tensor), tf.Tensor) == {}


def test_the_name_check_catches_misspellings():
    assert _misspelled(["matMul", "matmul", "isnan", "arg_max", "mat_mul", "my_helper"]) == \
        {"matMul": "mat_mul", "matmul": "mat_mul", "isnan": "is_nan"}


def test_engine_functions_are_exported_under_tfjs_names():
    for js in ("tidy", "keep", "dispose", "memory", "setBackend", "getBackend", "registerBackend",
               "removeBackend", "findBackend", "findBackendFactory", "ready", "disposeVariables",
               "enableDebugMode", "enableProdMode", "getKernel", "registerKernel", "unregisterKernel",
               "getKernelsForBackend", "engine", "env", "backend", "print", "tensor", "scalar", "variable",
               "zeros", "ones", "fill", "zerosLike", "onesLike", "range", "linspace", "eye", "randomNormal",
               "randomUniform", "truncatedNormal", "clone", "upcastType", "sumOutType"):
        assert callable(getattr(tf, TF_NAMES[js])), js


def test_no_op_family_module_shadows_a_name():
    import types
    modules = {n for n in tf.__all__ if isinstance(getattr(tf, n), types.ModuleType)}
    # the only modules exported are TF.js's sub-namespaces (tf.image, tf.losses, ...)
    assert modules <= set(TFJS_NAMESPACES), modules - set(TFJS_NAMESPACES)
    for n in ("matmul", "shape", "creation", "reduction"):
        assert not isinstance(getattr(tf, n, None), types.ModuleType), n


@pytest.mark.parametrize("expr, op", [
    (lambda a, b: a + b, "add"), (lambda a, b: a - b, "sub"), (lambda a, b: a * b, "mul"),
    (lambda a, b: a // b, "floor_div"), (lambda a, b: a % b, "mod"), (lambda a, b: a ** b, "pow"),
    (lambda a, b: a < b, "less"), (lambda a, b: a <= b, "less_equal"), (lambda a, b: a > b, "greater"),
    (lambda a, b: a >= b, "greater_equal"), (lambda a, b: a @ b, "mat_mul"),
    (lambda a, b: -a, "neg"), (lambda a, b: abs(a), "abs"),
])
def test_python_operators_map_to_tfjs_ops(expr, op):
    assert op in TF_NAMES.values()
    a = tf.tensor([[1.0, -2.0], [3.0, 4.0]])
    b = tf.tensor([[2.0, 2.0], [-1.0, 3.0]])
    got, want = expr(a, b), getattr(tf, op)(*((a, b) if op not in ("neg", "abs") else (a,)))
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_division_and_logical_operators():
    i = tf.tensor([7, -7], dtype="int32")
    assert (i / 2).dtype == "float32" and (i / 2).array_sync() == [3.5, -3.5]   # true division
    assert tf.div(i, 2).array_sync() == [3, -4]                                    # TF.js div on int32
    p, q = tf.tensor([True, True, False]), tf.tensor([True, False, False])
    assert (p & q).array_sync() == tf.logical_and(p, q).array_sync() == [True, False, False]
    assert (p | q).array_sync() == [True, True, False]
    assert (~q).array_sync() == [False, True, True]
