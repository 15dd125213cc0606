"""Allocation and nesting limits (pytfweb/core/limits.py, tf.env() flags MAX_TENSOR_ELEMENTS,
MAX_MODEL_PARAMETERS, MAX_NESTING_DEPTH): every size an argument or a model file gives is checked
before anything is allocated, a model's weights are checked as a layer builds them, nested lists
deeper than the limit are a ValueError naming op and argument (never a RecursionError), each error
leaves the engine working with no tensor leaked, and the random ops, now drawn in blocks, give the
values they gave one at a time.

The dangerous cases (sizes of 2**40, a model.json with `units: 10**9`) run in one subprocess whose
address space is capped at 3 GB, each case under an alarm: a regression fails as a MemoryError or a
timeout there, instead of eating the machine. No test here asserts a duration."""
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pytfweb as tf
from pytfweb import util
from pytfweb.core import prng
from pytfweb.core import tensor_values as convert
from pytfweb.layers import serialization
from pytfweb.ops import creation, random_ops

from .helpers import assert_raises

REPO = Path(__file__).resolve().parents[2]
MEMORY_BYTES = 3 << 30
CASE_SECONDS = 60
BIG = 2 ** 40


# --- the dangerous cases, in a capped subprocess ---------------------------------------------------

def _layers_model(*layers):
    return {"class_name": "Sequential", "config": {"name": "stranger", "layers": list(layers)}}


MODEL_FILES = {
    "dense_units": _layers_model({"class_name": "Dense", "config": {
        "name": "dense_1", "units": 10 ** 9, "batch_input_shape": [None, 3]}}),
    "input_width": _layers_model({"class_name": "Dense", "config": {
        "name": "dense_1", "units": 3, "batch_input_shape": [None, 10 ** 12]}}),
    "embedding": _layers_model({"class_name": "Embedding", "config": {
        "name": "emb", "input_dim": 10 ** 12, "output_dim": 8, "batch_input_shape": [None, 5]}}),
    "conv_filters": _layers_model({"class_name": "Conv2D", "config": {
        "name": "conv", "filters": 10 ** 9, "kernel_size": [3, 3], "batch_input_shape": [None, 8, 8, 3]}}),
    "lstm_units": _layers_model({"class_name": "LSTM", "config": {
        "name": "lstm", "units": 10 ** 6, "batch_input_shape": [None, 5, 3]}}),
    "functional": {"class_name": "Model", "config": {"name": "m", "layers": [
        {"class_name": "InputLayer", "name": "in", "config": {"name": "in", "batch_input_shape": [None, 4]},
         "inbound_nodes": []},
        {"class_name": "Dense", "name": "big", "config": {"name": "big", "units": 10 ** 9},
         "inbound_nodes": [[["in", 0, 0, {}]]]}],
        "input_layers": [["in", 0, 0]], "output_layers": [["big", 0, 0]]}},
}

