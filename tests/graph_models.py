"""Small graph models with the ops TF.js's converter emits, built with tests/graph_builder.py:
a MobileNet-v1-like net, a MobileNet-v2-like block, a TF1 control-flow LSTM (Enter/Merge/Switch/
NextIteration/Exit with TensorArrays) and a TF2 While LSTM (StatelessWhile with library functions
and TensorLists). Each function returns (GraphBuilder, signature or None, inputs {name: array})."""
import numpy as np

from .graph_builder import GraphBuilder, dt, f, flag, func, i, ints, s, shape, strs, tensor_info, dts

F32 = dt("float32")


def _conv_attrs(stride, padding, fused=None, nargs=None):
    a = dict(T=F32, strides=ints([1, stride, stride, 1]), padding=s(padding), data_format=s("NHWC"),
             dilations=ints([1, 1, 1, 1]), explicit_paddings=ints([]))
    if fused is not None:
        a.update(fused_ops=strs(fused), num_args=i(nargs), epsilon=f(0.0), leakyrelu_alpha=f(0.2),
                 use_cudnn_on_gpu=flag(True))
    return a


def _w(rng, *dims, scale=0.4):
    return (rng.standard_normal(dims) * scale).astype(np.float32)


def mobilenet_v1(rng, size=16, classes=5):
    b = GraphBuilder()
    x = b.placeholder("input", [-1, size, size, 3])
    # conv 3x3 / 2 with BiasAdd and Relu6 fused (the converter folds batch norm into it)
    h = b.op("_FusedConv2D", "conv0/Relu6", [x, b.const("conv0/w", _w(rng, 3, 3, 3, 8)),
                                             b.const("conv0/b", _w(rng, 8, scale=0.1))],
             **_conv_attrs(2, "SAME", ["BiasAdd", "Relu6"], 1))
    # depthwise 3x3 fused
    h = b.op("FusedDepthwiseConv2dNative", "dw1/Relu6", [h, b.const("dw1/w", _w(rng, 3, 3, 8, 1)),
                                                         b.const("dw1/b", _w(rng, 8, scale=0.1))],
             **_conv_attrs(1, "SAME", ["BiasAdd", "Relu6"], 1))
    # pointwise conv, then a batch norm left unfolded, then Relu6
    h = b.op("Conv2D", "pw1/conv", [h, b.const("pw1/w", _w(rng, 1, 1, 8, 16))], **_conv_attrs(1, "VALID"),
             use_cudnn_on_gpu=flag(True))
    h = b.op("FusedBatchNormV3", "pw1/bn", [h, b.const("pw1/gamma", 1 + _w(rng, 16, scale=0.1)),
                                            b.const("pw1/beta", _w(rng, 16, scale=0.1)),
                                            b.const("pw1/mean", _w(rng, 16, scale=0.1)),
                                            b.const("pw1/var", 0.5 + np.abs(_w(rng, 16)))],
             T=F32, U=F32, epsilon=f(0.001), data_format=s("NHWC"), is_training=flag(False))
    h = b.op("Relu6", "pw1/Relu6", [h], T=F32)
    # depthwise / 2 unfused, BiasAdd, Relu
    h = b.op("DepthwiseConv2dNative", "dw2/conv", [h, b.const("dw2/w", _w(rng, 3, 3, 16, 1))],
             **_conv_attrs(2, "SAME"))
    h = b.op("BiasAdd", "dw2/bias", [h, b.const("dw2/b", _w(rng, 16, scale=0.1))], T=F32, data_format=s("NHWC"))
    h = b.op("Relu", "dw2/Relu", [h], T=F32)
    # pointwise conv with BiasAdd and PReLU fused (two extra arguments)
    h = b.op("_FusedConv2D", "pw2/Prelu", [h, b.const("pw2/w", _w(rng, 1, 1, 16, 16)),
                                           b.const("pw2/b", _w(rng, 16, scale=0.1)),
                                           b.const("pw2/alpha", np.abs(_w(rng, 16, scale=0.2)))],
             **_conv_attrs(1, "VALID", ["BiasAdd", "Prelu"], 2))
    h = b.op("MaxPool", "pool/max", [h], T=F32, ksize=ints([1, 2, 2, 1]), strides=ints([1, 1, 1, 1]),
             padding=s("SAME"), data_format=s("NHWC"), explicit_paddings=ints([]))
    spatial = size // 4
    h = b.op("AvgPool", "pool/avg", [h], T=F32, ksize=ints([1, spatial, spatial, 1]), strides=ints([1, 1, 1, 1]),
             padding=s("VALID"), data_format=s("NHWC"))
    h = b.op("_FusedConv2D", "logits/conv", [h, b.const("logits/w", _w(rng, 1, 1, 16, classes)),
                                             b.const("logits/b", _w(rng, classes, scale=0.1))],
             **_conv_attrs(1, "VALID", ["BiasAdd"], 1))
    h = b.op("Reshape", "logits/flat", [h, b.const("logits/shape", np.int32([-1, classes]))], T=F32, Tshape=dt("int32"))
    h = b.op("Softmax", "probs", [h], T=F32)
    b.op("Identity", "output", [h], T=F32)
    inputs = {"input": rng.standard_normal((2, size, size, 3)).astype(np.float32)}
    return b, None, inputs


