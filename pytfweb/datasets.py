"""tf.data (the module is pytfweb.datasets: pytfweb/data/ holds package data): TF.js's datasets
(tfjs-data), for the sources that need no browser device or file: array, zip, generator and func. A
Dataset is a recipe: each iterator() (a coroutine, as TF.js's) replays it from the start. Iterators
are TF.js's LazyIterators: `await it.next()` gives {"value": ..., "done": bool}. `async for x in
dataset` walks a dataset; to_array() collects one (awaited).

Elements are Python values: numbers, strings, tensors, lists and dicts of them. batch() stacks each
leaf over the batch (tensors with tf.stack, numbers, strings and lists with tf.tensor), so a dataset of
{"xs": ..., "ys": ...} batches to {"xs": batch, "ys": batch}, as TF.js's deepBatchConcat. shuffle(seed)
draws with TF.js's seeded Alea generator in its order, so a seeded shuffle gives TF.js's order.
"""
import inspect
import math

from . import ops
from .engine import ENGINE
from .prng import Alea, seed_string
from .tensor import Tensor

__all__ = ["Dataset", "LazyIterator", "array", "zip", "generator", "func"]

_DONE = {"value": None, "done": True}


async def _awaited(value):
    return await value if inspect.isawaitable(value) else value


# --- iterators ---------------------------------------------------------------------------------
class LazyIterator:
    """A stream of elements: `await next()` -> {"value", "done"}; once done, done for ever."""

    async def next(self):
        raise NotImplementedError

    async def to_array(self):
        out = []
        while True:
            item = await self.next()
            if item["done"]:
                return out
            out.append(item["value"])

    def __aiter__(self):
        return self

    async def __anext__(self):
        item = await self.next()
        if item["done"]:
            raise StopAsyncIteration
        return item["value"]


class _Items(LazyIterator):
    def __init__(self, items):
        self.items, self.trav = items, 0

    async def next(self):
        if self.trav >= len(self.items):
            return dict(_DONE)
        self.trav += 1
        return {"value": _deep_clone(self.items[self.trav - 1]), "done": False}


class _Function(LazyIterator):
    """next() of a function returning {"value", "done"} (or an awaitable of it)."""

    def __init__(self, next_fn):
        self.next_fn = next_fn

    async def next(self):
        try:
            result = await _awaited(self.next_fn())
        except Exception as e:
            raise RuntimeError(f"Error thrown while iterating through a dataset: {e}") from e
        if not isinstance(result, dict) or "done" not in result:
            raise TypeError(f"a dataset function must return {{'value': ..., 'done': bool}}, got {result!r}")
        return {"value": result.get("value"), "done": bool(result["done"])}


class _Generator(LazyIterator):
    """next() of a Python iterator (a generator's, or an async one)."""

    def __init__(self, it):
        self.it, self.finished = it, False

    async def next(self):
        if self.finished:
            return dict(_DONE)
        try:
            value = await self.it.__anext__() if hasattr(self.it, "__anext__") else next(self.it)
        except (StopIteration, StopAsyncIteration):
            self.finished = True
            return dict(_DONE)
        return {"value": value, "done": False}


class _Take(LazyIterator):
    def __init__(self, upstream, count):
        self.upstream, self.max_count, self.count = upstream, count, 0

    async def next(self):
        self.count += 1
        if self.count > self.max_count:
            return dict(_DONE)
        return await self.upstream.next()


class _Skip(LazyIterator):
    def __init__(self, upstream, count):
        self.upstream, self.max_count, self.count = upstream, count, 0

    async def next(self):
        while self.count < self.max_count:
            self.count += 1
            skipped = await self.upstream.next()
            if skipped["done"]:
                return skipped
            _dispose_tensors(skipped["value"])
        return await self.upstream.next()


class _Filter(LazyIterator):
    def __init__(self, upstream, predicate):
        self.upstream, self.predicate = upstream, predicate

    async def next(self):
        while True:
            item = await self.upstream.next()
            if item["done"] or ENGINE.tidy(lambda: self.predicate(item["value"])):
                return item
            _dispose_tensors(item["value"])


class _Map(LazyIterator):
    def __init__(self, upstream, transform, is_async):
        self.upstream, self.transform, self.is_async = upstream, transform, is_async

    async def next(self):
        item = await self.upstream.next()
        if item["done"]:
            return item
        x = item["value"]
        if self.is_async:
            y = await _awaited(self.transform(x))
        else:
            y = ENGINE.tidy(lambda: self.transform(x))
        kept = {id(t) for t in _tensors(y)}
        ENGINE.dispose([t for t in _tensors(x) if id(t) not in kept])
        return {"value": y, "done": False}


class _Batch(LazyIterator):
    def __init__(self, upstream, batch_size, small_last_batch):
        self.upstream, self.batch_size, self.small_last_batch = upstream, batch_size, small_last_batch

    async def next(self):
        rows = []
        while len(rows) < self.batch_size:
            item = await self.upstream.next()
            if item["done"]:
                if self.small_last_batch and rows:
                    break
                return dict(_DONE)
            rows.append(item["value"])
        batch = _deep_batch_concat(rows)
        _dispose_tensors(rows)   # the rows' tensors live on in the batch's stacked copies
        return {"value": batch, "done": False}


