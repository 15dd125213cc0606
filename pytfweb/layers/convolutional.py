"""Convolutional layers (tfjs-layers layers/convolutional.ts and convolutional_depthwise.ts):
Conv1D, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose, DepthwiseConv2D, SeparableConv2D, Cropping2D,
UpSampling2D.

The ops work channels-last; a channels_first layer transposes in and out, as TF.js does.
Conv2D, DepthwiseConv2D and SeparableConv2D's pointwise step add the bias and apply a
linear / relu / relu6 / elu / sigmoid activation in the same kernel (tf.fused.*, one shader
on webgl); other activations follow as separate ops.
"""
from .. import ops
from ..ops import fused as _fused
from ..ops import image as _image
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .engine import InputSpec, Layer
from ._utils import shape_str


# --- argument helpers shared by the convolution, pooling and padding layers --------------------
def normalize_data_format(value, layer):
    """'channelsLast' / 'channels_last' (default) or 'channelsFirst' / 'channels_first' ->
    'channels_last' / 'channels_first'."""
    if value is None:
        return "channels_last"
    key = {"channelsLast": "channels_last", "channelsFirst": "channels_first"}.get(value, value)
    if key not in ("channels_last", "channels_first"):
        raise ValueError(f"{layer}: invalid data_format {value!r}; expected 'channelsLast' or 'channelsFirst'")
    return key


def check_padding(value, layer, allowed=("valid", "same", "causal")):
    value = "valid" if value is None else value
    if value not in allowed:
        raise ValueError(f"{layer}: invalid padding {value!r}; expected one of {', '.join(map(repr, allowed))}")
    return value


def normalize_tuple(value, n, name, layer):
    """An int or a list of n positive ints -> a list of n ints (TF.js's normalizeArray)."""
    if isinstance(value, bool):
        raise ValueError(f"{layer}: '{name}' must be a positive integer or a list of {n}, got {value!r}")
    if isinstance(value, int):
        value = [value] * n
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ValueError(f"{layer}: the {name} argument must be an integer or tuple of {n} integers. "
                         f"Received: {value!r}")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{layer}: the {name} argument must be positive integers, got {list(value)!r}")
    return list(value)


def conv_output_length(length, filter_size, padding, stride, dilation=1):
    """TF.js convOutputLength (None stays None)."""
    if length is None:
        return None
    dilated = filter_size + (filter_size - 1) * (dilation - 1)
    out = length if padding == "same" else length - dilated + 1
    return (out + stride - 1) // stride


def check_output_space(layer, input_shape, space):
    """A ValueError when a window does not fit the input (a non-positive output size)."""
    if any(d is not None and d <= 0 for d in space):
        raise ValueError(f"Layer {layer.name}: the window does not fit input shape {shape_str(input_shape)}: the "
                         f"output would have non-positive size(s) {shape_str(space)}")
    return space


def deconv_length(size, stride, kernel, padding):
    if size is None:
        return None
    if padding == "valid":
        return size * stride + max(kernel - stride, 0)
    return size * stride


def to_channels_last(x, data_format):
    if data_format == "channels_first":
        return ops.transpose(x, [0] + list(range(2, x.rank)) + [1])
    return x


def to_channels_first(x, data_format):
    if data_format == "channels_first":
        return ops.transpose(x, [0, x.rank - 1] + list(range(1, x.rank - 1)))
    return x


def _bias_add(x, bias):
    return x if bias is None else ops.add(x, bias)


