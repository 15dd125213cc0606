"""The stateful containers graph ops address through handle tensors: TensorArray (TF1 loops),
TensorList (TF2 loops) and HashTable (lookup tables, kept by the model across runs).

A handle is a scalar tensor the container keeps; the graph passes copies of it around (Identity,
Enter, loop variables, function arguments), and every copy shares its data, so the container is
found by the handle's data id. A container owns references to the tensors written into it and
gives out fresh ones, so the executor can dispose what it holds without touching the container.
"""
from .. import ops as tfo
from ..core.api import keep, tidy


def _owned(t):
    """A reference to t's data that the container owns (outside every tidy scope's reach)."""
    return keep(tfo.clone(t))


def _dispose(tensors):
    for t in tensors:
        if t is not None:
            t.dispose()


def _shapes_match(a, b):
    """Shapes with -1 (or None) for unknown sizes; None for an unknown rank matches anything."""
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(x is None or y is None or x < 0 or y < 0 or x == y for x, y in zip(a, b))


def _merged(a, b, where):
    if a is None:
        return None if b is None else list(b)
    if b is None:
        return list(a)
    if not _shapes_match(a, b):
        raise ValueError(f"{where}: element shapes {list(a)} and {list(b)} do not match")
    return [y if x is None or x < 0 else x for x, y in zip(a, b)]


class Resource:
    kind = "resource"

    def __init__(self, name):
        self.name = name
        self.handle = keep(tfo.scalar(0, "int32"))

    def handle_copy(self):
        return tfo.clone(self.handle)

    def close(self):
        if not self.handle.is_disposed:
            self.handle.dispose()


class TensorArray(Resource):
    kind = "TensorArray"

    def __init__(self, name, dtype, size, element_shape, dynamic_size, clear_after_read):
        super().__init__(name)
        self.dtype = dtype
        self.element_shape = element_shape
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        # As TF.js's TensorArray: size is the bound of a static array; the array grows as it is
        # written and size() counts up to the last written index (what TensorArraySizeV3 gives).
        self.max_size = size
        self.items = []  # [owned tensor, read?] per index, None for a hole
        self.closed = False

    def _where(self):
        return f"TensorArray '{self.name}'"

    def _check_open(self):
        if self.closed:
            raise ValueError(f"{self._where()} has already been closed")

    def size(self):
        return len(self.items)

    def write(self, index, t):
        self._check_open()
        if index < 0 or (index >= self.max_size and not self.dynamic_size):
            raise ValueError(f"{self._where()}: cannot write index {index}; its size is {self.max_size} and it is not "
                             f"dynamically sized")
        if t.dtype != self.dtype:
            raise TypeError(f"{self._where()} holds {self.dtype}, cannot write a {t.dtype} tensor at index {index}")
        if not _shapes_match(self.element_shape, t.shape):
            raise ValueError(f"{self._where()}: cannot write a tensor of shape {list(t.shape)} at index {index}; its "
                             f"elements have shape {self.element_shape}")
        if index >= len(self.items):
            self.items.extend([None] * (index + 1 - len(self.items)))
        if self.items[index] is not None:
            raise ValueError(f"{self._where()}: index {index} was already written")
        if not self.element_shape or any(d is None or d < 0 for d in self.element_shape):
            self.element_shape = list(t.shape)
        self.items[index] = [_owned(t), False]

    def read(self, index):
        """A fresh reference to element index."""
        return tfo.clone(self._take(index))

    def _take(self, index):
        self._check_open()
        if not 0 <= index < len(self.items) or self.items[index] is None:
            raise ValueError(f"{self._where()}: cannot read index {index}: it has not been written (size "
                             f"{len(self.items)})")
        item = self.items[index]
        if item[1] and self.clear_after_read:
            raise ValueError(f"{self._where()}: index {index} was already read and cleared (clear_after_read)")
        item[1] = True
        return item[0]

    def gather(self, indices):
        if not indices:
            return tfo.zeros([0] + [max(d, 0) for d in (self.element_shape or [])], self.dtype)
        return tfo.stack([self._take(i) for i in indices], 0)

    def concat(self):
        n = len(self.items)
        parts = [self._take(i) for i in range(n)]
        lengths = tfo.tensor([p.shape[0] if p.rank else 1 for p in parts], [n], "int32")
        if not parts:
            return [tfo.zeros([0] + [max(d, 0) for d in (self.element_shape or [])[1:]], self.dtype), lengths]
        return [tfo.concat(parts, 0), lengths]

    def scatter(self, indices, t):
        if len(indices) != (t.shape[0] if t.rank else 0):
            raise ValueError(f"{self._where()}: scatter got {len(indices)} indices for a tensor of shape {list(t.shape)}")
        parts = tfo.unstack(t, 0)
        try:
            for i, part in zip(indices, parts):
                self.write(i, part)
        finally:
            _dispose(parts)

    def split(self, lengths, t):
        if sum(lengths) != (t.shape[0] if t.rank else 0):
            raise ValueError(f"{self._where()}: split lengths {lengths} do not add up to the tensor's first dimension "
                             f"{list(t.shape)}")
        parts = tfo.split(t, lengths, 0) if lengths else []
        shape = self.element_shape
        reshape = shape is not None and len(shape) > 0 and all(d is not None and d >= 0 for d in shape)
        pieces = []
        try:
            for i, part in enumerate(parts):
                if reshape and list(part.shape) != list(shape):
                    # TF.js reshapes each piece to the element shape ([1, 3] pieces of an array of [3])
                    part = tfo.reshape(part, shape)
                    pieces.append(part)
                self.write(i, part)
        finally:
            _dispose(parts + pieces)

    def close(self):
        _dispose(item[0] for item in self.items if item is not None)
        self.items = []
        self.closed = True
        super().close()


