"""Predict-time fusion of a convolution, the BatchNormalization after it and the activation after
that (MobileNet's conv -> batch_normalization -> relu6, ResNet's conv -> batch_normalization ->
relu). With the moving statistics fixed, the normalization is an affine map per channel, so it
folds into the convolution's kernel and bias, and the layers run as one fused convolution: one
program where the layers take three passes over the activations. Training (and any call with
masks) runs the layers as they are.

A chain qualifies when the convolution is a Conv2D or DepthwiseConv2D, channels last, with a
linear activation; its output goes only to a BatchNormalization over the last axis; and the
activation layer, which is optional, reads only the normalization's output and is a ReLU (no
max_value, or 6), a LeakyReLU, or an Activation with relu, relu6, elu or sigmoid. No
intermediate output may be a model output. A ZeroPadding2D (channels last) whose output only such
a chain's 'valid' convolution reads becomes the convolution's explicit padding (MobileNet's
strided blocks, ResNet's stem): the zeros are read at the image's edges, not written first.

The folded kernel and bias are kept per chain (tensors of the model, in tf.memory() like its
weights, freed by Model.dispose) and made again when one of the weights they come from has
changed: an assign gives a variable new data, which the cache key holds.
"""
from .. import ops
from ..core.api import dispose, keep, tidy
from ..ops import fused as _fused
from . import activations as _activations
from .advanced_activations import LeakyReLU, ReLU
from .convolutional import Conv2D, DepthwiseConv2D
from .core import Activation
from .normalization import BatchNormalization
from .padding import ZeroPadding2D

_ACTIVATION_LAYER_FUSES = {_activations.relu: "relu", _activations.relu6: "relu6", _activations.elu: "elu",
                           _activations.sigmoid: "sigmoid"}


class Chain:
    """[zero padding ->] conv -> batch normalization [-> activation], run as one fused convolution
    on the tensor `input_id` (the padding's input where the chain took it in: `pad` then holds the
    explicit padding that replaces the conv's 'valid')."""
    __slots__ = ("conv", "bn", "activation", "alpha", "input_id", "output_id", "pad", "key", "kernel", "bias")

    def __init__(self, conv, bn, activation, alpha, input_id, output_id):
        self.conv, self.bn, self.activation, self.alpha = conv, bn, activation, alpha
        self.input_id, self.output_id, self.pad = input_id, output_id, conv.padding
        self.key = self.kernel = self.bias = None

    def _sources(self):
        conv, bn = self.conv, self.bn
        kernel = conv.depthwise_kernel if isinstance(conv, DepthwiseConv2D) else conv.kernel
        return kernel, conv.bias, bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance

    def _folded(self):
        sources = self._sources()
        key = tuple(None if t is None else t.data_id for t in sources)
        if key != self.key:
            self.dispose()
            self.kernel, self.bias = tidy(lambda: self._fold(*sources))
            keep(self.kernel)
            keep(self.bias)
            self.key = key
        return self.kernel, self.bias

    def _fold(self, kernel, bias, gamma, beta, mean, variance):
        scale = ops.rsqrt(ops.add(variance, self.bn.epsilon))
        if gamma is not None:
            scale = ops.mul(scale, gamma)
        shift = ops.neg(mean) if bias is None else ops.sub(bias, mean)
        shift = ops.mul(shift, scale)
        if beta is not None:
            shift = ops.add(shift, beta)
        if isinstance(self.conv, DepthwiseConv2D):   # output channel c * multiplier + m
            scale = ops.reshape(scale, list(kernel.shape[-2:]))
        return [ops.mul(kernel, scale), shift]

    def run(self, x):
        kernel, bias = self._folded()
        conv = self.conv
        fn = _fused.depthwise_conv2d if isinstance(conv, DepthwiseConv2D) else _fused.conv2d
        return fn(x, kernel, conv.strides, self.pad, "NHWC", conv.dilation_rate, bias=bias,
                  activation=self.activation, leakyrelu_alpha=self.alpha)

    def dispose(self):
        if self.kernel is not None:
            dispose([self.kernel, self.bias])
        self.key = self.kernel = self.bias = None


class Plan:
    """The chains of a model's graph: heads (id of a conv node -> its Chain) and the ids of the
    nodes a chain runs in its head's place."""

    def __init__(self, nodes, outputs):
        self.heads, self.skipped = {}, set()
        readers, producers, output_ids = {}, {}, {t.id for t in outputs}
        for node in nodes:
            for t in node.input_tensors:
                readers.setdefault(t.id, []).append(node)
            for t in node.output_tensors:
                producers[t.id] = node

        def only_reader(node):
            """The one node reading node's single output, if that output is no model output."""
            if len(node.output_tensors) != 1 or node.output_tensors[0].id in output_ids:
                return None
            after = readers.get(node.output_tensors[0].id, [])
            return after[0] if len(after) == 1 and len(after[0].input_tensors) == 1 else None

        for node in nodes:
            conv = node.outbound_layer
            if not _is_foldable_conv(conv, node):
                continue
            bn_node = only_reader(node)
            if bn_node is None or not _is_last_axis_batch_norm(bn_node.outbound_layer, node):
                continue
            last, activation, alpha = bn_node, "linear", 0.2
            act_node = only_reader(bn_node)
            fusable = _fusable_activation(act_node.outbound_layer) if act_node is not None else None
            if fusable is not None:
                last, (activation, alpha) = act_node, fusable
            elif bn_node.output_tensors[0].id in output_ids:
                continue
            chain = Chain(conv, bn_node.outbound_layer, activation, alpha, node.input_tensors[0].id,
                          last.output_tensors[0].id)
            pad_node = producers.get(chain.input_id)
            if (conv.padding == "valid" and pad_node is not None and type(pad_node.outbound_layer) is ZeroPadding2D
                    and pad_node.outbound_layer.data_format == "channels_last" and only_reader(pad_node) is node):
                chain.input_id = pad_node.input_tensors[0].id
                chain.pad = [[0, 0], *pad_node.outbound_layer.padding, [0, 0]]
                self.skipped.add(id(pad_node))
            self.heads[id(node)] = chain
            self.skipped.update({id(bn_node), id(last)})

    def folded(self):
        """Every chain's folded kernel and bias, made again where a weight has changed: a traced
        predict step takes them as inputs, so that a replay neither folds again nor keeps the
        fold of its trace."""
        return [t for chain in self.heads.values() for t in chain._folded()]

    def dispose(self):
        for chain in self.heads.values():
            chain.dispose()


def _is_foldable_conv(layer, node):
    return (type(layer) in (Conv2D, DepthwiseConv2D) and layer.data_format == "channels_last"
            and _activations.FUSABLE.get(layer.activation) == "linear" and len(node.input_tensors) == 1)


def _is_last_axis_batch_norm(layer, conv_node):
    if type(layer) is not BatchNormalization or layer.moving_mean is None:
        return False
    rank = len(conv_node.output_tensors[0].shape)
    axis = layer.axis[0] if isinstance(layer.axis, (list, tuple)) else layer.axis
    return axis % rank == rank - 1


def _fusable_activation(layer):
    """(tf.fused activation, leakyrelu alpha) of an activation layer, or None."""
    if type(layer) is ReLU and layer.max_value in (None, 6):
        return ("relu" if layer.max_value is None else "relu6"), 0.2
    if type(layer) is LeakyReLU:
        return "leakyrelu", layer.alpha
    if type(layer) is Activation and layer.activation in _ACTIVATION_LAYER_FUSES:
        return _ACTIVATION_LAYER_FUSES[layer.activation], 0.2
    return None
