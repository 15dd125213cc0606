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

// x * y as 64 bits (low word, high word), from 16-bit halves: GLSL ES 3.00 has no umulExtended.
uvec2 powMulWide(uint x, uint y) {
  uint xl = x & 0xFFFFu, xh = x >> 16, yl = y & 0xFFFFu, yh = y >> 16;
  uint ll = xl * yl, lh = xl * yh, hl = xh * yl;
  uint mid = (ll >> 16) + (lh & 0xFFFFu) + (hl & 0xFFFFu);
  return uvec2((ll & 0xFFFFu) | (mid << 16), xh * yh + (lh >> 16) + (hl >> 16) + (mid >> 16));
}

// The number of bits of x (0 for 0), from the exponent of a float exact below 2^24.
int powBitLength(uint x) {
  if (x == 0u) return 0;
  int shift = x >= 0x10000u ? 16 : 0;
  return shift + int(floatBitsToUint(float(x >> shift)) >> 23) - 126;
}

// int32 powers as TF.js's cpu kernel gives them: Math.pow in float64, stored into an Int32Array
// (the rule in full at _pow_int in pytfweb/ops/elementwise.py): the exact power rounded to
// 53 significant bits (ties to even), wrapped modulo 2^32. For |a| >= 2, |a| ** b is built exactly
// in three 32-bit words while below 2^84 (from 2^84 on the float64 is a multiple of 2^32: 0),
// then rounded and wrapped in uint arithmetic, which wraps modulo 2^32 (GLSL ES 3.00, 4.1.3).
// Operands and result travel as floats (R32F textures): exact to 2^24, beyond that rounded to
// float32 as every int32 value on webgl (10 ** 20 -> 1661992960 survives; 3 ** 20, -808182895,
// reads back as -808182912).
float op_Pow_int(float a, float b) {
  int ia = toInt(a);
  int e = toInt(b);
  bool odd = (e & 1) == 1;
  uint m = ia < 0 ? uint(-(ia + 1)) + 1u : uint(ia);      // |a|, 2^31 too
  if (e == 0) return 1.0;                                  // 0 ** 0 too
  if (m <= 1u) return ia < 0 && odd ? -1.0 : float(m);     // 0 ** negative is Infinity: 0
  if (e < 0 || e >= 84) return 0.0;                        // |a ** b| < 1, or |a| ** b >= 2^84
  uint w0 = 1u, w1 = 0u, w2 = 0u;                          // |a| ** i, low word first
  for (int i = 0; i < 84; i++) {
    if (i == e) break;
    uvec2 t0 = powMulWide(w0, m);
    uvec2 t1 = powMulWide(w1, m);
    uvec2 t2 = powMulWide(w2, m);
    w0 = t0.x;
    w1 = t1.x + t0.y;
    uint carry = t1.y + (w1 < t0.y ? 1u : 0u);
    w2 = t2.x + carry;
    if (t2.y != 0u || w2 < carry || w2 >= 0x100000u) return 0.0;   // |a| ** (i + 1) >= 2^84
  }
  int length = w2 != 0u ? 64 + powBitLength(w2) : w1 != 0u ? 32 + powBitLength(w1) : powBitLength(w0);
  uint r = w0;
  if (length > 53) {   // round off the k bits below the 53 a float64 keeps, to nearest, ties to even
    int k = length - 53;
    uint dropped = w0 & ((1u << k) - 1u);
    uint halfway = 1u << (k - 1);
    r = w0 - dropped;
    if (dropped > halfway || (dropped == halfway && ((w0 >> k) & 1u) == 1u)) r += 1u << k;
  }
  if (ia < 0 && odd) r = 0u - r;                          // r: the int32's bits
  return r < 0x80000000u ? float(r) : -float(0u - r);
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
