"""tf.data: TF.js's datasets (tfjs-data): array, zip, generator, func, csv (CSVDataset: URLs, files,
bytes), and in the page the browser devices microphone and webcam (iterators over getUserMedia
streams). A Dataset is a recipe: each iterator() (a coroutine, as TF.js's) replays it from the start. Iterators
are TF.js's LazyIterators: `await it.next()` gives {"value": ..., "done": bool}. `async for x in
dataset` walks a dataset; to_array() collects one (awaited).

Elements are Python values: numbers, strings, tensors, lists and dicts of them. batch() stacks each
leaf over the batch (tensors with tf.stack, numbers, strings and lists with tf.tensor), so a dataset of
{"xs": ..., "ys": ...} batches to {"xs": batch, "ys": batch}, as TF.js's deepBatchConcat. shuffle(seed)
draws with TF.js's seeded Alea generator in its order, so a seeded shuffle gives TF.js's order.

The folder also holds tfjs-4.22-api.json (TF.js's API list, read by `pytfweb ops` and the tests).
"""
from __future__ import annotations

import asyncio
import inspect
import math
import re
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Union

from .. import ops
from ..core.api import dispose, tensors_in, tidy
from ..browser.pixels import from_pixels
from ..io.http import _urlopen
from ..io.router import IN_BROWSER
from ..ops.image import crop_and_resize
from ..core.prng import Alea, seed_string
from ..core.tensor import Tensor

__all__ = ["Dataset", "LazyIterator", "CSVDataset", "MicrophoneIterator", "WebcamIterator", "array", "zip", "generator",
           "func", "csv", "microphone", "webcam"]

_DONE = {"value": None, "done": True}


async def _awaited(value):
    return await value if inspect.isawaitable(value) else value


