"""tf.data: datasets from arrays, generators, functions and zips, transformed (batch, map, filter,
skip, take, repeat, concatenate, shuffle with a seed, prefetch) and collected with toArray (awaited);
their sizes. csv (files or URLs), microphone and webcam (browser devices) have no cases."""
from ..spec import T, chain, fn_arg, made, sines

D = "tf.data."
NUMS = [1, 2, 3, 4, 5, 6, 7]
TS = [sines([2], shift=i) for i in range(5)]
XY = [{"xs": [i, i + 1], "ys": i * 10} for i in range(5)]
ARR = made(D + "array", NUMS)
STRS = made(D + "array", ["a", "b", "c"])


def to_array(*calls):
    return list(calls) + [("toArray", [])]


CASES = [
    chain(D + "array", NUMS, calls=to_array()),
    chain(D + "array", NUMS, calls=[("size",)]),
    chain(D + "array", NUMS, calls=to_array(("batch", [3]))),
    chain(D + "array", NUMS, calls=to_array(("batch", [3, False]))),
    chain(D + "array", NUMS, calls=[("batch", [3, False]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("batch", [0])), error=True),
    chain(D + "array", TS, calls=to_array(("batch", [2]))),
    chain(D + "array", XY, calls=to_array(("batch", [2]))),
    chain(D + "array", [[1, 2], [3, 4], [5, 6]], calls=to_array(("batch", [2]))),
    chain(D + "array", ["x", "y", "z"], calls=to_array(("batch", [2]))),
    chain(D + "array", NUMS, calls=to_array(("map", [fn_arg("scale", 3)]))),
    chain(D + "array", TS, calls=to_array(("map", [fn_arg("scale", -2)]))),
    chain(D + "array", NUMS, calls=to_array(("mapAsync", [fn_arg("scale", 2)]))),
    chain(D + "array", NUMS, calls=to_array(("filter", [fn_arg("above", 3)]))),
    chain(D + "array", NUMS, calls=[("filter", [fn_arg("above", 3)]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("skip", [2]), ("take", [3]))),
    chain(D + "array", NUMS, calls=[("skip", [2]), ("take", [3]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("skip", [10]))),
    chain(D + "array", NUMS, calls=[("skip", [10]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("take", [-1]))),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", [3]))),
    chain(D + "array", [1, 2, 3], calls=[("repeat", [3]), ("size",)]),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", []), ("take", [8]))),
    chain(D + "array", [1, 2, 3], calls=[("repeat", []), ("size",)]),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", [])), error=True),   # endless
    chain(D + "array", [1, 2, 3], calls=to_array(("concatenate", [STRS]))),
    chain(D + "array", [1, 2, 3], calls=[("concatenate", [STRS]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("prefetch", [2]))),
    chain(D + "array", NUMS, calls=to_array(("prefetch", [None])), error=True),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [4, 42]))),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [100, "abc"]))),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [3, 7, False]))),
    chain(D + "array", list(range(10)), calls=to_array(("shuffle", [5, 9]), ("batch", [4]))),
    chain(D + "array", NUMS, calls=to_array(("shuffle", [-1])), error=True),
    chain(D + "array", NUMS, calls=to_array(("batch", [2]), ("map", [fn_arg("scale", 0.5)]))),
    chain(D + "generator", fn_arg("range", 5, False), calls=to_array()),
    chain(D + "generator", fn_arg("range", 5, True), calls=to_array(("batch", [2]))),
    chain(D + "generator", fn_arg("range", 5, False), calls=[("size",)]),
    chain(D + "func", fn_arg("countdown", 4), calls=to_array()),
    chain(D + "func", fn_arg("countdown", 5), calls=to_array(("batch", [2]))),
    chain(D + "zip", [ARR, STRS], calls=to_array()),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=to_array()),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=[("size",)]),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=to_array(("batch", [2]))),
    chain(D + "zip", {"a": ARR, "nested": [STRS, made(D + "array", NUMS[::-1])]}, calls=to_array()),
    chain(D + "zip", [ARR, 3], calls=to_array(), error=True),
]
