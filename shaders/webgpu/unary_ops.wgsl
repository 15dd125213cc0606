// Elementwise unary ops: `fn op_<Kernel>(x: f32) -> f32`, one per kernel of ops/elementwise.py's
// UNARY table (the same names as shaders/unary_ops.glsl for webgl). `op_<Kernel>_int(x: i32)`
// is used for int32 and bool inputs (bool is stored as 0/1 in an i32). A function returning
// bool writes a bool tensor. Attributes are parameters after x, named as the uniform fields the
// program passes (programs/elementwise.py ATTR_UNIFORMS: alpha, clipMin, clipMax; the int32 clip
// gets integer bounds from Python: clipLoI, ...), so that a fused program can call one function
// with the attributes of several ops.
// NaN in -> NaN out is done by the program for every float function not in
// programs/elementwise.py's NAN_AWARE; zeros keep their sign where numpy's do.

fn op_Neg(x: f32) -> f32 { return -x; }
fn op_Neg_int(x: i32) -> i32 { return -x; }
fn op_Abs(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0x7fffffffu); }
fn op_Abs_int(x: i32) -> i32 { return select(x, -x, x < 0); }
fn op_Sign(x: f32) -> f32 { return select(select(0.0, -1.0, x < 0.0), 1.0, x > 0.0); }
fn op_Sign_int(x: i32) -> i32 { return select(select(0, -1, x < 0), 1, x > 0); }
fn op_Square(x: f32) -> f32 { return x * x; }
fn op_Square_int(x: i32) -> i32 { return x * x; }
fn op_Relu(x: f32) -> f32 { return select(x, 0.0, x < 0.0); }
fn op_Relu_int(x: i32) -> i32 { return select(x, 0, x < 0); }
fn op_Relu6(x: f32) -> f32 { return select(select(x, 6.0, x > 6.0), 0.0, x < 0.0); }
fn op_Relu6_int(x: i32) -> i32 { return select(select(x, 6, x > 6), 0, x < 0); }
fn op_Exp(x: f32) -> f32 {
  if (x > 88.72284) { return inf(); }
  if (x < -104.0) { return 0.0; }
  return exp(x);
}
fn op_Log(x: f32) -> f32 {
  if (x < 0.0) { return nan(); }
  if (x == 0.0) { return -inf(); }
  if (isInf(x)) { return x; }
  return log(x);
}
fn op_Log1p(x: f32) -> f32 {
  if (x < -1.0) { return nan(); }
  if (x == -1.0) { return -inf(); }
  return log1pAccurate(x);
}
fn op_Sqrt(x: f32) -> f32 {
  if (x < 0.0) { return nan(); }
  if (x == 0.0 || isInf(x)) { return x; }
  return sqrt(x);
}
fn op_Rsqrt(x: f32) -> f32 {
  if (x < 0.0) { return nan(); }
  if (x == 0.0) { return select(inf(), -inf(), isNegative(x)); }
  if (isInf(x)) { return 0.0; }
  return 1.0 / sqrt(x);
}
fn op_Reciprocal(x: f32) -> f32 {
  if (x == 0.0) { return select(inf(), -inf(), isNegative(x)); }
  return 1.0 / x;
}
fn op_Elu(x: f32) -> f32 { return select(expm1Accurate(x), x, x >= 0.0); }
fn op_Selu(x: f32) -> f32 {
  let scale = 1.0507009873554805;
  let scaleAlpha = 1.7580993408473768;
  if (x == 0.0) { return 0.0; }   // numpy's selu(-0) is +0 (its expm1(minimum(-0, 0)))
  return select(scaleAlpha * expm1Accurate(x), scale * x, x >= 0.0);
}
fn op_Sigmoid(x: f32) -> f32 {
  if (x < -88.0) { return op_Exp(x); }
  return 1.0 / (1.0 + op_Exp(-x));
}
fn op_Tanh(x: f32) -> f32 {
  // -expm1(-2|x|) / (2 + expm1(-2|x|)): accurate near 0, no overflow far from it
  if (x == 0.0) { return x; }
  let t = expm1Accurate(-2.0 * abs(x));
  let r = -t / (2.0 + t);
  return select(r, -r, x < 0.0);
}
fn op_Softplus(x: f32) -> f32 {
  if (x > 15.0) { return x; }
  if (x < -15.0) { return op_Exp(x); }
  return log1pAccurate(exp(x));
}
fn op_Sin(x: f32) -> f32 {
  if (x == 0.0) { return x; }
  if (isInf(x)) { return nan(); }
  return sin(x);
}
fn op_Cos(x: f32) -> f32 {
  if (isInf(x)) { return nan(); }
  return cos(x);
}
fn op_Tan(x: f32) -> f32 {
  if (x == 0.0) { return x; }
  if (isInf(x)) { return nan(); }
  return tan(x);
}
fn op_Floor(x: f32) -> f32 { return floor(x); }
fn op_Ceil(x: f32) -> f32 {
  let c = ceil(x);
  return select(c, negZero(), c == 0.0 && x < 0.0);   // ceil(-0.5) is -0
}
fn op_Round(x: f32) -> f32 {
  let r = round(x);
  return select(r, negZero(), r == 0.0 && isNegative(x));
}
fn op_LogicalNot_int(x: i32) -> bool { return x == 0; }
fn op_LeakyRelu(x: f32, alpha: f32) -> f32 { return select(x, alpha * x, x < 0.0); }
fn op_ClipByValue(x: f32, clipMin: f32, clipMax: f32) -> f32 {
  let lo = select(x, clipMin, clipMin > x);
  return select(lo, clipMax, clipMax < lo);
}
// int32 x clipped by bounds that may be fractional: below the smallest integer >= min (clipLoI)
// gives min truncated (clipLoT), as numpy's clip then the int32 store give; likewise above.
fn op_ClipByValue_int(x: i32, clipLoI: i32, clipLoT: i32, clipHiI: i32, clipHiT: i32) -> i32 {
  if (x < clipLoI) { return clipLoT; }
  if (x > clipHiI) { return clipHiT; }
  return x;
}