# --- iterators ---------------------------------------------------------------------------------
class LazyIterator:
    """A stream of elements: `await next()` gives {"value", "done"}; once done, done for ever.

    Example:
        >>> import asyncio
        >>> it = asyncio.run(tf.data.array([7]).iterator())
        >>> asyncio.run(it.next()), asyncio.run(it.next())
        ({'value': 7, 'done': False}, {'value': None, 'done': True})
    """

    async def next(self) -> Dict[str, Any]:
        """The next element (awaited).

        Returns:
            {"value": element, "done": False}, or {"value": None, "done": True} at the end.
        """
        raise NotImplementedError

    async def to_array(self) -> List[Any]:
        """The remaining elements, in a list (awaited).

        Returns:
            The list.
        """
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
            if item["done"] or tidy(lambda: self.predicate(item["value"])):
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
            y = tidy(lambda: self.transform(x))
        kept = {id(t) for t in _tensors(y)}
        dispose([t for t in _tensors(x) if id(t) not in kept])
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
    """An ordered collection of elements, replayed by each iterator() (TF.js's tf.data.Dataset).

    Transformations (batch, map, filter, shuffle, take, ...) make new datasets; reading is
    asynchronous (to_array, for_each_async, `async for`).

    Args:
        iterator_fn: a function of no argument returning a LazyIterator (or an awaitable of one).
        size: the number of elements when known (math.inf for an endless one, None when unknown).

    Example:
        >>> import asyncio
        >>> ds = tf.data.array([1, 2, 3, 4, 5]).map(lambda x: x * 10).filter(lambda x: x != 30)
        >>> asyncio.run(ds.to_array())
        [10, 20, 40, 50]
    """

    def __init__(self, iterator_fn, size=None):
        self._iterator_fn, self.size = iterator_fn, size

    async def iterator(self) -> LazyIterator:
        """A new iterator over the elements, from the first (awaited).

        Returns:
            A LazyIterator: `await it.next()` gives {"value": element, "done": bool}.
        """
        return await _awaited(self._iterator_fn())

    def _derive(self, make, size):
        async def iterator_fn():
            return make(await self.iterator())
        return Dataset(iterator_fn, size)

    def batch(self, batch_size: int, small_last_batch: bool = True) -> Dataset:
        """Group consecutive elements into batches: tensors, numbers and nested lists of numbers are
        stacked along a new first axis; dicts are batched key by key.

        Args:
            batch_size: elements per batch (positive).
            small_last_batch: keep a last batch of fewer elements (False: drop it).

        Returns:
            A new Dataset of batches.

        Example:
            >>> import asyncio
            >>> batches = asyncio.run(tf.data.array([1, 2, 3, 4, 5]).batch(2).to_array())
            >>> [b.array_sync() for b in batches]
            [[1.0, 2.0], [3.0, 4.0], [5.0]]
        """
        if not batch_size > 0:
            raise ValueError(f"batchSize needs to be positive, but it is {batch_size}")
        if self.size is None or self.size == math.inf:
            size = self.size
        else:
            size = math.ceil(self.size / batch_size) if small_last_batch else self.size // batch_size
        return self._derive(lambda it: _Batch(it, batch_size, small_last_batch), size)

    def concatenate(self, dataset: Dataset) -> Dataset:
        """This dataset's elements, then another's.

        Args:
            dataset: the dataset whose elements follow.

        Returns:
            A new Dataset.

        Example:
            >>> import asyncio
            >>> asyncio.run(tf.data.array([1, 2]).concatenate(tf.data.array([3])).to_array())
            [1, 2, 3]
        """
        if self.size == math.inf or dataset.size == math.inf:
            size = math.inf
        else:
            size = None if self.size is None or dataset.size is None else self.size + dataset.size

        async def iterator_fn():
            return _Chained(_Items([await self.iterator(), await dataset.iterator()]))
        return Dataset(iterator_fn, size)

    def filter(self, predicate: Callable[[Any], Any]) -> Dataset:
        """The elements for which predicate is true.

        Args:
            predicate: a function of an element returning a bool (or a bool scalar tensor).

        Returns:
            A new Dataset.
        """
        return self._derive(lambda it: _Filter(it, predicate), math.inf if self.size == math.inf else None)

    async def for_each_async(self, f: Callable[[Any], Any]) -> None:
        """Call f on every element, in order (awaited).

        Args:
            f: a function of an element.

        Example:
            >>> import asyncio
            >>> seen = []
            >>> asyncio.run(tf.data.array([1, 2]).for_each_async(seen.append))
            >>> seen
            [1, 2]
        """
        async for x in await self.iterator():
            f(x)

    def map(self, transform: Callable[[Any], Any]) -> Dataset:
        """Each element transformed by a function.

        Args:
            transform: a function of an element returning the new element.

        Returns:
            A new Dataset.
        """
        return self._derive(lambda it: _Map(it, transform, False), self.size)

    def map_async(self, transform: Callable[[Any], Awaitable[Any]]) -> Dataset:
        """Each element transformed by an async function.

        Args:
            transform: a coroutine function of an element returning the new element.

        Returns:
            A new Dataset.
        """
        return self._derive(lambda it: _Map(it, transform, True), self.size)

    def prefetch(self, buffer_size: int) -> Dataset:
        """The same elements (TF.js reads ahead; here reading is not asynchronous I/O, so there is
        nothing to overlap).

        Args:
            buffer_size: how many elements TF.js would read ahead (required).

        Returns:
            A new Dataset.
        """
        if buffer_size is None:
            raise ValueError("`Dataset.prefetch()` requires bufferSize to be specified.")
        return self._derive(lambda it: it, self.size)

    def repeat(self, count: Optional[int] = None) -> Dataset:
        """The elements repeated count times.

        Args:
            count: how many times (None or negative: for ever).

        Returns:
            A new Dataset.

        Example:
            >>> import asyncio
            >>> asyncio.run(tf.data.array([1, 2]).repeat(2).to_array())
            [1, 2, 1, 2]
        """
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

    def skip(self, count: Optional[int]) -> Dataset:
        """The elements after the first count.

        Args:
            count: how many to skip (None or negative: none).

        Returns:
            A new Dataset.
        """
        if self.size is not None and count is not None and count >= 0 and self.size >= count:
            size = self.size - count
        elif self.size is not None and (count is None or count < 0 or self.size < count):
            size = 0
        else:
            size = None
        return self._derive(lambda it: it if count is None or count < 0 else _Skip(it, count), size)

    def shuffle(self, buffer_size: int, seed: Optional[Union[str, int]] = None,
                reshuffle_each_iteration: bool = True) -> Dataset:
        """The elements in a random order, drawn from a buffer of buffer_size elements (TF.js's
        algorithm and generator).

        Args:
            buffer_size: how many elements the buffer holds (the dataset's size shuffles it all).
            seed: a seed for a reproducible order.
            reshuffle_each_iteration: a new order for each iterator() (False: the first one's).

        Returns:
            A new Dataset.

        Example:
            >>> import asyncio
            >>> sorted(asyncio.run(tf.data.array([1, 2, 3]).shuffle(3, seed="s").to_array()))
            [1, 2, 3]
        """
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

    def take(self, count: Optional[int]) -> Dataset:
        """The first count elements.

        Args:
            count: how many (None or negative: all).

        Returns:
            A new Dataset.

        Example:
            >>> import asyncio
            >>> asyncio.run(tf.data.array([1, 2, 3]).take(2).to_array())
            [1, 2]
        """
        if self.size is not None and count is not None:
            size = min(self.size, count) if count >= 0 else self.size
        else:
            size = None
        return self._derive(lambda it: it if count is None or count < 0 else _Take(it, count), size)

    async def to_array(self) -> List[Any]:
        """Every element, in a list (awaited).

        Returns:
            The list.

        Raises:
            ValueError: the dataset is endless.
        """
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
def array(items: Sequence[Any]) -> Dataset:
    """A dataset of the items of a list (each element a deep copy of its item).

    Args:
        items: the list.

    Returns:
        A Dataset of len(items) elements.

    Example:
        >>> import asyncio
        >>> ds = tf.data.array([{"x": 1}, {"x": 2}])
        >>> ds.size, asyncio.run(ds.to_array())
        (2, [{'x': 1}, {'x': 2}])
    """
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"data.array: argument 'items' must be a list, got {type(items).__name__}")
    items = list(items)

    async def iterator_fn():
        return _Items(items)
    return Dataset(iterator_fn, len(items))


def zip(datasets: Any) -> Dataset:  # noqa: A001 - TF.js name
    """A dataset of the elements of several datasets side by side, as long as the shortest.

    Args:
        datasets: a list or dict of datasets (nested).

    Returns:
        A Dataset whose elements are lists or dicts of the datasets' elements.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.data.zip({"a": tf.data.array([1, 2]), "b": tf.data.array([3, 4, 5])}).to_array())
        [{'a': 1, 'b': 3}, {'a': 2, 'b': 4}]
    """
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


