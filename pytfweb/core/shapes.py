"""Shape helpers shared by ops and backends (pure Python)."""


def size_of(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def strides_of(shape):
    """Row-major strides in elements; [] for rank 0."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def broadcast_shapes(a, b, op="broadcast"):
    """NumPy/TF.js broadcasting of two shapes; ValueError naming op when impossible."""
    if a == b:   # (most elementwise ops: every op of a chain pays this)
        return tuple(a)
    ra, rb = len(a), len(b)
    out = []
    for i in range(max(ra, rb)):
        da = a[ra - 1 - i] if i < ra else 1
        db = b[rb - 1 - i] if i < rb else 1
        if da == db or db == 1:
            out.append(da)
        elif da == 1:
            out.append(db)
        else:
            raise ValueError(
                f"{op}: operands could not be broadcast together with shapes "
                f"{list(a)} and {list(b)}")
    return tuple(reversed(out))


def broadcast_dims(in_shape, out_shape):
    """Axes of out_shape along which in_shape was broadcast (for undoing broadcasting)."""
    dims = []
    offset = len(out_shape) - len(in_shape)
    for i in range(len(out_shape)):
        j = i - offset
        d = in_shape[j] if j >= 0 else 1
        if d == 1 and out_shape[i] != 1 or j < 0:   # != 1: a unit axis broadcast to 0 is summed too
            dims.append(i)
    return dims


def normalize_axis(axis, rank, op, arg="axis"):
    """One axis in [-rank, rank) to [0, rank)."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        if hasattr(axis, "__index__"):
            axis = axis.__index__()
        else:
            raise TypeError(f"{op}: argument '{arg}' must be an int, got {type(axis).__name__}")
    lo = -rank if rank else -1
    hi = rank if rank else 1
    if not lo <= axis < hi:
        raise ValueError(f"{op}: argument '{arg}' = {axis} is out of range for a tensor of rank {rank} "
                         f"(expected {lo} <= {arg} < {hi})")
    return axis % rank if rank else 0


def normalize_axes(axis, rank, op, arg="axis"):
    """None -> all axes; int or sequence -> sorted unique list in [0, rank)."""
    if axis is None:
        return list(range(rank))
    if isinstance(axis, (list, tuple)):
        axes = [normalize_axis(a, rank, op, arg) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError(f"{op}: argument '{arg}' has repeated axes: {list(axis)}")
        return sorted(axes)
    return [normalize_axis(axis, rank, op, arg)]


def check_shape(shape, op, arg="shape"):
    """A shape as a tuple of non-negative ints (one -1 allowed when allow_infer)."""
    if isinstance(shape, int):
        shape = (shape,)
    if hasattr(shape, "data_id") and hasattr(shape, "dtype"):   # a Tensor: its values, without unstacking it
        if shape.dtype != "int32" or len(shape.shape) != 1:
            raise TypeError(f"{op}: argument '{arg}' must be a sequence of ints (or a 1-D int32 tensor), got a "
                            f"{shape.dtype} tensor of shape {list(shape.shape)}")
        shape = list(shape.data_sync())
    try:
        dims = tuple(shape)
    except TypeError:
        raise TypeError(f"{op}: argument '{arg}' must be a sequence of ints, got {type(shape).__name__}") from None
    out = []
    for d in dims:
        if isinstance(d, bool) or not hasattr(d, "__index__"):
            raise TypeError(f"{op}: argument '{arg}' must contain ints, got {d!r} in {list(dims)}")
        d = d.__index__()
        if d < 0:
            raise ValueError(f"{op}: argument '{arg}' must contain non-negative ints, got {list(dims)}")
        out.append(d)
    return tuple(out)


def infer_reshape(shape, size, op="reshape"):
    """Resolve one -1 in shape against size; ValueError when it cannot match."""
    shape = list(shape)
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"{op}: shape {shape} can have at most one -1 dimension")
    for d in shape:
        if isinstance(d, bool) or not hasattr(d, "__index__") or d < -1:
            raise ValueError(f"{op}: shape {shape} must contain non-negative ints or one -1")
    if unknown:
        known = size_of(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{op}: cannot reshape a tensor of {size} elements into shape {shape}")
        shape[unknown[0]] = size // known
    elif size_of(shape) != size:
        raise ValueError(f"{op}: cannot reshape a tensor of {size} elements into shape {shape}")
    return tuple(int(d) for d in shape)


def squeeze_shape(shape, axes=None):
    """(new_shape, kept_dims) with unit dims removed (only those in axes when given)."""
    new, kept = [], []
    for i, d in enumerate(shape):
        if d == 1 and (axes is None or i in axes):
            continue
        new.append(d)
        kept.append(i)
    return tuple(new), kept
