"""Creation: Fill, Range, LinSpace, OneHot, *Like, random ops."""
from ... import ops as tfo
from ...ops.nn import one_hot_any_depth
from ._table import int_, ints, num, table


def _seed(a):
    """TensorFlow's seed attributes: 0 and 0 mean 'not seeded' (a fresh draw each run)."""
    seed = a.int("seed", 0) or a.int("seed2", 0)
    return seed or None


def one_hot(x, a):
    # any depth: TensorFlow's OneHot takes 1 (TF.js's tf.oneHot refuses it)
    y = one_hot_any_depth(tfo.cast(x[0], "int32") if x[0].dtype != "int32" else x[0], int_(x[1]), num(x[2]),
                    num(x[3]), a.dtype("T", "float32"))
    axis = a.int("axis", -1)
    if axis == -1 or axis == y.rank - 1:
        return y
    perm = list(range(y.rank - 1))
    perm.insert(axis, y.rank - 1)
    return tfo.transpose(y, perm)


def random_uniform(x, a):
    return tfo.random_uniform(ints(x[0]), a.float("minval", 0.0), a.float("maxval", 1.0), a.dtype("dtype", "float32"),
                              _seed(a))


def random_uniform_int(x, a):
    # TensorFlow gives minval and maxval as inputs; TF.js's op mapping reads them as attributes
    if len(x) >= 3:
        lo, hi = int_(x[1]), int_(x[2])
    elif a.has("minval") and a.has("maxval"):
        lo, hi = a.int("minval"), a.int("maxval")
    else:
        raise ValueError(f"graph model: node '{a.node}' (RandomUniformInt) needs minval and maxval, as inputs 2 and "
                         f"3 or attributes; got {len(x)} input(s)")
    return tfo.random_uniform_int(ints(x[0]), lo, hi, _seed(a))


OPS = table("creation", {
    "Fill": (2, lambda x, a: tfo.fill(ints(x[0]), num(x[1]), a.dtype("T", x[1].dtype))),
    "LinSpace": (3, lambda x, a: tfo.linspace(num(x[0]), num(x[1]), int_(x[2]))),
    "Multinomial": (2, lambda x, a: tfo.multinomial(x[0], int_(x[1]), _seed(a))),
    "OneHot": (4, one_hot),
    "Ones": (1, lambda x, a: tfo.ones(ints(x[0]), a.dtype("T", "float32"))),
    "Zeros": (1, lambda x, a: tfo.zeros(ints(x[0]), a.dtype("T", "float32"))),
    "OnesLike": (1, lambda x, a: tfo.ones_like(x[0])),
    "ZerosLike": (1, lambda x, a: tfo.zeros_like(x[0])),
    "Range": (3, lambda x, a: tfo.range(num(x[0]), num(x[1]), num(x[2]), a.dtype("Tidx", x[0].dtype))),
    "RandomStandardNormal": (1, lambda x, a: tfo.random_standard_normal(ints(x[0]), a.dtype("dtype", "float32"),
                                                                         _seed(a))),
    "RandomUniform": (1, random_uniform),
    "RandomUniformInt": (1, random_uniform_int),
    "TruncatedNormal": (1, lambda x, a: tfo.truncated_normal(ints(x[0]), a.float("means", 0.0),
                                                             a.float("stddev", 1.0), a.dtype("dtype", "float32"),
                                                             _seed(a))),
})
