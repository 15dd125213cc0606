"""Tensor: an immutable handle (data id, shape, dtype) to data a backend owns.

The core below ops: this module imports only leaf helpers. The engine (above it: it makes
tensors) hands itself over with `bind_engine` when it is created; the methods backed by ops
(operators, clone, iteration, buffer, t.add(...), ...) are attached by ops/methods.py."""
import itertools

from . import tensor_values as _conv
from ._numpy import np
from .dtypes import TYPECODES
from .errors import BackendError, DisposedTensorError, TensorConversionError
from .shapes import size_of, strides_of

_ids = itertools.count()


class DataId:
    """Identity of one data buffer; `backend` is the backend holding it now (data moves
    between backends on use, keeping its id)."""
    __slots__ = ("backend", "__weakref__")

    def __init__(self, backend):
        self.backend = backend

    def __repr__(self):
        return f"<DataId {id(self):#x} on {self.backend.name}>"


class Tensor:
    """An immutable n-dimensional array on a backend (numpy on cpu, a texture or buffer on webgl and
    webgpu): a handle holding an id, the data's id, a shape and a dtype.

    Tensors are made by ops (tf.tensor, tf.zeros, tf.add, ...), never directly. Their data is freed
    by dispose() or by the tf.tidy scope that made them. Ops are also methods (t.add(b) is
    tf.add(t, b)) and Python operators (+ - * / // % ** @, comparisons, t[key]).

    Attributes:
        shape: the shape, a tuple of ints.
        dtype: 'float32', 'int32', 'bool', 'complex64' or 'string'.
        size: the number of elements.
        id: a unique number.

    Example:
        >>> t = tf.tensor([[1, 2], [3, 4]])
        >>> t.shape, t.dtype, t.size, t.rank
        ((2, 2), 'float32', 4, 2)
        >>> (t * 2 + 1).print()
        Tensor
            [[3, 5],
             [7, 9]]
        >>> t.sum().array_sync()
        10.0
    """
    __slots__ = ("id", "data_id", "shape", "dtype", "size", "kept", "is_disposed_internal",
                 "scope_id", "__weakref__")

    def __init__(self, data_id, shape, dtype):
        self.id = next(_ids)
        self.data_id = data_id
        self.shape = shape
        self.dtype = dtype
        self.size = size_of(shape)
        self.kept = False
        self.is_disposed_internal = False
        self.scope_id = None

    # --- descriptive -------------------------------------------------------------
    @property
    def rank(self):
        """The number of axes (0 for a scalar)."""
        return len(self.shape)

    @property
    def strides(self):
        """The row-major strides of every axis but the last (TF.js's strides): [] for rank < 2."""
        return strides_of(self.shape)[:-1] if self.shape else []

    @property
    def is_disposed(self):
        """Whether the tensor's data has been disposed (it can no longer be used)."""
        return self.is_disposed_internal

    def throw_if_disposed(self, op=None):
        """Raise DisposedTensorError if the tensor is disposed.

        Args:
            op: the op's name, for the message.
        """
        if self.is_disposed_internal:
            where = f"{op}: " if op else ""
            raise DisposedTensorError(
                f"{where}Tensor is disposed (id {self.id}, shape {list(self.shape)}, dtype {self.dtype})")

    # --- readback ----------------------------------------------------------------
    def data_sync(self):
        """The values as a flat array.array, read back from the backend (blocking).

        Returns:
            An array.array of the values in row-major order ('f' float32, 'i' int32, 'B' bool; a list
            of str for string tensors; interleaved real and imaginary parts for complex64).
        """
        self.throw_if_disposed("data_sync")
        return ENGINE.read_sync(self)

    async def data(self):
        """The values as a flat array.array, read without blocking the page on webgl (awaited).

        Returns:
            As data_sync().
        """
        self.throw_if_disposed("data")
        return await ENGINE.read(self)

    def array_sync(self):
        """The values as nested Python lists (blocking).

        Returns:
            Nested lists of floats, ints, bools or strs (a plain value for a scalar).
        """
        return _conv.nest(_to_py(self.data_sync(), self.dtype), _nest_shape(self))

    async def array(self):
        """The values as nested Python lists, read without blocking the page (awaited).

        Returns:
            As array_sync().
        """
        return _conv.nest(_to_py(await self.data(), self.dtype), _nest_shape(self))

    def numpy(self):
        """The values as a new numpy ndarray of the tensor's shape (blocking; a copy: writing to it changes
        nothing here; where numpy is importable).

        Returns:
            An ndarray of the tensor's shape and dtype.

        Raises:
            ImportError: numpy is not importable (in a page without it).
        """
        self.throw_if_disposed("numpy")
        if np is None:
            raise ImportError("Tensor.numpy: numpy is not importable here; use data_sync() or array_sync()")
        return ENGINE.read_numpy(self)

    # --- numpy interop -------------------------------------------------------------
    # Above ndarray's 0 and numpy scalars' -1000000: numpy's operators then give way to the
    # tensor's reflected ones, so np.ones(2) + t and np.float32(2) * t are tensors (as in TensorFlow).
    __array_priority__ = 100

    def __array__(self, dtype=None, copy=None):
        """np.asarray(t), np.array(t, dtype=...): the values copied to host memory (numpy 2's
        protocol). Backends own their data and a tensor never changes, so numpy never gets the
        backend's own buffer: copy=False (numpy's "never copy") raises ValueError."""
        self.throw_if_disposed("__array__")
        if copy is False:
            raise ValueError("Tensor.__array__: a tensor's values are always copied out of its backend, so "
                             "copy=False cannot be honoured; use np.asarray(t) (or np.from_dlpack(t) on the cpu "
                             "backend for a read-only view)")
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The DLPack capsule of the values in host memory (np.from_dlpack(t), torch.from_dlpack(t)).
        On the cpu backend it shares the backend's buffer, marked read-only (DLPack 1.0's flag);
        a consumer that cannot take a read-only buffer (an older DLPack), copy=True, or data on
        another backend get a copy; copy=False then raises BufferError."""
        self.throw_if_disposed("__dlpack__")
        if np is None:
            raise BufferError("Tensor.__dlpack__: numpy is not importable here; DLPack export needs it")
        if self.dtype == "string":
            raise BufferError("Tensor.__dlpack__: string tensors have no DLPack form")
        kwargs = {"stream": stream}
        if max_version is not None:
            kwargs["max_version"] = max_version
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        if copy is not True:
            shared = ENGINE.read_numpy(self, shared=True)
            if shared is not None:
                try:
                    return shared.__dlpack__(**kwargs)
                except BufferError:
                    if copy is False:
                        raise BufferError("Tensor.__dlpack__: the backend's buffer can only be shared read-only, "
                                          "which needs DLPack 1.0 (max_version >= (1, 0)), and copy=False "
                                          "forbids a copy") from None
            elif copy is False:
                raise BufferError(f"Tensor.__dlpack__: the values live on the {self.data_id.backend.name} "
                                  f"backend, not in host memory; copy=False cannot be honoured")
        return self.numpy().__dlpack__(**kwargs)

    def __dlpack_device__(self):
        """(kDLCPU, 0): __dlpack__ always hands out host memory."""
        return (1, 0)

    # buffer_sync(), buffer() (a TensorBuffer, from ops.misc) and clone(): see ops/methods.py.

    # --- lifetime ----------------------------------------------------------------
    def dispose(self):
        """Free the tensor's data (a no-op if already disposed); the tensor can no longer be used."""
        ENGINE.dispose_tensor(self)

    # --- printing ----------------------------------------------------------------
    def to_string(self, verbose=False):
        """The TF.js text of the tensor: 'Tensor' then its values.

        Args:
            verbose: also give dtype, rank and shape.

        Returns:
            The text that print() prints.
        """
        # Lazily: printing imports decimal (~1 ms in CPython, more in Pyodide), which
        # `import pytfweb` does not otherwise load.
        from .printing import tensor_to_string
        self.throw_if_disposed("print")
        return tensor_to_string(self.data_sync(), self.shape, self.dtype, verbose)

    def print(self, verbose=False):
        """Print the tensor as TF.js does: 'Tensor' then its values.

        Args:
            verbose: also print dtype, rank and shape.
        """
        print(self.to_string(verbose))

    def __str__(self):
        if self.is_disposed_internal:
            return f"Tensor (disposed) shape={list(self.shape)} dtype={self.dtype}"
        return self.to_string()

    def __repr__(self):
        return _repr(self, f"tf.Tensor: shape={tuple(self.shape)}, dtype={self.dtype}")

    # ==, != are elementwise (tf.equal, tf.not_equal; attached by ops/methods.py), as in
    # TensorFlow 2, so a tensor cannot be hashed: t.ref() is the key for dicts and sets.
    __hash__ = None

    def ref(self):
        """A hashable reference to this tensor (TensorFlow 2's t.ref()): equal to another only when
        both refer to the same tensor; a dict key or set member; .deref() gives the tensor back.

        Returns:
            A Reference (hashable; `.deref()` is this tensor).

        Example:
            >>> t = tf.tensor([1.0])
            >>> {t.ref(): "weights"}[t.ref()]
            'weights'
            >>> t.ref().deref() is t
            True
        """
        return Reference(self)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a rank-0 tensor")
        return self.shape[0]

    # __iter__ (over unstack) is attached by ops/methods.py.

    def _scalar_value(self, kind):
        if self.size != 1:
            raise TensorConversionError(f"only size-1 tensors can be converted to Python {kind}, got shape "
                                        f"{list(self.shape)}", self)
        if self.dtype in ("string", "complex64"):
            raise TensorConversionError(f"a {self.dtype} tensor cannot be converted to Python {kind}", self)
        return self.data_sync()[0]

    def __float__(self):
        return float(self._scalar_value("float"))

    def __int__(self):
        return int(self._scalar_value("int"))

    def __bool__(self):
        return bool(self._scalar_value("bool"))

    def __index__(self):
        if self.dtype not in ("int32", "bool"):
            raise TensorConversionError(f"only int32 or bool tensors can be used as an index, got {self.dtype}", self)
        return int(self._scalar_value("int"))