# name: (setup code, code that must raise, fragments of the ValueError's message). The setup's
# tensors are made before the tensors are counted.
DANGEROUS = {
    "fill": ("", "tf.fill([BIG], 1.0)", ["fill", "'shape'", "MAX_TENSOR_ELEMENTS"]),
    "fill_string": ("", "tf.fill([BIG], 'a', 'string')", ["fill", "'shape'"]),
    "zeros": ("", "tf.zeros([10**6, 10**6])", ["zeros", "'shape'", "1000000x1000000"]),
    "ones": ("", "tf.ones([BIG], 'int32')", ["ones", "'shape'"]),
    "range": ("", "tf.range(0, BIG)", ["range", "'stop'"]),
    "range_int32_fraction": ("", "tf.range(0, BIG, 0.5, 'int32')", ["range", "'step'"]),
    "linspace": ("", "tf.linspace(0, 1, BIG)", ["linspace", "'num'"]),
    "eye": ("", "tf.eye(2**20)", ["eye", "'num_rows'"]),
    "eye_batch": ("", "tf.eye(2, batch_shape=[2**20, 2**20])", ["eye", "'batch_shape'"]),
    "random_normal": ("", "tf.random_normal([BIG])", ["random_normal", "'shape'"]),
    "random_normal_seeded": ("", "tf.random_normal([2**31], seed=1)", ["random_normal", "'shape'"]),
    "truncated_normal": ("", "tf.truncated_normal([BIG])", ["truncated_normal", "'shape'"]),
    "random_uniform": ("", "tf.random_uniform([BIG])", ["random_uniform", "'shape'"]),
    "random_standard_normal": ("", "tf.random_standard_normal([BIG])", ["random_normal", "'shape'"]),
    "random_gamma": ("", "tf.random_gamma([BIG], 0.5)", ["random_gamma", "'shape'"]),
    "random_uniform_int": ("", "tf.random_uniform_int([BIG], 0, 9)", ["random_uniform", "'shape'"]),
    "multinomial": ("x = tf.tensor([0.5, 0.5])", "tf.multinomial(x, BIG, seed=1)", ["multinomial", "'num_samples'"]),
    "one_hot": ("x = tf.tensor([1, 2], dtype='int32')", "tf.one_hot(x, BIG)", ["one_hot", "'depth'"]),
    "tile": ("x = tf.ones([2, 2])", "tf.tile(x, [2**20, 2**20])", ["tile", "'reps'"]),
    "pad": ("x = tf.ones([2])", "tf.pad(x, [[BIG, 0]])", ["pad", "'paddings'"]),
    "broadcast_to": ("x = tf.ones([1])", "tf.broadcast_to(x, [BIG])", ["broadcast_to", "'shape'"]),
    "scatter_nd": ("i = tf.tensor([[0]], dtype='int32'); u = tf.ones([1])", "tf.scatter_nd(i, u, [BIG])",
                   ["scatter_nd", "'shape'"]),
    "sparse_to_dense": ("i = tf.tensor([0], dtype='int32'); v = tf.ones([1])", "tf.sparse_to_dense(i, v, [BIG])",
                        ["sparse_to_dense", "'output_shape'"]),
    "buffer": ("", "tf.buffer([BIG])", ["TensorBuffer", "'shape'"]),
    "rand": ("", "tf.rand([BIG], lambda: 1.0)", ["rand", "'shape'"]),
    "resize_bilinear": ("x = tf.ones([1, 2, 2, 1])", "tf.image.resize_bilinear(x, [2**20, 2**20])",
                        ["resize_bilinear", "'size'"]),
    "resize_nearest_neighbor": ("x = tf.ones([1, 2, 2, 1])", "tf.image.resize_nearest_neighbor(x, [2**20, 2**20])",
                                ["resize_nearest_neighbor", "'size'"]),
    "crop_and_resize": ("x = tf.ones([1, 2, 2, 1]); b = tf.tensor([[0, 0, 1, 1]]); i = tf.tensor([0], dtype='int32')",
                        "tf.image.crop_and_resize(x, b, i, [2**20, 2**20])", ["crop_and_resize", "'crop_size'"]),
    "unsorted_segment_sum": ("x = tf.ones([2]); s = tf.tensor([0, 1], dtype='int32')",
                             "tf.unsorted_segment_sum(x, s, BIG)", ["unsorted_segment_sum", "'num_segments'"]),
    "bincount": ("x = tf.tensor([1], dtype='int32'); w = tf.tensor([])", "tf.bincount(x, w, BIG)",
                 ["bincount", "'size'"]),
    "confusion_matrix": ("a = tf.tensor([1]); b = tf.tensor([1])", "tf.math.confusion_matrix(a, b, 2**20)",
                         ["confusion_matrix", "'num_classes'"]),
    "hann_window": ("", "tf.signal.hann_window(BIG)", ["hann_window", "'window_length'"]),
    "frame": ("x = tf.ones([3])", "tf.signal.frame(x, BIG, 1, True)", ["frame", "'frame_length'"]),
    "rfft": ("x = tf.ones([4])", "tf.spectral.rfft(x, BIG)", ["rfft", "'fft_length'"]),
    "conv2d_transpose": ("x = tf.ones([1, 1, 1, 1]); f = tf.ones([1, 1, 1, 1])",
                         "tf.conv2d_transpose(x, f, [1, 2**20, 2**20, 1], 2**20, 'same')",
                         ["conv2d_transpose", "'output_shape'"]),
    "space_to_batch_nd": ("x = tf.ones([1, 2, 1])", "tf.space_to_batch_nd(x, [2], [[0, BIG]])",
                          ["space_to_batch_nd", "'paddings'"]),
    # model.json files (written by the fixture; PATH is the case's file)
    "model_dense_units": ("", "tf.load_layers_model_sync(PATH)",
                          ["Dense 'dense_1'", "weight 'kernel'", "3x1000000000", "MAX_TENSOR_ELEMENTS"]),
    "model_input_width": ("", "tf.load_layers_model_sync(PATH)",
                          ["InputLayer 'dense_1_input'", "batch_input_shape", "MAX_TENSOR_ELEMENTS"]),
    "model_embedding": ("", "tf.load_layers_model_sync(PATH)", ["Embedding 'emb'", "weight 'embeddings'"]),
    "model_conv_filters": ("", "tf.load_layers_model_sync(PATH)", ["Conv2D 'conv'", "weight 'kernel'"]),
    "model_lstm_units": ("", "tf.load_layers_model_sync(PATH)", ["'lstm'", "weight 'recurrent_kernel'"]),
    "model_functional": ("", "tf.load_layers_model_sync(PATH)", ["Dense 'big'", "weight 'kernel'"]),
}

