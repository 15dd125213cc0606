"""Pooling: max/avg in 2-D and 3-D, max_pool_with_argmax and tf.pool: window sizes, strides,
pads (same, valid, numbers with dim rounding), dilations, unbatched inputs, dtypes, NaN,
gradients and the inputs TF.js rejects."""
from ..spec import case, expect, raises, sines, T, true_gradient

NAN, INF = float("nan"), float("inf")
AVG_GRAD = ("where padding or dim_rounding_mode cuts a window at the input's edge, TF.js 4.22's gradient divides "
            "dy by the full window size or drops the window while its forward averages the positions inside the "
            "input; pytfweb's gradient is the forward's derivative")
MAX_GRAD_ROUND = ("where dim_rounding_mode adds windows that run past the input, TF.js 4.22's gradient drops their "
                  "dy; pytfweb's gradient is the forward's derivative")
MAX3D_GRAD = ("TF.js 4.22's gradient indexes a window's rows by the filter's height instead of its width, so where "
              "the two differ dy lands on positions that are not the window's maximum; pytfweb's gradient is the "
              "forward's derivative")
POOL_TYPE = ("TF.js 4.22 max-pools for any pooling_type other than 'avg' (a misspelt 'min' too); pytfweb accepts "
             "only 'max' and 'avg'")


def W(*shape, **kw):   # noqa: N802 - reads as a type in case lists
    return sines(shape, int_scale=5, **kw)


X = W(1, 4, 4, 2)
X5 = W(2, 5, 5, 1)
CASES = []
for fn in ("tf.maxPool", "tf.avgPool"):
    avg_dev = AVG_GRAD if fn == "tf.avgPool" else None
    CASES += [
        case(fn, X, 2, 2, "valid", grad=True),
        case(fn, X, 2, 1, "valid", grad=True),
        case(fn, X, [2, 3], [1, 2], "valid", grad=True),
        case(fn, X5, 3, 2, "valid", grad=True),
        case(fn, W(4, 4, 2), 2, 2, "valid", grad=True),
        case(fn, X, 1, 1, "valid", grad=True),
        case(fn, X5, 2, 2, 1, "floor", grad=True, deviation=avg_dev),
        case(fn, X5, 2, 2, 0, "round", grad=True, deviation=avg_dev or MAX_GRAD_ROUND),
        case(fn, X5, 2, 2, 1, "floor"),
        case(fn, X5, 2, 2, 0, "round"),
        case(fn, X5, 2, 2, 1, "ceil"),
        case(fn, X5, 2, 1, 1, grad=True, deviation=avg_dev),
        case(fn, X5, 2, 1, 1),
        # 'same' cuts windows at the edges: forward only, the gradients are compared separately below
        case(fn, X, 2, 1, "same"),
        case(fn, X5, 3, 2, "same"),
        case(fn, W(3, 4, 1), [2, 3], 1, "same"),
        case(fn, T([NAN, 1, 2, 3, -INF, INF, 0, -1, 5], [1, 3, 3, 1]), 2, 1, "valid"),
        case(fn, T([], [0, 2, 2, 1]), 2, 1, "valid"),
        case(fn, W(1, 3, 3, 1, dtype="int32"), 2, 1, "valid"),
        case(fn, W(1, 3, 3, 1, dtype="int32"), 2, 2, 1, "ceil"),
        case(fn, T([-INF, -INF, NAN, NAN, 1, 2], [1, 2, 3, 1]), [1, 2], [1, 2], "same"),
        case(fn, T([1, 3, 3, 2, 3, 0, -1, 3, 3], [1, 3, 3, 1]), 2, 1, "valid", grad=True),   # ties
        case(fn, W(4, 4), 2, 1, "valid", error=True),
        case(fn, X, 2, 1, "same", 1, error=True),           # rounding with a string pad
        case(fn, X, 2, 1, 1.5, "round", error=True),
        case(fn, X, 5, 1, "valid"),                          # a window larger than x: an empty output
        case(fn, X, 2, 1, "full", error=True),
        case(fn, X, 2, 2, "same", grad=True),                 # windows not cut: 4x4, 2x2, stride 2
        case(fn, X, 2, 1, "same", grad=True, deviation=avg_dev),
        case(fn, X5, 3, 2, "same", grad=True, deviation=avg_dev),
        case(fn, W(3, 4, 1), [2, 3], 1, "same", grad=True, deviation=avg_dev),
    ]