def generator(generator_fn: Callable[[], Any]) -> Dataset:
    """A dataset of what a generator function yields (sync or async; each iterator() calls it again).

    Args:
        generator_fn: a generator function of no argument.

    Returns:
        A Dataset.

    Example:
        >>> import asyncio
        >>> def count():
        ...     yield from range(3)
        >>> asyncio.run(tf.data.generator(count).to_array())
        [0, 1, 2]
    """
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


def func(f: Callable[[], Any]) -> Dataset:
    """A dataset whose elements come from calling f() until it says done.

    Args:
        f: a function of no argument returning {"value": element, "done": bool} (or an awaitable of it).

    Returns:
        A Dataset.

    Example:
        >>> import asyncio
        >>> n = iter(range(3))
        >>> def f():
        ...     v = next(n, None)
        ...     return {"value": v, "done": v is None}
        >>> asyncio.run(tf.data.func(f).to_array())
        [0, 1, 2]
    """
    if not callable(f):
        raise TypeError(f"data.func: argument 'f' must be a function, got {type(f).__name__}")

    async def iterator_fn():
        return _Function(f)
    return Dataset(iterator_fn)


# --- csv ---------------------------------------------------------------------------------------------
_CSV = "tf.data.csv"
_CSV_OPTIONS = {"has_header", "column_names", "column_configs", "configured_columns_only", "delimiter",
                "delim_whitespace"}
_JS_SPACE = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009" \
            "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_JS_RADIX = re.compile(r"0(?:([xX])[0-9a-fA-F]+|([oO])[0-7]+|([bB])[01]+)")


def _js_number(text):
    """JavaScript's Number(text) for a string: a float, or None where JS gives NaN."""
    t = text.strip(_JS_SPACE)
    if not t:
        return 0.0
    if _JS_DECIMAL.fullmatch(t):
        return float(t.replace("Infinity", "inf"))
    m = _JS_RADIX.fullmatch(t)
    if m:
        return float(int(t[2:], 16 if m.group(1) else 8 if m.group(2) else 2))
    return None


def _snake_key(key):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def _csv_options(csv_config, options):
    """TF.js's CSVConfig (camelCase or snake_case keys, as one dict and/or keyword arguments)."""
    if csv_config is not None and not isinstance(csv_config, dict):
        raise TypeError(f"{_CSV}: argument 'csv_config' must be a dict of options, got {type(csv_config).__name__}")
    merged = {_snake_key(k): v for k, v in {**(csv_config or {}), **options}.items()}
    unknown = sorted(set(merged) - _CSV_OPTIONS)
    if unknown:
        raise TypeError(f"{_CSV}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(_CSV_OPTIONS))}")
    return merged


class _ColumnConfig:
    """One column's config: required, dtype, default, is_label (TF.js's ColumnConfig; keys in
    camelCase or snake_case). `default` unset and `default` None differ, as TF.js's undefined and null."""
    _KEYS = {"required", "dtype", "default", "is_label"}

    def __init__(self, name, config):
        if not isinstance(config, dict):
            raise TypeError(f"{_CSV}: columnConfigs[{name!r}] must be a dict, got {type(config).__name__}")
        c = {_snake_key(k): v for k, v in config.items()}
        unknown = sorted(set(c) - self._KEYS)
        if unknown:
            raise TypeError(f"{_CSV}: columnConfigs[{name!r}]: unknown key(s) {', '.join(unknown)}; known: required, "
                            f"dtype, default, isLabel")
        self.required, self.dtype = bool(c.get("required")), c.get("dtype")
        self.has_default, self.default = "default" in c, c.get("default")
        self.is_label = bool(c.get("is_label"))


