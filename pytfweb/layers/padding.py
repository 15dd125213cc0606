"""ZeroPadding2D (tfjs-layers layers/padding.ts)."""
from .. import ops
from .convolutional import normalize_data_format
from .engine import InputSpec, Layer


def _pair(value, what):
    if isinstance(value, int) and not isinstance(value, bool):
        return [value, value]
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return list(value)
    raise ValueError(f"ZeroPadding2D expects {what} padding to be a length-2 array, but received {value!r}.")


class ZeroPadding2D(Layer):
    """Zeros around rows and columns: padding = n, [rows, cols] or [[top, bottom], [left, right]]."""
    class_name = "ZeroPadding2D"
    config_keys = ("padding", "data_format")

    def __init__(self, padding=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format, "ZeroPadding2D")
        if padding is None:
            padding = [[1, 1], [1, 1]]
        elif isinstance(padding, int) and not isinstance(padding, bool):
            padding = [[padding, padding], [padding, padding]]
        else:
            if not isinstance(padding, (list, tuple)) or len(padding) != 2:
                raise ValueError(f"ZeroPadding2D expects padding to be a length-2 array, but received {padding!r}.")
            if all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
                padding = [[padding[0], padding[0]], [padding[1], padding[1]]]
            else:
                padding = [_pair(padding[0], "height"), _pair(padding[1], "width")]
        if any(v < 0 for p in padding for v in p):
            raise ValueError(f"ZeroPadding2D: padding must be non-negative, got {padding!r}")
        self.padding = [list(p) for p in padding]
        self.input_spec = InputSpec(ndim=4)

    def _axes(self):
        return (1, 2) if self.data_format == "channels_last" else (2, 3)

    def compute_output_shape(self, input_shape):
        out = list(input_shape)
        for axis, (a, b) in zip(self._axes(), self.padding):
            out[axis] = None if out[axis] is None else out[axis] + a + b
        return tuple(out)

    def call(self, inputs, training=False):
        pattern = [[0, 0] for _ in range(4)]
        for axis, p in zip(self._axes(), self.padding):
            pattern[axis] = list(p)
        return ops.pad(inputs, pattern)