class TensorList(Resource):
    kind = "TensorList"

    def __init__(self, element_shape, dtype, items=None, max_size=-1):
        super().__init__("TensorList")
        self.element_shape = element_shape
        self.dtype = dtype
        self.max_size = max_size
        self.items = []  # owned tensors (None for a reserved, unset element)
        for t in items or ():
            self._check(t, len(self.items))
            self.items.append(_owned(t))

    def _check(self, t, index):
        if t.dtype != self.dtype:
            raise TypeError(f"TensorList holds {self.dtype}, cannot take a {t.dtype} tensor (element {index})")
        if not _shapes_match(self.element_shape, t.shape):
            raise ValueError(f"TensorList elements have shape {self.element_shape}, cannot take a tensor of shape "
                             f"{list(t.shape)} (element {index})")

    def _check_dtype(self, dtype, what):
        if dtype is not None and dtype != self.dtype:
            raise TypeError(f"{what}: the TensorList holds {self.dtype}, asked for {dtype}")

    def size(self):
        return len(self.items)

    def element(self, index):
        if not 0 <= index < len(self.items):
            raise ValueError(f"TensorList: index {index} is out of range for a list of {len(self.items)} elements")
        t = self.items[index]
        if t is None:
            raise ValueError(f"TensorList: element {index} was reserved but never set")
        return t

    def shape_for(self, element_shape):
        """The elements' full shape, from the list's, the op's and the elements' own."""
        shape = _merged(self.element_shape, element_shape, "TensorList")
        for t in self.items:
            if shape is not None and all(d is not None and d >= 0 for d in shape):
                break
            if t is not None:
                shape = _merged(shape, t.shape, "TensorList")
        if shape is None or any(d is None or d < 0 for d in shape):
            raise ValueError(f"TensorList: the element shape {shape} is not fully defined")
        return shape

    def set(self, index, t):
        if index < 0 or (self.max_size >= 0 and index >= self.max_size):
            raise ValueError(f"TensorList: cannot set element {index} of a list of at most {self.max_size} elements")
        self._check(t, index)
        if index >= len(self.items):
            self.items.extend([None] * (index + 1 - len(self.items)))
        old = self.items[index]
        self.items[index] = _owned(t)
        if old is not None:
            old.dispose()

    def push(self, t):
        if self.max_size >= 0 and len(self.items) >= self.max_size:
            raise ValueError(f"TensorList: cannot push onto a full list of {self.max_size} elements")
        self._check(t, len(self.items))
        self.items.append(_owned(t))

    def pop(self, element_shape):
        if not self.items:
            raise ValueError("TensorList: cannot pop from an empty list")
        shape = self.shape_for(element_shape)
        t = self.items.pop()
        if t is None:
            return tfo.zeros(shape, self.dtype)
        try:
            return tfo.reshape(t, shape)
        finally:
            t.dispose()

    def stack(self, element_shape, num_elements=-1):
        if num_elements not in (-1, None) and num_elements != len(self.items):
            raise ValueError(f"TensorList: expected {num_elements} elements, the list has {len(self.items)}")
        return self.gather(range(len(self.items)), element_shape)

    def gather(self, indices, element_shape):
        shape = self.shape_for(element_shape)
        indices = [i for i in indices if i < len(self.items)]
        if not indices:
            return tfo.zeros([0] + shape, self.dtype)
        parts = [tfo.reshape(self.element(i), shape) for i in indices]
        try:
            return tfo.stack(parts, 0)
        finally:
            _dispose(parts)

    def concat(self, element_shape):
        parts = [self.element(i) for i in range(len(self.items))]
        lengths = tfo.tensor([p.shape[0] for p in parts], [len(parts)], "int32")
        if not parts:
            shape = _merged(self.element_shape, element_shape, "TensorList") or [0]
            return [tfo.zeros([0] + [max(d, 0) for d in shape[1:]], self.dtype), lengths]
        return [tfo.concat(parts, 0), lengths]

    def resized(self, size):
        if size < 0 or (self.max_size >= 0 and size > self.max_size):
            raise ValueError(f"TensorList: cannot resize to {size} elements (at most {self.max_size})")
        out = TensorList(self.element_shape, self.dtype, max_size=self.max_size)
        out.items = [_owned(t) if t is not None else None for t in self.items[:size]]
        out.items.extend([None] * (size - len(out.items)))
        return out

    def close(self):
        _dispose(self.items)
        self.items = []
        super().close()


