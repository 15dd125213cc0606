"""webgl shape kernels (Transpose, Concat, Pack, Unpack, SplitV, Tile, PadV2, Reverse) against
the cpu backend, through the public ops.

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader."""
import functools

import numpy as np

from . import inputs

rng = np.random.default_rng(11)


_floats, _ints, _bools = (functools.partial(f, rng) for f in (inputs.floats, inputs.ints, inputs.bools))


def test_transpose(compare_with_cpu):
    x3, i2, b4 = _floats(2, 3, 4), _ints(3, 5), _bools(2, 1, 3, 2)
    compare_with_cpu("""lambda x3, i2, b4: [tf.transpose(x3, [2, 0, 1]), tf.transpose(x3, [1, 0, 2]),
        tf.transpose(x3), tf.transpose(i2), tf.transpose(b4, [3, 1, 0, 2]), tf.transpose(b4, [0, 2, 1, 3])]""",
                     [x3, i2, b4])


def test_transpose_high_rank(compare_with_cpu):
    """Rank 5 and 6 use the ivec5/ivec6 coordinates; a rank-8 transpose that moves unit axes and
    whole blocks collapses to a low rank."""
    x5, x6, x8 = _floats(2, 3, 1, 2, 3), _ints(2, 2, 3, 2, 2, 3), _floats(2, 1, 3, 2, 1, 2, 2, 1)
    compare_with_cpu("""lambda x5, x6, x8: [tf.transpose(x5, [4, 2, 0, 3, 1]), tf.transpose(x6),
        tf.transpose(x6, [1, 0, 3, 2, 5, 4]), tf.transpose(x8, [5, 6, 7, 0, 1, 2, 3, 4])]""", [x5, x6, x8])


def test_concat(compare_with_cpu):
    a, b, c = _floats(2, 3, 2), _floats(2, 1, 2), _floats(2, 4, 2)
    i, j = _ints(3, 2), _ints(1, 2)
    p, q = _bools(2), _bools(5)
    e = np.zeros((2, 0, 2), np.float32)
    compare_with_cpu("""lambda a, b, c, i, j, p, q, e: [tf.concat([a, b, c], 1), tf.concat([a, e, a], -2),
        tf.concat([a, a], 0), tf.concat([a, a], 2), tf.concat([i, j, i], 0), tf.concat([p, q], 0),
        tf.concat([tf.reshape(p, [2, 1]), tf.reshape(p, [2, 1])], 1)]""", [a, b, c, i, j, p, q, e])


def test_concat_and_stack_more_inputs_than_texture_units(compare_with_cpu):
    xs = [_floats(2, k % 3 + 1) for k in range(37)]
    names = ", ".join(f"x{k}" for k in range(37))
    compare_with_cpu(f"lambda {names}: [tf.concat([{names}], 1), tf.concat([{names}][::-1], 1)]", xs)
    ys = [_ints(3) for _ in range(20)]
    names = ", ".join(f"y{k}" for k in range(20))
    compare_with_cpu(f"lambda {names}: [tf.stack([{names}]), tf.stack([{names}], 1)]", ys)


def test_concat_groups_free_their_intermediates(run_py):
    """Small groups (two levels of joining) give the right values and leave no texture behind."""
    got = run_py("""
import pytfweb.backends.webgl.programs.shape as shape_programs
limit = shape_programs.MAX_PROGRAM_INPUTS
shape_programs.MAX_PROGRAM_INPUTS = 3
try:
    before = in_use()
    xs = [tf.tensor([[k], [-k]], dtype="int32") for k in range(11)]
    y = tf.concat(xs, 1)
    values = y.array_sync()
    tf.dispose(xs + [y])
    result = [values, in_use() - before]
finally:
    shape_programs.MAX_PROGRAM_INPUTS = limit
""")
    assert got[0] == [list(range(11)), [-k for k in range(11)]]
    assert got[1] == 0


