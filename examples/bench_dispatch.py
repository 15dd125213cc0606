"""Dispatch cost: 1000 chained adds on a 64-element tensor, then one readback.

    pytfweb run examples/bench_dispatch.py                 # webgl, headless Chromium
    pytfweb run --backend cpu examples/bench_dispatch.py   # numpy

Prints the median of the timed runs (after one warm-up that compiles the shader).
"""
import sys
import time

import pytfweb as tf

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
x = tf.zeros([64])
one = tf.ones([64])


def chain():
    y = x
    for _ in range(1000):
        y = y + one
    return y


async def once():
    start = time.perf_counter()
    y = tf.tidy(chain)
    values = await y.data()
    elapsed = (time.perf_counter() - start) * 1000
    assert values[0] == 1000.0, values[0]
    y.dispose()
    return elapsed


await once()  # warm-up: shader compile, texture pool
times = sorted([await once() for _ in range(RUNS)])
print(f"{tf.get_backend()}: 1000 chained adds + one readback: median {times[len(times) // 2]:.1f} ms "
      f"(min {times[0]:.1f}, max {times[-1]:.1f}, {RUNS} runs)")
print(f"tensors left besides inputs: {tf.memory().num_tensors - 2}")
