"""tf.train optimizers.

Each update rule is checked over 10 steps on several variables against its formula written
out independently in numpy (float64, TF.js's formulas including its quirks), and against
TensorFlow.js itself run in node on the same gradients (bit for bit: both compute in float32
with correctly rounded +, -, *, /, sqrt). Then minimize (var_list, non-trainable variables,
return_cost, memory), get_weights/set_weights, dispose and argument errors.
"""
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.core.errors import EngineError

from .helpers import assert_raises

REPO = Path(__file__).resolve().parents[2]
SHAPES = {"kernel": (2, 3), "bias": (3,), "scale": ()}   # names are not integer-like: JS keeps their order
STEPS = 10
NO_GRADIENT = {(4, "bias")}   # (step, variable) pairs given a None gradient: the variable is left alone

# (factory, positional arguments as TF.js takes them); epsilon None is the backend's, 1e-7 on cpu
CASES = [
    ("sgd", [0.1]),
    ("momentum", [0.1, 0.9]),
    ("momentum", [0.05, 0.8, True]),
    ("adagrad", [0.1]),
    ("adagrad", [0.2, 0.5]),
    ("adadelta", []),
    ("adadelta", [1.0, 0.9, 1e-6]),
    ("adam", []),
    ("adam", [0.05, 0.8, 0.99, 1e-3]),
    ("adamax", []),
    ("adamax", [0.02, 0.8, 0.99, 1e-3, 0.1]),
    ("rmsprop", [0.01]),
    ("rmsprop", [0.01, 0.8, 0.5]),
    ("rmsprop", [0.01, 0.9, 0.9, None, True]),
]
CASE_IDS = [f"{name}{args}" for name, args in CASES]

DEFAULTS = {  # TF.js's defaults, to complete the arguments for the numpy reference
    "sgd": [None], "momentum": [None, None, False], "adagrad": [None, 0.1], "adadelta": [0.001, 0.95, None],
    "adam": [0.001, 0.9, 0.999, None], "adamax": [0.002, 0.9, 0.999, None, 0.0],
    "rmsprop": [None, 0.9, 0.0, None, False],
}
SLOTS = {"sgd": [], "momentum": ["momentum"], "adagrad": ["accumulator"], "adadelta": ["accum_grad", "accum_var"],
         "adam": ["m", "v"], "adamax": ["m", "v"], "rmsprop": ["rms", "momentum"]}
EPS = 1e-7


def _full_args(name, args):
    full = list(args) + DEFAULTS[name][len(args):]
    return [EPS if a is None else a for a in full]


def _slot_kinds(name, args):
    kinds = list(SLOTS[name])
    if name == "rmsprop" and _full_args(name, args)[4]:
        kinds.append("mg")
    return kinds


# --- the update rules in numpy ----------------------------------------------------------------

def _initial_slot(name, args, kind, shape):
    if name == "adagrad":
        return np.full(shape, _full_args(name, args)[1])
    return np.zeros(shape)


def _numpy_step(name, args, x, g, s, t):
    """One update of x (float64) with gradient g at step t (from 1); s: this variable's slots."""
    if name == "sgd":
        (lr,) = _full_args(name, args)
        return x - lr * g
    if name == "momentum":
        lr, mom, nesterov = _full_args(name, args)
        s["momentum"] = mom * s["momentum"] + g
        return x - lr * (g + mom * s["momentum"] if nesterov else s["momentum"])
    if name == "adagrad":
        lr, _ = _full_args(name, args)
        s["accumulator"] = s["accumulator"] + g * g
        return x - lr * g / np.sqrt(s["accumulator"] + EPS)
    if name == "adadelta":
        lr, rho, eps = _full_args(name, args)
        # TF.js divides by the accumulated squared gradient of the previous step
        update = np.sqrt(s["accum_var"] + eps) / np.sqrt(s["accum_grad"] + eps) * g
        s["accum_grad"] = rho * s["accum_grad"] + (1 - rho) * g * g
        s["accum_var"] = rho * s["accum_var"] + (1 - rho) * update * update
        return x - lr * update
    if name == "adam":
        lr, b1, b2, eps = _full_args(name, args)
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = b2 * s["v"] + (1 - b2) * g * g
        return x - lr * (s["m"] / (1 - b1 ** t)) / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps)
    if name == "adamax":
        lr, b1, b2, eps, decay = _full_args(name, args)
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = np.maximum(b2 * s["v"], np.abs(g))
        return x - lr / (1 + (t - 1) * decay) / (1 - b1 ** t) * s["m"] / (s["v"] + eps)
    if name == "rmsprop":
        lr, decay, mom, eps, centered = _full_args(name, args)
        s["rms"] = decay * s["rms"] + (1 - decay) * g * g
        if centered:
            s["mg"] = decay * s["mg"] + (1 - decay) * g
            denominator = np.sqrt(s["rms"] - (s["mg"] ** 2 + eps))   # TF.js's centered form
        else:
            denominator = np.sqrt(s["rms"] + eps)
        s["momentum"] = mom * s["momentum"] + lr * g / denominator
        return x - s["momentum"]
    raise AssertionError(name)


