"""Layer wrappers (tfjs-layers layers/wrappers.ts): TimeDistributed and Bidirectional.

Both own an inner layer (Bidirectional two: the given RNN running forward and a copy of it
running backward, named forward_<name> / backward_<name>) and expose its weights as theirs.
"""
from .. import ops
from .engine import Container, InputSpec, Layer
from .recurrent import _CellRNN, state_sizes
from ._utils import shape_str

_MERGE_MODES = ("sum", "mul", "concat", "ave", None)


class _Wrapper(Container):
    def _children(self):
        return getattr(self, "_inner_layers", [])


class TimeDistributed(_Wrapper):
    """Apply layer to every temporal slice (axis 1) of a [batch, time, ...] input."""
    class_name = "TimeDistributed"
    config_keys = ("layer",)

    def __init__(self, layer=None, **kwargs):
        if layer is None:
            raise ValueError("TimeDistributed: required argument 'layer' is missing")
        super().__init__(**kwargs)
        self.layer = layer
        self._inner_layers = [layer]
        self.input_spec = InputSpec(min_ndim=3)
        self.supports_masking = True   # the mask passes through (as TF.js)

    def build(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(f"TimeDistributed layer expects an input shape >= 3D, but received input shape "
                             f"{shape_str(input_shape)}")
        if not self.layer.built:
            self.layer._build_from((input_shape[0],) + tuple(input_shape[2:]))
        self.built = True

    def compute_output_shape(self, input_shape):
        child = self.layer.compute_output_shape((input_shape[0],) + tuple(input_shape[2:]))
        return (input_shape[0], input_shape[1]) + tuple(child[1:])

    def call(self, inputs, training=False):
        b, t = inputs.shape[0], inputs.shape[1]
        flat = ops.reshape(inputs, [b * t] + list(inputs.shape[2:]))
        out = self.layer.call(flat, training)
        return ops.reshape(out, [b, t] + list(out.shape[1:]))


class Bidirectional(_Wrapper):
    """Run an RNN forward and backward over the sequence and merge the two outputs."""
    class_name = "Bidirectional"
    config_keys = ("layer", "merge_mode")

    def __init__(self, layer=None, merge_mode="concat", **kwargs):
        if layer is None:
            raise ValueError("Bidirectional: required argument 'layer' is missing")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode: {merge_mode}. Merge mode should be one of "
                             f"[\"sum\", \"mul\", \"concat\", \"ave\", null]")
        if not isinstance(layer, _CellRNN):
            raise NotImplementedError("Bidirectional: only SimpleRNN, LSTM and GRU layers can be wrapped for now")
        super().__init__(**kwargs)
        self.forward_layer = type(layer)(return_sequences=layer.return_sequences, return_state=layer.return_state,
                                         go_backwards=layer.go_backwards, stateful=layer.stateful,
                                         name=f"forward_{layer.name}", **layer._cell_args)
        self.backward_layer = type(layer)(return_sequences=layer.return_sequences,
                                          return_state=layer.return_state, go_backwards=not layer.go_backwards,
                                          stateful=layer.stateful, name=f"backward_{layer.name}",
                                          **layer._cell_args)
        self.layer = layer   # unbuilt: what the config describes; the two copies hold the weights
        self.stateful = layer.stateful
        self.supports_masking = True
        self._inner_layers = [self.forward_layer, self.backward_layer]
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.input_spec = InputSpec(ndim=3)

    def apply(self, inputs, training=False, initial_state=None, **kwargs):
        """Apply the layer (see Layer.apply), with initial states if given.

        Args:
            inputs: [batch, time, features], a Tensor or a SymbolicTensor.
            training: whether the call is part of training (dropout acts only then).
            initial_state: the forward RNN's initial states followed by the backward one's
                (SymbolicTensors when inputs is one); they become extra inputs of the layer's node.
            **kwargs: passed to call (mask=...).

        Returns:
            The merged output (both, merge_mode None), then the states of both RNNs with
            return_state.

        Raises:
            ValueError: initial_state does not hold as many states for each direction.
        """
        if initial_state is not None:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
            if len(states) % 2:
                raise ValueError("When passing `initialState` to a Bidrectional RNN, the state should be an Array "
                                 "containing the states of the underlying RNNs.")
            if isinstance(inputs, (list, tuple)) and len(inputs) > 1:
                raise ValueError(f"Bidirectional layer {self.name}: initial states given twice (in the inputs and "
                                 f"as initial_state)")
            inputs = [inputs[0] if isinstance(inputs, (list, tuple)) else inputs] + states
        return super().apply(inputs, training, **kwargs)

    def assert_input_compatibility(self, shapes):
        # the first input is the sequence; any others are the initial states, forward's then backward's
        super().assert_input_compatibility(shapes[:1])
        if len(shapes) > 1:
            half = (len(shapes) - 1) // 2
            self.forward_layer._check_state_shapes(shapes[0], shapes[1:1 + half])
            self.backward_layer._check_state_shapes(shapes[0], shapes[1 + half:])

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]   # [x, *initial states]
        for layer in self._inner_layers:
            if not layer.built:
                layer._build_from(input_shape)
        self.built = True

    def compute_output_shape(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        shape = self.forward_layer.compute_output_shape(input_shape)
        states = []
        if self.return_state:
            shape, states = shape[0], shape[1:]
        if self.merge_mode == "concat":
            shape = tuple(shape[:-1]) + (shape[-1] * 2,)
        out = [shape, shape] if self.merge_mode is None else [shape]
        if self.return_state:
            return out + list(states) * 2
        return out if self.merge_mode is None else out[0]

    def reset_states(self, states=None):
        """Reset the states of both directions (stateful only).

        Args:
            states: None (zeros), or the forward layer's states followed by the backward layer's.
        """
        n = len(state_sizes(self.forward_layer.cell))
        self.forward_layer.reset_states(None if states is None else list(states)[:n])
        self.backward_layer.reset_states(None if states is None else list(states)[n:])

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        out = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            return out + [None] * (2 * len(state_sizes(self.forward_layer.cell)))
        return out if self.merge_mode is None else out[0]

    def call(self, inputs, training=False, mask=None):
        forward_states = backward_states = None
        if isinstance(inputs, (list, tuple)):
            inputs, states = inputs[0], list(inputs[1:])
            if states:
                forward_states, backward_states = states[:len(states) // 2], states[len(states) // 2:]
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        y = self.forward_layer.call(inputs, training, mask=mask, initial_state=forward_states)
        y_rev = self.backward_layer.call(inputs, training, mask=mask, initial_state=backward_states)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = ops.reverse(y_rev, 1)
        if self.merge_mode == "concat":
            out = [ops.concat([y, y_rev], -1)]
        elif self.merge_mode == "sum":
            out = [ops.add(y, y_rev)]
        elif self.merge_mode == "ave":
            out = [ops.mul(ops.add(y, y_rev), 0.5)]
        elif self.merge_mode == "mul":
            out = [ops.mul(y, y_rev)]
        else:
            out = [y, y_rev]
        if self.return_state or self.merge_mode is None:
            return out + states
        return out[0]
