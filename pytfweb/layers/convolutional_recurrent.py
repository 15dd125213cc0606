"""Convolutional recurrent layers (tfjs-layers layers/convolutional_recurrent.ts): ConvLSTM2DCell and
ConvLSTM2D.

An LSTM whose input and recurrent transformations are 2-D convolutions: x_t [batch, rows, cols,
channels] and the states h, c [batch, out_rows, out_cols, filters]. The input convolution uses
the layer's strides, padding and dilation_rate; the recurrent one is always stride 1, 'same',
undilated (so the state keeps the output's spatial size). Gates i, f, c, o in that order along
the last axis of the kernels [kh, kw, in, 4 * filters], [kh, kw, filters, 4 * filters] and the
bias [4 * filters], as TF.js. Built on recurrent.py's LSTMCell and RNN: same defaults (glorot
normal kernel, orthogonal recurrent kernel, zeros bias, hard sigmoid recurrent activation),
go_backwards outputs in processing order, return_state gives [output, h, c], initial states as
call(x, initial_state=[h, c]) or inputs [x, h, c], a [batch, time] mask skips timesteps, and
stateful=True keeps h and c between calls (the batch size must be known at build; reset_states()).
The time loop is RNN's: this module gives the cell, the states' shapes and the step's layout.

The step runs channels-last; a channels_first layer transposes the whole sequence once on the
way in and once on the way out. Without dropout one convolution computes all four gates; with
dropout (training only) each gate gets its own input mask and recurrent mask, drawn once per
sequence (TF.js means to do the same, count: 4, but its mask helper returns empty slots).
"""
from .. import ops
from .convolutional import (check_output_space, check_padding, conv_output_length, normalize_data_format,
                            normalize_tuple, to_channels_first, to_channels_last)
from .engine import InputSpec
from ._utils import shape_str
from .recurrent import RNN, LSTMCell

_GATES = 4


def _positive_filters(filters, layer):
    if isinstance(filters, bool) or not isinstance(filters, int) or filters < 1:
        raise ValueError(f"{layer}: filters must be a positive integer, got {filters!r}")
    return filters


def _seq_to_channels_last(x, data_format):
    """[b, t, c, h, w] -> [b, t, h, w, c] for channels_first."""
    return ops.transpose(x, [0, 1, 3, 4, 2]) if data_format == "channels_first" else x


def _seq_to_channels_first(x, data_format):
    return ops.transpose(x, [0, 1, 4, 2, 3]) if data_format == "channels_first" else x