def _numpy_run(name, args, initial, grads):
    """[(variables, weights)] after each step; weights as get_weights names them (iter first)."""
    x = {k: v.astype(np.float64) for k, v in initial.items()}
    kinds = _slot_kinds(name, args)
    slots = {}
    out = []
    for t, step in enumerate(grads, 1):
        for var, g in step.items():
            s = slots.setdefault(var, {k: _initial_slot(name, args, k, x[var].shape) for k in kinds})
            if g is not None:
                x[var] = _numpy_step(name, args, x[var], g.astype(np.float64), s, t)
        weights = [("iter", np.array(t))] + [(f"{var}/{k}", slots[var][k]) for k in kinds for var in slots]
        out.append(({k: v.copy() for k, v in x.items()}, [(n, np.array(v, copy=True)) for n, v in weights]))
    return out


# --- the same with pytfweb ----------------------------------------------------------------------

def _problem(seed=7):
    rng = np.random.default_rng(seed)
    initial = {k: rng.uniform(-2, 2, size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: (None if (t, k) in NO_GRADIENT else rng.uniform(-1.5, 1.5, size=s).astype(np.float32))
              for k, s in SHAPES.items()} for t in range(1, STEPS + 1)]
    return initial, grads


def _var(values, name, trainable=True):
    """A variable without a leftover handle to its initial tensor."""
    return tf.tidy(lambda: tf.variable(tf.tensor(values), trainable=trainable, name=name))


def _make_variables(initial):
    return {k: _var(v, k) for k, v in initial.items()}


def _pytfweb_run(name, args, initial, grads, as_list=False):
    variables = _make_variables(initial)
    opt = getattr(tf.train, name)(*args)
    out = []
    for step in grads:
        tensors = {k: None if g is None else tf.tensor(g, list(g.shape)) for k, g in step.items()}
        if as_list:
            opt.apply_gradients([{"name": k, "tensor": g} for k, g in tensors.items()])
        else:
            opt.apply_gradients(tensors)
        tf.dispose(list(tensors.values()))
        weights = opt.get_weights()
        out.append(({k: v.numpy() for k, v in variables.items()}, [(w["name"], w["tensor"].numpy()) for w in weights]))
        weights[0]["tensor"].dispose()
    return out, opt, variables


def _assert_runs_match(got, want, rtol, atol, exact_names=True):
    assert len(got) == len(want)
    for t, ((gv, gw), (wv, ww)) in enumerate(zip(got, want), 1):
        for k in wv:
            np.testing.assert_allclose(gv[k], wv[k], rtol=rtol, atol=atol, err_msg=f"step {t}, variable {k}")
        if ww is None:
            continue
        assert [n for n, _ in gw] == [n for n, _ in ww], f"step {t}: weight names"
        for (n, a), (_, b) in zip(gw, ww):
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"step {t}, weight {n}")


@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_update_rule_matches_numpy_over_10_steps(name, args):
    initial, grads = _problem()
    got, opt, variables = _pytfweb_run(name, args, initial, grads)
    _assert_runs_match(got, _numpy_run(name, args, initial, grads), rtol=2e-5, atol=2e-6)
    assert opt.iterations == STEPS
    # every variable moved, except where its gradient was None
    for k in SHAPES:
        assert not np.allclose(got[-1][0][k], initial[k])
    np.testing.assert_array_equal(got[3][0]["bias"], got[2][0]["bias"])   # step 4: no gradient for bias


