"""tf.grad and friends: semantics, errors, custom gradients, higher order, memory."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_no_leak, assert_tensor

X = [1.0, -2.0, 3.0]


def test_grad_of_a_scalar_function():
    dx = tf.grad(lambda x: tf.sum(x * x * x))(tf.tensor(X))
    assert_tensor(dx, 3 * np.square(X))


def test_grad_accepts_python_values_and_dy():
    f = lambda x: x * 2.0  # noqa: E731 - non-scalar: needs dy
    dx = tf.grad(f)(X, dy=tf.tensor([1.0, 10.0, 100.0]))
    assert_tensor(dx, [2.0, 20.0, 200.0])


def test_grads_for_several_inputs_and_broadcasting():
    a = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = tf.tensor([10.0, 20.0])
    da, db = tf.grads(lambda a, b: tf.sum(a * b))([a, b])
    assert_tensor(da, [[10.0, 20.0], [10.0, 20.0]])
    assert_tensor(db, [4.0, 6.0])  # summed over the broadcast axis


def test_value_and_grad_and_value_and_grads():
    value, dx = tf.value_and_grad(lambda x: tf.sum(tf.square(x)))(tf.tensor(X))
    assert_tensor(value, sum(v * v for v in X))
    assert_tensor(dx, [2 * v for v in X])
    value, (da, db) = tf.value_and_grads(lambda a, b: tf.sum(a * b))([tf.tensor([2.0]), tf.tensor([5.0])])
    assert_tensor(value, 10.0)
    assert_tensor(da, [5.0])
    assert_tensor(db, [2.0])


def test_same_tensor_used_twice_accumulates():
    dx = tf.grad(lambda x: tf.sum(x * x + x))(tf.tensor(X))
    assert_tensor(dx, [2 * v + 1 for v in X])


def test_variable_grads_defaults_to_trainable_variables():
    w = tf.variable(tf.tensor([1.0, 2.0]), name="w")
    b = tf.variable(tf.tensor([0.5]), name="b")
    frozen = tf.variable(tf.tensor([3.0]), trainable=False, name="frozen")
    value, grads = tf.variable_grads(lambda: tf.sum(w * w) + tf.sum(b * frozen))
    assert set(grads) == {"w", "b"}
    assert_tensor(value, 1 + 4 + 1.5)
    assert_tensor(grads["w"], [2.0, 4.0])
    assert_tensor(grads["b"], [3.0])


def test_variable_grads_with_var_list_skips_unused():
    w = tf.variable(tf.tensor([1.0]), name="w")
    unused = tf.variable(tf.tensor([1.0]), name="unused")
    _, grads = tf.variable_grads(lambda: tf.sum(w * 3.0), [w, unused])
    assert set(grads) == {"w"}


def test_custom_grad_dict_and_tuple_forms():
    @tf.custom_grad
    def clipped_identity(x, save):
        save([x])
        return {"value": x * 1.0, "grad_func": lambda dy, saved: [tf.clip_by_value(dy, -1, 1) * 0 + saved[0]]}

    dx = tf.grad(lambda x: tf.sum(clipped_identity(x)))(tf.tensor([4.0, -5.0]))
    assert_tensor(dx, [4.0, -5.0])  # the hand-written gradient, not the real one (ones)

    def times_three(x, save):
        return x * 3.0, lambda dy, saved: dy * 10.0   # one input: a bare tensor is accepted
    dx = tf.grad(lambda x: tf.sum(tf.custom_grad(times_three)(x)))(tf.tensor([1.0, 2.0]))
    assert_tensor(dx, [10.0, 10.0])


def test_custom_grad_value_is_the_forward_result():
    f = tf.custom_grad(lambda x, save: (tf.exp(x), lambda dy, saved: dy))
    assert_tensor(f(tf.tensor([0.0])), [1.0])


def test_second_order():
    d2 = tf.grad(tf.grad(lambda x: tf.sum(x * x * x)))(tf.tensor(X))
    assert_tensor(d2, [6 * v for v in X])
    d2 = tf.grad(tf.grad(lambda x: tf.sum(tf.sin(x))))(tf.tensor(X))
    assert_tensor(d2, -np.sin(np.float32(X)), rtol=1e-5, atol=1e-6)


def test_no_tensor_leaks_from_taping():
    x = tf.tensor(X)
    before = tf.memory()
    for _ in range(5):
        tf.grad(lambda x: tf.sum(tf.exp(x) * x))(x).dispose()
        value, dx = tf.value_and_grad(lambda x: tf.mean(tf.square(x)))(x)
        tf.dispose([value, dx])
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
    assert tf.engine().active_tape is None and tf.engine().gradient_depth == 0


# --- errors -----------------------------------------------------------------------------

def _raises(exc, fn, *fragments):
    with pytest.raises(exc) as info:
        fn()
    for frag in fragments:
        assert frag in str(info.value), f"{frag!r} not in {str(info.value)!r}"
    assert tf.engine().active_tape is None  # the tape is gone after an error, too


def test_non_scalar_result_without_dy_is_summed_as_in_tfjs():
    # TF.js seeds dy with ones: this is what makes grad(grad(f)) work for an elementwise f.
    assert_tensor(tf.grad(lambda x: x * x)(tf.tensor(X)), [2 * v for v in X])
    gg = tf.grad(tf.grad(lambda x: x * x * x))
    assert_tensor(gg(tf.tensor([2.0, 3.0])), [12.0, 18.0])


def test_non_scalar_loss_is_an_error_for_variable_grads():
    w = tf.variable(tf.tensor([1.0, 2.0]), name="w")
    _raises(ValueError, lambda: tf.variable_grads(lambda: w * 2.0), "variable_grads", "scalar", "[2]")
    assert_no_leak(lambda: tf.variable_grads(lambda: w * 2.0))


def test_python_inputs_are_not_leaked():
    before = tf.memory().num_tensors
    tf.grad(lambda x: tf.sum(x * x))([1.0, 2.0]).dispose()
    value, dx = tf.value_and_grad(lambda x: tf.sum(x))([1.0])
    tf.dispose([value, dx])
    assert tf.memory().num_tensors == before


def test_dy_of_the_wrong_shape():
    _raises(ValueError, lambda: tf.grad(lambda x: x * 2.0)(tf.tensor(X), dy=tf.ones([2])), "dy", "[2]", "[3]")


def test_f_must_return_a_tensor():
    _raises(TypeError, lambda: tf.grad(lambda x: 3.0)(tf.tensor(X)), "grad", "Tensor")
    _raises(TypeError, lambda: tf.grad(3), "grad", "function")


def test_input_f_does_not_depend_on():
    y = tf.tensor([1.0])
    _raises(ValueError, lambda: tf.grad(lambda x: tf.sum(y * 2.0))(tf.tensor(X)),
            "Cannot compute gradient of y=f(x) with respect to x. Make sure that the f you passed "
            "encloses all operations that lead from x to y.")
    _raises(ValueError, lambda: tf.grads(lambda a, b: tf.sum(a * 2.0))([tf.tensor([1.0]), tf.tensor([2.0])]),
            "Cannot compute gradient")
    x = tf.tensor(X)
    assert_no_leak(lambda: tf.grad(lambda x: tf.sum(y * 2.0))(x))


def test_variable_grads_errors():
    i = tf.variable(tf.tensor([1, 2], dtype="int32"), name="ints")
    _raises(TypeError, lambda: tf.variable_grads(lambda: tf.sum(i), [i]), "ints", "int32", "float32")
    w = tf.variable(tf.tensor([1.0]), name="w")
    _raises(ValueError, lambda: tf.variable_grads(lambda: tf.sum(tf.ones([2])), [w]),
            "Cannot find a connection between any variable and the result of the loss function")
    frozen = tf.variable(tf.tensor([1.0]), trainable=False, name="frozen")
    _raises(ValueError, lambda: tf.variable_grads(lambda: tf.sum(frozen), [frozen]), "trainable")


def test_missing_gradient_names_the_kernel():
    from pytfweb.kernels import get_gradient, register_gradient, unregister_gradient
    saved = get_gradient("Exp")
    unregister_gradient("Exp")
    try:
        _raises(ValueError, lambda: tf.grad(lambda x: tf.sum(tf.exp(x)))(tf.tensor(X)), "'Exp'")
    finally:
        register_gradient("Exp", saved.fn, saved.save_inputs, saved.save_outputs)
    assert_tensor(tf.grad(lambda x: tf.sum(tf.exp(x)))(tf.tensor([0.0])), [1.0])


def test_custom_grad_errors():
    bad = tf.custom_grad(lambda x, save: x)
    _raises(TypeError, lambda: bad(tf.tensor([1.0])), "custom_grad")
    wrong_count = tf.custom_grad(lambda a, b, save: (a * b, lambda dy, saved: [dy]))
    _raises(ValueError, lambda: tf.grads(lambda a, b: tf.sum(wrong_count(a, b)))([tf.tensor([1.0]), tf.tensor([2.0])]),
            "2 gradient(s)")


def test_a_gradient_may_return_a_saved_tensor_itself():
    from pytfweb.kernels import get_gradient, register_gradient
    saved = get_gradient("Multiply")
    # d(a*b)/da returned as the saved b itself (valid when dy is ones): it must outlive the tape.
    register_gradient("Multiply", lambda dy, node: [node.x[1], node.x[0]], save_inputs=True)
    try:
        da = tf.grad(lambda a: tf.sum(a * tf.tensor([3.0, 4.0])))(tf.tensor([1.0, 2.0]))
    finally:
        register_gradient("Multiply", saved.fn, saved.save_inputs, saved.save_outputs)
    assert_tensor(da, [3.0, 4.0])


def test_the_callers_dy_is_never_returned_as_the_gradient():
    x = tf.tensor([1.0, 2.0])
    dy = tf.tensor([3.0, 4.0])
    dx = tf.grad(lambda t: t + 1.0)(x, dy)
    assert dx is not dy
    dx.dispose()
    assert_tensor(dy, [3.0, 4.0])  # still alive