class HashTable(Resource):
    kind = "HashTable"

    def __init__(self, name, key_dtype, value_dtype):
        super().__init__(name)
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.index = {}
        self.values = None  # owned tensor [n, ...] of the values

    def _check(self, keys, values, what):
        if keys.dtype != self.key_dtype:
            raise TypeError(f"HashTable '{self.name}': {what} keys must be {self.key_dtype}, got {keys.dtype}")
        if values.dtype != self.value_dtype:
            raise TypeError(f"HashTable '{self.name}': {what} values must be {self.value_dtype}, got {values.dtype}")

    async def import_(self, keys, values):
        self._check(keys, values, "imported")
        key_list = list(await keys.data())
        if len(key_list) != (values.shape[0] if values.rank else 1):
            raise ValueError(f"HashTable '{self.name}': {len(key_list)} keys for values of shape {list(values.shape)}")
        if self.values is not None:
            self.values.dispose()
        self.index = {k: i for i, k in enumerate(key_list)}
        self.values = _owned(values if values.rank else tfo.reshape(values, [1]))

    async def find(self, keys, default):
        self._check(keys, default, "looked-up")
        key_list = list(await keys.data())
        value_shape = list(self.values.shape[1:]) if self.values is not None else []
        out_shape = list(keys.shape) + value_shape
        rows = [self.index.get(k, -1) for k in key_list]
        if self.values is None or not rows:
            return tfo.broadcast_to(default, out_shape) if rows else tfo.zeros(out_shape, self.value_dtype)

        def lookup():
            found = tfo.gather(self.values, tfo.tensor([max(r, 0) for r in rows], [len(rows)], "int32"))
            found = tfo.reshape(found, out_shape)
            mask = tfo.tensor([r >= 0 for r in rows], list(keys.shape) + [1] * len(value_shape), "bool")
            return tfo.where(tfo.broadcast_to(mask, out_shape), found, tfo.broadcast_to(default, out_shape))
        return tidy(lookup)

    def size(self):
        return len(self.index)

    def close(self):
        if self.values is not None:
            self.values.dispose()
            self.values = None
        self.index = {}
        super().close()