def mobilenet_v2_block(rng):
    b = GraphBuilder()
    x = b.placeholder("x", [-1, 8, 8, 8])
    h = b.op("_FusedConv2D", "expand/Relu6", [x, b.const("expand/w", _w(rng, 1, 1, 8, 24)),
                                              b.const("expand/b", _w(rng, 24, scale=0.1))],
             **_conv_attrs(1, "VALID", ["BiasAdd", "Relu6"], 1))
    h = b.op("FusedDepthwiseConv2dNative", "dw/Relu6", [h, b.const("dw/w", _w(rng, 3, 3, 24, 1)),
                                                        b.const("dw/b", _w(rng, 24, scale=0.1))],
             **_conv_attrs(1, "SAME", ["BiasAdd", "Relu6"], 1))
    h = b.op("_FusedConv2D", "project/BiasAdd", [h, b.const("project/w", _w(rng, 1, 1, 24, 8)),
                                                 b.const("project/b", _w(rng, 8, scale=0.1))],
             **_conv_attrs(1, "VALID", ["BiasAdd"], 1))
    h = b.op("AddV2", "residual", [h, x], T=F32)
    h = b.op("Pad", "pad", [h, b.const("pad/paddings", np.int32([[0, 0], [1, 1], [1, 1], [0, 0]]))], T=F32,
             Tpaddings=dt("int32"))
    h = b.op("Conv2D", "down/conv", [h, b.const("down/w", _w(rng, 3, 3, 8, 12))], **_conv_attrs(2, "VALID"))
    h = b.op("BiasAdd", "down/bias", [h, b.const("down/b", _w(rng, 12, scale=0.1))], T=F32, data_format=s("NHWC"))
    h = b.op("Relu", "down/relu", [h], T=F32)
    h = b.op("Mean", "gap", [h, b.const("gap/axes", np.int32([1, 2]))], T=F32, Tidx=dt("int32"), keep_dims=flag(False))
    h = b.op("_FusedMatMul", "fc1", [h, b.const("fc1/w", _w(rng, 12, 10)), b.const("fc1/b", _w(rng, 10, scale=0.1))],
             T=F32, transpose_a=flag(False), transpose_b=flag(False), fused_ops=strs(["BiasAdd", "Relu"]),
             num_args=i(1), epsilon=f(0.0), leakyrelu_alpha=f(0.2))
    h = b.op("MatMul", "fc2", [h, b.const("fc2/w", _w(rng, 4, 10))], T=F32, transpose_a=flag(False),
             transpose_b=flag(True))
    h = b.op("Add", "fc2/bias", [h, b.const("fc2/b", _w(rng, 4, scale=0.1))], T=F32)
    h = b.op("Sub", "fc2/center", [h, b.const("fc2/c", np.float32(0.25))], T=F32)
    h = b.op("Mul", "fc2/scale", [h, b.const("fc2/k", np.float32(1.5))], T=F32)
    b.op("Softmax", "Softmax", [h], T=F32)
    signature = {"inputs": {"input_1": tensor_info("x:0", "float32", [-1, 8, 8, 8])},
                 "outputs": {"probs": tensor_info("Softmax:0", "float32", [-1, 4])}}
    inputs = {"input_1": rng.standard_normal((3, 8, 8, 8)).astype(np.float32)}
    return b, signature, inputs