def test_stack_unstack_split(compare_with_cpu):
    a, b = _floats(2, 3), _floats(2, 3)
    i = _ints(3, 1, 4)
    m = _bools(4, 3)
    compare_with_cpu("""lambda a, b, i, m: [tf.stack([a, b]), tf.stack([a, b], 1), tf.stack([a, b, a], 2),
        tf.stack([m, m], 1), *tf.unstack(i), *tf.unstack(i, 2), *tf.unstack(i, 1), *tf.unstack(m, 1),
        *tf.split(i, [1, 0, -1], 2), *tf.split(i, 3), *tf.split(m, [1, 3])]""", [a, b, i, m])


def test_tile(compare_with_cpu):
    v, x, i, b = _floats(3), _floats(2, 1, 3), _ints(2, 3), _bools(1, 2, 1, 2)
    compare_with_cpu("""lambda v, x, i, b: [tf.tile(v, [3]), tf.tile(x, [2, 3, 1]), tf.tile(x, [1, 2, 2]),
        tf.tile(x, [0, 2, 1]), tf.tile(i, [2, 2]), tf.tile(b, [2, 1, 3, 2])]""", [v, x, i, b])


def test_pad(compare_with_cpu):
    v, x, i, b = _floats(3), _floats(2, 3, 2), _ints(2, 3), _bools(2, 2)
    e = np.zeros((0, 2), np.float32)
    compare_with_cpu("""lambda v, x, i, b, e: [tf.pad(v, [[2, 1]]), tf.pad(v, [[0, 2]], float('nan')),
        tf.pad(x, [[0, 0], [1, 2], [0, 0]], -1.5), tf.pad(x, [[1, 0], [0, 0], [0, 1]]),
        tf.pad(i, [[1, 1], [2, 0]], 7), tf.pad(b, [[0, 1], [1, 0]], True), tf.pad(e, [[1, 1], [0, 1]], 3)]""",
                     [v, x, i, b, e])


def test_reverse(compare_with_cpu):
    v, x, i, b = _floats(5), _floats(2, 3, 4), _ints(3, 1, 2), _bools(2, 3)
    compare_with_cpu("""lambda v, x, i, b: [tf.reverse(v), tf.reverse(x, 1), tf.reverse(x, [0, 2]),
        tf.reverse(x), tf.reverse(i, [1, 2]), tf.reverse(b, -1)]""", [v, x, i, b])


def test_rank_5_and_6(compare_with_cpu):
    x5, x6 = _floats(2, 3, 1, 2, 2), _ints(2, 1, 2, 3, 2, 2)
    compare_with_cpu("""lambda x5, x6: [tf.tile(x5, [1, 2, 2, 1, 2]), tf.pad(x5, [[1, 0], [0, 1], [1, 1], [0, 0],
        [2, 0]], 9), tf.reverse(x5, [0, 3]), tf.tile(x6, [2, 1, 1, 2, 1, 2]),
        tf.pad(x6, [[0, 1], [0, 0], [1, 0], [0, 1], [1, 0], [0, 1]]), tf.reverse(x6, [1, 2, 5]),
        tf.slice(x6, [1, 0, 0, 1, 0, 1], [1, 1, 2, 2, 2, 1])]""", [x5, x6])


def test_copies_that_change_nothing_share_the_data(run_py):
    """A transpose that moves only unit axes, a reverse along unit axes or a one-part split is
    the input itself: no program, no texture."""
    got = run_py("""
x = tf.tensor([[1.0, 2.0, 3.0]])
before = in_use()
ys = [tf.transpose(x), tf.reverse(x, 0), tf.split(x, 1, 1)[0], tf.unstack(x)[0],
      tf.reshape(tf.transpose(tf.reshape(x, [1, 3, 1]), [2, 0, 1]), [3])]
result = [in_use() - before, [y.array_sync() for y in ys]]
""")
    assert got[0] == 0
    assert got[1] == [[[1.0], [2.0], [3.0]], [[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