@pytest.mark.parametrize("name, args", CASES[:1] + CASES[7:9], ids=CASE_IDS[:1] + CASE_IDS[7:9])
def test_apply_gradients_takes_a_list_of_named_tensors(name, args):
    initial, grads = _problem()
    by_dict, _, _ = _pytfweb_run(name, args, initial, grads)
    tf.dispose_variables()
    by_list, _, _ = _pytfweb_run(name, args, initial, grads, as_list=True)
    _assert_runs_match(by_list, by_dict, rtol=0, atol=0)


# --- against TensorFlow.js itself -------------------------------------------------------------------

_TFJS = r"""
const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
(async () => {
  await tf.setBackend('cpu');
  const specs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const results = [];
  for (const spec of specs) {
    tf.disposeVariables();
    const vars = {};
    for (const [name, v] of Object.entries(spec.variables)) {
      vars[name] = tf.variable(tf.tensor(v.values, v.shape), true, name);
    }
    const opt = tf.train[spec.factory](...spec.args);
    const run = [];
    for (const step of spec.steps) {
      const grads = {};
      for (const [name, g] of Object.entries(step)) grads[name] = g === null ? null : tf.tensor(g, vars[name].shape);
      opt.applyGradients(grads);
      tf.dispose(Object.values(grads).filter(g => g !== null));
      const rec = {variables: {}, weights: null};
      for (const [name, v] of Object.entries(vars)) rec.variables[name] = Array.from(v.dataSync());
      if (spec.factory !== 'adamax') {   // TF.js: "getWeights() is not implemented for Adamax yet"
        rec.weights = (await opt.getWeights()).map(w => [w.name, Array.from(w.tensor.dataSync())]);
      }
      run.push(rec);
    }
    opt.dispose();
    results.push(run);
  }
  process.stdout.write('\n@@RESULT@@' + JSON.stringify(results) + '\n');
})();
"""


def _tfjs_available():
    return shutil.which("node") is not None and (REPO / "node_modules/@tensorflow/tfjs-core").is_dir() \
        and (REPO / "node_modules/@tensorflow/tfjs-backend-cpu").is_dir()