def _lstm_weights(rng, n_in, n_hidden):
    return _w(rng, n_in + n_hidden, 4 * n_hidden, scale=0.5), _w(rng, 4 * n_hidden, scale=0.1)


def _lstm_cell(b, p, x_t, h, c, kernel, bias, axis, forget):
    """TF's BasicLSTMCell: z = [x, h] W + b; i, j, f, o = split(z, 4); c' = c*sig(f + 1) + sig(i)*tanh(j);
    h' = tanh(c') * sig(o). Returns the node names of h' and c'."""
    z = b.op("ConcatV2", f"{p}concat", [x_t, h, axis], T=F32, N=i(2), Tidx=dt("int32"))
    z = b.op("MatMul", f"{p}matmul", [z, kernel], T=F32, transpose_a=flag(False), transpose_b=flag(False))
    z = b.op("BiasAdd", f"{p}biasadd", [z, bias], T=F32, data_format=s("NHWC"))
    b.op("Split", f"{p}split", [axis, z], T=F32, num_split=i(4))
    gi, gj, gf, go = (f"{p}split:{k}" for k in range(4))
    fg = b.op("Sigmoid", f"{p}sig_f", [b.op("AddV2", f"{p}add_forget", [gf, forget], T=F32)], T=F32)
    keep = b.op("Mul", f"{p}keep", [c, fg], T=F32)
    write = b.op("Mul", f"{p}write", [b.op("Sigmoid", f"{p}sig_i", [gi], T=F32),
                                      b.op("Tanh", f"{p}tanh_j", [gj], T=F32)], T=F32)
    c2 = b.op("AddV2", f"{p}new_c", [keep, write], T=F32)
    h2 = b.op("Mul", f"{p}new_h", [b.op("Tanh", f"{p}tanh_c", [c2], T=F32),
                                   b.op("Sigmoid", f"{p}sig_o", [go], T=F32)], T=F32)
    return h2, c2