_RUNNER = textwrap.dedent("""
    import json, resource, signal, sys, time
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    class CaseTimeout(Exception):
        pass

    def on_alarm(signum, frame):
        raise CaseTimeout("the case ran past its time limit")

    signal.signal(signal.SIGALRM, on_alarm)
    import pytfweb as tf
    tf.set_backend("cpu")
    for case in json.loads(sys.stdin.read()):
        scope = {"tf": tf, "BIG": 2 ** 40, "PATH": case["path"]}
        exec(case["setup"], scope)
        before = tf.memory()["num_tensors"]
        signal.alarm(int(sys.argv[2]))
        try:
            exec(case["run"], scope)
            error, message = None, None
        except BaseException as e:   # MemoryError and the alarm's exception too
            error, message = type(e).__name__, str(e)
        finally:
            signal.alarm(0)
        leaked = tf.memory()["num_tensors"] - before
        works = tf.tidy(lambda: tf.add(tf.scalar(1), tf.scalar(2))).data_sync()[0] == 3
        print(json.dumps({"name": case["name"], "error": error, "message": message, "leaked": leaked,
                          "works": bool(works)}), flush=True)
""")


@pytest.fixture(scope="module")
def capped_results(tmp_path_factory):
    root = tmp_path_factory.mktemp("limits")
    cases = []
    for name, (setup, run, _) in DANGEROUS.items():
        path = ""
        if name.startswith("model_"):
            folder = root / name
            folder.mkdir()
            path = str(folder / "model.json")
            Path(path).write_text(json.dumps({"format": "layers-model", "modelTopology": MODEL_FILES[name[6:]],
                                              "weightsManifest": []}))
        cases.append({"name": name, "setup": setup, "run": run, "path": path})
    env = {**os.environ, "PYTHONPATH": str(REPO), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "NUMEXPR_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", _RUNNER, str(MEMORY_BYTES), str(CASE_SECONDS)], cwd=REPO, env=env,
                          input=json.dumps(cases), capture_output=True, text=True,
                          timeout=CASE_SECONDS * len(cases) + 120)
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            results[r["name"]] = r
    return results, proc