class ConvLSTM2DCell(LSTMCell):
    """One ConvLSTM step: call([x, h, c]) -> [h', h', c'] on 4-D tensors."""
    class_name = "ConvLSTM2DCell"

    def __init__(self, filters=None, kernel_size=None, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, **kwargs):
        cls = self.class_name
        if "units" in kwargs:
            raise TypeError(f"{cls}: takes 'filters' (the number of output channels), not 'units'")
        _positive_filters(filters, cls)
        if kernel_size is None:
            raise ValueError(f"{cls}: required argument 'kernel_size' is missing")
        kernel_size = normalize_tuple(kernel_size, 2, "kernel_size", cls)
        strides = normalize_tuple(1 if strides is None else strides, 2, "strides", cls)
        dilation_rate = normalize_tuple(1 if dilation_rate is None else dilation_rate, 2, "dilation_rate", cls)
        padding = check_padding(padding, cls, ("valid", "same"))
        data_format = normalize_data_format(data_format, cls)
        # strides > 1 with dilation_rate > 1 is refused by the convolution when the cell runs, not
        # here: TF.js makes (and serializes) such a cell
        super().__init__(filters, **kwargs)
        self.filters = filters
        self.kernel_size, self.strides, self.dilation_rate = kernel_size, strides, dilation_rate
        self.padding, self.data_format = padding, data_format

    # --- shapes ------------------------------------------------------------------------------------
    def output_space(self, space, input_shape=None):
        """The output size of the input convolution.

        Args:
            space: the input's (rows, cols).
            input_shape: the whole input shape, for the error message.

        Returns:
            (out_rows, out_cols).

        Raises:
            ValueError: the window does not fit.
        """
        out = [conv_output_length(d, k, self.padding, s, r)
               for d, k, s, r in zip(space, self.kernel_size, self.strides, self.dilation_rate)]
        return check_output_space(self, input_shape if input_shape is not None else list(space), out)

    def _split_step_shape(self, shape):
        """A 4-D step shape -> (batch, [rows, cols], channels) whatever the data format."""
        if self.data_format == "channels_first":
            return shape[0], list(shape[2:4]), shape[1]
        return shape[0], list(shape[1:3]), shape[3]

    def _state_shape(self, batch, space):
        if self.data_format == "channels_first":
            return (batch, self.filters) + tuple(space)
        return (batch,) + tuple(space) + (self.filters,)

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            self._check_step_shapes(input_shape)   # [x, h, c]: checked before any weight exists
            input_shape = input_shape[0]
        input_shape = tuple(input_shape)
        self._check_rank4("input", input_shape)
        _, space, input_dim = self._split_step_shape(input_shape)
        if input_dim is None:
            raise ValueError(f"{self.get_class_name()} {self.name}: the channel dimension of the input should be "
                             f"defined. Found None (input shape {shape_str(input_shape)})")
        self.output_space(space, input_shape)   # a window that does not fit fails before any weight exists
        n = self.filters * _GATES
        self._add_weights(self.kernel_size + [input_dim, n], self.kernel_size + [self.filters, n], "recurrent_kernel")

    def compute_output_shape(self, input_shape):
        """The output shapes for [x, h, c] step shapes: [h', h', c'] shapes. For one 5-D sequence
        shape (TF.js's form): the per-step output stacked over time, [batch, time, ...].

        Args:
            input_shape: the step shapes, or one sequence shape.

        Returns:
            The output shape(s).
        """
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            batch, space, _ = self._split_step_shape(tuple(input_shape[0]))
            out = self._state_shape(batch, self.output_space(space, input_shape[0]))
            return [out, out, out]
        shape = tuple(input_shape)
        if len(shape) == 5:
            batch, space, _ = self._split_step_shape((shape[0],) + shape[2:])
            return (shape[0], shape[1]) + self._state_shape(batch, self.output_space(space, shape))[1:]
        batch, space, _ = self._split_step_shape(shape)
        return self._state_shape(batch, self.output_space(space, shape))

    # --- the step -------------------------------------------------------------------------------------
    def _gate_masks(self, like, rate, attr, training):
        """This sequence's four masks for `like` (drawn on first use), or None outside training."""
        if not (training and 0 < rate < 1):
            return None
        masks = getattr(self, attr)
        if masks is None:
            masks = [self._mask(like, rate, 1) for _ in range(_GATES)]
            setattr(self, attr, masks)
        return masks

    def _conv_gates(self, x, masks, kernel, strides, padding, dilation):
        """conv(x, kernel) for the four gates at once, or gate by gate on differently masked x."""
        if masks is None:
            return ops.conv2d(x, kernel, strides, padding, "NHWC", dilation)
        kernels = ops.split(kernel, _GATES, 3)
        return ops.concat([ops.conv2d(ops.mul(x, m), k, strides, padding, "NHWC", dilation)
                           for m, k in zip(masks, kernels)], 3)

    def step(self, x, h, c, training=False):
        """One step on channels-last tensors.

        Args:
            x: the input, [batch, rows, cols, channels].
            h: the output state.
            c: the cell state.
            training: whether dropout acts.

        Returns:
            (h', c').
        """
        zx = self._conv_gates(x, self._gate_masks(x, self.dropout, "dropout_mask", training), self.kernel,
                              self.strides, self.padding, self.dilation_rate)
        zh = self._conv_gates(h, self._gate_masks(h, self.recurrent_dropout, "recurrent_dropout_mask", training),
                              self.recurrent_kernel, 1, "same", 1)
        z = ops.add(zx, zh)
        if self.use_bias:
            z = ops.add(z, self.bias)
        z_i, z_f, z_c, z_o = ops.split(z, _GATES, 3)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        c = ops.add(ops.mul(f, c), ops.mul(i, self.activation(z_c)))
        h = ops.mul(self.recurrent_activation(z_o), self.activation(c))
        return h, c

    def _check_rank4(self, what, shape):
        if len(shape) != 4:
            raise ValueError(f"{self.get_class_name()} {self.name}: the {what} must be 4-D [batch, rows, cols, "
                             f"channels] (or channels first), got shape {shape_str(list(shape))}")

    def _check_step_shapes(self, shapes):
        """[x, h, c] shapes: three of them, 4-D, h and c of the input convolution's output shape."""
        x, states = self._split_inputs(list(shapes))
        for what, shape in (("input", x), ("h state", states[0]), ("c state", states[1])):
            self._check_rank4(what, shape)
        batch, space, _ = self._split_step_shape(tuple(x))
        want = self._state_shape(batch, self.output_space(space, list(x)))
        for what, shape in (("h state", states[0]), ("c state", states[1])):
            if any(a is not None and b is not None and a != b for a, b in zip(shape, want)):
                raise ValueError(f"{self.get_class_name()} {self.name}: the {what} must have shape {shape_str(want)} "
                                 f"for input shape {shape_str(list(x))}, got {shape_str(list(shape))}")

    def call(self, inputs, training=False):
        x, (h, c) = self._split_inputs(inputs)
        self._check_step_shapes([tuple(x.shape), tuple(h.shape), tuple(c.shape)])
        fmt = self.data_format
        h, c = self.step(to_channels_last(x, fmt), to_channels_last(h, fmt), to_channels_last(c, fmt), training)
        h, c = to_channels_first(h, fmt), to_channels_first(c, fmt)
        return [h, h, c]

    def get_config(self):
        config = {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                  "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                  "dilation_rate": self.dilation_rate}
        config.pop("units", None)
        return config


class ConvLSTM2D(RNN):
    """ConvLSTM2DCell over the time axis of a 5-D input [batch, time, rows, cols, channels]
    (channels_first: [batch, time, channels, rows, cols]). The time loop, initial states, masks,
    go_backwards and stateful states are RNN's; this class gives the states' 4-D shapes and steps
    in channels-last layout."""
    class_name = "ConvLSTM2D"
    cell_class = ConvLSTM2DCell   # (for model files: the arguments the layer passes on to its cell)

    def __init__(self, filters=None, kernel_size=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, name=None, trainable=True, input_shape=None,
                 batch_input_shape=None, batch_size=None, dtype=None, weights=None, input_dtype=None, input_dim=None,
                 input_length=None, **cell_args):
        # input_dim / input_length: RNN arguments TF.js's ConvLSTM2D takes and ignores (a 5-D input
        # has no single input dimension)
        cell = ConvLSTM2DCell(filters, kernel_size, **cell_args)
        super().__init__(cell=cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll, name=name, trainable=trainable,
                         input_shape=input_shape, batch_input_shape=batch_input_shape, batch_size=batch_size,
                         dtype=dtype, weights=weights, input_dtype=input_dtype)
        cell.name = self.name   # the weights are '<layer name>/kernel', ...
        self.input_spec = InputSpec(ndim=5)

    # the cell's arguments, read through the layer
    filters = property(lambda self: self.cell.filters, doc="The cell's filters.")
    kernel_size = property(lambda self: self.cell.kernel_size, doc="The cell's kernel_size.")
    strides = property(lambda self: self.cell.strides, doc="The cell's strides.")
    padding = property(lambda self: self.cell.padding, doc="The cell's padding.")
    data_format = property(lambda self: self.cell.data_format, doc="The cell's data_format.")
    dilation_rate = property(lambda self: self.cell.dilation_rate, doc="The cell's dilation_rate.")

    def _state_shapes(self, input_shape):
        """The shapes of h and c (h is also one output step) for a 5-D input shape; a ValueError
        naming the whole input shape when it is not 5-D or the window does not fit."""
        input_shape = tuple(input_shape)
        if len(input_shape) != 5:
            raise ValueError(f"Input 0 is incompatible with layer {self.name}: expected ndim=5 ([batch, time, rows, "
                             f"cols, channels]), found ndim={len(input_shape)} (shape {shape_str(list(input_shape))})")
        batch, space, _ = self.cell._split_step_shape((input_shape[0],) + input_shape[2:])
        shape = self.cell._state_shape(batch, self.cell.output_space(space, list(input_shape)))
        return [shape, shape]

    def _state_names(self):
        return ["h", "c"]

    def build(self, input_shape):
        shape = tuple(input_shape[0] if input_shape and isinstance(input_shape[0], (list, tuple)) else input_shape)
        self._state_shapes(shape)   # a window that does not fit fails before any weight exists
        super().build(shape)
        channel_axis = 2 if self.data_format == "channels_first" else 4
        self.input_spec = InputSpec(ndim=5, axes={channel_axis: shape[channel_axis]})

    # the step runs channels last: a channels_first layer transposes the sequence and the states
    # once on the way in and once on the way out
    def _to_step_layout(self, x, states):
        fmt = self.data_format
        return _seq_to_channels_last(x, fmt), [to_channels_last(s, fmt) for s in states]

    def _from_step_layout(self, t, sequence):
        return (_seq_to_channels_first if sequence else to_channels_first)(t, self.data_format)

    def _step(self, xt, states, training):
        h, c = self.cell.step(xt, states[0], states[1], training)
        return h, [h, c]

    cell_in_config = False


__all__ = ["ConvLSTM2DCell", "ConvLSTM2D"]