def tf1_lstm(rng, steps=4, batch=2, n_in=3, n_hidden=5):
    """tf.compat.v1 dynamic_rnn: a while loop of Enter/Merge/Switch/NextIteration/Exit nodes, the
    inputs read from one TensorArray and the outputs written to another."""
    b = GraphBuilder()
    x = b.placeholder("x", [steps, -1, n_in])
    h0 = b.placeholder("h0", [-1, n_hidden])
    kernel, bias = _lstm_weights(rng, n_in, n_hidden)
    W = b.const("rnn/kernel", kernel)
    B = b.const("rnn/bias", bias)
    n = b.const("rnn/steps", np.int32(steps))
    b.op("TensorArrayV3", "rnn/ta_in", [n], dtype=F32, element_shape=shape([-1, n_in]), dynamic_size=flag(False),
         clear_after_read=flag(True), identical_element_shapes=flag(True), tensor_array_name=s("in"))
    b.op("TensorArrayV3", "rnn/ta_out", [n], dtype=F32, element_shape=shape([-1, n_hidden]),
         dynamic_size=flag(False), clear_after_read=flag(True), identical_element_shapes=flag(True),
         tensor_array_name=s("out"))
    order = b.op("Range", "rnn/range", [b.const("rnn/zero", np.int32(0)), n, b.const("rnn/one", np.int32(1))],
                 Tidx=dt("int32"))
    scattered = b.op("TensorArrayScatterV3", "rnn/scatter", ["rnn/ta_in", order, x, "rnn/ta_in:1"], T=F32)
    c0 = b.op("ZerosLike", "rnn/c0", [h0], T=F32)
    frame = s("rnn/while/while_context")

    def enter(name, src, const=False):
        return b.op("Enter", f"rnn/while/{name}", [src], T=F32, frame_name=frame, is_constant=flag(const),
                    parallel_iterations=i(32))

    loop_vars = {"time": "rnn/zero", "h": h0, "c": c0, "flow": "rnn/ta_out:1"}
    entered = {k: enter(f"Enter_{k}", v) for k, v in loop_vars.items()}
    consts = {k: enter(f"Enter_{k}", v, True) for k, v in
              {"ta_in": "rnn/ta_in", "flow_in": scattered, "ta_out": "rnn/ta_out", "kernel": W, "bias": B,
               "limit": n}.items()}
    merged = {k: b.op("Merge", f"rnn/while/Merge_{k}", [entered[k], f"rnn/while/NextIteration_{k}"], T=F32, N=i(2))
              for k in loop_vars}
    cond = b.op("LoopCond", "rnn/while/LoopCond",
                [b.op("Less", "rnn/while/Less", [merged["time"], consts["limit"]], T=dt("int32"))])
    switched = {k: b.op("Switch", f"rnn/while/Switch_{k}", [merged[k], cond], T=F32) for k in loop_vars}
    body = {k: b.op("Identity", f"rnn/while/Identity_{k}", [f"{switched[k]}:1"], T=F32) for k in loop_vars}
    t = body["time"]
    x_t = b.op("TensorArrayReadV3", "rnn/while/read", [consts["ta_in"], t, consts["flow_in"]], dtype=F32)
    # constants inside the loop depend on its pivot (a control input), as TensorFlow writes them
    axis = b.const("rnn/while/axis", np.int32(1), control=[t])
    forget = b.const("rnn/while/forget", np.float32(1.0), control=[t])
    h2, c2 = _lstm_cell(b, "rnn/while/cell/", x_t, body["h"], body["c"], consts["kernel"], consts["bias"], axis, forget)
    flow2 = b.op("TensorArrayWriteV3", "rnn/while/write", [consts["ta_out"], t, h2, body["flow"]], T=F32)
    t2 = b.op("AddV2", "rnn/while/next_time", [t, b.const("rnn/while/step", np.int32(1), control=[t])],
              T=dt("int32"))
    for k, v in {"time": t2, "h": h2, "c": c2, "flow": flow2}.items():
        b.op("NextIteration", f"rnn/while/NextIteration_{k}", [v], T=F32)
    exits = {k: b.op("Exit", f"rnn/while/Exit_{k}", [f"{switched[k]}:0"], T=F32) for k in loop_vars}
    b.op("TensorArrayGatherV3", "rnn/outputs", ["rnn/ta_out", order, exits["flow"]], dtype=F32,
         element_shape=shape([-1, n_hidden]))
    b.op("Identity", "rnn/final_h", [exits["h"]], T=F32)
    b.op("Identity", "rnn/final_c", [exits["c"]], T=F32)
    inputs = {"x": rng.standard_normal((steps, batch, n_in)).astype(np.float32),
              "h0": (rng.standard_normal((batch, n_hidden)) * 0.1).astype(np.float32)}
    return b, None, inputs