class CSVDataset(Dataset):
    """TF.js's CSVDataset: the rows of CSV text from a source, each a dict {column: value} (with label
    columns, {"xs": features, "ys": labels}). Values are numbers (float; int32 columns floor them to
    int, bool columns give 1 or 0) or strings; an empty field is None unless its column has a default.
    Each iterator() reads the source again, as TF.js's. Make one with tf.data.csv, which lists the
    options.

    Example:
        >>> import asyncio
        >>> ds = tf.data.csv(b"x,y\\n1,2\\n3,4\\n", column_configs={"y": {"isLabel": True}})
        >>> asyncio.run(ds.to_array())
        [{'xs': {'x': 1.0}, 'ys': {'y': 2.0}}, {'xs': {'x': 3.0}, 'ys': {'y': 4.0}}]
    """

    def __init__(self, source, csv_config=None, **options):
        super().__init__(self._iterator, None)
        cfg = _csv_options(csv_config, options)
        self.source = source
        self.has_header = cfg.get("has_header") is not False
        names = cfg.get("column_names")
        if names is not None and (not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names)):
            raise TypeError(f"{_CSV}: option 'column_names' must be a list of strings, got {names!r}")
        self.full_column_names = list(names) if names is not None else None
        configs = cfg.get("column_configs")
        if configs is not None and not isinstance(configs, dict):
            raise TypeError(f"{_CSV}: option 'column_configs' must be a dict {{column: config}}, got "
                            f"{type(configs).__name__}")
        self.column_configs = None if configs is None else {k: _ColumnConfig(k, v) for k, v in configs.items()}
        self.configured_columns_only = bool(cfg.get("configured_columns_only"))
        self.column_names_validated = False
        self.delim_whitespace = bool(cfg.get("delim_whitespace"))
        if self.delim_whitespace:
            if cfg.get("delimiter") is not None:
                raise ValueError("Delimiter should not be provided when delimWhitespace is true.")
            self.delimiter = " "
        else:
            self.delimiter = cfg.get("delimiter") or ","
        if not isinstance(self.delimiter, str):
            raise TypeError(f"{_CSV}: option 'delimiter' must be a string, got {type(self.delimiter).__name__}")

    async def column_names(self):
        """The names of the columns the rows hold (configured_columns_only: those of column_configs),
        reading the header line when there is one (awaited, as TF.js's columnNames()).

        Returns:
            A list of names.
        """
        if not self.column_names_validated:
            await self._set_column_names()
        return list(self.column_configs) if self.configured_columns_only and self.column_configs is not None \
            else list(self.full_column_names)

    async def _lines(self):
        """The source's lines: UTF-8 text split at '\n', a '\r' before it dropped, no empty last line."""
        data = await _read_source(self.source)
        text = data.decode("utf-8", errors="replace")
        if text.startswith("\ufeff"):   # as the browser's TextDecoder
            text = text[1:]
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return [line[:-1] if line.endswith("\r") else line for line in lines]

    async def _set_column_names(self):
        from_file = None
        if self.has_header:
            lines = await self._lines()
            if not lines:
                raise ValueError("No data was found for CSV parsing.")
            from_file = self._parse_row(lines[0], False)
        if self.full_column_names is None and from_file is None:
            raise ValueError("Column names must be provided if there is no header line.")
        if self.full_column_names is not None and from_file is not None \
                and len(from_file) != len(self.full_column_names):
            raise ValueError(f"The length of provided columnNames ({len(self.full_column_names)}) does not match the "
                             f"length of the header line read from file ({len(from_file)}).")
        if self.full_column_names is None:
            self.full_column_names = from_file
        counts = {}
        for n in self.full_column_names:
            counts[n] = counts.get(n, 0) + 1
        duplicates = [n for n, k in counts.items() if k > 1]
        if duplicates:
            raise ValueError("Duplicate column names found: " + ",".join(duplicates))
        for key in self.column_configs or {}:
            if key not in self.full_column_names:
                raise ValueError(f'The key "{key}" provided in columnConfigs does not match any of the column names '
                                 f'({",".join(self.full_column_names)}).')
        self.column_names_validated = True

    async def _iterator(self):
        if not self.column_names_validated:
            await self._set_column_names()
        lines = await self._lines()
        return _Rows(lines[1:] if self.has_header else lines, self._make_data_element)

    def _make_data_element(self, line):
        values = self._parse_row(line)
        features, labels = {}, {}
        for i, key in enumerate(self.full_column_names):
            config = self.column_configs.get(key) if self.column_configs else None
            if self.configured_columns_only and config is None:
                continue
            value = values[i]
            if value == "":
                if config is not None and config.has_default:
                    parsed = config.default
                elif config is not None and (config.required or config.is_label):
                    raise ValueError(f"Required column {key} is empty in this line: {line}")
                else:
                    parsed = None
            else:
                number = _js_number(value)
                dtype = config.dtype if config is not None else None
                if number is None:
                    parsed = self._boolean(value) if dtype == "bool" else value
                elif dtype == "int32":
                    parsed = math.floor(number) if math.isfinite(number) else number
                elif dtype == "bool":
                    parsed = self._boolean(value)
                else:
                    parsed = number
            (labels if config is not None and config.is_label else features)[key] = parsed
        return {"xs": features, "ys": labels} if labels else features

    @staticmethod
    def _boolean(value):
        return 1 if value == "1" or value.lower() == "true" else 0

    def _parse_row(self, line, validate_element_count=True):
        """The fields of one line, with TF.js's quoting rules: a field that starts with '"' runs to the
        next '"' followed by the delimiter (or the end), and keeps any quotes inside it as they are
        (TF.js does not unescape '""'); with delim_whitespace, runs of spaces are one delimiter."""
        result, offset, state = [], 0, "out"
        delim, quote = self.delimiter, '"'
        for i, ch in enumerate(line):
            if state == "out":
                if ch == quote:
                    offset, state = i + 1, "quote"
                elif ch == delim:
                    offset = i + 1
                    if not (delim == " " and self.delim_whitespace):
                        result.append("")
                else:
                    offset, state = i, "field"
            elif state == "field":
                if ch == delim:
                    result.append(line[offset:i])
                    offset, state = i + 1, "out"
            elif state == "quote":
                if ch == quote:
                    state = "quote_after_quote"
            elif state == "quote_after_quote":
                if ch == delim:
                    result.append(line[offset:i - 1])
                    offset, state = i + 1, "out"
                elif ch == quote:
                    state = "quote"
                else:
                    state = "within_quote_in_quote"
            elif ch == quote:   # within_quote_in_quote
                state = "quote"
        result.append(line[offset:len(line) - 1] if state == "quote_after_quote" else line[offset:])
        if validate_element_count and len(result) != len(self.full_column_names):
            raise ValueError(f"Invalid row in csv file. Should have {len(self.full_column_names)} elements in a row, "
                             f"but got {','.join(result)}")
        return result