class _Chained(LazyIterator):
    """The elements of each iterator that `iterators` (a LazyIterator of LazyIterators) gives, in turn."""

    def __init__(self, iterators):
        self.iterators, self.current = iterators, None

    async def next(self):
        while True:
            if self.current is None:
                item = await self.iterators.next()
                if item["done"]:
                    return dict(_DONE)
                self.current = item["value"]
            item = await self.current.next()
            if not item["done"]:
                return item
            self.current = None


class _Zip(LazyIterator):
    """Elements of the iterators in `structure` (a list or dict, nested), side by side, until the first ends."""

    def __init__(self, structure):
        self.structure = structure

    async def next(self):
        dones = []

        async def step(s):
            if isinstance(s, LazyIterator):
                item = await s.next()
                dones.append(item["done"])
                return item["value"]
            if isinstance(s, dict):
                return {k: await step(v) for k, v in s.items()}
            return [await step(v) for v in s]
        value = await step(self.structure)
        if any(dones):
            return dict(_DONE)
        return {"value": value, "done": False}


class _Shuffle(LazyIterator):
    """TF.js's ShuffleIterator: a window of window_size upstream results (done ones included); each
    next() takes a random one (Alea seeded with seed), moving the window's last into its place, and
    refills."""

    def __init__(self, upstream, window_size, seed):
        self.upstream, self.window_size = upstream, window_size
        self.random = Alea(seed)
        self.buffer, self.upstream_exhausted = [], False

    async def _refill(self):
        while len(self.buffer) < self.window_size:
            self.buffer.append(await self.upstream.next())

    async def next(self):
        if not self.upstream_exhausted:
            await self._refill()
        while self.buffer:
            i = math.floor(self.random() * len(self.buffer))
            result = self.buffer[i]
            last = self.buffer.pop()
            if i < len(self.buffer):
                self.buffer[i] = last
            if result["done"]:
                self.upstream_exhausted = True
            else:
                await self._refill()
                return result
        return dict(_DONE)


# --- datasets ------------------------------------------------------------------------------------
class Dataset:
    """An ordered collection of elements, replayed by each iterator(); size is the number of
    elements when known (math.inf for an endless one, None when unknown)."""

    def __init__(self, iterator_fn, size=None):
        self._iterator_fn, self.size = iterator_fn, size

    async def iterator(self):
        return await _awaited(self._iterator_fn())

    def _derive(self, make, size):
        async def iterator_fn():
            return make(await self.iterator())
        return Dataset(iterator_fn, size)

    def batch(self, batch_size, small_last_batch=True):
        if not batch_size > 0:
            raise ValueError(f"batchSize needs to be positive, but it is {batch_size}")
        if self.size is None or self.size == math.inf:
            size = self.size
        else:
            size = math.ceil(self.size / batch_size) if small_last_batch else self.size // batch_size
        return self._derive(lambda it: _Batch(it, batch_size, small_last_batch), size)

    def concatenate(self, dataset):
        if self.size == math.inf or dataset.size == math.inf:
            size = math.inf
        else:
            size = None if self.size is None or dataset.size is None else self.size + dataset.size

        async def iterator_fn():
            return _Chained(_Items([await self.iterator(), await dataset.iterator()]))
        return Dataset(iterator_fn, size)

    def filter(self, predicate):
        return self._derive(lambda it: _Filter(it, predicate), math.inf if self.size == math.inf else None)

    async def for_each_async(self, f):
        async for x in await self.iterator():
            f(x)

    def map(self, transform):
        return self._derive(lambda it: _Map(it, transform, False), self.size)

    def map_async(self, transform):
        return self._derive(lambda it: _Map(it, transform, True), self.size)

    def prefetch(self, buffer_size):
        """The same elements (TF.js reads ahead; here reading is not asynchronous I/O, so there is
        nothing to overlap)."""
        if buffer_size is None:
            raise ValueError("`Dataset.prefetch()` requires bufferSize to be specified.")
        return self._derive(lambda it: it, self.size)

    def repeat(self, count=None):
        if self.size is not None and count is not None and count > 0:
            size = self.size * count
        elif count == 0:
            size = 0
        elif self.size is not None and (count is None or count < 0):
            size = math.inf
        else:
            size = None
        endless = count is None or count < 0

        async def next_iterator():
            return {"value": await self.iterator(), "done": False}

        async def iterator_fn():
            its = _Function(next_iterator)
            return _Chained(its if endless else _Take(its, count))
        return Dataset(iterator_fn, size)

    def skip(self, count):
        if self.size is not None and count is not None and count >= 0 and self.size >= count:
            size = self.size - count
        elif self.size is not None and (count is None or count < 0 or self.size < count):
            size = 0
        else:
            size = None
        return self._derive(lambda it: it if count is None or count < 0 else _Skip(it, count), size)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        if buffer_size is None or buffer_size < 0:
            raise ValueError("`Dataset.shuffle()` requires bufferSize to be specified.")
        import time
        random = Alea(seed_string(seed) if seed else str(time.perf_counter() * 1000))

        def int32():
            v = int(random() * 0x100000000) & 0xFFFFFFFF
            return v - 0x100000000 if v >= 0x80000000 else v

        fixed = []   # without reshuffling, every iteration uses the first one's order

        async def iterator_fn():
            if fixed:
                seed2 = fixed[0]
            else:
                seed2 = int32()
                if reshuffle_each_iteration:
                    seed2 += int32()
                else:
                    fixed.append(seed2)
            return _Shuffle(await self.iterator(), buffer_size, str(seed2))
        return Dataset(iterator_fn, self.size)

    def take(self, count):
        if self.size is not None and count is not None:
            size = min(self.size, count) if count >= 0 else self.size
        else:
            size = None
        return self._derive(lambda it: it if count is None or count < 0 else _Take(it, count), size)

    async def to_array(self):
        if self.size == math.inf:
            raise ValueError("Can not convert infinite data stream to array.")
        return await (await self.iterator()).to_array()

    to_array_for_test = to_array

    def __aiter__(self):
        async def walk():
            async for x in await self.iterator():
                yield x
        return walk()


