"""Merge layers: Add, Multiply, Average, Maximum, Minimum, Concatenate, Dot (tfjs-layers
layers/merge.ts). Each takes a list of tensors; elementwise ones broadcast unit and
unknown dimensions as TF.js does. Masks (as tf.keras): an elementwise merge masks where any input
is masked; Concatenate concatenates the masks (all-true for an unmasked input) along its axis;
Dot drops them."""
import functools

from .. import ops
from ..core.api import tidy
from .engine import Layer
from ._utils import shape_str


def _broadcast(a, b, layer):
    """TF.js's computeElementwiseOpOutputShape over two shapes without the batch axis."""
    if a is None or b is None:
        return None
    if len(a) < len(b):
        a, b = b, a
    out = list(a[:len(a) - len(b)])
    for x, y in zip(a[len(a) - len(b):], b):
        if x is None or y is None:
            out.append(None)
        elif x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        else:
            raise ValueError(f"Operands could not be broadcast together with shapes {shape_str(a)} {shape_str(b)} "
                             f"(layer {layer})")
    return tuple(out)


class _Merge(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"Layer {self.name}: `inputs` should be a list of tensors")
        if not isinstance(mask, (list, tuple)) or len(mask) != len(inputs):
            raise ValueError(f"Layer {self.name}: `mask` should be a list with one entry per input")
        masks = [m for m in mask if m is not None]
        if not masks:
            return None
        return tidy(lambda: functools.reduce(ops.logical_and, masks))

    def _check(self, input_shape):
        if not isinstance(input_shape, list) or len(input_shape) < 2:
            raise ValueError(f"A merge layer should be called on a list of at least 2 inputs. "
                             f"Got {len(input_shape) if isinstance(input_shape, list) else 1} input(s).")

    def build(self, input_shape):
        self._check(input_shape)
        batch = {s[0] for s in input_shape if s is not None and len(s) and s[0] is not None}
        if len(batch) > 1:
            raise ValueError(f"Can not merge tensors with different batch sizes. Got tensors with shapes: "
                             f"{shape_str(list(input_shape))}.")
        self.built = True

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        rest = functools.reduce(lambda a, b: _broadcast(a, b, self.name), [tuple(s[1:]) for s in input_shape])
        batch = {s[0] for s in input_shape if s[0] is not None}
        return ((batch.pop() if len(batch) == 1 else None),) + rest

    def call(self, inputs, training=False):
        return functools.reduce(self._merge, _same_rank(inputs))


def _same_rank(inputs):
    """As TF.js's Merge: an input of lower rank gains axes at position 1 until all ranks agree, so
    a [batch, 1] input broadcasts per sample against [batch, h, w] (not per row)."""
    top = max(x.rank for x in inputs)
    out = []
    for x in inputs:
        for _ in range(top - x.rank):
            x = ops.expand_dims(x, 1)
        out.append(x)
    return out


class Add(_Merge):
    class_name = "Add"
    _merge = staticmethod(ops.add)


class Multiply(_Merge):
    class_name = "Multiply"
    _merge = staticmethod(ops.mul)


class Maximum(_Merge):
    class_name = "Maximum"
    _merge = staticmethod(ops.maximum)


class Minimum(_Merge):
    class_name = "Minimum"
    _merge = staticmethod(ops.minimum)


class Average(_Merge):
    class_name = "Average"

    def call(self, inputs, training=False):
        return ops.mul(functools.reduce(ops.add, _same_rank(inputs)), 1 / len(inputs))


class Concatenate(_Merge):
    class_name = "Concatenate"
    config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        rank = len(input_shape[0])
        if any(len(s) != rank for s in input_shape):
            raise ValueError(f"A `concatenate` layer requires inputs with matching shapes except for the concat "
                             f"axis. Got input shapes: {shape_str([list(s) for s in input_shape])}")
        axis = self.axis % rank
        out = list(input_shape[0])
        for s in input_shape[1:]:
            for i, (x, y) in enumerate(zip(out, s)):
                if i == axis:
                    out[i] = None if x is None or y is None else x + y
                elif x is not None and y is not None and x != y and i != 0:
                    raise ValueError(f"A `concatenate` layer requires inputs with matching shapes except for the "
                                     f"concat axis. Got input shapes: {shape_str([list(s) for s in input_shape])}")
        return tuple(out)

    def call(self, inputs, training=False):
        return ops.concat(list(inputs), self.axis)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        if len(mask) != len(inputs):
            raise ValueError(f"Layer {self.name}: `mask` should be a list with one entry per input")
        def combined():   # in a tidy: only the result outlives it, also when called directly
            full = []
            for x, m in zip(inputs, mask):
                if m is None:
                    full.append(ops.ones(list(x.shape), "bool"))
                    continue
                if m.dtype != "bool":
                    m = ops.cast(m, "bool")
                while m.rank < x.rank:
                    m = ops.expand_dims(m, -1)
                full.append(ops.broadcast_to(m, list(x.shape)))
            return ops.all(ops.concat(full, self.axis), -1)
        return tidy(combined)


class Dot(_Merge):
    """The dot product of two batches of vectors along `axes` (an int or a pair), optionally
    l2-normalised first (cosine proximity). Inputs are rank 2 or 3, as in TF.js."""
    class_name = "Dot"
    config_keys = ("axes", "normalize")

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes, self.normalize = axes, normalize
        self.supports_masking = False

    def compute_mask(self, inputs, mask=None):
        return None

    def _axes(self, shapes):
        axes = self.axes if isinstance(self.axes, (list, tuple)) else [self.axes, self.axes]
        return [a % len(s) for a, s in zip(axes, shapes)]

    def compute_output_shape(self, input_shape):
        if not isinstance(input_shape, list) or len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of exactly 2 inputs.")
        a, b = input_shape
        if len(a) > 3 or len(b) > 3 or len(a) < 2 or len(b) < 2:
            raise ValueError("Dot layer does not support tensors of rank other than 2 or 3 yet.")
        ax, bx = self._axes(input_shape)
        if a[ax] is not None and b[bx] is not None and a[ax] != b[bx]:
            raise ValueError(f"Dimension incompatibility: {a[ax]} !== {b[bx]}")
        out = [d for i, d in enumerate(a) if i != ax] + [d for i, d in enumerate(b) if i != bx][1:]
        return tuple(out) if len(out) > 1 else (out[0], 1)

    def call(self, inputs, training=False):
        a, b = inputs
        ax, bx = self._axes([a.shape, b.shape])
        if self.normalize:
            a = ops.div(a, ops.sqrt(ops.maximum(ops.sum(ops.square(a), ax, True), 1e-12)))
            b = ops.div(b, ops.sqrt(ops.maximum(ops.sum(ops.square(b), bx, True), 1e-12)))
        # Move the contracted axis of a last and of b to axis 1, then a batched matmul.
        if a.rank == 2:
            a = ops.expand_dims(a, 1) if ax == 1 else ops.expand_dims(a, 2)
            ax = 2 if ax == 1 else 1
        if b.rank == 2:
            b = ops.expand_dims(b, 2) if bx == 1 else ops.expand_dims(b, 1)
            bx = 1 if bx == 1 else 2
        out = ops.mat_mul(a, b, transpose_a=(ax == 1), transpose_b=(bx == 2))
        shape = self.compute_output_shape([tuple(inputs[0].shape), tuple(inputs[1].shape)])
        return ops.reshape(out, [inputs[0].shape[0]] + [d for d in shape[1:]])
