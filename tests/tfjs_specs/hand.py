"""Hand translations of TF.js spec cases the translator cannot do, or whose expected answer is a
documented pytfweb deviation (README, "Deviations from TF.js"): case id -> (python source of the
case's body, reason). The body runs with `tf` and `_js` (runtime.py) in scope, on every backend."""

_MIRROR_PAD_GRAD = '''
a = tf.tensor1d([1, 2, 3])
dy = tf.tensor1d([10, 20, 30, 40, 50, 60])
da = tf.grad(lambda a: tf.mirror_pad({a}, [[2, 1]], 'reflect'){clone})(a, dy)
_js.expect(da.shape).toEqual([3])
# padded = a[2], a[1], a[0], a[1], a[2], a[1]: every copy's dy counts
_js.expectArraysClose(da.data_sync(), [30, 20 + 40 + 60, 10 + 50])
'''

_MIRROR_PAD_REASON = ("README deviation: tf.mirror_pad's gradient adds the mirrored copies' dy (the true "
                      "gradient) where TF.js drops them; checks pytfweb's answer")

HAND = {
    "ops/mirror_pad_test.js::mirrorPad > grad": (
        _MIRROR_PAD_GRAD.format(a="a", clone=""), _MIRROR_PAD_REASON),
    "ops/mirror_pad_test.js::mirrorPad > gradient with clones": (
        _MIRROR_PAD_GRAD.format(a="a.clone()", clone=".clone()"), _MIRROR_PAD_REASON),
    "ops/avg_pool_test.js::avgPool > gradient x=[3,3,1] f=[3,3] s=1 p=explicit": ('''
from pytfweb.testing import check_gradients
x = tf.tensor3d([0, 1, 2, 3, 4, 5, 6, 7, 8], [3, 3, 1])
padding = [[0, 0], [1, 2], [0, 1], [0, 0]]
dy = tf.tensor3d([0, 3, 0, 6, 0, 9, 0, 12], [4, 2, 1])
dx = tf.grad(lambda x: x.avg_pool(3, 1, padding))(x, dy)
_js.expect(dx.shape).toEqual(x.shape)
check_gradients(lambda x: x.avg_pool(3, 1, padding), [x])
''', "README deviation: tf.avg_pool's gradient where explicit padding cuts a window is the forward's "
     "derivative (TF.js divides by the full window); checked against centred differences"),
    "ops/einsum_test.js::einsum > more than two input tensors throws error": ('''
x = tf.tensor2d([[1, 2], [3, 4]])
y = tf.tensor2d([[0, 1], [2, 3]])
z = tf.tensor2d([[-1, 0], [1, 2]])
_js.expectArraysClose(tf.einsum('ij,jk,kl->il', x, y, z).data_sync(), [3, 14, 7, 30])
''', "README deviation: tf.einsum takes any number of operands (TF.js 4.22 at most two); checks the "
     "three-operand product"),
}