# --- sources -------------------------------------------------------------------------------------
def array(items):
    """A dataset of the items of a list (each element a deep copy of its item)."""
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"data.array: argument 'items' must be a list, got {type(items).__name__}")
    items = list(items)

    async def iterator_fn():
        return _Items(items)
    return Dataset(iterator_fn, len(items))


def zip(datasets):  # noqa: A001 - TF.js name
    """A dataset of the elements of datasets (a list or dict of datasets, nested) side by side, as
    long as the shortest."""
    if not isinstance(datasets, (list, tuple, dict)):
        raise TypeError("The argument to zip() must be an object or array.")
    leaves = []

    def collect(s):
        if isinstance(s, Dataset):
            leaves.append(s)
        elif isinstance(s, dict):
            for v in s.values():
                collect(v)
        elif isinstance(s, (list, tuple)):
            for v in s:
                collect(v)
        else:
            raise TypeError("Leaves of the structure passed to zip() must be Datasets, not primitives.")
    collect(datasets)
    top = list(datasets.values()) if isinstance(datasets, dict) else list(datasets)
    sizes = [d.size for d in top if isinstance(d, Dataset)]
    size = min((s for s in sizes if s is not None), default=None) if sizes else None

    async def iterators(s):
        if isinstance(s, Dataset):
            return await s.iterator()
        if isinstance(s, dict):
            return {k: await iterators(v) for k, v in s.items()}
        return [await iterators(v) for v in s]

    async def iterator_fn():
        return _Zip(await iterators(datasets))
    return Dataset(iterator_fn, size)


def generator(generator_fn):
    """A dataset of what generator_fn() yields (a generator function, sync or async; each
    iterator() calls it again)."""
    if not callable(generator_fn):
        raise TypeError(f"data.generator: argument 'generator' must be a generator function, got "
                        f"{type(generator_fn).__name__}")

    async def iterator_fn():
        it = generator_fn()
        if hasattr(it, "__next__") or hasattr(it, "__anext__"):
            return _Generator(it)
        if hasattr(it, "next"):   # TF.js's iterator protocol: next() -> {"value", "done"}
            return _Function(it.next)
        raise TypeError("data.generator: the function must return an iterator")
    return Dataset(iterator_fn)


def func(f):
    """A dataset whose elements come from calling f() (returning {"value", "done"} or an awaitable
    of it) until done."""
    if not callable(f):
        raise TypeError(f"data.func: argument 'f' must be a function, got {type(f).__name__}")

    async def iterator_fn():
        return _Function(f)
    return Dataset(iterator_fn)


# --- helpers -------------------------------------------------------------------------------------
def _deep_clone(x):
    """x with its lists and dicts copied and its tensors cloned (the stream owns what it yields)."""
    if isinstance(x, list):
        return [_deep_clone(v) for v in x]
    if isinstance(x, dict):
        return {k: _deep_clone(v) for k, v in x.items()}
    return ops.clone(x) if isinstance(x, Tensor) else x


def _can_tensorify(x):
    return not isinstance(x, dict)


def _deep_batch_concat(rows):
    """Rows (one element each) as one element of batches: leaves stacked along a new first axis."""
    first = rows[0]
    if _can_tensorify(first):
        if isinstance(first, Tensor):
            return ops.stack(rows)
        return ops.tensor(rows)
    return {k: _deep_batch_concat([r[k] for r in rows]) for k in first}


def _tensors(x):
    from .engine import tensors_in
    return tensors_in(x)


def _dispose_tensors(x):
    ENGINE.dispose(_tensors(x))