// --- inverse trigonometric, hyperbolic, erf, expm1, step, tests --------------------------------
// log(1 + u), accurate near 0 (Kahan: the rounding error of 1 + u cancels out).
fn log1pAccurate(v: f32) -> f32 {
  let w = 1.0 + v;
  if (w == 1.0) { return v; }
  if (isInf(w)) { return w; }
  return log(w) * (v / (w - 1.0));
}

// e^x - 1: a Taylor polynomial where exp(x) - 1 would cancel.
fn expm1Accurate(x: f32) -> f32 {
  if (abs(x) >= 0.5) { return op_Exp(x) - 1.0; }
  var p = 1.0 / 40320.0;
  p = p * x + 1.0 / 5040.0;
  p = p * x + 1.0 / 720.0;
  p = p * x + 1.0 / 120.0;
  p = p * x + 1.0 / 24.0;
  p = p * x + 1.0 / 6.0;
  p = p * x + 0.5;
  return (p * x + 1.0) * x;
}

fn op_Acos(x: f32) -> f32 {
  if (abs(x) > 1.0) { return nan(); }
  return acos(x);
}
fn op_Asin(x: f32) -> f32 {
  if (abs(x) > 1.0) { return nan(); }
  if (x == 0.0) { return x; }
  return asin(x);
}
fn op_Atan(x: f32) -> f32 {
  if (isInf(x)) { return select(1.5707963267948966, -1.5707963267948966, x < 0.0); }
  if (x == 0.0) { return x; }
  return atan(x);
}
fn op_Acosh(x: f32) -> f32 {
  if (x < 1.0) { return nan(); }
  if (isInf(x)) { return x; }
  if (x > 1e4) { return log(x) + 0.6931471805599453; }   // x^2 would overflow; acosh(x) ~ log(2x)
  let v = x - 1.0;
  return log1pAccurate(v + sqrt(v * (x + 1.0)));        // log(x + sqrt(x^2 - 1)), exact near 1
}
fn op_Asinh(x: f32) -> f32 {
  if (x == 0.0 || isInf(x)) { return x; }
  let a = abs(x);
  var r: f32;
  if (a > 1e4) { r = log(a) + 0.6931471805599453; }      // asinh(x) ~ log(2|x|)
  else { r = log1pAccurate(a + a * a / (1.0 + sqrt(a * a + 1.0))); }
  return select(r, -r, x < 0.0);
}
fn op_Atanh(x: f32) -> f32 {
  let a = abs(x);
  if (a > 1.0) { return nan(); }
  if (x == 0.0) { return x; }
  if (a == 1.0) { return select(inf(), -inf(), x < 0.0); }
  let r = 0.5 * log1pAccurate(2.0 * a / (1.0 - a));
  return select(r, -r, x < 0.0);
}
fn op_Cosh(x: f32) -> f32 {
  if (isInf(x)) { return inf(); }
  let h = op_Exp(abs(x) - 0.6931471805599453);   // e^|x| / 2: finite as long as cosh is
  return h + 0.25 / h;
}
fn op_Sinh(x: f32) -> f32 {
  if (x == 0.0 || isInf(x)) { return x; }
  let a = abs(x);
  var r: f32;
  if (a < 0.5) {
    let m = expm1Accurate(a);
    r = 0.5 * (m + m / (m + 1.0));                // (e^a - e^-a) / 2 without cancellation
  } else {
    let h = op_Exp(a - 0.6931471805599453);
    r = h - 0.25 / h;
  }
  return select(r, -r, x < 0.0);
}
fn op_Erf(x: f32) -> f32 {
  // TF.js's approximation (Abramowitz and Stegun 7.1.26), as on the cpu backend
  if (x == 0.0) { return 0.0; }
  let v = abs(x);
  let t = 1.0 / (1.0 + 0.3275911 * v);
  let p = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  let r = 1.0 - p * op_Exp(-v * v);
  return select(r, -r, x < 0.0);
}
fn op_Expm1(x: f32) -> f32 { return expm1Accurate(x); }
fn op_Step(x: f32, alpha: f32) -> f32 { return select(alpha, 1.0, x > 0.0); }
fn op_Step_int(x: i32, alpha: f32) -> i32 { return select(i32(alpha), 1, x > 0); }

// The tests see NaN themselves (NAN_AWARE); an int32 or bool is never NaN nor infinite.
fn op_IsNan(x: f32) -> bool { return isNan(x); }
fn op_IsNan_int(x: i32) -> bool { return false; }
fn op_IsInf(x: f32) -> bool { return isInf(x); }
fn op_IsInf_int(x: i32) -> bool { return false; }
fn op_IsFinite(x: f32) -> bool { return !isNan(x) && !isInf(x); }
fn op_IsFinite_int(x: i32) -> bool { return true; }

// Cast (programs/elementwise.py): float32 -> int32 as an Int32Array stores it, anything -> bool
// is x != 0 (NaN included), int32/bool -> float32 rounds to nearest.
fn cast_to_int32(x: f32) -> i32 { return toInt32(x); }
fn cast_to_int32_int(x: i32) -> i32 { return x; }
fn cast_to_bool(x: f32) -> bool { return isNan(x) || x != 0.0; }
fn cast_to_bool_int(x: i32) -> bool { return x != 0; }
fn cast_to_float32_int(x: i32) -> f32 { return f32(x); }
