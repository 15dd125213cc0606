"""tf.image: resizing (align corners, half-pixel centres), crop_and_resize, flips, colour
conversions, rotate_with_offset, threshold, transform and the non-max suppressions: dtypes,
unbatched inputs, fill values, edge boxes, gradients and the inputs TF.js rejects. (The *Async
forms return coroutines in pytfweb, which the runner does not await: they are not cases here.)"""
from ..spec import case, expect, gives, sines, T, true_gradient

NAN, INF = float("nan"), float("inf")
NEAREST_GRAD = ("with half_pixel_centers TF.js 4.22's gradient maps dy back without the half-pixel offset, to pixels "
                "the forward did not read; pytfweb's gradient is the forward's derivative")
TRANSFORM_BATCH = ("TF.js 4.22's cpu kernel returns after the first image of a batch, leaving the others filled with "
                   "fill_value; pytfweb transforms every image")


def W(*shape, **kw):   # noqa: N802 - reads as a type in case lists
    return sines(shape, **kw)


NEAREST_BATCH_GRAD = ("`tf.image.resize_nearest_neighbor`: for a batch of more than one image TF.js 4.22's gradient "
                      "(cpu backend) adds dy to the wrong images' pixels; pytfweb's gradient is the forward's "
                      "derivative")

IMG = W(1, 3, 4, 2)
PIX = W(2, 3, 3, 3, scale=100, offset=120, dtype="int32")
BOXES = T([[0, 0, 1, 1], [0, 0, 0.9, 0.9], [0.5, 0.5, 1, 1], [0, 0.1, 0.4, 0.6], [0.45, 0.5, 0.95, 1.0],
           [0.2, 0.2, 0.2, 0.2]])
SCORES = T([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])

CASES = []
for fn in ("tf.image.resizeBilinear", "tf.image.resizeNearestNeighbor"):
    CASES += [
        case(fn, IMG, [5, 7], grad=True),
        case(fn, IMG, [2, 3], grad=True),
        case(fn, IMG, [5, 7], True, grad=True),
        case(fn, IMG, [5, 7], False, True, grad=True, deviation=fn.endswith("Neighbor") and NEAREST_GRAD or None),
        case(fn, IMG, [5, 7], False, True),
        case(fn, IMG, [2, 2], True, False, grad=True),
        case(fn, W(2, 2, 3, 1), [4, 5], False, True, grad=True,
             deviation=fn.endswith("Neighbor") and NEAREST_GRAD or None),
        case(fn, W(3, 4, 2), [6, 3], grad=True),
        # (TF.js's resizeNearestNeighbor gradient never returns for a 1x1 image with align corners)
        case(fn, W(1, 1, 1, 1), [3, 2], True, grad=fn.endswith("Bilinear")),
        case(fn, W(1, 4, 4, 1), [1, 1], True),
        case(fn, PIX, [4, 5]),
        case(fn, PIX, [5, 4], False, True),
        case(fn, T([NAN, INF, 1, 2], [1, 2, 2, 1]), [3, 3]),
        case(fn, T([], [0, 2, 2, 1]), [3, 3]),
        case(fn, IMG, [0, 3]),
        case(fn, PIX, [2, 0]),
        case(fn, W(3, 4), [2, 2], error=True),
        case(fn, IMG, [2], error=True),
        case(fn, IMG, [2, 2], True, True, error=True),
        # a batch of several images
        case(fn, W(2, 3, 2, 2), [6, 4], grad=True, deviation=NEAREST_BATCH_GRAD if fn.endswith("Neighbor") else None),
        case(fn, W(2, 3, 2, 2), [4, 5], True, grad=True,
             deviation=NEAREST_BATCH_GRAD if fn.endswith("Neighbor") else None),
    ]
