"""Concurrency in the page (issue 15): asyncio tasks reading, disposing and failing at the same
time on webgl. Nothing may be lost (every read gives its tensor's values) or leaked (tensors,
textures in use, and the GL buffers and fences that pending reads hold)."""
import pytest


@pytest.mark.webgl_only("counts webgl's pending fence reads (backend.pending_reads)")
def test_many_tasks_awaiting_data_at_once(run_py):
    out = run_py("""
import asyncio
base = tf.memory()
xs = [tf.tidy(lambda i=i: tf.mul(tf.add(tf.range(0, 50 + i), i), 2)) for i in range(12)]

async def read(t, delay):
    await asyncio.sleep(delay)
    return list(await t.data())

# twelve tensors, each read by two tasks (one of them twice), all pending together
tasks = [read(t, 0) for t in xs] + [read(t, 0.001 * (i % 3)) for i, t in enumerate(xs)]
got = await asyncio.gather(*tasks)
want = [[2.0 * (v + i) for v in range(50 + i)] for i in range(12)]
ok = got[:12] == want and got[12:] == want
tf.dispose(xs)
after = tf.memory()
result = [ok, after.num_tensors - base.num_tensors, in_use(after) - in_use(base),
          tf.backend().pending_reads]
""")
    assert out == [True, 0, 0, 0]


@pytest.mark.webgl_only("counts webgl's pending fence reads (backend.pending_reads)")
def test_dispose_while_a_read_is_pending(run_py):
    """The read started before the dispose still gives the values (the GPU copied them into
    the read's buffer before the fence); the texture goes back only once, and a new tensor that
    takes the recycled texture meanwhile does not change what the pending read returns."""
    out = run_py("""
import asyncio
base = tf.memory()
x = tf.tidy(lambda: tf.square(tf.mod(tf.range(0, 300), 40)))   # exact in half floats too
pending = asyncio.ensure_future(x.data())
await asyncio.sleep(0)              # the read has started: its fence is in flight
x.dispose()
y = tf.tidy(lambda: tf.neg(tf.ones([300])))   # may take x's texture from the free list
values = await pending
ok_x = list(values) == [float((v % 40) ** 2) for v in range(300)]
ok_y = list(await y.data()) == [-1.0] * 300
# a second pending read of a disposed tensor, and one that the tensor never finished
z = tf.tidy(lambda: tf.add(tf.range(0, 10), 1))
a, b = asyncio.ensure_future(z.data()), asyncio.ensure_future(z.array())
await asyncio.sleep(0)
z.dispose()
ra, rb = await a, await b
y.dispose()
after = tf.memory()
try:
    await z.data()
    disposed_error = None
except Exception as exc:
    disposed_error = type(exc).__name__
result = [ok_x, ok_y, list(ra) == rb == [float(v + 1) for v in range(10)], disposed_error,
          after.num_tensors - base.num_tensors, in_use(after) - in_use(base),
          tf.backend().pending_reads]
""")
    assert out == [True, True, True, "DisposedTensorError", 0, 0, 0]


@pytest.mark.webgl_only("counts webgl's pending fence reads (backend.pending_reads)")
def test_cancelled_read_releases_its_buffer(run_py):
    """A task awaiting data() that is cancelled (asyncio.wait_for timing out, task.cancel())
    frees the pixel-pack buffer and fence of its read: none stays pending."""
    out = run_py("""
import asyncio
base = tf.memory()
def heavy():
    x = tf.fill([512, 512], 0.5)
    for _ in range(6):
        x = tf.sin(x * 1.0001 + 0.1)
    return x
a = tf.tidy(heavy)
task = asyncio.ensure_future(a.data())
await asyncio.sleep(0)
started = tf.backend().pending_reads
task.cancel()
try:
    await task
    cancelled = False
except asyncio.CancelledError:
    cancelled = True
after_cancel = tf.backend().pending_reads
values = await a.data()     # the tensor is still readable afterwards
a.dispose()
after = tf.memory()
result = [started, cancelled, after_cancel, len(values), after.num_tensors - base.num_tensors]
""")
    assert out == [1, True, 0, 512 * 512, 0]


@pytest.mark.webgl_only("counts webgl's pending fence reads (backend.pending_reads)")
def test_exception_inside_tidy_while_reads_are_pending(run_py):
    """Task A keeps tidy-ing work that fails halfway (its temporaries must go, the scope stack
    must unwind); task B reads results meanwhile. Afterwards: all reads right, nothing leaked,
    no scope left open, and the engine still runs ops."""
    out = run_py("""
import asyncio
eng = tf.engine()
base = tf.memory().num_tensors
depth = len(eng.scopes)
failures = []

def failing(i):
    t = tf.mul(tf.ones([64]), i)
    u = tf.exp(t)
    if i % 2 == 0:
        raise ValueError(f"boom {i}")
    return tf.sum(u)

async def a():
    for i in range(10):
        try:
            tf.dispose(tf.tidy(lambda: failing(i)))
        except ValueError as exc:
            failures.append(str(exc))
        await asyncio.sleep(0)

async def b():
    got = []
    for i in range(10):
        t = tf.tidy(lambda: tf.add(tf.range(0, 100), i))
        got.append(list(await t.data()) == [float(v + i) for v in range(100)])
        t.dispose()
    return got

async def c():
    # a coroutine failing between two awaits, with its tensor disposed in finally
    t = tf.tidy(lambda: tf.ones([32]))
    try:
        await t.data()
        raise KeyError("late")
    finally:
        t.dispose()

results = await asyncio.gather(a(), b(), c(), return_exceptions=True)
try:
    tf.tidy(lambda: asyncio.sleep(0))        # tidy refuses a coroutine function's result
    refused = None
except Exception as exc:
    refused = type(exc).__name__
leaked = tf.memory().num_tensors - base
s = tf.tidy(lambda: tf.sum(tf.ones([5])))
check = s.data_sync()[0]
s.dispose()
result = [len(failures), all(results[1]), type(results[2]).__name__, leaked,
          len(eng.scopes) - depth, check, tf.backend().pending_reads]
""")
    assert out[:2] == [5, True]
    assert out[2] == "KeyError"
    assert out[3:] == [0, 0, 5.0, 0]
