"""Convolutions: conv1d/2d/3d, transposed, depthwise, separable, dilation2d and the fused forms:
strides, pads (same, valid, numbers, explicit), dilations, data formats, dim rounding, unbatched
inputs, int32 inputs, gradients and the inputs TF.js rejects."""
from ..spec import case, expect, gives, sines, T


def W(*shape, **kw):   # noqa: N802 - reads as a type in case lists
    return sines(shape, int_scale=3, **kw)


X = W(1, 4, 4, 2)
F = W(2, 2, 2, 3, shift=5)
DEPTHWISE_NCHW = ("with data_format 'NCHW' TF.js 4.22's kernels read the input as NHWC anyway (a wrong shape, "
                  "NaN values); pytfweb convolves channels-first input as channels-first")
EXPLICIT = [[0, 0], [1, 0], [0, 2], [0, 0]]

CASES = [
    # conv2d
    case("tf.conv2d", X, F, 1, "valid", grad=True),
    case("tf.conv2d", X, F, 1, "same", grad=True),
    case("tf.conv2d", X, F, 2, "same", grad=True),
    case("tf.conv2d", X, F, [2, 1], "valid", grad=True),
    case("tf.conv2d", W(2, 5, 5, 2), F, 1, "valid", "NHWC", 2, grad=True),
    case("tf.conv2d", W(2, 5, 5, 2), F, 1, "same", "NHWC", [2, 1], grad=True),
    case("tf.conv2d", X, F, 1, 1, grad=True),
    case("tf.conv2d", X, F, 2, 1, "NHWC", 1, "round", grad=True),
    case("tf.conv2d", X, F, 2, 1, "NHWC", 1, "floor"),
    case("tf.conv2d", X, F, 2, 1, "NHWC", 1, "ceil"),
    case("tf.conv2d", X, F, 1, EXPLICIT, grad=True),
    case("tf.conv2d", W(4, 4, 2), F, 1, "same", grad=True),
    case("tf.conv2d", W(1, 2, 4, 3), F, 1, "same", "NCHW", grad=True),
    case("tf.conv2d", W(2, 2, 3, 3), F, [1, 2], "valid", "NCHW", grad=True),
    case("tf.conv2d", W(1, 3, 3, 2, dtype="int32"), W(2, 2, 2, 1, dtype="int32"), 1, "valid"),
    case("tf.conv2d", T([float("nan"), float("inf"), 1, 2], [1, 2, 2, 1]), T([1, 1, 1, 1], [2, 2, 1, 1]), 1, "same"),
    case("tf.conv2d", T([], [0, 3, 3, 2]), F, 1, "same"),
    case("tf.conv2d", W(1, 3, 3, 1), W(3, 3, 1, 1), 1, "valid", grad=True),
    case("tf.conv2d", W(4, 4), F, 1, "same", error=True),                      # rank 2 x
    case("tf.conv2d", X, W(2, 2, 3, 3), 1, "same", error=True),                # channel mismatch
    case("tf.conv2d", X, W(2, 2, 2), 1, "same", error=True),                   # filter rank 3
    case("tf.conv2d", X, F, 2, "same", "NHWC", 2, error=True),                 # strides and dilations > 1
    case("tf.conv2d", X, F, 1, "same", "NHWC", 1, "round", error=True),        # rounding with a string pad
    case("tf.conv2d", X, F, 1, 1.5, "NHWC", 1, "round", error=True),           # rounding with a fraction
    case("tf.conv2d", X, F, 1, "full", error=True),
    # conv1d
    case("tf.conv1d", W(1, 6, 2), W(2, 2, 3), 1, "valid", grad=True),
    case("tf.conv1d", W(2, 6, 2), W(3, 2, 1), 2, "same", grad=True),
    case("tf.conv1d", W(6, 2), W(2, 2, 3), 1, "same", grad=True),
    case("tf.conv1d", W(1, 7, 2), W(2, 2, 2), 1, "valid", "NWC", 2, grad=True),
    case("tf.conv1d", W(1, 7, 2), W(2, 2, 2), 2, 1, "NWC", 1, "floor", grad=True),
    case("tf.conv1d", W(1, 6, 2, dtype="int32"), W(2, 2, 3, dtype="int32"), 1, "valid"),
    case("tf.conv1d", W(1, 6, 2), W(2, 3, 3), 1, "valid", error=True),
    case("tf.conv1d", W(1, 6, 2), W(2, 2, 3), 1, "valid", "NCW", error=True),
    case("tf.conv1d", W(1, 6, 2), W(2, 2, 3), 2, "valid", "NWC", 2, error=True),
    case("tf.conv1d", W(6), W(2, 2, 3), 1, "valid", error=True),
    # conv3d
    case("tf.conv3d", W(1, 3, 3, 3, 2), W(2, 2, 2, 2, 2, shift=3), 1, "valid", grad=True),
    case("tf.conv3d", W(1, 3, 4, 3, 1), W(2, 2, 2, 1, 2, shift=3), 2, "same", grad=True),
    case("tf.conv3d", W(3, 3, 3, 1), W(2, 1, 2, 1, 1, shift=3), [1, 2, 1], "same", grad=True),
    case("tf.conv3d", W(1, 4, 4, 4, 1), W(2, 2, 2, 1, 1, shift=3), 1, "valid", "NDHWC", 2),
    case("tf.conv3d", W(1, 3, 3, 3, 1, dtype="int32"), W(2, 2, 2, 1, 1, dtype="int32"), 1, "valid"),
    case("tf.conv3d", W(1, 2, 2, 2, 1, dtype="int32"), W(1, 1, 1, 1, 1, scale=0.7), 1, "valid"),
    case("tf.conv3d", W(1, 3, 3, 3, 2), W(2, 2, 2, 1, 2), 1, "valid", error=True),
    case("tf.conv3d", W(1, 3, 3, 3, 1), W(2, 2, 2, 1, 2), 1, "valid", "NCDHW", error=True),
    case("tf.conv3d", W(1, 3, 3, 3, 1), W(2, 2, 2, 1, 2), 2, "valid", "NDHWC", 2, error=True),
    # conv2dTranspose
    case("tf.conv2dTranspose", W(1, 2, 2, 3), W(2, 2, 2, 3, shift=4), [1, 3, 3, 2], 1, "valid", grad=True),
    case("tf.conv2dTranspose", W(1, 2, 2, 3), W(2, 2, 2, 3, shift=4), [1, 4, 4, 2], 2, "same", grad=True),
    case("tf.conv2dTranspose", W(3, 4, 3), W(3, 3, 1, 3, shift=4), [3, 4, 1], 1, "same", grad=True),
    case("tf.conv2dTranspose", W(1, 2, 2, 1, dtype="int32"), W(2, 2, 1, 1, dtype="int32"), [1, 3, 3, 1], 1, "valid"),
    case("tf.conv2dTranspose", W(1, 2, 2, 1), W(2, 2, 1, 1), [1, 4, 4, 1], 2, 0, "round", grad=True),
    case("tf.conv2dTranspose", W(1, 2, 2, 1), W(2, 2, 1, 1), [1, 5, 5, 1], 2, "valid"),   # TF.js takes it
    case("tf.conv2dTranspose", W(1, 2, 2, 3), W(2, 2, 2, 2), [1, 3, 3, 2], 1, "valid", error=True),
    case("tf.conv2dTranspose", W(1, 2, 2, 3), W(2, 2, 2, 3), [1, 3, 3, 1], 1, "valid", error=True),
    # conv3dTranspose
    case("tf.conv3dTranspose", W(1, 2, 2, 2, 2), W(2, 2, 2, 1, 2, shift=2), [1, 3, 3, 3, 1], 1, "valid", grad=True),
    case("tf.conv3dTranspose", W(1, 2, 2, 2, 1), W(2, 2, 2, 2, 1, shift=2), [1, 4, 4, 4, 2], 2, "same", grad=True),
    case("tf.conv3dTranspose", W(2, 2, 2, 1), W(1, 1, 1, 2, 1), [2, 2, 2, 2], 1, "same"),
    case("tf.conv3dTranspose", W(1, 2, 2, 2, 2), W(2, 2, 2, 1, 3), [1, 3, 3, 3, 1], 1, "valid", error=True),
    # depthwiseConv2d
    case("tf.depthwiseConv2d", X, W(2, 2, 2, 2, shift=7), 1, "valid", grad=True),
    case("tf.depthwiseConv2d", X, W(3, 3, 2, 1, shift=7), 2, "same", grad=True),
    case("tf.depthwiseConv2d", W(5, 5, 2), W(2, 2, 2, 2, shift=7), 1, "same", "NHWC", 2, grad=True),
    case("tf.depthwiseConv2d", X, W(2, 2, 2, 1), 2, 1, "NHWC", 1, "ceil", grad=True),
    case("tf.depthwiseConv2d", X, W(2, 2, 2, 1), 1, EXPLICIT, grad=True),
    case("tf.depthwiseConv2d", W(1, 2, 4, 4), W(2, 2, 2, 2), 1, "same", "NCHW", deviation=DEPTHWISE_NCHW),
    case("tf.depthwiseConv2d", W(1, 3, 3, 2, dtype="int32"), W(2, 2, 2, 1, dtype="int32"), 1, "valid"),
    case("tf.depthwiseConv2d", X, W(2, 2, 3, 1), 1, "valid", error=True),
    case("tf.depthwiseConv2d", X, W(2, 2, 2, 1), 2, "valid", "NHWC", 2, error=True),
    # separableConv2d
    case("tf.separableConv2d", X, W(2, 2, 2, 2, shift=1), W(1, 1, 4, 3, shift=2), 1, "valid", grad=True),
    case("tf.separableConv2d", W(5, 5, 2), W(2, 2, 2, 1), W(1, 1, 2, 2), 1, "same", 2, grad=True),
    case("tf.separableConv2d", X, W(2, 2, 2, 1), W(1, 1, 2, 2), [2, 2], "same", [1, 1], "NHWC", grad=True),
    case("tf.separableConv2d", X, W(2, 2, 2, 1), W(1, 1, 2, 2), 1, "same", 1, "NCHW", error=True),
    case("tf.separableConv2d", W(1, 3, 3, 1, dtype="int32"), W(2, 2, 1, 1), W(1, 1, 1, 1), 1, "same", error=True),
    case("tf.separableConv2d", X, W(2, 2, 2, 1), W(1, 1, 3, 2), 1, "same", error=True),
    case("tf.separableConv2d", X, W(2, 2, 2, 1), W(2, 1, 2, 2), 1, "same", error=True),
    # dilation2d
    case("tf.dilation2d", X, W(2, 2, 2, shift=3), 1, "valid", grad=True),
    case("tf.dilation2d", X, W(2, 2, 2, shift=3), 2, "same", grad=True),
    case("tf.dilation2d", W(5, 5, 1), W(2, 2, 1), 1, "same", 2, grad=True),
    case("tf.dilation2d", W(1, 5, 5, 1), W(2, 2, 1), 2, "valid", [2, 1], grad=True),
    case("tf.dilation2d", W(1, 3, 3, 1, dtype="int32"), W(2, 2, 1, dtype="int32"), 1, "same"),
    case("tf.dilation2d", W(1, 3, 3, 1, dtype="int32"), W(2, 2, 1, scale=0.6), 1, "same"),
    case("tf.dilation2d", X, W(2, 2, 3), 1, "same", error=True),
    case("tf.dilation2d", X, W(2, 2, 2), 1, "same", 1, "NCHW", error=True),
    # tf.fused: options as one object
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "same"}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "valid", "bias": W(3),
                                  "activation": "relu"}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 2, "pad": "same", "bias": W(1),
                                  "activation": "relu6"}),
    case("tf.fused.conv2d", opts={"x": W(4, 4, 2), "filter": F, "strides": 1, "pad": "same", "bias": W(3),
                                  "activation": "elu"}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "same", "activation": "sigmoid"}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "valid", "bias": W(3),
                                  "activation": "leakyrelu", "leakyreluAlpha": 0.3}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "valid", "activation": "prelu",
                                  "preluActivationWeights": W(3, scale=0.5)}),
    case("tf.fused.conv2d", opts={"x": W(1, 2, 4, 3), "filter": F, "strides": 1, "pad": "same",
                                  "dataFormat": "NCHW", "bias": W(3), "activation": "relu"}),
    case("tf.fused.conv2d", opts={"x": W(2, 5, 5, 2), "filter": F, "strides": 1, "pad": "same",
                                  "dilations": 2, "bias": W(3)}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 2, "pad": 1, "dimRoundingMode": "floor"}),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "same", "bias": W(2)}, error=True),
    case("tf.fused.conv2d", opts={"x": X, "filter": F, "strides": 1, "pad": "same", "activation": "tanh"},
         error=True),
    case("tf.fused.depthwiseConv2d", opts={"x": X, "filter": W(2, 2, 2, 2), "strides": 1, "pad": "same"}),
    case("tf.fused.depthwiseConv2d", opts={"x": X, "filter": W(2, 2, 2, 2), "strides": 1, "pad": "valid",
                                           "bias": W(4), "activation": "relu"}),
    case("tf.fused.depthwiseConv2d", opts={"x": W(4, 4, 2), "filter": W(3, 3, 2, 1), "strides": 2, "pad": "same",
                                           "bias": W(2), "activation": "leakyrelu"}),
    case("tf.fused.depthwiseConv2d", opts={"x": X, "filter": W(2, 2, 2, 1), "strides": 1, "pad": "same",
                                           "activation": "prelu", "preluActivationWeights": W(2, scale=0.3)}),
    case("tf.fused.depthwiseConv2d", opts={"x": X, "filter": W(2, 2, 2, 1), "strides": 1, "pad": "same",
                                           "dilations": 2, "bias": W(1), "activation": "elu"}),
    case("tf.fused.depthwiseConv2d", opts={"x": X, "filter": W(2, 2, 3, 1), "strides": 1, "pad": "same"},
         error=True),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "depthwiseConv2d#6": gives(T([-0.676465571, 0.790715814, 1.53091669, -0.229094505, -0.597706795, -1.50948453,
        -1.03344929, 0.61138463, 1.45783997, 1.18261409, -0.179901749, -0.570160806, -0.596359134, 0.209990501,
        0.823275805, -0.242262274, 0.75595957, 1.59021437, 0.962433338, -1.22639036, -1.55698681, -1.13228273,
        0.333436847, 1.19152784, 1.27946949, -0.109995663, -1.39833128, -0.33127889, 0.105265766, 0.719056249,
        0.671749711, -0.261789739, -1.47146428, -0.548947692, 0.878268957, 1.03440428, 0.740486622, -0.697835863,
        -1.49457133, -0.39869836, 0.503435552, 1.46121955, 1.07556498, -0.513191104, -0.742775559, -0.404878348,
        0.305262148, 0.0778173357, -0.461785823, 0.965010285, 1.5045805, -0.205010444, -0.790466905, -1.5150286,
        -0.846679807, 0.539983273, 1.49515319, 1.01556706, -0.397726715, -0.500902832, -0.475277483, 0.348006815,
        0.851335287, -0.417321116], [1, 4, 4, 4], "float32")),
})