@pytest.mark.parametrize("name", list(DANGEROUS))
def test_a_size_from_an_argument_or_file_is_refused_before_allocating(capped_results, name):
    results, proc = capped_results
    r = results.get(name)
    assert r is not None, f"the capped runner died before this case: {proc.stderr[-3000:]}"
    assert r["error"] == "ValueError", f"expected a ValueError, got {r['error']}: {r['message']}"
    for fragment in DANGEROUS[name][2]:
        assert fragment in r["message"], f"{fragment!r} not in message: {r['message']}"
    assert r["leaked"] == 0, f"left {r['leaked']} tensors behind"
    assert r["works"]


# --- the flags -------------------------------------------------------------------------------------

def test_the_element_limit_is_a_flag_that_can_be_raised():
    tf.env().set("MAX_TENSOR_ELEMENTS", 1000)
    assert_raises(ValueError, lambda: tf.zeros([10, 101]), "zeros", "'shape'", "[10x101]", "1000",
                  "MAX_TENSOR_ELEMENTS")
    assert_raises(ValueError, lambda: tf.random_normal([1001], seed=1), "random_normal", "'shape'")
    assert_raises(ValueError, lambda: tf.eye(40), "eye")
    assert tf.zeros([10, 100]).shape == (10, 100)   # exactly the limit is allowed
    tf.env().set("MAX_TENSOR_ELEMENTS", 2000)
    assert tf.zeros([10, 101]).shape == (10, 101)
    assert tf.random_normal([1001], seed=1).shape == (1001,)
    assert tf.eye(40).shape == (40, 40)


def test_normal_sizes_are_unaffected_under_the_default_flags():
    assert tf.env().get("MAX_TENSOR_ELEMENTS") == 2 ** 30
    assert tf.zeros([1024, 1024]).size == 2 ** 20
    assert tf.fill([3, 0, 2], 7).shape == (3, 0, 2)
    assert tf.random_uniform([512, 512], seed=3).shape == (512, 512)
    assert tf.range(0, 10).data_sync().tolist() == list(range(10))
    np.testing.assert_array_equal(tf.eye(3, 4, [2], "int32").numpy(), np.broadcast_to(np.eye(3, 4), (2, 3, 4)))
    np.testing.assert_array_equal(tf.eye(4, 2, dtype="bool").numpy(), np.eye(4, 2, dtype=bool))
    assert tf.eye(0).shape == (0, 0) and tf.eye(2, 0, [3]).shape == (3, 2, 0)
    assert tf.one_hot(tf.tensor([0, 2], dtype="int32"), 3).numpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert tf.tile(tf.ones([2]), [3]).shape == (6,)


def test_a_weight_over_the_element_limit_names_layer_and_weight():
    tf.env().set("MAX_TENSOR_ELEMENTS", 1000)
    model = tf.sequential()
    assert_raises(ValueError, lambda: model.add(tf.layers.dense(units=101, input_shape=[10], name="wide")),
                  "Dense 'wide'", "weight 'kernel'", "10x101", "MAX_TENSOR_ELEMENTS")


def test_the_model_parameter_limit_counts_the_model_being_built():
    tf.env().set("MAX_MODEL_PARAMETERS", 3 * 3660 - 30)   # room for two Dense(60) on 60 inputs, not three
    model = tf.sequential()
    model.add(tf.layers.dense(units=60, input_shape=[60]))
    model.add(tf.layers.dense(units=60))
    third = tf.layers.dense(units=60, name="third")
    # The kernel fits under the limit, the bias does not: the kernel made first is disposed again.
    assert_raises(ValueError, lambda: model.add(third), "Dense 'third'", "weight 'bias'", "10980 parameters",
                  "MAX_MODEL_PARAMETERS")
    assert not third.built and third.weights == []
    # a functional graph counts the layers upstream of the inputs
    x = tf.input(shape=[60])
    y = tf.layers.dense(units=60).apply(tf.layers.dense(units=60).apply(x))
    assert_raises(ValueError, lambda: tf.layers.dense(units=60, name="fn").apply(y), "Dense 'fn'",
                  "10980 parameters", "MAX_MODEL_PARAMETERS")
    # raised, the same layer builds and the model runs
    tf.env().set("MAX_MODEL_PARAMETERS", 2 ** 30)
    model.add(third)
    assert model.count_params() == 3 * 3660
    assert model.predict(tf.ones([2, 60])).shape == (2, 60)