for fn in ("tf.maxPool3d", "tf.avgPool3d"):
    avg_dev = AVG_GRAD if fn == "tf.avgPool3d" else None
    CASES += [
        case(fn, W(1, 3, 3, 3, 2), 2, 1, "valid", grad=True),
        case(fn, W(2, 4, 4, 4, 1), 2, 2, "valid", grad=True),
        case(fn, W(3, 4, 3, 1), [1, 2, 3], [2, 1, 1], "valid", grad=True,
             deviation=MAX3D_GRAD if fn == "tf.maxPool3d" else None),
        case(fn, W(3, 4, 3, 1), [1, 2, 3], [2, 1, 1], "valid"),
        case(fn, W(2, 2, 3, 1), [2, 2, 3], 1, "valid", grad=True),
        case(fn, W(1, 5, 5, 5, 1), 2, 2, 1, "floor", grad=True, deviation=avg_dev),
        case(fn, W(1, 5, 5, 5, 1), 2, 2, 1, "floor"),
        case(fn, W(1, 5, 5, 5, 1), 2, 2, 1, "ceil", "NDHWC"),
        case(fn, W(1, 4, 4, 4, 1), 2, 2, "same", grad=True),
        case(fn, W(1, 3, 3, 3, 1), 2, 1, "same"),
        case(fn, W(1, 3, 3, 3, 1), 2, 1, "same", grad=True, deviation=avg_dev),
        case(fn, W(1, 2, 2, 2, 1, dtype="int32"), 2, 1, "valid"),
        case(fn, T([1, 3, 3, 2, 3, 0, -1, 3], [1, 2, 2, 2, 1]), 2, 1, "valid", grad=True),   # ties
        case(fn, T([-INF, -INF, NAN, NAN, 1, 2, 2, 1], [1, 2, 2, 2, 1]), [1, 2, 2], 1, "same", grad=True,
             deviation=avg_dev),
        case(fn, T([-INF, -INF, NAN, NAN, 1, 2, 2, 1], [1, 2, 2, 2, 1]), [1, 2, 2], 1, "same"),
        case(fn, T([NAN, 1, 2, 3, 4, 5, 6, 7], [1, 2, 2, 2, 1]), 2, 1, "valid"),
        case(fn, W(1, 3, 3, 3, 1), 2, 1, "valid", None, "NCDHW", error=True),
        case(fn, W(3, 3, 3), 2, 1, "valid", error=True),
        case(fn, W(1, 3, 3, 3, 1), 2, 1, "same", "round", error=True),
    ]
CASES += [
    case("tf.maxPoolWithArgmax", X, 2, 2, "valid"),
    case("tf.maxPoolWithArgmax", W(2, 4, 4, 2), 2, 2, "valid", True),
    case("tf.maxPoolWithArgmax", W(2, 4, 4, 2), 2, 2, "valid", False),
    case("tf.maxPoolWithArgmax", X5, 3, 1, "same", True),
    case("tf.maxPoolWithArgmax", W(1, 3, 3, 1, dtype="int32"), 2, 1, "valid"),
    case("tf.maxPoolWithArgmax", T([1, 1, 1, 1], [1, 2, 2, 1]), 2, 1, "valid"),
    case("tf.maxPoolWithArgmax", W(4, 4, 2), 2, 2, "valid", error=True),
    # tf.pool(input, windowShape, poolingType, pad, dilations, strides, dimRoundingMode)
    case("tf.pool", X, 2, "max", "valid", grad=True),
    case("tf.pool", X, 2, "avg", "valid", grad=True),
    case("tf.pool", X, [2, 2], "max", "same", 1, 2, grad=True),
    case("tf.pool", X, 2, "avg", "same", 1, 2, grad=True),
    case("tf.pool", X5, 2, "max", "valid", 2, grad=True),
    case("tf.pool", X5, 2, "avg", "valid", 2, grad=True),
    case("tf.pool", X5, 2, "max", "same", 2, grad=True),
    case("tf.pool", X5, 2, "avg", "same", [2, 2]),
    case("tf.pool", W(5, 6, 1), [2, 3], "max", "same", [1, 2]),
    case("tf.pool", W(5, 6, 1), [2, 2], "avg", "valid", [2, 1]),
    case("tf.pool", X5, 2, "max", 0),
    case("tf.pool", X5, 2, "avg", 1, 1, 2, "floor"),
    case("tf.pool", W(1, 3, 3, 1, dtype="int32"), 2, "max", "valid"),
    case("tf.pool", X, 2, "min", "valid", deviation=POOL_TYPE),
    case("tf.pool", X, 2, "max", "valid", 2, 2, error=True),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "maxPool#8": true_gradient(),
    "avgPool#7": true_gradient(),
    "avgPool#8": true_gradient(),
    "avgPool#12": true_gradient(),
    "avgPool#29": true_gradient(),
    "avgPool#30": true_gradient(),
    "avgPool#31": true_gradient(),
    "maxPool3d#3": true_gradient(),
    "avgPool3d#6": true_gradient(),
    "avgPool3d#11": true_gradient(),
    # NaN and infinite inputs leave no finite difference to check against; an average pool's gradient
    # does not depend on x, and at finite x of this shape it is this one and matches centred differences
    "avgPool3d#14": true_gradient([T([0.210367739, 0.665016413, 0.280927747, -0.0212260783, -0.239731073, -0.379438818,
                                      0.0887622237, 0.938412666], [1, 2, 2, 2, 1], "float32")]),
    "pool#14": raises("ValueError"),
})