class _BaseConv(Layer):
    """What every convolution shares: kernel_size, strides, padding, data_format, dilation,
    activation, bias (TF.js BaseConv)."""
    config_keys = ("kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation", "use_bias",
                   "bias_initializer", "bias_regularizer", "activity_regularizer", "bias_constraint")
    rank = 2
    default_kernel_initializer = "glorot_normal"

    def __init__(self, kernel_size=None, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation=None, use_bias=True, bias_initializer="zeros", bias_constraint=None,
                 bias_regularizer=None, activity_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        cls = self.get_class_name()
        if kernel_size is None:
            raise ValueError(f"{cls}: required argument 'kernel_size' is missing")
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size", cls)
        self.strides = normalize_tuple(1 if strides is None else strides, self.rank, "strides", cls)
        self.padding = check_padding(padding, cls)
        self.data_format = normalize_data_format(data_format, cls)
        self.dilation_rate = normalize_tuple(1 if dilation_rate is None else dilation_rate, self.rank,
                                             "dilation_rate", cls)
        self.activation = _activations.get(activation)
        self.use_bias = True if use_bias is None else bool(use_bias)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.activity_regularizer = activity_regularizer
        self.bias = None
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _channel_axis(self, ndim):
        return 1 if self.data_format == "channels_first" else ndim - 1

    def _input_dim(self, input_shape, what="input"):
        if len(input_shape) != self.rank + 2:
            raise ValueError(f"Input 0 is incompatible with layer {self.name}: expected ndim={self.rank + 2}, "
                             f"found ndim={len(input_shape)} (input shape {shape_str(input_shape)})")
        dim = input_shape[self._channel_axis(len(input_shape))]
        if dim is None:
            raise ValueError(f"Layer {self.name}: the channel dimension of the {what} should be defined. Found "
                             f"None (input shape {shape_str(input_shape)})")
        return dim

    def _space(self, input_shape):
        return list(input_shape[2:] if self.data_format == "channels_first" else input_shape[1:-1])

    def _with_space(self, input_shape, space, channels):
        if self.data_format == "channels_first":
            return (input_shape[0], channels) + tuple(space)
        return (input_shape[0],) + tuple(space) + (channels,)

    def _add_bias(self, size):
        if self.use_bias:
            self.bias = self.add_weight("bias", [size], None, self.bias_initializer, self.bias_regularizer, True,
                                        self.bias_constraint)

    def _fused_name(self):
        return _activations.FUSABLE.get(self.activation)


class _Conv(_BaseConv):
    """Convolutions that mix channels (Conv1D/2D/3D): kernel [*kernel_size, in, filters]."""
    config_keys = ("filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint")

    def __init__(self, filters=None, kernel_size=None, kernel_initializer=None, kernel_constraint=None,
                 kernel_regularizer=None, **kwargs):
        super().__init__(kernel_size, **kwargs)
        if isinstance(filters, bool) or not isinstance(filters, int) or filters < 1:
            raise ValueError(f"Convolution layer expected config.filters to be a 'number' > 0 but got "
                             f"{filters!r}")
        self.filters = filters
        self.kernel_initializer = _initializers.get(kernel_initializer or self.default_kernel_initializer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.kernel = None
        if self.padding == "causal" and self.rank != 1:
            raise ValueError(f"{self.get_class_name()}: 'causal' padding is only supported by Conv1D")

    def build(self, input_shape):
        input_dim = self._input_dim(input_shape)
        self.compute_output_shape(input_shape)   # a window that does not fit fails before any weight exists
        self.kernel = self.add_weight("kernel", self.kernel_size + [input_dim, self.filters], None,
                                      self.kernel_initializer, self.kernel_regularizer, True, self.kernel_constraint)
        self._add_bias(self.filters)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis(len(input_shape)): input_dim})
        self.built = True

    def compute_output_shape(self, input_shape):
        space = [conv_output_length(d, k, "same" if self.padding == "causal" else self.padding, s, r)
                 for d, k, s, r in zip(self._space(input_shape), self.kernel_size, self.strides, self.dilation_rate)]
        return self._with_space(input_shape, check_output_space(self, input_shape, space), self.filters)

    def call(self, inputs, training=False):
        self.compute_output_shape(tuple(inputs.shape))   # the window must fit
        x = to_channels_last(inputs, self.data_format)
        fused = self._fused_name()
        if self.rank == 2 and fused is not None:
            y = _fused.conv2d(x, self.kernel, self.strides, self.padding, "NHWC", self.dilation_rate,
                              bias=self.bias, activation=fused)
            return to_channels_first(y, self.data_format)
        if self.rank == 1:
            pad = self.padding
            if pad == "causal":   # left-pad by the dilated kernel extent, then a valid convolution
                left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
                x = ops.pad(x, [[0, 0], [left, 0], [0, 0]])
                pad = "valid"
            y = ops.conv1d(x, self.kernel, self.strides[0], pad, "NWC", self.dilation_rate[0])
        elif self.rank == 2:
            y = ops.conv2d(x, self.kernel, self.strides, self.padding, "NHWC", self.dilation_rate)
        else:
            y = ops.conv3d(x, self.kernel, self.strides, self.padding, "NDHWC", self.dilation_rate)
        y = self.activation(_bias_add(y, self.bias))
        return to_channels_first(y, self.data_format)