class _Rows(LazyIterator):
    def __init__(self, lines, make):
        self.lines, self.make, self.trav = lines, make, 0

    async def next(self):
        if self.trav >= len(self.lines):
            return dict(_DONE)
        self.trav += 1
        return {"value": self.make(self.lines[self.trav - 1]), "done": False}


def csv(source: Any, csv_config: Optional[dict] = None, **options: Any) -> CSVDataset:
    """A dataset of the rows of CSV text (TF.js's tf.data.csv); the rows are read when iterated.

    Args:
        source: a URL (fetched in the page; read with urllib in CPython: http, https, data:), 'file://'
            + a path (a local file in CPython, a file of Pyodide's file system in the page), in CPython a
            path without a scheme, a urllib.request.Request or (in the page) a JS Request; also the CSV
            bytes themselves (bytes, bytearray, memoryview; in the page a JS Uint8Array, ArrayBuffer,
            Blob or File).
        csv_config: the options as a dict with TF.js's camelCase keys (or give them as keywords).
        **options: has_header (True: the first line names the columns), column_names (a list; required
            without a header), column_configs ({column: {"required", "dtype", "default", "isLabel"}};
            label columns make each row {"xs": features, "ys": labels}), configured_columns_only,
            delimiter (','), delim_whitespace (runs of spaces separate fields).

    Returns:
        A CSVDataset.

    Example:
        >>> import asyncio
        >>> ds = tf.data.csv(b"a,b\\n1,2\\n3,4\\n")
        >>> asyncio.run(ds.column_names()), asyncio.run(ds.to_array())
        (['a', 'b'], [{'a': 1.0, 'b': 2.0}, {'a': 3.0, 'b': 4.0}])
    """
    return CSVDataset(source, csv_config, **options)


async def _read_source(source):
    """The bytes of a csv source (see csv)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if IN_BROWSER and not isinstance(source, str):
        import js   # the page's JS: exists only in Pyodide
        if hasattr(source, "arrayBuffer"):   # Blob, File
            return (await source.arrayBuffer()).to_bytes()
        if hasattr(source, "url") and hasattr(source, "method"):   # a Request
            return await _fetch_js(source, source.url)
        if hasattr(source, "byteLength"):   # a typed array (its bytes), an ArrayBuffer
            view = js.Uint8Array.new(source.buffer, source.byteOffset, source.byteLength) \
                if hasattr(source, "buffer") else js.Uint8Array.new(source)
            return view.to_bytes()
    if isinstance(source, str):
        if source.startswith("file://") or (not IN_BROWSER and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", source)):
            path = source[7:] if source.startswith("file://") else source
            try:
                with open(path, "rb") as f:
                    return f.read()
            except OSError as e:
                raise ValueError(f"{_CSV}: cannot read {source}: {e.strerror or e}") from None
        if IN_BROWSER:
            return await _fetch_js(source, source)
        return await asyncio.to_thread(_fetch_urllib, source)
    import urllib.error
    import urllib.request
    if isinstance(source, urllib.request.Request):
        return await asyncio.to_thread(_fetch_urllib, source)
    raise TypeError(f"{_CSV}: argument 'source' must be a URL or path string, a Request or bytes, got "
                    f"{type(source).__name__}")


async def _fetch_js(request, url):
    import js   # the page's JS: exists only in Pyodide
    from pyodide.ffi import JsException
    try:
        response = await js.fetch(request)
        if not response.ok:
            raise ValueError(f"{_CSV}: request to {url} failed: {response.status} {response.statusText}")
        return (await response.arrayBuffer()).to_bytes()
    except JsException as e:   # a network or CORS failure: fetch rejects without a status
        raise ValueError(f"{_CSV}: request to {url} failed: {e}") from None


def _fetch_urllib(request):
    """The body at a URL (or urllib Request) through io.http's urllib helper; data: and file: URLs
    have no HTTP status (taken as 200)."""
    import urllib.request
    url = request if isinstance(request, str) else request.full_url
    if isinstance(request, str):
        response = _urlopen(request, {}, api=_CSV)
    else:
        try:
            response = urllib.request.urlopen(request)
        except urllib.error.HTTPError as e:
            response = e
        except (urllib.error.URLError, OSError) as e:
            raise ValueError(f"{_CSV}: Request to {url} failed: {getattr(e, 'reason', e)}") from e
    try:
        status = getattr(response, "status", None) or 200
        body = response.read()
    finally:
        response.close()
    if not 200 <= status < 300:
        raise ValueError(f"{_CSV}: Request to {url} failed: {status} {getattr(response, 'reason', '')}".rstrip())
    return body


# --- browser devices: microphone and webcam ------------------------------------------------------------
def _in_browser():
    return IN_BROWSER


def _device_options(api, config, options, known):
    if config is not None and not isinstance(config, dict):
        raise TypeError(f"{api}: the config must be a dict of options, got {type(config).__name__}")
    merged = {_snake_key(k): v for k, v in {**(config or {}), **options}.items()}
    unknown = sorted(set(merged) - known)
    if unknown:
        raise TypeError(f"{api}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return merged


def _js_object(value):
    import js   # the page's JS: exists only in Pyodide
    from pyodide.ffi import to_js
    return to_js(value, dict_converter=js.Object.fromEntries, create_pyproxies=False)


def _float32_bytes(js_array):
    """A JS Float32Array's values as array.array('f')."""
    import array as _array
    out = _array.array("f")
    out.frombytes(js_array.to_bytes())
    return out