class Reference:
    """What Tensor.ref() returns: hashable, equal by the identity of the tensor it holds (which it
    keeps alive, as TensorFlow's does)."""
    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        if not isinstance(other, Reference):
            return NotImplemented
        return self._tensor is other._tensor

    def __repr__(self):
        t = self._tensor
        return f"<Reference wrapping {type(t).__name__} id={t.id} shape={tuple(t.shape)} dtype={t.dtype}>"


def _repr(t, head):
    """TensorFlow's repr of t: <head, numpy=values> with the values as numpy's repr shows them
    where numpy imports (nested lists otherwise), or <head, disposed>."""
    if t.is_disposed_internal:
        return f"<{head}, disposed>"
    # Lazily, as to_string: printing loads decimal.
    from .printing import repr_values
    try:
        values = ENGINE.read_numpy(t) if np is not None else t.data_sync()
    except BackendError as exc:   # (webgpu where Python cannot wait: a repr should not raise)
        return f"<{head}, numpy=<not readable now: {exc}>>"
    return f"<{head}, numpy={repr_values(values, t.shape, t.dtype)}>"


def _nest_shape(t):
    """TF.js's toNestedArray for complex64: the innermost lists hold interleaved [re, im, ...]."""
    if t.dtype != "complex64":
        return t.shape
    return tuple(t.shape[:-1]) + (2 * t.shape[-1],) if t.shape else (2,)


