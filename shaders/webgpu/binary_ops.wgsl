// Elementwise binary ops: `fn op_<Kernel>(a: f32, b: f32) -> T`, one per kernel of
// ops/elementwise.py's BINARY and GRADIENT_KERNELS tables (names as in shaders/binary_ops.glsl).
// `op_<Kernel>_int(a: i32, b: i32)` is used for int32 and bool operands (bool: 0/1 in an i32);
// i32 arithmetic wraps, as numpy's int32 and JS's Int32Array do. A function returning bool
// writes a bool tensor; one returning i32 for float operands (FloorDiv) writes int32.

fn op_Add(a: f32, b: f32) -> f32 { return a + b; }
fn op_Add_int(a: i32, b: i32) -> i32 { return a + b; }
fn op_Sub(a: f32, b: f32) -> f32 { return a - b; }
fn op_Sub_int(a: i32, b: i32) -> i32 { return a - b; }
fn op_Multiply(a: f32, b: f32) -> f32 { return a * b; }
fn op_Multiply_int(a: i32, b: i32) -> i32 { return a * b; }
fn op_RealDiv(a: f32, b: f32) -> f32 { return a / b; }

// TF.js's FloorDiv gives int32 for float operands too (NaN and infinities 0, wrapped).
fn op_FloorDiv(a: f32, b: f32) -> i32 { return toInt32(floor(a / b)); }
fn op_FloorDiv_int(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  var q = a / b;   // truncates toward zero; step down when the signs differ and it is inexact
  if (q * b != a && ((a < 0) != (b < 0))) { q = q - 1; }
  return q;
}

// JS's a % b (C fmod): the remainder with a's sign; a finite a keeps itself against an infinite b.
fn jsRemainder(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b) || isInf(a) || b == 0.0) { return nan(); }
  if (isInf(b)) { return a; }
  // Exact, by long division on the exponents: each step takes the largest b * 2^k <= r, and
  // r - b * 2^k is exact (Sterbenz). a - b * trunc(a / b) would round.
  var r = abs(a);
  let m = abs(b);
  for (var i = 0; i < 300 && r >= m; i++) {
    var d = m;
    while (d * 2.0 <= r && !isInf(d * 2.0)) { d = d * 2.0; }
    r = r - d;
  }
  return select(r, -r, isNegative(a));   // the remainder (a zero too) has a's sign
}
// TF.js's mod: the remainder, moved to b's sign where the signs differ ((r + b) % b).
fn op_Mod(a: f32, b: f32) -> f32 {
  let r = jsRemainder(a, b);
  if ((a < 0.0 && b < 0.0) || (a >= 0.0 && b >= 0.0)) { return r; }
  return jsRemainder(r + b, b);
}
fn op_Mod_int(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  var r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) { r = r + b; }
  return r;
}

// JS Math.pow, special values included (WGSL pow is undefined for a <= 0 and at infinities).
fn op_Pow(a: f32, b: f32) -> f32 {
  if (isNan(b)) { return nan(); }
  if (b == 0.0) { return 1.0; }
  if (isNan(a)) { return nan(); }
  let m = abs(a);
  if (isInf(b)) {
    if (m == 1.0) { return nan(); }
    return select(0.0, inf(), (m > 1.0) == (b > 0.0));
  }
  let integer = floor(b) == b;
  var r: f32;
  if (isInf(a) || m == 0.0) {
    r = select(0.0, inf(), (b > 0.0) == isInf(a));
  } else {
    if (a < 0.0 && !integer) { return nan(); }
    r = powPositive(m, b);
  }
  let odd = integer && abs(b) < 16777216.0 && (i32(abs(b)) & 1) == 1;
  if (isNegative(a) && odd) { r = -r; }   // odd integer powers keep the sign (-0 counts)
  return r;
}
// m^b for m > 0: exactly by squaring for small integer exponents (GPU pow is exp2(b * log2(m))).
fn powPositive(m: f32, b: f32) -> f32 {
  if (floor(b) == b && abs(b) <= 64.0) {
    var e = i32(abs(b));
    var base = m;
    var r = 1.0;
    while (e > 0) {
      if ((e & 1) == 1) { r = r * base; }
      base = base * base;
      e = e >> 1u;
    }
    return select(r, 1.0 / r, b < 0.0);
  }
  let l = b * log2(m);
  if (l > 128.0) { return inf(); }
  if (l < -150.0) { return 0.0; }
  return exp2(l);
}
// int32 powers as TF.js's cpu kernel gives them: Math.pow in float64, stored into an Int32Array
// (the rule in full at _pow_int in pytfweb/ops/elementwise.py): the exact power rounded to
// 53 significant bits (ties to even), wrapped modulo 2^32. For |a| >= 2, |a| ** b is built exactly
// in three 32-bit words while below 2^84 (from 2^84 on the float64 is a multiple of 2^32: 0),
// then rounded and wrapped in u32 arithmetic, which wraps. Exact over the whole int32 range.
fn op_Pow_int(a: i32, b: i32) -> i32 {
  let odd = (b & 1) == 1;
  let m = select(bitcast<u32>(a), 0u - bitcast<u32>(a), a < 0);
  if (b == 0) { return 1; }                                      // 0 ** 0 too
  if (m <= 1u) { return select(i32(m), -1, a < 0 && odd); }     // 0 ** negative is Infinity: 0
  if (b < 0 || b >= 84) { return 0; }                            // |a ** b| < 1, or |a| ** b >= 2^84
  var w0 = 1u;                                                   // |a| ** i, low word first
  var w1 = 0u;
  var w2 = 0u;
  for (var i = 0; i < b; i++) {
    let t0 = powMulWide(w0, m);
    let t1 = powMulWide(w1, m);
    let t2 = powMulWide(w2, m);
    w0 = t0.x;
    w1 = t1.x + t0.y;
    let carry = t1.y + select(0u, 1u, w1 < t0.y);
    w2 = t2.x + carry;
    if (t2.y != 0u || w2 < carry || w2 >= 0x100000u) { return 0; }   // |a| ** (i + 1) >= 2^84
  }
  let length = select(select(32 - i32(countLeadingZeros(w0)), 64 - i32(countLeadingZeros(w1)), w1 != 0u),
                      96 - i32(countLeadingZeros(w2)), w2 != 0u);
  var r = w0;
  if (length > 53) {   // round off the k bits below the 53 a float64 keeps, to nearest, ties to even
    let k = u32(length - 53);
    let dropped = w0 & ((1u << k) - 1u);
    let halfway = 1u << (k - 1u);
    r = w0 - dropped;
    if (dropped > halfway || (dropped == halfway && ((w0 >> k) & 1u) == 1u)) { r = r + (1u << k); }
  }
  if (a < 0 && odd) { r = 0u - r; }
  return bitcast<i32>(r);
}
// x * y as 64 bits (low word, high word), from 16-bit halves (WGSL has no 64-bit integers).
fn powMulWide(x: u32, y: u32) -> vec2<u32> {
  let xl = x & 0xFFFFu;
  let xh = x >> 16u;
  let yl = y & 0xFFFFu;
  let yh = y >> 16u;
  let ll = xl * yl;
  let lh = xl * yh;
  let hl = xh * yl;
  let mid = (ll >> 16u) + (lh & 0xFFFFu) + (hl & 0xFFFFu);
  return vec2<u32>((ll & 0xFFFFu) | (mid << 16u), xh * yh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));
}

