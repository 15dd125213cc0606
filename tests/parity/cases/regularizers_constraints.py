"""tf.regularizers (the penalty of a tensor: obj.apply(x)) and tf.constraints (a tensor projected:
obj.apply(w))."""
from ..spec import T, applied, sines

R = "tf.regularizers."
C = "tf.constraints."
W = sines([3, 4], 2.0)
W3 = sines([2, 3, 2], 1.5, shift=2)
Z = T([[0.0, 0.0], [0.0, 0.0]])

CASES = [
    applied(R + "l1", to=(W,)),
    applied(R + "l1", opts={"l1": 0.5}, to=(W,)),
    applied(R + "l2", to=(W,)),
    applied(R + "l2", opts={"l2": 0.25}, to=(W3,)),
    applied(R + "l1l2", to=(W,)),
    applied(R + "l1l2", opts={"l1": 0.1, "l2": 0.2}, to=(W3,)),
    applied(R + "l1l2", opts={"l1": 0, "l2": 0}, to=(W,)),
    applied(R + "l1l2", opts={"l1": 0.1}, to=(T([1, -2, 3], dtype="int32"),)),
    applied(C + "maxNorm", opts={"axis": 0}, to=(W,)),
    applied(C + "maxNorm", opts={"maxValue": 1, "axis": 1}, to=(W,)),
    applied(C + "maxNorm", opts={"maxValue": 0.5, "axis": 0}, to=(W3,)),
    applied(C + "maxNorm", opts={"maxValue": 1}, to=(Z,)),
    applied(C + "unitNorm", opts={"axis": 0}, to=(W,)),
    applied(C + "unitNorm", opts={"axis": 1}, to=(W,)),
    applied(C + "unitNorm", opts={"axis": -1}, to=(W3,)),
    applied(C + "unitNorm", opts={"axis": 0}, to=(Z,)),
    applied(C + "nonNeg", to=(W,)),
    applied(C + "nonNeg", to=(T([1, -2, 0, 3], dtype="int32"),)),
    applied(C + "minMaxNorm", opts={"rate": 1}, to=(W,)),
    applied(C + "minMaxNorm", opts={"minValue": 0.5, "maxValue": 1.5, "rate": 0.5, "axis": 1}, to=(W,)),
    applied(C + "minMaxNorm", opts={"minValue": 2, "maxValue": 3, "rate": 1, "axis": 0}, to=(W3,)),
    applied(C + "minMaxNorm", opts={"minValue": 0, "maxValue": 1}, to=(Z,)),
]