def test_the_model_parameter_limit_applies_to_a_model_file(tmp_path):
    tf.env().set("MAX_MODEL_PARAMETERS", 10000)
    layers = [{"class_name": "Dense", "config": {"name": f"d{i}", "units": 60,
                                                 **({"batch_input_shape": [None, 60]} if i == 0 else {})}}
              for i in range(4)]
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"format": "layers-model", "modelTopology": _layers_model(*layers),
                                "weightsManifest": []}))
    assert_raises(ValueError, lambda: tf.load_layers_model_sync(str(path)), "Dense 'd2'", "weight 'kernel'",
                  "10920 parameters", "10000", "MAX_MODEL_PARAMETERS")
    assert_raises(ValueError, lambda: serialization.model_from_topology(_layers_model(*layers)), "Dense 'd2'")
    tf.env().set("MAX_MODEL_PARAMETERS", 20000)
    model = tf.load_layers_model_sync(str(path), strict=False)   # (a topology alone: no weights to load)
    assert model.count_params() == 4 * 3660
    model.dispose()


def test_an_input_layer_wider_than_the_limit_is_refused():
    assert_raises(ValueError, lambda: tf.input(shape=[10 ** 6, 10 ** 6], name="huge"), "InputLayer 'huge'",
                  "batch_input_shape", "[null,1000000,1000000]", "MAX_TENSOR_ELEMENTS")
    assert tf.input(shape=[None, 3]).shape == (None, None, 3)   # unknown sizes are no problem


# --- nesting ---------------------------------------------------------------------------------------

def _nested(depth, leaf=1):
    v = leaf
    for _ in range(depth):
        v = [v]
    return v


@pytest.mark.parametrize("depth", [101, 1000, 100_000])
def test_deeply_nested_values_are_a_value_error(depth):
    deep = _nested(depth)
    assert_raises(ValueError, lambda: tf.tensor(deep), "tensor: argument 'values' nests deeper than 100",
                  "MAX_NESTING_DEPTH")
    assert_raises(ValueError, lambda: tf.tensor2d(deep), "argument 'values'", "nests deeper")
    assert_raises(ValueError, lambda: tf.add(deep, 1), "add", "nests deeper")
    assert_raises(ValueError, lambda: tf.variable(deep), "variable", "'initial_value'", "nests deeper")
    assert_raises(ValueError, lambda: convert.to_flat(deep, "float32", "to_flat"), "to_flat", "nests deeper")
    assert_raises(ValueError, lambda: util.flatten(deep), "flatten", "nests deeper")
    assert_raises(ValueError, lambda: tf.buffer([1], "float32", deep), "nests deeper")


def test_nesting_up_to_the_limit_is_fine_and_the_limit_is_a_flag():
    tf.env().set("MAX_NESTING_DEPTH", 5)
    assert tf.tensor(_nested(5)).shape == (1,) * 5
    assert_raises(ValueError, lambda: tf.tensor(_nested(6)), "nests deeper than 5")
    tf.env().set("MAX_NESTING_DEPTH", 6)
    assert tf.tensor(_nested(6)).shape == (1,) * 6
    assert util.flatten([1, [2, [3, (4, 5)]], [6]]) == [1, 2, 3, 4, 5, 6]