CASES += [
    # cropAndResize(image, boxes, boxInd, cropSize, method, extrapolationValue)
    case("tf.image.cropAndResize", W(2, 4, 5, 2), T([[0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9]]), T([0, 1], dtype="int32"),
         [3, 3]),
    case("tf.image.cropAndResize", W(2, 4, 5, 2), T([[0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9]]), T([1, 0], dtype="int32"),
         [2, 4], "nearest"),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[-0.5, -0.2, 1.3, 1.1], [0.8, 0.9, 0.2, 0.1]]),
         T([0, 0], dtype="int32"), [3, 3], "bilinear", 7),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[-0.5, -0.2, 1.3, 1.1], [0.8, 0.9, 0.2, 0.1]]),
         T([0, 0], dtype="int32"), [3, 3], "nearest", -1),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[0.2, 0.3, 0.7, 0.8]]), T([0], dtype="int32"), [1, 1]),
    case("tf.image.cropAndResize", PIX, T([[0, 0, 1, 1]]), T([1], dtype="int32"), [2, 2]),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([], [0, 4]), T([], [0], "int32"), [2, 2]),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[0, 0, 1, 1]]), T([0], dtype="int32"), [2, 2], "cubic",
         error=True),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[0, 0, 1]]), T([0], dtype="int32"), [2, 2], error=True),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[0, 0, 1, 1]]), T([0, 0], dtype="int32"), [2, 2], error=True),
    case("tf.image.cropAndResize", W(1, 4, 4, 1), T([[0, 0, 1, 1]]), T([0], dtype="int32"), [0, 2], error=True),
    case("tf.image.cropAndResize", W(4, 4, 1), T([[0, 0, 1, 1]]), T([0], dtype="int32"), [2, 2], error=True),
    # flipLeftRight, grayscaleToRGB, rgbToGrayscale
    case("tf.image.flipLeftRight", IMG),
    case("tf.image.flipLeftRight", W(2, 2, 3, 3), grad=True),
    case("tf.image.flipLeftRight", PIX),
    case("tf.image.flipLeftRight", W(3, 4, 2), error=True),
    case("tf.image.grayscaleToRGB", W(2, 3, 1), grad=True),
    case("tf.image.grayscaleToRGB", W(2, 2, 2, 1, dtype="int32", scale=9)),
    case("tf.image.grayscaleToRGB", W(4, 1)),
    case("tf.image.grayscaleToRGB", W(2, 3, 2), error=True),
    case("tf.image.grayscaleToRGB", W(3), error=True),
    case("tf.image.rgbToGrayscale", W(2, 3, 3), grad=True),
    case("tf.image.rgbToGrayscale", PIX),
    case("tf.image.rgbToGrayscale", W(4, 3)),
    case("tf.image.rgbToGrayscale", W(1, 2, 1, 2, 3)),
    case("tf.image.rgbToGrayscale", W(2, 3, 1), error=True),
    case("tf.image.rgbToGrayscale", W(3), error=True),
    # rotateWithOffset(image, radians, fillValue, center)
    case("tf.image.rotateWithOffset", W(1, 4, 5, 1), 0.5),
    case("tf.image.rotateWithOffset", W(2, 4, 4, 3), -1.2, 0.5),
    case("tf.image.rotateWithOffset", W(1, 4, 4, 3), 1.0, [10, 20, 30]),
    case("tf.image.rotateWithOffset", W(1, 5, 4, 1), 2.0, 0, [1, 2]),
    case("tf.image.rotateWithOffset", W(1, 5, 4, 1), 3.0, 0, 0.25),   # (pi puts pixels on rounding boundaries)
    case("tf.image.rotateWithOffset", PIX, 0.7, 3),
    case("tf.image.rotateWithOffset", W(4, 4, 1), 0.5, error=True),
    # threshold(image, method, inverted, threshValue)
    case("tf.image.threshold", W(3, 4, 1, scale=120, offset=128, dtype="int32")),
    case("tf.image.threshold", W(3, 4, 3, scale=120, offset=128, dtype="int32"), "binary", True, 0.3),
    case("tf.image.threshold", W(3, 4, 3, scale=120, offset=128, dtype="int32"), "otsu"),
    case("tf.image.threshold", W(4, 4, 1, scale=120, offset=128, dtype="int32"), "otsu", True),
    case("tf.image.threshold", W(3, 4, 1, scale=120, offset=128), "binary", False, 0.7),
    case("tf.image.threshold", W(3, 4, 2), error=True),
    case("tf.image.threshold", W(1, 3, 4, 1), error=True),
    case("tf.image.threshold", W(3, 4, 1), "mean", error=True),
    # transform(image, transforms, interpolation, fillMode, fillValue, outputShape)
    case("tf.image.transform", W(1, 4, 5, 2), T([[1, 0, 0.5, 0, 1, -0.5, 0, 0]])),
    case("tf.image.transform", W(2, 4, 4, 1), T([[0.9, 0.2, 0.3, -0.1, 1.1, 0.4, 0.01, 0.02],
                                                  [1, 0, -1.5, 0, 1, 2.5, 0, 0]]), "bilinear", deviation=TRANSFORM_BATCH),
    case("tf.image.transform", W(1, 4, 4, 1), T([[0.9, 0.2, 0.3, -0.1, 1.1, 0.4, 0.01, 0.02]]), "bilinear"),
    case("tf.image.transform", W(1, 4, 4, 2), T([[1, 0, -1.5, 0, 1, 2.5, 0, 0]]), "bilinear", "constant", -2),
    case("tf.image.transform", W(1, 4, 5, 1), T([[1.13, 0.27, -0.93, 0.21, 0.87, -1.41, 0, 0]]), "nearest", "reflect"),
    case("tf.image.transform", W(1, 4, 5, 1), T([[1.13, 0.27, -0.93, 0.21, 0.87, -1.41, 0, 0]]), "bilinear", "wrap"),
    case("tf.image.transform", W(1, 4, 5, 1), T([[1.13, 0.27, -0.93, 0.21, 0.87, -1.41, 0, 0]]), "nearest", "nearest"),
    case("tf.image.transform", W(1, 4, 5, 1), T([[1, 0, 3, 0, 1, 3, 0, 0]]), "nearest", "constant", 9),
    case("tf.image.transform", W(1, 4, 5, 1), T([[0.5, 0, 0, 0, 0.5, 0, 0, 0]]), "bilinear", "constant", 0, [6, 3]),
    case("tf.image.transform", W(1, 4, 4, 1), T([[1, 0, 0, 0, 1, 0]]), error=True),
    case("tf.image.transform", W(4, 4, 1), T([[1, 0, 0, 0, 1, 0, 0, 0]]), error=True),
    case("tf.image.transform", W(1, 4, 4, 1), T([[1, 0, 0, 0, 1, 0, 0, 0]]), "cubic", error=True),
    # nonMaxSuppression(boxes, scores, maxOutputSize, iouThreshold, scoreThreshold)
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 6),
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 2),
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 6, 0.3),
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 6, 0.7, 0.55),
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 0),
    case("tf.image.nonMaxSuppression", T([[1, 1, 0, 0], [0, 0, 0.9, 0.9]]), T([0.5, 0.6]), 3, 0.1),
    case("tf.image.nonMaxSuppression", T([[0, 0, 1, 1], [0, 0, 1, 1]]), T([0.5, 0.5]), 3, 1.0),
    case("tf.image.nonMaxSuppression", T([], [0, 4]), T([]), 3),
    case("tf.image.nonMaxSuppression", BOXES, SCORES, 6, 1.5, error=True),
    case("tf.image.nonMaxSuppression", BOXES, T([0.5, 0.5]), 6, error=True),
    case("tf.image.nonMaxSuppression", T([[0, 0, 1]]), T([0.5]), 6, error=True),
    case("tf.image.nonMaxSuppressionWithScore", BOXES, SCORES, 6),
    case("tf.image.nonMaxSuppressionWithScore", BOXES, SCORES, 6, 0.5, 0.0, 0.5),
    case("tf.image.nonMaxSuppressionWithScore", BOXES, SCORES, 4, 0.4, 0.4, 1.0),
    case("tf.image.nonMaxSuppressionWithScore", BOXES, SCORES, 3, 1.0, -INF, 0.0),
    case("tf.image.nonMaxSuppressionPadded", BOXES, SCORES, 6),
    # the *Async forms (awaited by the runner) give the same answers
    case("tf.image.nonMaxSuppressionAsync", BOXES, SCORES, 6, 0.3),
    case("tf.image.nonMaxSuppressionAsync", BOXES, SCORES, 6, 1.5, error=True),
    case("tf.image.nonMaxSuppressionWithScoreAsync", BOXES, SCORES, 6, 0.5, 0.0, 0.5),
    case("tf.image.nonMaxSuppressionPaddedAsync", BOXES, SCORES, 8, 0.3, 0.0, True),
    case("tf.image.nonMaxSuppressionPadded", BOXES, SCORES, 8, 0.3, 0.0, True),
    case("tf.image.nonMaxSuppressionPadded", BOXES, SCORES, 8, 0.3, 0.0, False),
    case("tf.image.nonMaxSuppressionPadded", BOXES, SCORES, 2, 0.5, 0.55, True),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "image.resizeNearestNeighbor#4": true_gradient(),
    "image.resizeNearestNeighbor#7": true_gradient(),
    "image.resizeNearestNeighbor#20": true_gradient(),
    "image.resizeNearestNeighbor#21": true_gradient(),
    "image.transform#2": gives(T([0.215062663, 0.506952345, 0.203641608, -0.519250095, -0.35794732, -0.21776408,
        0.319982022, 0.734636247, 0.286340177, -0.175164148, -0.530663133, -0.410712212, 0.460784584, 0.481990784,
        0.137571916, -0.176798463, 0.0, -0.19899641, -0.255364716, 0.0817162842, 0.0, -0.165908471, -0.412916362,
        -0.348017335, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [2, 4, 4, 1], "float32")),
})