class Conv1D(_Conv):
    """1-D convolution over (batch, steps, channels); padding 'valid', 'same' or 'causal'."""
    class_name = "Conv1D"
    rank = 1



class Conv2D(_Conv):
    """2-D convolution over (batch, rows, cols, channels) (or channels first)."""
    class_name = "Conv2D"
    rank = 2


class Conv3D(_Conv):
    """3-D convolution over (batch, depth, rows, cols, channels) (or channels first)."""
    class_name = "Conv3D"
    rank = 3


class Conv2DTranspose(Conv2D):
    """The transpose of Conv2D (a 'deconvolution'): kernel [kh, kw, filters, in]."""
    class_name = "Conv2DTranspose"

    def __init__(self, filters=None, kernel_size=None, **kwargs):
        super().__init__(filters, kernel_size, **kwargs)
        if self.padding not in ("same", "valid"):
            raise ValueError(f"{self.get_class_name()} currently supports only padding modes 'same' and 'valid', "
                             f"but received padding mode {self.padding}")
        if any(r != 1 for r in self.dilation_rate):
            raise ValueError(f"{self.get_class_name()}: dilation_rate other than 1 is not supported")

    def build(self, input_shape):
        input_dim = self._input_dim(input_shape, "inputs")
        self.kernel = self.add_weight("kernel", self.kernel_size + [self.filters, input_dim], "float32",
                                      self.kernel_initializer, self.kernel_regularizer, True, self.kernel_constraint)
        self._add_bias(self.filters)
        ndim = self.rank + 2
        self.input_spec = InputSpec(ndim=ndim, axes={self._channel_axis(ndim): input_dim})
        self.built = True

    def compute_output_shape(self, input_shape):
        space = [deconv_length(d, s, k, self.padding)
                 for d, k, s in zip(self._space(input_shape), self.kernel_size, self.strides)]
        return self._with_space(input_shape, space, self.filters)

    def call(self, inputs, training=False):
        x = to_channels_last(inputs, self.data_format)
        out_shape = [x.shape[0]] + [deconv_length(d, s, k, self.padding)
                                    for d, k, s in zip(x.shape[1:-1], self.kernel_size, self.strides)]
        transpose = ops.conv2d_transpose if self.rank == 2 else ops.conv3d_transpose
        y = transpose(x, self.kernel, out_shape + [self.filters], self.strides, self.padding)
        y = self.activation(_bias_add(y, self.bias))
        return to_channels_first(y, self.data_format)


class Conv3DTranspose(Conv2DTranspose):
    """The transpose of Conv3D: kernel [kd, kh, kw, filters, in]."""
    class_name = "Conv3DTranspose"
    rank = 3