def _padded(frames, size):
    """The frames one after another, zeros before them up to size values (TF.js's
    getTensorFromAudioDataArray)."""
    import array as _array
    flat = _array.array("f")
    for f in frames:
        flat.extend(f)
    return _array.array("f", bytes(4 * (size - len(flat)))) + flat


class MicrophoneIterator(LazyIterator):
    """TF.js's MicrophoneIterator (make it with tf.data.microphone): each `await next()` (or `await
    capture()`) records num_frames_per_spectrogram frames from the microphone through a Web Audio
    AnalyserNode and gives {"spectrogram": [frames, column_truncate_length, 1] dB values,
    "waveform": [frames * fft_size, 1] samples in [-1, 1]} (float32; the one not included is None).
    Frames are read every fft_size / sample rate seconds; while the stream is still silent at its start
    (the first frequency bin is -inf) a capture ends early, the missing frames zeros before the ones
    read, as TF.js's. Browser only.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.data.MicrophoneIterator.create(fft_size=512))   # in CPython
        Traceback (most recent call last):
        ...
        RuntimeError: tf.data.microphone is only supported in the browser ...
    """

    _KNOWN = {"fft_size", "column_truncate_length", "num_frames_per_spectrogram", "audio_track_constraints",
              "smoothing_time_constant", "include_spectrogram", "include_waveform", "sample_rate_hz"}

    def __init__(self, microphone_config=None, **options):
        cfg = _device_options("tf.data.microphone", microphone_config, options, self._KNOWN)
        self.is_closed = False
        self.fft_size = cfg.get("fft_size") or 1024
        log2 = math.log2(self.fft_size) if isinstance(self.fft_size, (int, float)) and self.fft_size > 0 else -1
        if log2 < 4 or log2 > 14 or not float(log2).is_integer():
            raise ValueError(f"Invalid fftSize: it must be a power of 2 between 2 to 4 and 2 to 14, but got "
                             f"{self.fft_size}")
        self.fft_size = int(self.fft_size)
        self.num_frames = int(cfg.get("num_frames_per_spectrogram") or 43)
        self.sample_rate_hz = cfg.get("sample_rate_hz")
        self.column_truncate_length = int(cfg.get("column_truncate_length") or self.fft_size)
        self.audio_track_constraints = cfg.get("audio_track_constraints")
        self.smoothing_time_constant = cfg.get("smoothing_time_constant") or 0
        self.include_spectrogram = cfg.get("include_spectrogram") is not False
        self.include_waveform = cfg.get("include_waveform") is True
        if not self.include_spectrogram and not self.include_waveform:
            raise ValueError("Both includeSpectrogram and includeWaveform are false. At least one type of data "
                             "should be returned.")
        self.stream = self.audio_context = self.analyser = None

    @classmethod
    async def create(cls, microphone_config=None, **options):
        """Open the microphone and make the iterator (awaited), as tf.data.microphone.

        Args:
            microphone_config: the options as a dict with TF.js's camelCase keys.
            **options: the options as keywords (see tf.data.microphone).

        Returns:
            A MicrophoneIterator.
        """
        if not _in_browser():
            raise RuntimeError("tf.data.microphone is only supported in the browser (it records through "
                               "navigator.mediaDevices.getUserMedia): run the script in the page (pytfweb run, "
                               "a <script type=\"text/python\"> tag), not in CPython")
        it = cls(microphone_config, **options)
        await it.start()
        return it

    async def start(self):
        """Open the microphone stream and the analyser (create() calls it)."""
        import js   # the page's JS: exists only in Pyodide
        from pyodide.ffi import JsException
        devices = getattr(js.navigator, "mediaDevices", None)
        if devices is None:
            raise RuntimeError("Error thrown while initializing audio stream: navigator.mediaDevices is not available "
                               "here (a worker, or a page that is not a secure context)")
        constraints = True if self.audio_track_constraints is None else self.audio_track_constraints
        try:
            self.stream = await devices.getUserMedia(_js_object({"audio": constraints, "video": False}))
        except JsException as e:
            raise RuntimeError(f"Error thrown while initializing audio stream: {e}") from None
        if not self.stream:
            raise RuntimeError("Could not obtain audio from microphone.")
        ctor = getattr(js, "AudioContext", None) or getattr(js, "webkitAudioContext", None)
        self.audio_context = ctor.new()
        if not self.sample_rate_hz:
            self.sample_rate_hz = self.audio_context.sampleRate
        elif self.audio_context.sampleRate != self.sample_rate_hz:
            raise ValueError(f"Mismatch in sampling rate: Expected: {self.sample_rate_hz}; Actual: "
                             f"{self.audio_context.sampleRate}")
        source = self.audio_context.createMediaStreamSource(self.stream)
        self.analyser = self.audio_context.createAnalyser()
        self.analyser.fftSize = self.fft_size * 2
        self.analyser.smoothingTimeConstant = self.smoothing_time_constant
        source.connect(self.analyser)
        self.freq_data = js.Float32Array.new(self.fft_size)
        self.time_data = js.Float32Array.new(self.fft_size)
        self.is_closed = False

    async def next(self):
        if self.is_closed:
            return dict(_DONE)
        freq_frames, time_frames = await self._audio_data()
        value = {"spectrogram": None, "waveform": None}
        if self.include_spectrogram:
            shape = [self.num_frames, self.column_truncate_length, 1]
            value["spectrogram"] = ops.tensor(_padded(freq_frames, math.prod(shape)), shape, "float32")
        if self.include_waveform:
            shape = [self.num_frames * self.fft_size, 1]
            value["waveform"] = ops.tensor(_padded(time_frames, math.prod(shape)), shape, "float32")
        return {"value": value, "done": False}

    async def capture(self):
        """One recording (awaited): next()'s value.

        Returns:
            {"spectrogram": Tensor or None, "waveform": Tensor or None}.
        """
        return (await self.next())["value"]

    async def _audio_data(self):
        freq_frames, time_frames = [], []
        period = self.fft_size / self.sample_rate_hz
        for _ in range(self.num_frames):
            await asyncio.sleep(period)
            silent = False
            if self.include_spectrogram:
                self.analyser.getFloatFrequencyData(self.freq_data)
                silent = self.freq_data[0] == -math.inf   # the stream is initializing: TF.js stops here
                freq_frames.append(_float32_bytes(self.freq_data.subarray(0, self.column_truncate_length)))
            if self.include_waveform:
                self.analyser.getFloatTimeDomainData(self.time_data)
                time_frames.append(_float32_bytes(self.time_data))
            if silent:
                break
        return freq_frames, time_frames

    def stop(self):
        """Stop recording: the analyser, the audio context and the track close; next() is done."""
        if not self.is_closed:
            self.is_closed = True
            if self.analyser is not None:
                self.analyser.disconnect()
                self.audio_context.close()
            if self.stream is not None and self.stream.getTracks().length > 0:
                self.stream.getTracks()[0].stop()

    def get_sample_rate(self):
        """The audio context's sample rate.

        Returns:
            The rate in Hz.
        """
        return self.sample_rate_hz

    async def to_array(self):
        raise ValueError("Can not convert infinite audio stream to array.")