def test_ragged_and_mixed_values_keep_their_errors():
    assert_raises(ValueError, lambda: tf.tensor([[1, 2], [3]]), "tensor: argument 'values' is ragged",
                  "expected 2 elements at depth 1")
    assert_raises(ValueError, lambda: tf.tensor([[1, 2], 3]), "is ragged", "got a scalar")
    assert_raises(ValueError, lambda: tf.tensor([[1, [2]], [3, 4]]), "is ragged", "nesting deeper")
    assert tf.tensor([[[1, 2]], [[3, 4]]]).shape == (2, 1, 2)
    assert tf.zeros([2, 0, 3]).array_sync() == [[], []]
    assert tf.zeros([2, 3, 0]).array_sync() == [[[], [], []], [[], [], []]]


def test_tensors_in_a_deeply_nested_container_are_found_without_recursion():
    t = tf.scalar(1)
    before = tf.memory()["num_tensors"]
    tf.dispose(_nested(10_000, t))
    assert tf.memory()["num_tensors"] == before - 1 and t.is_disposed


def test_a_model_thousands_of_layers_deep_builds():
    x = tf.input(shape=[2])
    y = x
    for _ in range(1500):
        y = tf.layers.activation(activation="relu").apply(y)
    model = tf.model(inputs=x, outputs=y)
    assert len(model.layers) == 1501
    assert model.predict(tf.tensor([[1.0, -1.0]])).array_sync() == [[1.0, 0.0]]


# --- random draws in blocks: the values drawn one at a time ----------------------------------------

@pytest.mark.parametrize("seed", ["1", "abc", "0.25"])
def test_alea_take_is_the_stream_of_single_draws(seed):
    one, many = prng.Alea(seed), prng.Alea(seed)
    for n in (0, 1, 7, 8, 100, 65536 + 5, 3):
        assert [one() for _ in range(n)] == many.take(n).tolist()
        assert (one.s0, one.s1, one.s2, one.c) == (many.s0, many.s1, many.s2, many.c)


@pytest.mark.parametrize("mean, stddev, truncated", [(0.0, 1.0, False), (2, 3, False), (-1.5, 0.25, True),
                                                     (0.0, 1.0, True), (np.float32(0.5), 2.0, False)])
def test_gaussian_take_is_the_stream_of_single_draws(mean, stddev, truncated):
    one, many = prng.Gaussian(mean, stddev, truncated, 5), prng.Gaussian(mean, stddev, truncated, 5)
    expected = [one.next() for _ in range(5000)]
    got = list(many.take(1)) + [many.next() for _ in range(3)] + list(many.take(2000)) + [many.next()]
    got += list(many.take(2995))
    assert got == expected


class _StepwiseGamma:
    """TF.js's RandGamma one draw at a time, as pytfweb drew it before take(n)."""

    def __init__(self, alpha, beta, dtype, seed):
        self.alpha, self.beta = alpha, beta
        self.uniform = prng.make_uniform(seed)
        normal = prng.Gaussian(0.0, 1.0, False, random_ops._js_number_string(self.uniform())).next
        self.normal = (lambda: math.floor(normal() + 0.5)) if dtype == "int32" else normal
        self.d = alpha + 2 / 3 if alpha < 1 else alpha - 1 / 3
        self.c = 1 / math.sqrt(9 * self.d)

    def next(self):
        while True:
            while True:
                x = self.normal()
                v = 1 + self.c * x
                if v > 0:
                    break
            v = v * v * v
            x2 = x * x
            u = self.uniform()
            if u < 1 - 0.331 * x2 * x2 or math.log(u) < 0.5 * x2 + self.d * (1 - v + math.log(v)):
                break
        v = self.beta * self.d * v
        if self.alpha < 1:
            v *= self.uniform() ** (1 / self.alpha)
        return v


@pytest.mark.parametrize("alpha, beta, dtype", [(0.5, 1.0, "float32"), (2.5, 1.5, "float32"), (1.0, 2.0, "int32"),
                                                (0.1, 3.0, "int32"), (9.0, 0.5, "float32")])