def tf2_while_lstm(rng, steps=4, batch=2, n_in=3, n_hidden=5, while_op="StatelessWhile"):
    """TF2's functional loop: StatelessWhile(cond, body) over (i, n, h, c, inputs list, outputs list,
    kernel, bias), TensorLists for the sequence."""
    b = GraphBuilder()
    x = b.placeholder("x", [steps, -1, n_in])
    h0 = b.placeholder("h0", [-1, n_hidden])
    kernel, bias = _lstm_weights(rng, n_in, n_hidden)
    W = b.const("kernel", kernel)
    B = b.const("bias", bias)
    c0 = b.op("ZerosLike", "c0", [h0], T=F32)
    tl_in = b.op("TensorListFromTensor", "inputs_list", [x, b.const("elem_shape_in", np.int32([-1, n_in]))],
                 element_dtype=F32, shape_type=dt("int32"))
    tl_out = b.op("TensorListReserve", "outputs_list", [b.const("elem_shape_out", np.int32([-1, n_hidden])),
                                                        b.const("steps", np.int32(steps))],
                  element_dtype=F32, shape_type=dt("int32"))
    types = ["int32", "int32", "float32", "float32", "variant", "variant", "float32", "float32"]
    args = [("i", "int32"), ("n", "int32"), ("h", "float32"), ("c", "float32"), ("xs", "variant"),
            ("ys", "variant"), ("w", "float32"), ("b", "float32")]
    # cond(i, n, ...) = i < n
    cb = GraphBuilder(producer=None)
    cb.op("Less", "Less", ["i", "n"], T=dt("int32"))
    cb.op("Identity", "Identity", ["Less:z:0"], T=dt("bool"))
    b.function("while_cond_10", args, [("identity", "bool", "Identity:output:0")], cb)
    # body
    bb = GraphBuilder(producer=None)
    bb.op("TensorListGetItem", "get", ["xs", "i", bb.const("elem_shape", np.int32([-1, n_in]))], element_dtype=F32)
    axis = bb.const("axis", np.int32(1))
    forget = bb.const("forget", np.float32(1.0))
    h2, c2 = _lstm_cell(bb, "cell/", "get:item:0", "h", "c", "w", "b", axis, forget)
    bb.op("TensorListSetItem", "set", ["ys", "i", f"{h2}:z:0"], element_dtype=F32)
    bb.op("AddV2", "i_next", ["i", bb.const("one", np.int32(1))], T=dt("int32"))
    outs = [("i_next", "int32", "i_next:z:0"), ("n_out", "int32", "n"), ("h_out", "float32", f"{h2}:z:0"),
            ("c_out", "float32", f"{c2}:z:0"), ("xs_out", "variant", "xs"), ("ys_out", "variant", "set:output_handle:0"),
            ("w_out", "float32", "w"), ("b_out", "float32", "b")]
    b.function("while_body_11", args, outs, bb)
    b.op(while_op, "while", [b.const("i0", np.int32(0)), "steps", h0, c0, tl_in, tl_out, W, B],
         T=dts(types), cond=func("while_cond_10"), body=func("while_body_11"), parallel_iterations=i(10),
         output_shapes={"list": {}})
    b.op("TensorListStack", "stack", ["while:5", b.const("elem_shape_stack", np.int32([-1, n_hidden]))],
         element_dtype=F32, num_elements=i(steps))
    b.op("Identity", "outputs", ["stack"], T=F32)
    b.op("Identity", "final_h", ["while:2"], T=F32)
    signature = {"inputs": {"x": tensor_info("x:0", "float32", [steps, -1, n_in]),
                            "h0": tensor_info("h0:0", "float32", [-1, n_hidden])},
                 "outputs": {"outputs": tensor_info("outputs:0", "float32", [steps, -1, n_hidden]),
                             "final_h": tensor_info("final_h:0", "float32", [-1, n_hidden])}}
    inputs = {"x": rng.standard_normal((steps, batch, n_in)).astype(np.float32),
              "h0": (rng.standard_normal((batch, n_hidden)) * 0.1).astype(np.float32)}
    return b, signature, inputs


def numpy_lstm(x, h0, kernel, bias):
    """The reference: BasicLSTMCell over time-major x."""
    def sig(v):
        return 1 / (1 + np.exp(-v))
    h, c = h0.astype(np.float64), np.zeros_like(h0, dtype=np.float64)
    outs = []
    for t in range(x.shape[0]):
        z = np.concatenate([x[t], h], 1) @ kernel + bias
        gi, gj, gf, go = np.split(z, 4, axis=1)
        c = c * sig(gf + 1.0) + sig(gi) * np.tanh(gj)
        h = np.tanh(c) * sig(go)
        outs.append(h)
    return np.stack(outs), h, c