// numpy's maximum/minimum: NaN wins; between equal values (0 and -0) the second operand.
fn op_Maximum(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  return select(b, a, a > b);
}
fn op_Maximum_int(a: i32, b: i32) -> i32 { return max(a, b); }
fn op_Minimum(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  return select(b, a, a < b);
}
fn op_Minimum_int(a: i32, b: i32) -> i32 { return min(a, b); }
fn op_SquaredDifference(a: f32, b: f32) -> f32 { return (a - b) * (a - b); }
fn op_SquaredDifference_int(a: i32, b: i32) -> i32 { return (a - b) * (a - b); }

// Comparisons: false whenever a NaN is involved, except NotEqual (true).
fn op_Equal(a: f32, b: f32) -> bool { return !isNan(a) && !isNan(b) && a == b; }
fn op_Equal_int(a: i32, b: i32) -> bool { return a == b; }
fn op_NotEqual(a: f32, b: f32) -> bool { return isNan(a) || isNan(b) || a != b; }
fn op_NotEqual_int(a: i32, b: i32) -> bool { return a != b; }
fn op_Greater(a: f32, b: f32) -> bool { return !isNan(a) && !isNan(b) && a > b; }
fn op_Greater_int(a: i32, b: i32) -> bool { return a > b; }
fn op_GreaterEqual(a: f32, b: f32) -> bool { return !isNan(a) && !isNan(b) && a >= b; }
fn op_GreaterEqual_int(a: i32, b: i32) -> bool { return a >= b; }
fn op_Less(a: f32, b: f32) -> bool { return !isNan(a) && !isNan(b) && a < b; }
fn op_Less_int(a: i32, b: i32) -> bool { return a < b; }
fn op_LessEqual(a: f32, b: f32) -> bool { return !isNan(a) && !isNan(b) && a <= b; }
fn op_LessEqual_int(a: i32, b: i32) -> bool { return a <= b; }
fn op_LogicalAnd_int(a: i32, b: i32) -> bool { return a != 0 && b != 0; }
fn op_LogicalOr_int(a: i32, b: i32) -> bool { return a != 0 || b != 0; }

fn op_Atan2(a: f32, b: f32) -> f32 {
  if (isNan(a) || isNan(b)) { return nan(); }
  let pi = 3.141592653589793;
  let negativeB = isNegative(b);   // -0 counts: atan2(0, -0) = pi
  // C's values at (0, 0) and at infinities, where atan2 is undefined or loose on GPUs
  if (a == 0.0) { return select(a, select(pi, -pi, isNegative(a)), negativeB); }
  if (isInf(a) || isInf(b)) {
    let s = select(1.0, -1.0, a < 0.0);
    if (isInf(a) && isInf(b)) { return s * select(0.25, 0.75, negativeB) * pi; }
    if (isInf(a)) { return s * 0.5 * pi; }
    return select(select(0.0, negZero(), a < 0.0), s * pi, negativeB);
  }
  return atan2(a, b);
}

fn op_BitwiseAnd_int(a: i32, b: i32) -> i32 { return a & b; }

// EluGrad(dy, y): the gradient of elu from its output.
fn op_EluGrad(dy: f32, y: f32) -> f32 { return select(dy, dy * (y + 1.0), y < 0.0); }
fn op_EluGrad_int(dy: i32, y: i32) -> i32 { return select(dy, dy * (y + 1), y < 0); }
// ReluGrad(dy, x), Relu6Grad(dy, x): dy where relu (relu6) passes x on, else 0 (NaN x: 0).
fn op_ReluGrad(dy: f32, x: f32) -> f32 { return select(0.0, dy, !isNan(x) && x > 0.0); }
fn op_ReluGrad_int(dy: i32, x: i32) -> i32 { return select(0, dy, x > 0); }
fn op_Relu6Grad(dy: f32, x: f32) -> f32 { return select(0.0, dy, !isNan(x) && x > 0.0 && x <= 6.0); }
fn op_Relu6Grad_int(dy: i32, x: i32) -> i32 { return select(0, dy, x > 0 && x <= 6); }