class DepthwiseConv2D(_BaseConv):
    """Each input channel convolved with its own depth_multiplier filters: kernel
    [kh, kw, in, depth_multiplier], output channels in * depth_multiplier."""
    class_name = "DepthwiseConv2D"
    config_keys = ("depth_multiplier", "depthwise_initializer", "depthwise_regularizer", "depthwise_constraint")
    rank = 2

    def __init__(self, kernel_size=None, depth_multiplier=1, depthwise_initializer=None, depthwise_constraint=None,
                 depthwise_regularizer=None, **kwargs):
        super().__init__(kernel_size, **kwargs)
        if isinstance(depth_multiplier, bool) or not isinstance(depth_multiplier, int) or depth_multiplier < 1:
            raise ValueError(f"DepthwiseConv2D: 'depth_multiplier' must be a positive integer, got "
                             f"{depth_multiplier!r}")
        if self.padding == "causal":
            raise ValueError("DepthwiseConv2D: 'causal' padding is only supported by Conv1D")
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = _initializers.get(depthwise_initializer or self.default_kernel_initializer)
        self.depthwise_constraint = _constraints.get(depthwise_constraint)
        self.depthwise_regularizer = _regularizers.get(depthwise_regularizer)
        self.depthwise_kernel = None

    def build(self, input_shape):
        if len(input_shape) < 4:
            raise ValueError(f"Inputs to DepthwiseConv2D should have rank 4. Received input shape: "
                             f"{shape_str(input_shape)}.")
        input_dim = self._input_dim(input_shape, "inputs to DepthwiseConv2D")
        self.compute_output_shape(input_shape)
        self.depthwise_kernel = self.add_weight("depthwise_kernel", self.kernel_size + [input_dim,
                                                self.depth_multiplier], None, self.depthwise_initializer,
                                                self.depthwise_regularizer, True, self.depthwise_constraint)
        self._add_bias(input_dim * self.depth_multiplier)
        self.input_spec = InputSpec(ndim=4, axes={self._channel_axis(4): input_dim})
        self.built = True

    def compute_output_shape(self, input_shape):
        channels = input_shape[self._channel_axis(4)]
        space = [conv_output_length(d, k, self.padding, s, r)
                 for d, k, s, r in zip(self._space(input_shape), self.kernel_size, self.strides, self.dilation_rate)]
        space = check_output_space(self, input_shape, space)
        return self._with_space(input_shape, space, None if channels is None else channels * self.depth_multiplier)

    def call(self, inputs, training=False):
        x = to_channels_last(inputs, self.data_format)
        fused = self._fused_name()
        if fused is not None:
            y = _fused.depthwise_conv2d(x, self.depthwise_kernel, self.strides, self.padding, "NHWC",
                                        self.dilation_rate, bias=self.bias, activation=fused)
        else:
            y = ops.depthwise_conv2d(x, self.depthwise_kernel, self.strides, self.padding, "NHWC",
                                     self.dilation_rate)
            y = self.activation(_bias_add(y, self.bias))
        return to_channels_first(y, self.data_format)


