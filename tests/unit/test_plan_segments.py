"""Plan.segments (core/plan.py), the protocol the GPU plan runners (backends/gpu/plan_runner.py)
run plans by, checked on cpu: a runner that runs each device segment as a program would (its
kernels on values of its own, variables read as they are when it starts, Python given only the
segment's kernel_roots, then Segment.finish) must give what a step-by-step replay gives, bitwise,
with memory flat, for plans with host steps (random draws, dropout), split kernels, variable
reads and writes, and outputs of every kind."""
import asyncio
import random

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.backends.cpu.backend import CPUBackend
from pytfweb.core.plan import KERNEL, Value


class _ProgramLike:
    """Runs device segments the way a GPU runner's programs do (nothing but kernel_roots and the
    Python part reach vals); host steps and splits step by step."""

    def __init__(self):
        self.programs = 0

    def dispose(self):
        pass

    def run(self, plan, inputs):
        vals = plan.external_values(inputs)
        for seg in plan.segments():
            if not seg.device or not seg.kernels:
                plan.run_range(seg.start, seg.stop, vals)
                continue
            self._program(plan, seg, vals)
            seg.finish(vals)
        return plan.finish(vals, inputs)

    def _program(self, plan, seg, vals):
        backend = tf.engine().backend
        own = [None] * plan.num_slots   # the program's values: its starts, then what it computes
        for kind, what in seg.starts:
            if kind != "var":
                own[what] = vals[what]
        assigned, made = {}, []
        for st in plan.steps[seg.start:seg.stop]:
            name = type(st).__name__
            if name == "_Read":
                var = st.var
                own[st.slot] = assigned.get(id(var)) or Value(var.data_id, var.shape, var.dtype, var.size)
            elif name == "_Assign":
                assigned[id(st.var)] = own[st.src]
            else:
                out = st.fn(backend, [own[s] for s in st.ins], st.attrs)
                for (s, shape, dtype, size), o in zip(st.outs, out if type(out) is list else [out]):
                    own[s] = Value(o.data_id, shape, dtype, size)
                    if plan.root[s] == s:
                        made.append(s)
        for r in made:   # what leaves it gets the data; the rest is the program's, gone after it
            if r in seg.kernel_roots:
                for s, shape, dtype, size in seg.kernel_roots[r]:
                    vals[s] = Value(own[r].data_id, shape, dtype, size)
            elif plan.kind[r] == KERNEL:
                backend.dispose_data(own[r].data_id)
        self.programs += 1


@pytest.fixture
def programs(monkeypatch):
    runners = []

    def plan_runner(self, plan):
        runners.append(_ProgramLike())
        return runners[-1]
    monkeypatch.setattr(CPUBackend, "plan_runner", plan_runner)
    return runners


def _both_ways(scenario):
    out = {}
    for runners in (True, False):
        tf.env().set("PLAN_RUNNERS", runners)
        random.seed(5)   # (unseeded draws seed from Python's generator: the same draws both ways)
        out[runners] = scenario()
        assert tf.memory().num_tensors == 0
        assert len(tf.engine().backend.store) == 0
    return out[True], out[False]


def _calls(f, values):
    """f's results on four vectors, values(k) for k in 0..3; then f's plans dropped."""
    got = []
    for k in range(4):
        x = tf.tensor(values(k))
        y = f(x)
        got.append(y.numpy().tolist())
        tf.dispose([x, y])
    f.dispose()
    return got


def _vals(shape, k):
    n = int(np.prod(shape))
    return tf.tensor((np.sin(0.37 * np.arange(n) + k) * 0.5).astype("float32"), list(shape))


def test_a_function_with_draws_variables_and_outputs_of_every_kind(programs):
    def scenario():
        w, v = tf.tidy(lambda: [tf.variable(_vals([8, 8], 1)), tf.variable(tf.zeros([4, 8]))])

        def step(x):
            h = tf.tanh(tf.mat_mul(x, w) + 0.5)
            drop = tf.dropout(h, 0.3)                   # a host step between two segments
            v.assign(v * 0.5 + drop)
            s = v * 2.0 - 1.0                           # v read again after the write
            noise = tf.random_uniform([8])              # a draw only an output takes
            return [h, x, tf.reshape(s, [32]), tf.reshape(drop, [32]), noise, tf.reshape(x, [32]) * 3]

        f = tf.function(step)
        calls = []
        for k in range(5):
            x = _vals([4, 8], 10 + k)
            out = f(x)
            calls.append([o.numpy().tolist() for o in out] + [out[1] is x])
            tf.dispose([o for o in out if o is not x] + [x])
        x = _vals([4, 8], 3)
        tf.dispose([o for o in f(x) if o is not x])
        before = tf.memory()
        for _ in range(20):
            tf.dispose([o for o in f(x) if o is not x])
        after = tf.memory()
        calls.append([(before.num_tensors, before.num_bytes), (after.num_tensors, after.num_bytes)])
        calls.append(v.numpy().tolist())
        f.dispose()
        tf.dispose([x, w, v])
        return calls

    on, off = _both_ways(scenario)
    assert on == off
    assert on[-2][0] == on[-2][1]
    assert all(call[-1] is True for call in on[:5])
    assert programs and programs[0].programs > 0


def test_a_dropout_mlp_trains_the_same(programs):
    def scenario():
        model = tf.sequential(layers=[tf.layers.dense(units=16, activation="relu", input_shape=[6]),
                                      tf.layers.dropout(rate=0.4),
                                      tf.layers.dense(units=12, activation="relu"),
                                      tf.layers.dropout(rate=0.2),
                                      tf.layers.dense(units=3, activation="softmax")])
        model.compile("adam", "categoricalCrossentropy")
        tf.tidy(lambda: model.set_weights([_vals(w.shape, j) for j, w in enumerate(model.weights)]))
        x, y = _vals([8, 6], 6), tf.tidy(lambda: tf.one_hot(tf.tensor([i % 3 for i in range(8)], [8], "int32"), 3))
        losses = [asyncio.run(model.train_on_batch(x, y)) for _ in range(6)]
        weights = [w.numpy().tolist() for w in model.weights]
        model.dispose()
        tf.dispose([x, y])
        return losses, weights

    on, off = _both_ways(scenario)
    assert on == off
    (runner,) = [r for r in programs if r.programs]
    assert runner.programs >= 5 * 3   # three programs a step: before, between and after the masks


def test_a_split_kernel_between_two_segments(programs):
    def scenario():
        return _calls(tf.function(lambda x: tf.unique(tf.floor(x * 2))[0] * 3 + 1),
                      lambda k: [0.1 * k, 0.6, 1.2, 0.1 * k, 2.7])

    on, off = _both_ways(scenario)
    assert on == off == [[1.0, 4.0, 7.0, 16.0]] * 4
    assert sum(r.programs for r in programs) == 3 * 2


def test_a_guard_between_two_segments(programs):
    def scenario():
        @tf.function
        def f(x):
            y = tf.exp(x) * 2
            if float(tf.max(y).array_sync()) > 3:   # a read of values: a guard
                return tf.sqrt(y) + 1
            return y - 1
        return _calls(f, lambda k: [0.1 * k, 0.2, 0.3])

    on, off = _both_ways(scenario)
    assert on == off
    assert sum(r.programs for r in programs) > 0
