"""tf.layers: every layer factory, constructed with TF.js's options (as keyword arguments and as one
dict), built on a small input, its weights set to deterministic values (spec.layer_case), then applied
in inference mode: output shapes, dtypes and values, weight shapes and the gradient with respect to
the inputs are compared with TF.js's. Layers that are random in training are identities here."""
from ..spec import expect, gives, layer_case, props, ramp, sines, sub_layer, T, true_gradient

L = "tf.layers."
X2 = sines([2, 5], 1.5)                     # [batch, features]
X3 = sines([2, 4, 3], 1.2)                  # [batch, steps, features]
X4 = sines([2, 5, 5, 2], 1.0, shift=1)      # [batch, h, w, channels]
X5 = sines([1, 4, 4, 4, 2], 1.0, shift=2)   # [batch, d, h, w, channels]
X5T = sines([2, 3, 4, 4, 1], 1.0, shift=3)  # [batch, time, h, w, channels]
XA, XB = sines([2, 3], 1.0), sines([2, 3], 2.0, shift=5)
IDS = T([[1, 0, 3, 2], [4, 4, 0, 1]], dtype="int32")
IMG = ramp([1, 6, 6, 2])
CAUSAL = ("`tf.layers.conv1d`: TF.js 4.22 refuses padding 'causal' (not implemented in its conv1dWithBias); "
          "pytfweb pads the start of the sequence, as Keras does")
NEAREST_BATCH_GRAD = ("`tf.layers.up_sampling2d`: for a batch of more than one image TF.js 4.22's gradient (that of "
                      "resizeNearestNeighbor) adds dy to the wrong images' pixels; pytfweb's gradient is the forward's "
                      "derivative")
BN_AXIS = ("`tf.layers.batch_normalization`: with an axis other than the last, TF.js 4.22's batchNorm kernel reads the "
           "moving statistics by flat index modulo their size, normalizing values by other channels' statistics; "
           "pytfweb uses each value's own channel")
SOFTMAX_AXIS = "`tf.layers.softmax`: TF.js 4.22 refuses an axis other than the last; pytfweb takes any axis"
RESET_AFTER = ("`tf.layers.gru`: TF.js 4.22 refuses reset_after=True; pytfweb implements it (Keras's default GRU), so "
               "Keras files with it load")
CELL_APPLY = ("`tf.layers.simple_rnn_cell`, `lstm_cell`, `gru_cell`, `conv_lstm2d_cell`, `stacked_rnn_cells`: TF.js "
              "4.22 cannot apply a cell by itself (building it on [inputs, states] fails: it expects one shape); "
              "pytfweb builds it from the inputs and returns [output, new states]. Their values are compared inside tf.layers.rnn")
MASK = T([[True, True, False, True], [True, False, False, False]], dtype="bool")
BN = {"scale": 0.25, "offset": 1.0}         # positive weights: a variance must not be negative


def cell(fn, **opts):
    return sub_layer(L + fn, opts)


