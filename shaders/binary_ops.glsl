// Elementwise binary ops: `float op_<Kernel>(float a, float b)`, one per TF.js kernel name.
// `op_<Kernel>_int` is used instead when the operands are int32 (exact integer semantics).

bool isInfinite(float x) { return (floatBitsToUint(x) & 0x7fffffffu) == 0x7f800000u; }

float op_Add(float a, float b) { return a + b; }
float op_Sub(float a, float b) { return a - b; }
float op_Multiply(float a, float b) { return a * b; }
float op_RealDiv(float a, float b) { return a / b; }
float op_FloorDiv(float a, float b) { return floor(a / b); }

float op_FloorDiv_int(float a, float b) {
  int ia = toInt(a);
  int ib = toInt(b);
  if (ib == 0) return 0.0;
  int q = ia / ib;  // truncates toward zero; step down when the signs differ and it is inexact
  if (q * ib != ia && ((ia < 0) != (ib < 0))) q -= 1;
  return float(q);
}

// JS's a % b (C fmod): the remainder with a's sign; a finite a keeps itself against an infinite b.
float jsRemainder(float a, float b) {
  if (isInfinite(b) && !isInfinite(a)) return a;
  return a - b * trunc(a / b);
}

// TF.js's mod: the remainder, moved to b's sign where the signs differ ((r + b) % b).
float op_Mod(float a, float b) {
  float r = jsRemainder(a, b);
  if ((a < 0.0 && b < 0.0) || (a >= 0.0 && b >= 0.0)) return r;
  return jsRemainder(r + b, b);
}

float op_Mod_int(float a, float b) {
  int ia = toInt(a);
  int ib = toInt(b);
  if (ib == 0) return 0.0;
  int r = ia - (ia / ib) * ib;
  if (r != 0 && ((r < 0) != (ib < 0))) r += ib;
  return float(r);
}

// JS Math.pow, special values included (GLSL pow is undefined for a <= 0 and at infinities).
float op_Pow(float a, float b) {
  if (isNaN(b)) return NAN;
  if (b == 0.0) return 1.0;
  if (isNaN(a)) return NAN;
  float m = abs(a);
  if (isInfinite(b)) {
    if (m == 1.0) return NAN;
    return (m > 1.0) == (b > 0.0) ? INFINITY : 0.0;
  }
  bool integer = floor(b) == b;
  float r;
  if (isInfinite(a) || m == 0.0) {
    r = (b > 0.0) == isInfinite(a) ? INFINITY : 0.0;
  } else {
    if (a < 0.0 && !integer) return NAN;
    r = pow(m, b);
  }
  bool negative = (floatBitsToUint(a) & 0x80000000u) != 0u;   // -0 counts
  if (negative && integer && mod(b, 2.0) != 0.0) r = -r;      // odd integer powers keep the sign
  return r;
}

float op_Pow_int(float a, float b) {
  int base = toInt(a);
  int e = toInt(b);
  if (e < 0) return trunc(op_Pow(a, b));  // |result| < 1 unless |a| == 1: exact enough
  // Square and multiply in integers: GPU pow() is approximate (pow(5, 2) can be 24.999).
  int r = 1;
  for (int i = 0; i < 32; i++) {
    if (e == 0) break;
    if ((e & 1) == 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return float(r);
}

float op_Maximum(float a, float b) { return isNaN(a) || isNaN(b) ? NAN : max(a, b); }
float op_Minimum(float a, float b) { return isNaN(a) || isNaN(b) ? NAN : min(a, b); }
float op_SquaredDifference(float a, float b) { return (a - b) * (a - b); }
float op_Equal(float a, float b) { return float(a == b); }
float op_NotEqual(float a, float b) { return float(a != b); }
float op_Greater(float a, float b) { return float(a > b); }
float op_GreaterEqual(float a, float b) { return float(a >= b); }
float op_Less(float a, float b) { return float(a < b); }
float op_LessEqual(float a, float b) { return float(a <= b); }
float op_LogicalAnd(float a, float b) { return float(a != 0.0 && b != 0.0); }
float op_LogicalOr(float a, float b) { return float(a != 0.0 || b != 0.0); }

float op_Atan2(float a, float b) {
  if (isNaN(a) || isNaN(b)) return NAN;
  float pi = 3.141592653589793;
  bool negativeB = (floatBitsToUint(b) & 0x80000000u) != 0u;   // -0 counts: atan2(0, -0) = pi
  // GLSL's atan(y, x) is undefined at (0, 0) and loose at infinities: give C's values there.
  if (a == 0.0) return negativeB ? (floatBitsToUint(a) >= 0x80000000u ? -pi : pi) : a;
  if (isInfinite(a) || isInfinite(b)) {
    if (isInfinite(a) && isInfinite(b)) return sign(a) * (negativeB ? 0.75 : 0.25) * pi;
    if (isInfinite(a)) return sign(a) * 0.5 * pi;
    return negativeB ? sign(a) * pi : sign(a) * 0.0;
  }
  return atan(a, b);
}

// int32 operands (the op accepts nothing else), exact as ints.
float op_BitwiseAnd(float a, float b) { return float(toInt(a) & toInt(b)); }

// EluGrad(dy, y): the gradient of elu from its output.
float op_EluGrad(float dy, float y) { return y < 0.0 ? dy * (y + 1.0) : dy; }

// ReluGrad(dy, x), Relu6Grad(dy, x): dy where relu (relu6) passes x on, else 0 (NaN x: 0).
float op_ReluGrad(float dy, float x) { return x > 0.0 ? dy : 0.0; }

float op_Relu6Grad(float dy, float x) { return x > 0.0 && x <= 6.0 ? dy : 0.0; }