def test_gamma_take_is_the_stream_of_single_draws(alpha, beta, dtype):
    one, many = _StepwiseGamma(alpha, beta, dtype, 7), random_ops._Gamma(alpha, beta, dtype, 7)
    expected = [one.next() for _ in range(20000)]
    got = list(many.take(5)) + [many.next() for _ in range(10)] + list(many.take(15000)) + list(many.take(4985))
    assert [float(v) for v in got] == expected


def test_random_ops_values_are_those_of_single_draws():
    n = 70000   # more than one block
    g = prng.Gaussian(0.5, 2, False, 3)
    expected = np.array([g.next() for _ in range(n)], np.float32)
    np.testing.assert_array_equal(tf.random_normal([n], 0.5, 2, seed=3).numpy(), expected)
    g = prng.Gaussian(0, 4, True, 3)
    expected = np.array([math.floor(g.next() + 0.5) for _ in range(n)], np.int32)
    np.testing.assert_array_equal(tf.truncated_normal([n], 0, 4, "int32", seed=3).numpy(), expected)
    u = prng.Alea("3")
    expected = np.array([int(-5 + 10 * u()) for _ in range(n)], np.int32)
    np.testing.assert_array_equal(tf.random_uniform([n], -5, 5, "int32", seed=3).numpy(), expected)
    gamma = _StepwiseGamma(0.5, 2.0, "float32", 3)
    expected = np.array([gamma.next() for _ in range(n)], np.float32)
    np.testing.assert_array_equal(tf.random_gamma([n], 0.5, 2.0, seed=3).numpy(), expected)
    # no seed: a fresh Alea each time (seeded from Python's random, as TF.js seeds from Math.random)
    assert not np.array_equal(tf.random_uniform([10]).numpy(), tf.random_uniform([10]).numpy())


def test_random_ops_give_the_same_values_on_the_path_without_numpy(monkeypatch):
    def draws():
        return [tf.random_normal([70001], 1, 2, seed=5), tf.truncated_normal([1000], 0, 3, "int32", seed=5),
                tf.random_uniform([5000], -3, 3, "int32", seed=2), tf.random_uniform([5000], seed=2),
                tf.random_gamma([3000], 2.5, seed=1), tf.random_gamma([3000], 0.5, 2, "int32", seed=1)]
    expected = [t.numpy() for t in draws()]
    for module in (creation, prng, random_ops):   # as in the browser: array.array buffers, Python loops
        monkeypatch.setattr(module, "np", None)
    for want, got in zip(expected, draws()):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


_WITHOUT_NUMPY = textwrap.dedent("""
    import math, sys
    sys.modules["numpy"] = None   # as in Pyodide here: pytfweb without numpy
    from pytfweb import util
    from pytfweb.core import prng
    from pytfweb.core import tensor_values as convert
    from pytfweb.ops import creation, random_ops
    assert prng.np is None and random_ops.np is None
    one, many = prng.Alea("abc"), prng.Alea("abc")
    for n in (0, 1, 8, 100, 65536 + 5):
        assert [one() for _ in range(n)] == many.take(n)
    for truncated in (False, True):
        one, many = prng.Gaussian(1, 2, truncated, 9), prng.Gaussian(1, 2, truncated, 9)
        assert [one.next() for _ in range(3000)] == many.take(1) + [many.next()] + many.take(2998)
    for alpha, dtype in ((0.5, "float32"), (2.5, "int32")):
        a, b = random_ops._Gamma(alpha, 1.5, dtype, 4), random_ops._Gamma(alpha, 1.5, dtype, 4)
        assert [a.next() for _ in range(3000)] == b.take(3000)
    deep = 1
    for _ in range(5000):
        deep = [deep]
    for f in (lambda: convert.values_shape(deep), lambda: convert.to_flat(deep, "float32"), lambda: util.flatten(deep)):
        try:
            f()
            raise SystemExit("no error")
        except ValueError as e:
            assert "nests deeper than 100" in str(e), e
    print("ok")
""")


def test_without_numpy_the_block_draws_and_nesting_checks_agree():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", _WITHOUT_NUMPY], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]