def _to_py(buf, dtype):
    if dtype == "bool":
        return [bool(v) for v in buf]
    return buf.tolist() if hasattr(buf, "tolist") else list(buf)


class Variable(Tensor):
    """A mutable tensor: assign() swaps its data. Variables survive tf.tidy scopes and are what
    optimizers update; make them with tf.variable.

    Attributes:
        trainable: whether gradients are computed for it.
        name: its unique name.

    Example:
        >>> v = tf.variable(tf.zeros([2]), name="v")
        >>> _ = v.assign(tf.tensor([1, 2]))
        >>> v.array_sync(), v.name, v.trainable
        ([1.0, 2.0], 'v', True)
    """
    __slots__ = ("trainable", "name")

    def __init__(self, initial, trainable=True, name=None):
        super().__init__(initial.data_id, initial.shape, initial.dtype)
        self.trainable = trainable
        self.name = name

    def assign(self, new_value):
        """Swap in new_value's data (a Tensor; ops/methods.py wraps this method so that it also
        takes a Python value, converted the TF.js way)."""
        self.throw_if_disposed("Variable.assign")
        if not isinstance(new_value, Tensor):
            raise TypeError(f"Variable.assign: the new value must be a Tensor, got {type(new_value).__name__}")
        new_value.throw_if_disposed("Variable.assign")
        if new_value.dtype != self.dtype:
            raise TypeError(f"Variable.assign: dtype of the new value ({new_value.dtype}) must match "
                            f"the variable's ({self.dtype})")
        if tuple(new_value.shape) != tuple(self.shape):
            raise ValueError(f"Variable.assign: shape of the new value {list(new_value.shape)} must match "
                             f"the variable's {list(self.shape)}")
        ENGINE.assign_data(self, new_value)
        return self

    _assign_tensor = assign   # what ops/methods.py's assign calls with a Tensor

    def __repr__(self):
        return _repr(self, f"tf.Variable {self.name!r} shape={tuple(self.shape)} dtype={self.dtype}")


ENGINE = None   # the engine, set by bind_engine when engine.py creates it


def bind_engine(engine):
    """Give tensors the engine that reads, disposes and assigns their data (engine.py calls
    this once, at import: the engine sits above tensors and makes them)."""
    global ENGINE
    ENGINE = engine


assert set(TYPECODES) >= {"float32", "int32", "bool"}
