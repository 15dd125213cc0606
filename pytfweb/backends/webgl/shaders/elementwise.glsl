// Bodies of the elementwise programs. The compiler supplies getXAtOutCoords() for each
// input (broadcasting included) and OP, the op function chosen from unary_ops.glsl or
// binary_ops.glsl.

// @program unary
// NaN in, NaN out, checked here once: GPU exp/log/sin... give arbitrary values for NaN.
void main() {
  float x = getXAtOutCoords();
  setOutput(isNaN(x) ? x : OP(x));
}

// @program unary_nan_aware
// For the ops whose result for NaN is not NaN (TF.js: sign(NaN) = 0).
void main() {
  setOutput(OP(getXAtOutCoords()));
}

// @program binary
void main() {
  setOutput(OP(getAAtOutCoords(), getBAtOutCoords()));
}

// @program binary_scalar_a
// A is a one-value tensor still on the CPU side, given as the uniform scalarA (no upload).
void main() {
  setOutput(OP(scalarA, getBAtOutCoords()));
}

// @program binary_scalar_b
void main() {
  setOutput(OP(getAAtOutCoords(), scalarB));
}

// @program select
void main() {
  setOutput(getConditionAtOutCoords() != 0.0 ? getAAtOutCoords() : getBAtOutCoords());
}

// @program copy
void main() {
  setOutput(getXAtOutCoords());
}

// @program cast_to_int
void main() {
  float x = getXAtOutCoords();
  setOutput(isNaN(x) || isinf(x) ? 0.0 : trunc(x));
}

// @program cast_to_bool
void main() {
  setOutput(getXAtOutCoords() != 0.0 ? 1.0 : 0.0);
}