@pytest.fixture(scope="module")
def tfjs_runs():
    """Every CASE run by TensorFlow.js 4.22 (tfjs-core + tfjs-backend-cpu) in node."""
    if not _tfjs_available():
        pytest.skip("node and node_modules/@tensorflow (npm ci) are needed to run TensorFlow.js")
    initial, grads = _problem()
    specs = [{"factory": name, "args": args,
              "variables": {k: {"values": v.ravel().tolist(), "shape": list(v.shape)} for k, v in initial.items()},
              "steps": [{k: None if g is None else g.ravel().tolist() for k, g in step.items()} for step in grads]}
             for name, args in CASES]
    proc = subprocess.run(["node", "-e", _TFJS], input=json.dumps(specs), capture_output=True, text=True,
                          cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    marker = next(line for line in proc.stdout.splitlines() if line.startswith("@@RESULT@@"))
    return json.loads(marker[len("@@RESULT@@"):])


@pytest.mark.parametrize("case", range(len(CASES)), ids=CASE_IDS)
def test_update_rule_matches_tfjs_bit_for_bit(case, tfjs_runs):
    name, args = CASES[case]
    initial, grads = _problem()
    got, _, _ = _pytfweb_run(name, args, initial, grads)
    want = []
    for rec in tfjs_runs[case]:
        variables = {k: np.float32(v).reshape(SHAPES[k]) for k, v in rec["variables"].items()}
        weights = None
        if rec["weights"] is not None:
            weights = [(n, np.array(v, dtype=np.int32 if n == "iter" else np.float32).reshape(
                () if n == "iter" else SHAPES[n.split("/")[0]])) for n, v in rec["weights"]]
        want.append((variables, weights))
    _assert_runs_match(got, want, rtol=0, atol=0)


# --- minimize ------------------------------------------------------------------------------------

XS = [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0]
YS = [-3.0, -1.0, 1.0, 3.0, 5.0, 7.0]


def _line_loss(a, b, xs, ys):
    return lambda: tf.mean(tf.square(tf.sub(tf.add(tf.mul(a, xs), b), ys)))


def test_minimize_fits_a_line_with_sgd():
    xs, ys = tf.tensor(XS), tf.tensor(YS)
    a, b = _var(0.0, "a"), _var(0.0, "b")
    opt = tf.train.sgd(0.05)
    for _ in range(200):
        assert opt.minimize(_line_loss(a, b, xs, ys)) is None
    assert abs(a.data_sync()[0] - 2) < 1e-3 and abs(b.data_sync()[0] + 1) < 1e-3
    assert opt.iterations == 200


@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_minimize_follows_the_update_rule(name, args):
    """loss = sum((w - target)^2) has the gradient 2 (w - target): minimize must step as the
    numpy rule does with that gradient, every variable at once."""
    rng = np.random.default_rng(3)
    initial = {k: rng.uniform(-2, 2, size=s).astype(np.float32) for k, s in SHAPES.items()}
    targets = {k: rng.uniform(-1, 1, size=s).astype(np.float32) for k, s in SHAPES.items()}
    variables = _make_variables(initial)
    target_t = {k: tf.tensor(v, list(v.shape)) for k, v in targets.items()}
    opt = getattr(tf.train, name)(*args)

    def loss():
        return _sum_all([tf.sum(tf.square(tf.sub(variables[k], target_t[k]))) for k in SHAPES])

    x = {k: v.astype(np.float64) for k, v in initial.items()}
    slots = {k: {kind: _initial_slot(name, args, kind, x[k].shape) for kind in _slot_kinds(name, args)} for k in SHAPES}
    for t in range(1, STEPS + 1):
        opt.minimize(loss)
        for k in SHAPES:
            x[k] = _numpy_step(name, args, x[k], 2 * (x[k] - targets[k]), slots[k], t)
            np.testing.assert_allclose(variables[k].numpy(), x[k], rtol=1e-4, atol=1e-5, err_msg=f"step {t}, {k}")


def _sum_all(terms):
    total = terms[0]
    for term in terms[1:]:
        total = tf.add(total, term)
    return total


def test_minimize_with_var_list_updates_only_those_variables():
    xs, ys = tf.tensor(XS), tf.tensor(YS)
    a, b = _var(0.5, "a"), _var(0.5, "b")
    opt = tf.train.adam(0.1)
    for _ in range(5):
        opt.minimize(_line_loss(a, b, xs, ys), var_list=[a])
    assert a.data_sync()[0] != 0.5
    assert b.data_sync()[0] == 0.5
    weights = opt.get_weights()
    assert [w["name"] for w in weights] == ["iter", "a/m", "a/v"]
    weights[0]["tensor"].dispose()


def test_minimize_leaves_non_trainable_variables_alone():
    xs, ys = tf.tensor(XS), tf.tensor(YS)
    a = _var(0.5, "a")
    b = _var(0.5, "b", trainable=False)
    for opt in (tf.train.sgd(0.05), tf.train.momentum(0.05, 0.9), tf.train.rmsprop(0.01)):
        opt.minimize(_line_loss(a, b, xs, ys))                     # every trainable variable
        opt.minimize(_line_loss(a, b, xs, ys), var_list=[a, b])    # b listed, but not trainable
        assert b.data_sync()[0] == 0.5
        opt.dispose()
    assert a.data_sync()[0] != 0.5
    # only non-trainable variables: nothing to train
    opt = tf.train.sgd(0.1)
    assert_raises(ValueError, lambda: opt.minimize(_line_loss(a, b, xs, ys), var_list=[b]), "trainable")


def test_minimize_return_cost_and_compute_gradients():
    xs, ys = tf.tensor(XS), tf.tensor(YS)
    a, b = _var(0.0, "a"), _var(0.0, "b")
    opt = tf.train.sgd(0.01)
    before = tf.memory().num_tensors
    cost = opt.minimize(_line_loss(a, b, xs, ys), return_cost=True)
    assert cost.shape == () and cost.dtype == "float32"
    assert math.isclose(cost.data_sync()[0], float(np.mean(np.square(YS))), rel_tol=1e-6)   # before the step
    assert tf.memory().num_tensors == before + 1   # only the cost survives
    cost.dispose()

    value, grads = opt.compute_gradients(_line_loss(a, b, xs, ys))
    assert set(grads) == {"a", "b"} and opt.iterations == 1      # nothing applied
    a_now, b_now = a.data_sync()[0], b.data_sync()[0]
    err = a_now * np.float32(XS) + b_now - np.float32(YS)
    assert math.isclose(grads["a"].data_sync()[0], float(np.mean(2 * err * XS)), rel_tol=1e-5)
    assert math.isclose(grads["b"].data_sync()[0], float(np.mean(2 * err)), rel_tol=1e-5)
    tf.dispose([value, grads])
    assert tf.memory().num_tensors == before


@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_memory_stays_flat_over_a_minimize_loop(name, args):
    xs, ys = tf.tensor(XS), tf.tensor(YS)
    a, b = _var(0.1, "a"), _var(0.1, "b")
    opt = getattr(tf.train, name)(*args)
    opt.minimize(_line_loss(a, b, xs, ys))       # the first step makes the slots
    first = tf.memory()
    for _ in range(20):
        opt.minimize(_line_loss(a, b, xs, ys))
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes, after.num_data_buffers) == \
        (first.num_tensors, first.num_bytes, first.num_data_buffers)
    assert first.num_tensors == 4 + 2 * len(_slot_kinds(name, args)) + len(opt._owned)