CASES = [
    # --- core
    layer_case(L + "dense", X2, {"units": 3}, grad=True),
    layer_case(L + "dense", X3, {"units": 2, "activation": "tanh", "useBias": False}, grad=True),
    layer_case(L + "dense", X2, {"units": 4, "activation": "relu", "kernelInitializer": "zeros",
                                 "biasInitializer": "ones"}),
    layer_case(L + "activation", X2, {"activation": "softplus"}, grad=True),
    layer_case(L + "activation", X2, {"activation": "hardSigmoid"}),
    layer_case(L + "activation", X2, {"activation": "selu"}),
    layer_case(L + "activation", X2, {"activation": "nope"}, error=True),
    layer_case(L + "dropout", X2, {"rate": 0.5}),
    layer_case(L + "dropout", X2, {"rate": 0.5, "seed": 1}, call={"training": True}, name="layers.dropout_training"),
    layer_case(L + "flatten", X4, grad=True),
    layer_case(L + "flatten", X3, {"dataFormat": "channelsFirst"}),
    layer_case(L + "reshape", X2, {"targetShape": [5, 1]}),
    layer_case(L + "reshape", X3, {"targetShape": [-1, 2]}, grad=True),
    layer_case(L + "reshape", X3, {"targetShape": [5, -1]}, error=True),
    layer_case(L + "permute", X3, {"dims": [2, 1]}, grad=True),
    layer_case(L + "permute", X4, {"dims": [3, 1, 2]}),
    layer_case(L + "permute", X3, {"dims": [0, 1]}, error=True),
    layer_case(L + "repeatVector", X2, {"n": 3}, grad=True),
    layer_case(L + "embedding", IDS, {"inputDim": 5, "outputDim": 3}),
    layer_case(L + "embedding", IDS, {"inputDim": 5, "outputDim": 2, "maskZero": True}),
    layer_case(L + "masking", T([[[0.0, 0.0], [1.0, 2.0]], [[3.0, 0.0], [0.0, 0.0]]]), {"maskValue": 0}),
    layer_case(L + "rescaling", X2, {"scale": 2.5, "offset": -1}, grad=True),
    layer_case(L + "rescaling", IMG, {"scale": 1 / 255}),
    # --- merge
    layer_case(L + "add", [XA, XB], grad=True),
    layer_case(L + "add", [XA, XB, sines([2, 3], 0.5)]),
    layer_case(L + "add", [XA, sines([2, 4])], error=True),
    layer_case(L + "average", [XA, XB], grad=True),
    layer_case(L + "maximum", [XA, XB], grad=True),
    layer_case(L + "minimum", [XA, XB], grad=True),
    layer_case(L + "multiply", [XA, XB], grad=True),
    layer_case(L + "concatenate", [XA, sines([2, 2])], grad=True),
    layer_case(L + "concatenate", [X3, sines([2, 1, 3])], {"axis": 1}),
    layer_case(L + "dot", [XA, XB], {"axes": 1}, grad=True),
    layer_case(L + "dot", [XA, XB], {"axes": -1, "normalize": True}, grad=True),
    layer_case(L + "dot", [X3, sines([2, 4, 2])], {"axes": [1, 1]}),
    # --- convolutional
    layer_case(L + "conv1d", X3, {"filters": 2, "kernelSize": 2}, grad=True),
    layer_case(L + "conv1d", X3, {"filters": 3, "kernelSize": 3, "padding": "same", "strides": 2,
                                  "activation": "relu"}),
    layer_case(L + "conv1d", X3, {"filters": 2, "kernelSize": 2, "dilationRate": 2, "padding": "causal"},
               deviation=CAUSAL),
    layer_case(L + "conv2d", X4, {"filters": 3, "kernelSize": 3}, grad=True),
    layer_case(L + "conv2d", X4, {"filters": 2, "kernelSize": [2, 3], "strides": 2, "padding": "same",
                                  "useBias": False}),
    layer_case(L + "conv2d", X4, {"filters": 2, "kernelSize": 2, "dilationRate": 2}),
    layer_case(L + "conv2d", X4, {"filters": 2, "kernelSize": 2, "dataFormat": "channelsFirst"}),
    layer_case(L + "conv2dTranspose", X4, {"filters": 2, "kernelSize": 3}, grad=True),
    layer_case(L + "conv2dTranspose", X4, {"filters": 1, "kernelSize": 2, "strides": 2, "padding": "same"}),
    layer_case(L + "conv3d", X5, {"filters": 2, "kernelSize": 2}, grad=True),
    layer_case(L + "conv3d", X5, {"filters": 1, "kernelSize": 3, "padding": "same", "strides": 2}),
    layer_case(L + "conv3dTranspose", X5, {"filters": 2, "kernelSize": 2}, grad=True),
    layer_case(L + "conv3dTranspose", X5, {"filters": 1, "kernelSize": 2, "strides": 2, "padding": "same"}),
    layer_case(L + "depthwiseConv2d", X4, {"kernelSize": 3}, grad=True),
    layer_case(L + "depthwiseConv2d", X4, {"kernelSize": 2, "depthMultiplier": 2, "strides": 2, "padding": "same"}),
    layer_case(L + "separableConv2d", X4, {"filters": 3, "kernelSize": 2}, grad=True),
    layer_case(L + "separableConv2d", X4, {"filters": 2, "kernelSize": 3, "depthMultiplier": 2, "padding": "same"}),
    layer_case(L + "cropping2D", X4, {"cropping": 1}, grad=True),
    layer_case(L + "cropping2D", X4, {"cropping": [[1, 0], [2, 1]]}),
    layer_case(L + "upSampling2d", X4, {"size": [2, 3]}, grad=True, deviation=NEAREST_BATCH_GRAD),
    layer_case(L + "upSampling2d", sines([1, 3, 3, 2]), {"size": [2, 3]}, grad=True),
    layer_case(L + "upSampling2d", X4, {"size": [2, 2], "interpolation": "bilinear"}),
    layer_case(L + "zeroPadding2d", X4, {"padding": 1}, grad=True),
    layer_case(L + "zeroPadding2d", X4, {"padding": [[1, 0], [0, 2]]}),
    # --- pooling (and TF.js's aliases)
    layer_case(L + "maxPooling1d", X3, {"poolSize": 2}, grad=True),
    layer_case(L + "maxPool1d", X3, {"poolSize": 3, "strides": 1, "padding": "same"}),
    layer_case(L + "averagePooling1d", X3, {"poolSize": 2}, grad=True),
    layer_case(L + "avgPool1d", X3, {"poolSize": 3, "strides": 1, "padding": "same"}),
    layer_case(L + "avgPooling1d", X3, {"poolSize": 2, "strides": 1}),
    layer_case(L + "maxPooling2d", X4, {"poolSize": 2}, grad=True),
    layer_case(L + "maxPool2d", X4, {"poolSize": [2, 3], "strides": 1, "padding": "same"}),
    layer_case(L + "averagePooling2d", X4, {"poolSize": 2}, grad=True),
    layer_case(L + "avgPool2d", X4, {"poolSize": 3, "strides": 2, "padding": "same"}),
    layer_case(L + "avgPooling2d", X4, {"poolSize": [2, 2], "strides": [1, 2]}),
    layer_case(L + "maxPooling3d", X5, {"poolSize": 2}, grad=True),
    layer_case(L + "averagePooling3d", X5, {"poolSize": 2}, grad=True),
    layer_case(L + "avgPool3d", X5, {"poolSize": [2, 1, 2], "strides": 1}),
    layer_case(L + "avgPooling3d", X5, {"poolSize": 3, "strides": 2, "padding": "same"}),
    layer_case(L + "globalAveragePooling1d", X3, grad=True),
    layer_case(L + "globalAveragePooling2d", X4, {"dataFormat": "channelsLast"}, grad=True),
    layer_case(L + "globalAveragePooling2d", X4, {"dataFormat": "channelsFirst"}),
    layer_case(L + "globalMaxPooling1d", X3, grad=True),
    layer_case(L + "globalMaxPool1d", X3),
    layer_case(L + "globalMaxPooling2d", X4, {"dataFormat": "channelsLast"}, grad=True),
    layer_case(L + "globalMaxPool2d", X4, {"dataFormat": "channelsFirst"}),
    # --- normalization
    layer_case(L + "batchNormalization", X4, grad=True, **BN),
    layer_case(L + "batchNormalization", X3, {"axis": 1, "epsilon": 0.01}, deviation=BN_AXIS, **BN),
    layer_case(L + "batchNormalization", X3, {"axis": 2, "epsilon": 0.01}, **BN),
    layer_case(L + "batchNormalization", X2, {"center": False, "scale": False}, **BN),
    layer_case(L + "layerNormalization", X3, grad=True),
    layer_case(L + "layerNormalization", X4, {"axis": [1, 2], "epsilon": 0.1}),
    layer_case(L + "layerNormalization", X2, {"center": False}),
    # --- advanced activations
    layer_case(L + "elu", X2, grad=True),
    # TF.js: only the default alpha (its layers' NotImplementedError, a plain Error by name)
    layer_case(L + "elu", X2, {"alpha": 0.5}, error="NotImplementedError"),
    layer_case(L + "leakyReLU", X2, grad=True),
    layer_case(L + "leakyReLU", X2, {"alpha": 0.1}),
    layer_case(L + "prelu", X2, grad=True),
    layer_case(L + "prelu", X4, {"sharedAxes": [1, 2]}),
    layer_case(L + "reLU", X2, grad=True),
    layer_case(L + "reLU", X2, {"maxValue": 0.5}),
    layer_case(L + "softmax", X2, grad=True),
    layer_case(L + "softmax", X3, {"axis": 1}, deviation=SOFTMAX_AXIS),
    layer_case(L + "thresholdedReLU", X2, grad=True),
    layer_case(L + "thresholdedReLU", X2, {"theta": 0.5}),
    # --- noise (identities in inference)
    layer_case(L + "alphaDropout", X2, {"rate": 0.3}),
    layer_case(L + "gaussianDropout", X2, {"rate": 0.3}),
    layer_case(L + "gaussianNoise", X2, {"stddev": 0.3}),
    layer_case(L + "spatialDropout1d", X3, {"rate": 0.3}),
    # --- recurrent
    layer_case(L + "simpleRNN", X3, {"units": 2}, grad=True),
    layer_case(L + "simpleRNN", X3, {"units": 3, "returnSequences": True, "activation": "relu"}),
    layer_case(L + "simpleRNN", X3, {"units": 2, "returnState": True, "goBackwards": True}),
    layer_case(L + "lstm", X3, {"units": 2}, grad=True),
    layer_case(L + "lstm", X3, {"units": 3, "returnSequences": True, "returnState": True}),
    layer_case(L + "lstm", X3, {"units": 2, "unitForgetBias": True, "recurrentActivation": "sigmoid",
                                "goBackwards": True}),
    layer_case(L + "gru", X3, {"units": 2}, grad=True),
    layer_case(L + "gru", X3, {"units": 3, "returnSequences": True, "returnState": True}),
    layer_case(L + "gru", X3, {"units": 2, "resetAfter": True}, deviation=RESET_AFTER),
    layer_case(L + "rnn", X3, {"cell": cell("simpleRNNCell", units=2)}, grad=True),
    layer_case(L + "rnn", X3, {"cell": cell("lstmCell", units=2), "returnSequences": True}),
    layer_case(L + "rnn", X3, {"cell": cell("gruCell", units=2), "returnState": True}),
    layer_case(L + "rnn", X3, {"cell": [cell("lstmCell", units=3), cell("gruCell", units=2)]}, grad=True),
    layer_case(L + "rnn", X3, {"cell": cell("stackedRNNCells", cells=[cell("simpleRNNCell", units=2),
                                                                       cell("lstmCell", units=2)]),
                               "returnSequences": True}),
    layer_case(L + "simpleRNNCell", [X2, sines([2, 2])], {"units": 2}, deviation=CELL_APPLY),
    layer_case(L + "lstmCell", [X2, sines([2, 2]), sines([2, 2], shift=2)], {"units": 2}, deviation=CELL_APPLY),
    layer_case(L + "gruCell", [X2, sines([2, 2])], {"units": 2}, deviation=CELL_APPLY),
    layer_case(L + "stackedRNNCells", [X2, sines([2, 3]), sines([2, 2])],   # states: the last cell's first
               {"cells": [cell("simpleRNNCell", units=2), cell("simpleRNNCell", units=3)]}, deviation=CELL_APPLY),
    layer_case(L + "convLstm2d", X5T, {"filters": 2, "kernelSize": 2}, grad=True),
    layer_case(L + "convLstm2d", X5T, {"filters": 1, "kernelSize": 3, "padding": "same", "returnSequences": True}),
    layer_case(L + "convLstm2dCell", [sines([2, 4, 4, 1]), sines([2, 3, 3, 2]), sines([2, 3, 3, 2], shift=1)],
               {"filters": 2, "kernelSize": 2}, deviation=CELL_APPLY),
    # --- wrappers
    layer_case(L + "bidirectional", X3, {"layer": cell("lstm", units=2)}, grad=True),
    layer_case(L + "bidirectional", X3, {"layer": cell("gru", units=2, returnSequences=True), "mergeMode": "sum"}),
    layer_case(L + "bidirectional", X3, {"layer": cell("simpleRNN", units=2), "mergeMode": "ave"}),
    layer_case(L + "bidirectional", X3, {"layer": cell("simpleRNN", units=2), "mergeMode": "mul"}),
    layer_case(L + "timeDistributed", X3, {"layer": cell("dense", units=2)}, grad=True),
    layer_case(L + "timeDistributed", X5T, {"layer": cell("conv2d", filters=1, kernelSize=2)}),
    # --- preprocessing
    layer_case(L + "categoryEncoding", T([[0, 2, 2, 1], [3, 3, 0, 0]], dtype="int32"), {"numTokens": 4}),
    layer_case(L + "categoryEncoding", T([1, 3, 0], dtype="int32"), {"numTokens": 4, "outputMode": "oneHot"}),
    layer_case(L + "categoryEncoding", T([[0, 2, 2, 1], [3, 3, 0, 0]], dtype="int32"),
               {"numTokens": 4, "outputMode": "count"}),
    layer_case(L + "categoryEncoding", T([[0, 5]], dtype="int32"), {"numTokens": 4}, error=True),
    layer_case(L + "centerCrop", IMG, {"height": 4, "width": 2}),
    layer_case(L + "centerCrop", IMG, {"height": 8, "width": 8}),
    layer_case(L + "resizing", IMG, {"height": 3, "width": 4}),
    layer_case(L + "resizing", IMG, {"height": 9, "width": 4, "interpolation": "nearest"}),
    layer_case(L + "randomWidth", IMG, {"factor": 0.5, "seed": 1}),
    # --- training mode, masks and initial states (call options)
    layer_case(L + "batchNormalization", X4, call={"training": True}, name="layers.batchNormalization_training",
               grad=True, **BN),
    layer_case(L + "batchNormalization", X3, {"momentum": 0.5}, call={"training": True},
               name="layers.batchNormalization_training", **BN),
    layer_case(L + "spatialDropout1d", X3, {"rate": 0.5, "seed": 3}, call={"training": True},
               name="layers.spatialDropout1d_training"),
    layer_case(L + "lstm", X3, {"units": 2, "returnSequences": True}, call={"mask": MASK}, name="layers.lstm_masked"),
    layer_case(L + "gru", X3, {"units": 2}, call={"mask": MASK}, name="layers.gru_masked"),
    layer_case(L + "simpleRNN", X3, {"units": 2, "returnSequences": True}, call={"mask": MASK},
               name="layers.simpleRNN_masked"),
    layer_case(L + "simpleRNN", X3, {"units": 2}, call={"initialState": [sines([2, 2], 0.5)]},
               name="layers.simpleRNN_initial_state", grad=True),
    layer_case(L + "lstm", X3, {"units": 2}, call={"initialState": [sines([2, 2], 0.5), sines([2, 2], 0.3, shift=2)]},
               name="layers.lstm_initial_state"),
    layer_case(L + "bidirectional", X3, {"layer": cell("lstm", units=2, returnSequences=True)}, call={"mask": MASK},
               name="layers.bidirectional_masked"),
    # --- inputs
    props(L + "input", opts={"shape": [3, 2]}, props=["shape", "dtype"]),
    props(L + "input", opts={"batchShape": [4, 3], "dtype": "int32"}, props=["shape", "dtype"]),
    props(L + "inputLayer", opts={"inputShape": [5]}, props=["batchInputShape", "dtype"]),
    props(L + "inputLayer", opts={"batchInputShape": [2, 5], "dtype": "int32"}, props=["batchInputShape", "dtype"]),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "layers.conv1d#3": gives({"output": T([0.0934716463, -0.322191298, -0.74619329, -0.525750279, 0.298590571,
        -0.522548556, -0.820705533, -0.233867005, -0.357995093, -0.762747645, -0.279028296, -0.0947778821,
        -0.673698664, -1.28744841, 0.157528549, 0.488427401], [2, 4, 2], "float32"), "weight_shapes": [[2, 3, 2],
        [2]]}),
    "layers.upSampling2d#1": true_gradient(),
    "layers.batchNormalization#2": gives({"output": T([0.610794961, 0.716171443, -0.477282763, -2.27432394,
        -2.61578918, -1.46782517, 0.582078934, 1.02329004, 0.25702548, -0.000420570374, -0.420551419, 0.00644218922,
        -0.0437502861, 0.842495918, 0.31376943, -1.48216438, -2.61996722, -2.26449943, -0.0910900831, 0.921854675,
        0.820582926, 0.492685795, -0.278867602, -0.33355999], [2, 4, 3], "float32"), "weight_shapes": [[4], [4], [4],
        [4]]}),
    "layers.softmax#2": gives({"output": T([0.467733622, 0.433228672, 0.291422069, 0.0687152296, 0.0460348837,
        0.175937742, 0.374846905, 0.476915181, 0.403417051, 0.0887043104, 0.0438213199, 0.129223198, 0.363880455,
        0.47226578, 0.385907859, 0.155577019, 0.0453829281, 0.0718132257, 0.263085097, 0.430241823, 0.482625008,
        0.217457473, 0.0521095656, 0.0596538857], [2, 4, 3], "float32"), "weight_shapes": []}),
    "layers.gru#3": gives({"output": T([0.136151522, 0.0549273193, 0.00821848214, 0.0996245816], [2, 2], "float32"),
        "weight_shapes": [[3, 6], [2, 6], [2, 6]]}),
    "layers.simpleRNNCell#1": gives({"output": [T([-0.254719526, 0.242837027, -0.382174373, -0.0645207018], [2, 2],
        "float32"), T([-0.254719526, 0.242837027, -0.382174373, -0.0645207018], [2, 2], "float32")],
        "weight_shapes": [[5, 2], [2, 2], [2]]}),
    "layers.lstmCell#1": gives({"output": [T([0.114215255, -0.11139331, -0.0852721855, -0.0306441523], [2, 2],
        "float32"), T([0.114215255, -0.11139331, -0.0852721855, -0.0306441523], [2, 2], "float32"), T([0.238013908,
        -0.268226206, -0.217333019, -0.0896695927], [2, 2], "float32")], "weight_shapes": [[5, 8], [2, 8], [8]]}),
    "layers.gruCell#1": gives({"output": [T([0.360027105, 0.673529804, -0.167958513, -0.755738139], [2, 2],
        "float32"), T([0.360027105, 0.673529804, -0.167958513, -0.755738139], [2, 2], "float32")],
        "weight_shapes": [[5, 6], [2, 6], [6]]}),
    "layers.stackedRNNCells#1": gives({"output": [T([0.0327986814, -0.186741874, -0.232660696, -0.0951541588,
        -0.347862273, -0.288406193], [2, 3], "float32"), T([0.0327986814, -0.186741874, -0.232660696, -0.0951541588,
        -0.347862273, -0.288406193], [2, 3], "float32"), T([-0.254719526, 0.242837027, -0.382174373, -0.0645207018],
        [2, 2], "float32")], "weight_shapes": [[5, 2], [2, 2], [2], [2, 3], [3, 3], [3]]}),
    "layers.convLstm2dCell#1": gives({"output": [T([0.0241651796, -0.417866349, -0.243929431, -0.367949396,
        -0.374586225, -0.225470334, 0.174253374, -0.128876477, -0.00365549815, -0.16081056, -0.721744537, 0.389745116,
        0.146549091, -0.253355443, -0.0276778787, -0.316471785, -0.21591258, 0.013129374, 0.1342417, -0.0374204703,
        0.0285319537, -0.233795524, -0.513714969, 0.302313268, -0.234092653, -0.38231349, 0.0130906375, -0.424211323,
        -0.212331548, -0.0711736605, -0.230429515, 0.322888136, -0.0264336839, -0.18483749, -0.60013181,
        -0.204088554], [2, 3, 3, 2], "float32"), T([0.0241651796, -0.417866349, -0.243929431, -0.367949396,
        -0.374586225, -0.225470334, 0.174253374, -0.128876477, -0.00365549815, -0.16081056, -0.721744537, 0.389745116,
        0.146549091, -0.253355443, -0.0276778787, -0.316471785, -0.21591258, 0.013129374, 0.1342417, -0.0374204703,
        0.0285319537, -0.233795524, -0.513714969, 0.302313268, -0.234092653, -0.38231349, 0.0130906375, -0.424211323,
        -0.212331548, -0.0711736605, -0.230429515, 0.322888136, -0.0264336839, -0.18483749, -0.60013181,
        -0.204088554], [2, 3, 3, 2], "float32"), T([0.0430471897, -0.591113031, -0.610639572, -0.802858174,
        -0.757998407, -0.302150846, 0.563313067, -0.236863226, -0.00868092477, -0.489667326, -0.980136395,
        0.518294513, 0.389332861, -0.367913395, -0.136284828, -1.12498379, -0.455109626, 0.0249805674, 0.320929915,
        -0.0596346855, 0.129212409, -0.88621664, -0.630290866, 0.482592851, -0.33024466, -0.43712157, 0.212330848,
        -1.23058796, -0.442045718, -0.146153927, -0.311376363, 0.506347537, -0.0460051596, -0.3055619, -1.15584719,
        -0.267582297], [2, 3, 3, 2], "float32")], "weight_shapes": [[2, 2, 1, 8], [2, 2, 2, 8], [8]]}),
})