class SeparableConv2D(_Conv):
    """A depthwise convolution followed by a 1x1 (pointwise) one mixing channels."""
    class_name = "SeparableConv2D"
    rank = 2

    def __init__(self, filters=None, kernel_size=None, depth_multiplier=1, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", depthwise_regularizer=None, pointwise_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, **kwargs):
        if filters is None:
            raise ValueError("The `filters` configuration field is required by SeparableConv, but is unspecified.")
        if any(kwargs.get(k) is not None for k in ("kernel_initializer", "kernel_regularizer", "kernel_constraint")):
            raise ValueError("Fields kernelInitializer, kernelRegularizer and kernelConstraint are invalid for "
                             "SeparableConv2D. Use depthwiseInitializer, depthwiseRegularizer, depthwiseConstraint, "
                             "pointwiseInitializer, pointwiseRegularizer and pointwiseConstraint instead.")
        if kwargs.get("padding") not in (None, "same", "valid"):
            raise ValueError(f"SeparableConv2D supports only padding modes: 'same' and 'valid', but received "
                             f"{kwargs.get('padding')!r}")
        super().__init__(filters, kernel_size, **kwargs)
        if isinstance(depth_multiplier, bool) or not isinstance(depth_multiplier, int) or depth_multiplier < 1:
            raise ValueError(f"SeparableConv2D: 'depth_multiplier' must be a positive integer, got "
                             f"{depth_multiplier!r}")
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = _initializers.get(depthwise_initializer)
        self.pointwise_initializer = _initializers.get(pointwise_initializer)
        self.depthwise_regularizer = _regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = _regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = _constraints.get(depthwise_constraint)
        self.pointwise_constraint = _constraints.get(pointwise_constraint)
        self.depthwise_kernel = self.pointwise_kernel = None

    def build(self, input_shape):
        input_dim = self._input_dim(input_shape, "inputs")
        self.depthwise_kernel = self.add_weight("depthwise_kernel", self.kernel_size + [input_dim,
                                                self.depth_multiplier], "float32", self.depthwise_initializer,
                                                self.depthwise_regularizer, True, self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight("pointwise_kernel", [1, 1, input_dim * self.depth_multiplier,
                                                self.filters], "float32", self.pointwise_initializer,
                                                self.pointwise_regularizer, True, self.pointwise_constraint)
        self._add_bias(self.filters)
        self.input_spec = InputSpec(ndim=4, axes={self._channel_axis(4): input_dim})
        self.built = True

    def call(self, inputs, training=False):
        # tf.separable_conv2d is exactly this pair; the pointwise step takes the bias and the
        # activation in one fused kernel.
        x = to_channels_last(inputs, self.data_format)
        y = ops.depthwise_conv2d(x, self.depthwise_kernel, self.strides, self.padding, "NHWC", self.dilation_rate)
        fused = self._fused_name()
        if fused is not None:
            y = _fused.conv2d(y, self.pointwise_kernel, 1, "valid", "NHWC", bias=self.bias, activation=fused)
        else:
            y = self.activation(_bias_add(ops.conv2d(y, self.pointwise_kernel, 1, "valid"), self.bias))
        return to_channels_first(y, self.data_format)

    config_keys = ("depth_multiplier", "depthwise_initializer", "pointwise_initializer", "depthwise_regularizer",
                   "pointwise_regularizer", "depthwise_constraint", "pointwise_constraint")

    def get_config(self):
        config = super().get_config()
        for key in ("kernel_initializer", "kernel_regularizer", "kernel_constraint"):   # (its kernels are the two above)
            config.pop(key, None)
        return config


class Cropping2D(Layer):
    """Crop rows and columns: cropping = n, [rows, cols] or [[top, bottom], [left, right]]."""
    class_name = "Cropping2D"
    config_keys = ("cropping", "data_format")

    def __init__(self, cropping=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if cropping is None:
            raise ValueError("Cropping2D: required argument 'cropping' is missing")
        if isinstance(cropping, int) and not isinstance(cropping, bool):
            cropping = [[cropping, cropping], [cropping, cropping]]
        elif isinstance(cropping, (list, tuple)) and len(cropping) == 2 and all(isinstance(c, int) for c in cropping):
            cropping = [[cropping[0], cropping[0]], [cropping[1], cropping[1]]]
        if not (isinstance(cropping, (list, tuple)) and len(cropping) == 2
                and all(isinstance(c, (list, tuple)) and len(c) == 2 for c in cropping)
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for c in cropping for v in c)):
            raise ValueError(f"Cropping2D: 'cropping' must be an int, a list of 2 ints or a list of 2 lists of 2 "
                             f"non-negative ints, got {cropping!r}")
        self.cropping = [list(c) for c in cropping]
        self.data_format = normalize_data_format(data_format, "Cropping2D")
        self.input_spec = InputSpec(ndim=4)

    def _rows_cols(self):
        return (1, 2) if self.data_format == "channels_last" else (2, 3)

    def compute_output_shape(self, input_shape):
        out = list(input_shape)
        for axis, (a, b) in zip(self._rows_cols(), self.cropping):
            if out[axis] is not None:
                out[axis] -= a + b
                if out[axis] <= 0:
                    raise ValueError(f"Cropping2D: cropping {self.cropping} removes every row or column of input "
                                     f"shape {shape_str(input_shape)}")
        return tuple(out)

    def call(self, inputs, training=False):
        begin, size = [0] * 4, [-1] * 4
        for axis, (a, b) in zip(self._rows_cols(), self.cropping):
            begin[axis], size[axis] = a, inputs.shape[axis] - a - b
        return ops.slice(inputs, begin, size)


class UpSampling2D(Layer):
    """Repeat rows and columns size[0] and size[1] times ('nearest') or resize bilinearly."""
    class_name = "UpSampling2D"
    config_keys = ("size", "data_format", "interpolation")

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = normalize_tuple([2, 2] if size is None else size, 2, "size", "UpSampling2D")
        self.data_format = normalize_data_format(data_format, "UpSampling2D")
        interpolation = interpolation or "nearest"
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: invalid interpolation {interpolation!r}; expected 'nearest' or "
                             f"'bilinear'")
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def compute_output_shape(self, input_shape):
        out = list(input_shape)
        axes = (1, 2) if self.data_format == "channels_last" else (2, 3)
        for axis, s in zip(axes, self.size):
            out[axis] = None if out[axis] is None else out[axis] * s
        return tuple(out)

    def call(self, inputs, training=False):
        x = to_channels_last(inputs, self.data_format)
        size = [x.shape[1] * self.size[0], x.shape[2] * self.size[1]]
        resize = _image.resize_nearest_neighbor if self.interpolation == "nearest" else _image.resize_bilinear
        return to_channels_first(resize(x, size), self.data_format)


__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "DepthwiseConv2D", "SeparableConv2D", "Cropping2D",
           "UpSampling2D"]
