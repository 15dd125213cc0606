"""Kernels both GPU backends run on the host: their output size depends on their inputs' values
(TF.js's webgl backend does the same), so the values are read back (backend.read_sync) and the
result written (backend.write) by the same pure-Python code: Unique, BroadcastArgs and
NonMaxSuppressionV3/V4/V5. webgl registers them as they are; webgpu wraps them with its check that
the inputs' values are readable on the host (programs/host.py)."""
import array

from ...core.dtypes import TYPECODES
from ...kernels import TensorInfo
from ...kernels.nms import non_max_suppression_impl
from ...core.shapes import broadcast_shapes, size_of


def _constant(backend, values, shape, dtype):
    buf = array.array(TYPECODES[dtype], values)
    return TensorInfo(backend.write(buf, shape, dtype), tuple(shape), dtype)


# --- Unique, BroadcastArgs ------------------------------------------------------------------------

def unique(backend, inputs, attrs):
    (x,) = inputs
    axis = attrs["axis"]
    outer, count = size_of(x.shape[:axis]), x.shape[axis]
    inner = size_of(x.shape[axis + 1:])
    values = backend.read_sync(x.data_id)

    strings = x.dtype == "string"

    def key(i):
        # TF.js keys a slice by the string of its values: NaN equals NaN, -0 equals 0.
        return tuple(v if strings else "nan" if v != v else v + 0 for o in range(outer)
                     for v in values[(o * count + i) * inner:(o * count + i + 1) * inner])
    slot, order, indices = {}, [], []
    for i in range(count):
        j = slot.setdefault(key(i), len(order))
        if j == len(order):
            order.append(i)
        indices.append(j)
    out = [] if strings else array.array(values.typecode)
    for o in range(outer):
        for i in order:
            start = (o * count + i) * inner
            out.extend(values[start:start + inner])
    out_shape = x.shape[:axis] + (len(order),) + x.shape[axis + 1:]
    values = TensorInfo(backend.write(out, out_shape, x.dtype), out_shape, x.dtype)
    return [values, _constant(backend, indices, (count,), "int32")]


def broadcast_args(backend, inputs, attrs):
    s0, s1 = (list(backend.read_sync(t.data_id)) for t in inputs)
    shape = broadcast_shapes(s0, s1, "broadcast_args")
    return _constant(backend, shape, (len(shape),), "int32")


# --- non-max suppression (kernels/nms.py) --------------------------------------------------------

def _nms_run(backend, inputs, attrs, soft_nms_sigma=0.0, pad=False):
    boxes, scores = (backend.read_sync(t.data_id) for t in inputs)
    return non_max_suppression_impl(boxes, scores, attrs["max_output_size"], attrs["iou_threshold"],
                                    attrs["score_threshold"], soft_nms_sigma, pad)


def _write(backend, values, shape, dtype):
    buf = array.array("i" if dtype == "int32" else "f", values)
    return TensorInfo(backend.write(buf, shape, dtype), tuple(shape), dtype)


def non_max_suppression_v3(backend, inputs, attrs):
    indices, _, _ = _nms_run(backend, inputs, attrs)
    return _write(backend, indices, (len(indices),), "int32")


def non_max_suppression_v4(backend, inputs, attrs):
    indices, _, valid = _nms_run(backend, inputs, attrs, pad=attrs["pad_to_max_output_size"])
    return [_write(backend, indices, (len(indices),), "int32"), _write(backend, [valid], (), "int32")]


def non_max_suppression_v5(backend, inputs, attrs):
    indices, kept, _ = _nms_run(backend, inputs, attrs, soft_nms_sigma=attrs["soft_nms_sigma"])
    return [_write(backend, indices, (len(indices),), "int32"), _write(backend, kept, (len(kept),), "float32")]


# kernel name -> fn(backend, inputs, attrs)
HOST_FUNCTIONS = {"Unique": unique, "BroadcastArgs": broadcast_args, "NonMaxSuppressionV3": non_max_suppression_v3,
                  "NonMaxSuppressionV4": non_max_suppression_v4, "NonMaxSuppressionV5": non_max_suppression_v5}
