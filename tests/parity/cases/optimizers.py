"""tf.train: each optimizer takes steps on variables (spec.optimizer_case: minimize() of
sum(v^2 / 2 + sin(3 v)), or applyGradients() with fixed gradients); the variables, the costs and
the optimizer's getWeights() (iterations and slot variables; TF.js's Adamax has none) are compared
with TF.js's. (Learning rates keep each trajectory well conditioned: a step size at which sin(3 v)
makes the steps chaotic would magnify float32 rounding, which differs on webgl, beyond any tolerance.)"""
from ..spec import T, optimizer_case, sines

O = "tf.train."
V = [sines([2, 3], 1.5), T([0.5, -0.25])]
G = [sines([2, 3], 0.5, shift=4), T([0.1, -0.3])]
V1 = [T([1.0, -2.0, 0.0, 3.0])]

CASES = [
    optimizer_case(O + "sgd", 0.1, vars=V),
    optimizer_case(O + "sgd", 0.05, vars=V1, steps=5),
    optimizer_case(O + "sgd", 0.1, vars=V, grads=G),
    optimizer_case(O + "momentum", 0.1, 0.9, vars=V),
    optimizer_case(O + "momentum", 0.1, 0.9, True, vars=V),
    optimizer_case(O + "momentum", 0.05, 0.5, False, vars=V1, grads=[T([1.0, -1.0, 0.5, 0.0])], steps=4),
    optimizer_case(O + "adagrad", 0.1, vars=V),
    optimizer_case(O + "adagrad", 0.5, 0.3, vars=V1, steps=4),
    optimizer_case(O + "adagrad", 0.1, vars=V, grads=G),
    optimizer_case(O + "adadelta", vars=V),
    optimizer_case(O + "adadelta", 0.1, 0.9, 1e-6, vars=V1, steps=4),
    optimizer_case(O + "adadelta", 0.5, 0.95, None, vars=V, grads=G),
    optimizer_case(O + "adam", vars=V),
    optimizer_case(O + "adam", 0.05, 0.8, 0.99, 1e-6, vars=V1, steps=5),
    optimizer_case(O + "adam", 0.1, vars=V, grads=G),
    optimizer_case(O + "adamax", vars=V, slots=False),
    optimizer_case(O + "adamax", 0.05, 0.8, 0.99, 1e-6, 0.01, vars=V1, steps=5, slots=False),
    optimizer_case(O + "adamax", 0.1, vars=V, grads=G, slots=False),
    optimizer_case(O + "rmsprop", 0.01, vars=V),
    optimizer_case(O + "rmsprop", 0.05, 0.8, 0.5, 1e-6, False, vars=V1, steps=4),
    optimizer_case(O + "rmsprop", 0.05, 0.9, 0.3, 1e-6, True, vars=V1, steps=4),
    optimizer_case(O + "rmsprop", 0.01, vars=V, grads=G),
    optimizer_case(O + "rmsprop", 0.01, 0.9, 0.0, None, True, vars=V),
]
