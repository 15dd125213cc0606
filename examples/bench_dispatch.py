"""Dispatch cost: 1000 chained adds on a 64-element tensor, then one readback, eagerly and
through tf.function (traced once, then replayed: the same kernels without the ops' Python).

    pytfweb run examples/bench_dispatch.py                 # webgl, headless Chromium
    pytfweb run --backend cpu examples/bench_dispatch.py   # numpy

Prints the median of the timed runs (after one warm-up that compiles the shader and traces).
"""
import sys
import time

import pytfweb as tf

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
x = tf.zeros([64])
one = tf.ones([64])


def chain(x, one):
    y = x
    for _ in range(1000):
        y = y + one
    return y


# The tensors are arguments: a traced function of no arguments reading only x and one would be
# computed once, at the trace (kernels on constants are folded), and replay nothing.
traced = tf.function(chain)


async def once(run):
    start = time.perf_counter()
    y = run()
    values = await y.data()
    elapsed = (time.perf_counter() - start) * 1000
    assert values[0] == 1000.0, values[0]
    y.dispose()
    return elapsed


for name, run in (("eager", lambda: tf.tidy(lambda: chain(x, one))), ("tf.function", lambda: traced(x, one))):
    await once(run)  # warm-up: shader compile, texture pool, the trace
    times = sorted([await once(run) for _ in range(RUNS)])
    print(f"{tf.get_backend()}: 1000 chained adds + one readback, {name}: median {times[len(times) // 2]:.1f} ms "
          f"(min {times[0]:.1f}, max {times[-1]:.1f}, {RUNS} runs)")
print(f"tensors left besides inputs: {tf.memory().num_tensors - 2}")