def test_optimizer_made_inside_tidy_keeps_its_constants():
    a = _var([1.0, 2.0], "a")
    opts = tf.tidy(lambda: [tf.train.sgd(0.5), tf.train.momentum(0.5, 0.5), tf.train.adam(0.1), tf.train.adamax()])
    g = tf.tensor([1.0, 1.0])
    for opt in opts:
        opt.apply_gradients({"a": g})
    assert a.data_sync()[0] < 1.0


def test_two_optimizers_can_train_the_same_variables():
    a = _var([1.0, 2.0], "a")
    g = tf.tensor([1.0, -1.0])
    one, two = tf.train.adam(0.1), tf.train.adam(0.1)
    one.apply_gradients({"a": g})
    two.apply_gradients({"a": g})
    assert [w["name"] for w in one.get_weights()[1:]] == [w["name"] for w in two.get_weights()[1:]] == ["a/m", "a/v"]
    slot_names = [w["tensor"].name for w in one.get_weights()[1:] + two.get_weights()[1:]]
    assert len(set(slot_names)) == 4 and not any(tf.engine().registered_variables[n].trainable for n in slot_names)


# --- weights, dispose --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_get_weights_set_weights_round_trip(name, args):
    """Train 5 steps, save; train 5 more -> R1. Restore the variables and the weights into a
    new optimizer; train 5 -> R2 == R1."""
    initial, grads = _problem(11)
    grads = [{k: (g if g is not None else np.zeros(SHAPES[k], np.float32)) for k, g in s.items()} for s in grads]
    variables = _make_variables(initial)

    def train(opt, steps):
        for step in steps:
            tensors = {k: tf.tensor(g, list(g.shape)) for k, g in step.items()}
            opt.apply_gradients(tensors)
            tf.dispose(list(tensors.values()))

    first = getattr(tf.train, name)(*args)
    train(first, grads[:5])
    saved_vars = {k: v.clone() for k, v in variables.items()}
    saved = [{"name": w["name"], "tensor": w["tensor"].clone()} for w in first.get_weights()]
    assert saved[0]["name"] == "iter" and saved[0]["tensor"].dtype == "int32" and saved[0]["tensor"].shape == ()
    assert [w["name"] for w in saved[1:]] == [f"{k}/{kind}" for kind in _slot_kinds(name, args) for k in SHAPES]
    train(first, grads[5:])
    r1 = {k: v.numpy() for k, v in variables.items()}

    for k, v in variables.items():
        v.assign(saved_vars[k])
    second = getattr(tf.train, name)(*args)
    second.set_weights(saved)
    assert second.iterations == 5
    train(second, grads[5:])
    for k, v in variables.items():
        np.testing.assert_allclose(v.numpy(), r1[k], rtol=1e-6, atol=1e-7, err_msg=k)
    assert second.iterations == 10


def test_set_weights_replaces_and_frees_the_old_slots():
    a = _var([1.0, 2.0], "a")
    opt = tf.train.adam(0.1)
    opt.apply_gradients({"a": tf.tensor([1.0, 1.0])})
    before = tf.memory().num_tensors
    weights = opt.get_weights()
    opt.set_weights(weights)     # its own weights: new variables share the data, the old ones go
    weights[0]["tensor"].dispose()
    assert tf.memory().num_tensors == before
    assert all(not w["tensor"].is_disposed for w in opt.get_weights()[1:])