class WebcamIterator(LazyIterator):
    """TF.js's WebcamIterator (make it with tf.data.webcam): each `await next()` (or `await
    capture()`) gives the video element's current frame through tf.browser.from_pixels: int32
    [height, width, 3], or, when resize_width and resize_height differ from the element's size, float32
    [resize_height, resize_width, 3] through tf.image.crop_and_resize (center_crop: the centred box of
    the resize size's proportions, else the whole frame). Browser only.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.data.WebcamIterator.create(resize_width=64, resize_height=64))   # in CPython
        Traceback (most recent call last):
        ...
        RuntimeError: tf.data.webcam is only supported in the browser ...
    """

    _KNOWN = {"resize_width", "resize_height", "center_crop", "facing_mode", "device_id"}

    def __init__(self, webcam_video_element, webcam_config=None, **options):
        cfg = _device_options("tf.data.webcam", webcam_config, options, self._KNOWN)
        self.webcam_video_element = webcam_video_element
        self.resize_width, self.resize_height = cfg.get("resize_width"), cfg.get("resize_height")
        self.center_crop = bool(cfg.get("center_crop"))
        self.facing_mode, self.device_id = cfg.get("facing_mode"), cfg.get("device_id")
        self.is_closed = True
        self.stream = None
        el = webcam_video_element
        self.resize = bool(self.resize_width and self.resize_height and
                           (el.width != self.resize_width or el.height != self.resize_height))
        if self.resize:
            self.crop_size = [self.resize_height, self.resize_width]
            if self.center_crop:
                w_ratio, h_ratio = self.resize_width / el.width, self.resize_height / el.height
                w0, h0 = (1 - w_ratio) / 2, (1 - h_ratio) / 2
                self.crop_box = [h0, w0, h0 + h_ratio, w0 + w_ratio]
            else:
                self.crop_box = [0, 0, 1, 1]

    @classmethod
    async def create(cls, webcam_video_element=None, webcam_config=None, **options):
        """Open the camera and make the iterator (awaited), as tf.data.webcam.

        Args:
            webcam_video_element: a JS HTMLVideoElement (None: a hidden one).
            webcam_config: the options as a dict with TF.js's camelCase keys.
            **options: the options as keywords (see tf.data.webcam).

        Returns:
            A WebcamIterator.
        """
        if not _in_browser():
            raise RuntimeError("tf.data.webcam is only supported in the browser (it films through "
                               "navigator.mediaDevices.getUserMedia): run the script in the page (pytfweb run, "
                               "a <script type=\"text/python\"> tag), not in CPython")
        import js   # the page's JS: exists only in Pyodide
        if webcam_video_element is None:
            cfg = _device_options("tf.data.webcam", webcam_config, options, cls._KNOWN)
            if not cfg.get("resize_width") or not cfg.get("resize_height"):
                raise ValueError("Please provide webcam video element, or resizeWidth and resizeHeight to create a "
                                 "hidden video element.")
            if getattr(js, "document", None) is None:
                raise RuntimeError("tf.data.webcam: there is no document here (a worker) to make a video element in")
            webcam_video_element = js.document.createElement("video")
            webcam_video_element.width = cfg["resize_width"]
            webcam_video_element.height = cfg["resize_height"]
        it = cls(webcam_video_element, webcam_config, **options)
        await it.start()
        return it

    async def start(self):
        """Open the camera stream into the video element and wait for its metadata (create() calls it)."""
        import js   # the page's JS: exists only in Pyodide
        from pyodide.ffi import JsException
        if self.facing_mode and self.facing_mode not in ("user", "environment"):
            raise ValueError(f"Invalid webcam facing mode: {self.facing_mode}. Please provide 'user' or 'environment'")
        devices = getattr(js.navigator, "mediaDevices", None)
        if devices is None:
            raise RuntimeError("Error thrown while initializing video stream: navigator.mediaDevices is not available "
                               "here (a worker, or a page that is not a secure context)")
        el = self.webcam_video_element
        video = {"facingMode": self.facing_mode or "user", "width": el.width, "height": el.height}
        if self.device_id is not None:
            video["deviceId"] = self.device_id
        try:
            self.stream = await devices.getUserMedia(_js_object({"video": video}))
        except JsException as e:
            raise RuntimeError(f"Error thrown while initializing video stream: {e}") from None
        if not self.stream:
            raise RuntimeError("Could not obtain video from webcam.")
        el.srcObject = self.stream
        el.muted = True
        played = el.play()   # a Promise: its rejection (autoplay refused) must not go unhandled
        if hasattr(played, "catch"):
            played.catch(lambda *_: None)
        self.is_closed = False
        await self._event("loadedmetadata", 1)

    async def _event(self, name, ready_state):
        """Wait for the element's event `name` unless its readyState is at least ready_state already."""
        from pyodide.ffi import create_once_callable
        el = self.webcam_video_element
        if el.readyState >= ready_state:
            return
        future = asyncio.get_event_loop().create_future()

        def done(*_):
            if not future.done():
                future.set_result(None)
        callback = create_once_callable(done)
        el.addEventListener(name, callback, _js_object({"once": True}))
        await future

    async def next(self):
        if self.is_closed:
            return dict(_DONE)
        await self._event("loadeddata", 2)   # a frame to read (TF.js reads whatever the element holds)
        img = from_pixels(self.webcam_video_element)
        if not self.resize:
            return {"value": img, "done": False}
        try:
            return {"value": tidy(lambda: self._crop_and_resize(img)), "done": False}
        finally:
            img.dispose()

    def _crop_and_resize(self, img):
        batch = ops.expand_dims(ops.cast(img, "float32"), 0)
        out = crop_and_resize(batch, ops.tensor([self.crop_box], [1, 4], "float32"), ops.tensor([0], [1], "int32"),
                              self.crop_size, "bilinear")
        return ops.reshape(out, list(out.shape[1:]))

    async def capture(self):
        """One frame (awaited): next()'s value.

        Returns:
            An image Tensor [height, width, 3].
        """
        return (await self.next())["value"]

    def stop(self):
        """Stop the camera: every track ends and the element lets go of the stream; next() is done."""
        if self.stream is not None:
            for track in self.stream.getTracks():
                track.stop()
        self.webcam_video_element.srcObject = None
        self.is_closed = True

    async def to_array(self):
        raise ValueError("Can not convert infinite video stream to array.")


