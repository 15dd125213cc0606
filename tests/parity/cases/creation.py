"""Tensor creation in TF.js's positional forms."""
from ..spec import case

CASES = [
    case("tf.tensor1d", [0, 3, 3], "int32"),
    case("tf.tensor1d", [1.5, 2.5]),
    case("tf.tensor2d", [[1, 2], [3, 4]], [2, 2], "int32"),
    case("tf.tensor2d", [1, 2, 3, 4], [2, 2]),
    case("tf.tensor3d", [1, 2, 3, 4], [1, 2, 2], "float32"),
    case("tf.tensor", [1, 2, 3, 4], [2, 2], "int32"),
    case("tf.scalar", 3, "int32"),
    case("tf.zeros", [2, 3], "int32"),
    case("tf.ones", [2], "bool"),
    case("tf.fill", [2, 2], 7, "int32"),
    case("tf.range", 0, 10, 3, "float32"),
    case("tf.linspace", 0, 1, 5),
    case("tf.eye", 3, 2, None, "int32"),
    case("tf.oneHot", {"tensor": [0, 2, 5], "shape": [3], "dtype": "int32"}, 4, 2, -1),
]