def test_set_weights_errors():
    opt = tf.train.adam()
    m, v = tf.zeros([2]), tf.zeros([2])
    it = tf.scalar(3, "int32")
    assert_raises(ValueError, lambda: opt.set_weights([{"name": "a/m", "tensor": m}]), "'iter'")
    assert_raises(ValueError, lambda: opt.set_weights([{"name": "iter", "tensor": it}, {"name": "a/m", "tensor": m}]),
                  "groups of 2")
    assert_raises(ValueError, lambda: opt.set_weights([{"name": "iter", "tensor": it}, {"name": "a/v", "tensor": m},
                                                       {"name": "a/m", "tensor": v}]), "'a/v'", "/m")
    assert_raises(TypeError, lambda: opt.set_weights([{"name": "iter", "tensor": 3}]), "weight_values[0]")
    sgd = tf.train.sgd(0.1)
    assert_raises(ValueError, lambda: sgd.set_weights([{"name": "iter", "tensor": it}, {"name": "a/m", "tensor": m}]),
                  "no settable weights")
    assert opt.iterations == sgd.iterations == 0
    sgd.set_weights([{"name": "iter", "tensor": it}])
    assert sgd.iterations == 3


@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_dispose_frees_slots_and_constants(name, args):
    a = _var([1.0, 2.0], "a")
    b = _var([[1.0, 1.0], [1.0, 1.0]], "b")
    g = {"a": tf.tensor([0.5, 0.5]), "b": tf.ones([2, 2])}
    baseline = tf.memory()
    opt = getattr(tf.train, name)(*args)
    opt.apply_gradients(g)
    opt.apply_gradients(g)
    n_slots = len(_slot_kinds(name, args))
    assert tf.memory().num_tensors == baseline.num_tensors + 2 * n_slots + len(opt._owned)
    opt.dispose()
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (baseline.num_tensors, baseline.num_bytes)
    assert set(tf.engine().registered_variables) == {"a", "b"}
    opt.dispose()   # twice is harmless
    assert_raises(EngineError, lambda: opt.apply_gradients(g), "disposed")
    assert_raises(EngineError, lambda: opt.minimize(lambda: tf.sum(a)), "disposed")


def test_dispose_variables_leaves_a_clear_error():
    a = _var([1.0, 2.0], "a")
    g = tf.tensor([1.0, 1.0])
    opt = tf.train.adam(0.1)
    opt.apply_gradients({"a": g})
    tf.dispose_variables()      # Adam's state variables go with the others
    a = _var([1.0, 2.0], "a")
    assert_raises(EngineError, lambda: opt.apply_gradients({"a": g}), "disposed")
    mom = tf.train.momentum(0.1, 0.9)
    mom.apply_gradients({"a": g})
    for v in list(tf.engine().registered_variables.values()):
        if v.name != "a":
            v.dispose()         # the slot
    assert_raises(ValueError, lambda: mom.apply_gradients({"a": g}), "a/momentum", "disposed")
    assert a.data_sync()[0] < 1.0


# --- arguments -----------------------------------------------------------------------------------

def test_factories_are_tfjs_names_and_classes_are_exported():
    api = json.loads((Path(__file__).parents[2] / "pytfweb" / "data" / "tfjs-4.22-api.json").read_text())
    for js, py in api["python_names"]["train"].items():
        assert callable(getattr(tf.train, py)), js
    for cls in ("Optimizer", "SGDOptimizer", "MomentumOptimizer", "AdagradOptimizer", "AdadeltaOptimizer",
                "AdamOptimizer", "AdamaxOptimizer", "RMSPropOptimizer"):
        assert getattr(tf, cls) is getattr(tf.train, cls)
    assert isinstance(tf.train.adam(), tf.Optimizer)
    assert isinstance(tf.train.momentum(0.1, 0.9), tf.SGDOptimizer)   # as in TF.js
    assert tf.train.rmsprop(0.1).get_class_name() == "RMSProp"