async def microphone(microphone_config: Optional[dict] = None, **options: Any) -> MicrophoneIterator:
    """A MicrophoneIterator recording from the browser's microphone (TF.js's tf.data.microphone;
    awaited; browser only).

    Args:
        microphone_config: the options as a dict with TF.js's camelCase keys (or give them as keywords).
        **options: fft_size (1024: a power of 2 from 16 to 16384), column_truncate_length,
            num_frames_per_spectrogram (43), audio_track_constraints, smoothing_time_constant,
            include_spectrogram (True), include_waveform (False), sample_rate_hz (the device's; another
            value raises).

    Returns:
        A MicrophoneIterator.

    Raises:
        RuntimeError: in CPython.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.data.microphone())   # in CPython
        Traceback (most recent call last):
        ...
        RuntimeError: tf.data.microphone is only supported in the browser ...
    """
    return await MicrophoneIterator.create(microphone_config, **options)


async def webcam(webcam_video_element: Any = None, webcam_config: Optional[dict] = None,
                 **options: Any) -> WebcamIterator:
    """A WebcamIterator filming into a video element (TF.js's tf.data.webcam; awaited; browser only).

    Args:
        webcam_video_element: a JS HTMLVideoElement (None: a hidden one of resize_width x
            resize_height).
        webcam_config: the options as a dict with TF.js's camelCase keys (or give them as keywords).
        **options: resize_width, resize_height, center_crop, facing_mode ('user' or 'environment'),
            device_id.

    Returns:
        A WebcamIterator.

    Raises:
        RuntimeError: in CPython.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.data.webcam())   # in CPython
        Traceback (most recent call last):
        ...
        RuntimeError: tf.data.webcam is only supported in the browser ...
    """
    return await WebcamIterator.create(webcam_video_element, webcam_config, **options)


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
    return tensors_in(x)


def _dispose_tensors(x):
    dispose(_tensors(x))