def test_defaults_and_epsilon():
    assert tf.backend().epsilon() == 1e-7
    adam = tf.train.adam()
    assert (adam.learning_rate, adam.beta1, adam.beta2, adam.epsilon) == (0.001, 0.9, 0.999, 1e-7)
    assert tf.train.adam(epsilon=1e-3).epsilon == 1e-3
    assert tf.train.adamax().get_config() == {"learning_rate": 0.002, "beta1": 0.9, "beta2": 0.999,
                                              "epsilon": 1e-7, "decay": 0.0}
    assert tf.train.adadelta().get_config() == {"learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-7}
    assert tf.train.adagrad(0.1).initial_accumulator_value == 0.1
    assert tf.train.rmsprop(0.1).get_config() == {"learning_rate": 0.1, "decay": 0.9, "momentum": 0.0,
                                                  "epsilon": 1e-7, "centered": False}
    m = tf.train.momentum(0.1, 0.9)
    assert m.use_nesterov is False
    assert tf.MomentumOptimizer.from_config(m.get_config()).get_config() == m.get_config()
    # TF.js's static form, Opt.fromConfig(Opt, config), and its getConfig's camelCase keys
    assert tf.MomentumOptimizer.from_config(tf.MomentumOptimizer, m.get_config()).get_config() == m.get_config()
    assert tf.train.Optimizer.from_config(tf.SGDOptimizer, {"learningRate": 0.3}).get_config() == {"learning_rate": 0.3}
    with pytest.raises(TypeError, match="Optimizer class"):
        tf.AdamOptimizer.from_config(dict, {})
    with pytest.raises(TypeError, match="'config' must be a dict"):
        tf.AdamOptimizer.from_config([0.1])


def test_set_learning_rate_and_momentum():
    a = _var([1.0], "a")
    g = tf.tensor([1.0])
    opt = tf.train.momentum(0.1, 0.5)
    before = tf.memory().num_tensors
    opt.set_learning_rate(0.2)
    opt.set_momentum(0.0)
    assert tf.memory().num_tensors == before
    opt.apply_gradients({"a": g})
    opt.apply_gradients({"a": g})
    assert math.isclose(a.data_sync()[0], 1.0 - 0.2 - 0.2, rel_tol=1e-6)   # momentum 0: plain steps


BAD_ARGUMENTS = [
    (lambda: tf.train.sgd(-0.1), ValueError, "'learning_rate'"),
    (lambda: tf.train.sgd("0.1"), TypeError, "'learning_rate'"),
    (lambda: tf.train.sgd(None), TypeError, "'learning_rate'"),
    (lambda: tf.train.sgd(float("nan")), ValueError, "'learning_rate'"),
    (lambda: tf.train.momentum(-1, 0.9), ValueError, "'learning_rate'"),
    (lambda: tf.train.momentum(0.1, -0.9), ValueError, "'momentum'"),
    (lambda: tf.train.momentum(0.1, 0.9, use_nesterov="yes"), TypeError, "'use_nesterov'"),
    (lambda: tf.train.adagrad(-0.1), ValueError, "'learning_rate'"),
    (lambda: tf.train.adagrad(0.1, -1), ValueError, "'initial_accumulator_value'"),
    (lambda: tf.train.adadelta(-0.1), ValueError, "'learning_rate'"),
    (lambda: tf.train.adadelta(0.1, 1.5), ValueError, "'rho'"),
    (lambda: tf.train.adam(-0.001), ValueError, "'learning_rate'"),
    (lambda: tf.train.adam(0.001, 1.0), ValueError, "'beta1'"),
    (lambda: tf.train.adam(0.001, 0.9, -0.1), ValueError, "'beta2'"),
    (lambda: tf.train.adam(epsilon=-1e-8), ValueError, "'epsilon'"),
    (lambda: tf.train.adamax(-0.002), ValueError, "'learning_rate'"),
    (lambda: tf.train.adamax(decay=-1), ValueError, "'decay'"),
    (lambda: tf.train.rmsprop(-0.01), ValueError, "'learning_rate'"),
    (lambda: tf.train.rmsprop(None), ValueError, "learning_rate"),
    (lambda: tf.train.rmsprop(0.01, decay=2), ValueError, "'decay'"),
    (lambda: tf.train.rmsprop(0.01, centered=1), TypeError, "'centered'"),
]


@pytest.mark.parametrize("make, exc, fragment", BAD_ARGUMENTS)
def test_bad_hyperparameters(make, exc, fragment):
    assert_raises(exc, make, fragment)


def test_bad_calls_change_nothing():
    a = _var([1.0, 2.0], "a")
    b = _var([3.0], "b")
    opt = tf.train.adam(0.1)
    g = tf.tensor([1.0, 1.0])
    assert_raises(TypeError, lambda: opt.minimize(3), "minimize", "'f'", "int")
    assert_raises(TypeError, lambda: opt.compute_gradients("loss"), "'f'")
    assert_raises(TypeError, lambda: opt.minimize(lambda: tf.sum(a), var_list=a), "'var_list'")
    assert_raises(TypeError, lambda: opt.minimize(lambda: tf.sum(a), var_list=[g]), "var_list[0]")
    assert_raises(ValueError, lambda: opt.minimize(lambda: a), "scalar")
    assert_raises(ValueError, lambda: opt.apply_gradients({"a": g, "nope": g}), "'nope'")
    assert_raises(ValueError, lambda: opt.apply_gradients({"a": g, "b": g}), "'b'", "[2]", "[1]")
    assert_raises(TypeError, lambda: opt.apply_gradients({"a": [1.0, 1.0]}), "'a'", "Tensor")
    assert_raises(TypeError, lambda: opt.apply_gradients(g), "variable_gradients")
    assert_raises(TypeError, lambda: opt.apply_gradients([("a", g)]), "variable_gradients[0]")
    i = tf.tidy(lambda: tf.variable(tf.tensor([1, 2], dtype="int32"), name="i"))
    assert_raises(TypeError, lambda: opt.apply_gradients({"i": g}), "int32")
    assert opt.iterations == 0 and opt.get_weights()[0]["tensor"].data_sync()[0] == 0
    assert a.array_sync() == [1.0, 2.0] and b.array_sync() == [3.0] and i.array_sync() == [1, 2]
    assert [w["name"] for w in opt.get_weights()] == ["iter"]   # no slot made by a failed call


@pytest.mark.parametrize("name, args", CASES, ids=CASE_IDS)
def test_fused_update_kernel_equals_the_composed_ops_bit_for_bit(monkeypatch, name, args):
    """Each optimizer's fused update kernel (ApplyAdam, ApplyMomentum, ...) against its ops, which
    run where a backend lacks the kernel: the same values to the bit, NaN and infinite gradients
    and a learning rate changed between steps included, and no tensor left."""
    from pytfweb.train.optimizer import Optimizer
    rng = np.random.default_rng(3)
    start = {k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()} for _ in range(5)]
    grads[2]["kernel"][0, 1], grads[3]["bias"][2], grads[4]["scale"] = np.nan, np.inf, np.float32(-np.inf)
    fused_calls = []
    real = Optimizer._fused_update

    def run(fused):
        def fused_update(self, kernel, *rest):
            fused_calls.append(kernel)
            return fused and real(self, kernel, *rest)
        monkeypatch.setattr(Optimizer, "_fused_update", fused_update)
        before = tf.memory().num_tensors
        variables = {k: tf.tidy(lambda k=k: tf.variable(tf.tensor(v), name=f"{k}_{fused}")) for k, v in start.items()}
        opt = getattr(tf.train, name)(*args)
        for i, g in enumerate(grads):
            if i == 3 and hasattr(opt, "set_learning_rate"):
                opt.set_learning_rate(0.2)
            tf.tidy(lambda: opt.apply_gradients({f"{k}_{fused}": tf.tensor(v) for k, v in g.items()}))
        weights = opt.get_weights()
        out = [v.numpy() for v in variables.values()] + [w["tensor"].numpy() for w in weights[1:]]
        assert len(out) == len(SHAPES) * (1 + len(opt.slot_names))
        weights[0]["tensor"].dispose()
        opt.dispose()
        tf.dispose(list(variables.values()))
        assert tf.memory().num_tensors == before
        return out

    fused, composed = run(True), run(False)
    assert len(fused_calls) == 2 * 5 * len(SHAPES)   # every variable, every step, both runs
    for a, b in zip(fused, composed):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b, equal_nan=True)
    assert np.isnan(fused[0]).any()     # the NaN gradient reached its variable
