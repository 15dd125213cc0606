// Elementwise unary ops: `float op_<Kernel>(float x)`, one per TF.js kernel name.
// Custom attributes arrive as uniforms declared by the program (alpha, clipMin, clipMax).

float op_Neg(float x) { return -x; }
float op_Abs(float x) { return abs(x); }
float op_Sign(float x) { return isNaN(x) ? 0.0 : sign(x); }
float op_Square(float x) { return x * x; }
float op_Relu(float x) { return isNaN(x) ? x : max(x, 0.0); }
float op_Relu6(float x) { return isNaN(x) ? x : clamp(x, 0.0, 6.0); }
float op_Exp(float x) { return exp(x); }
float op_Log(float x) { return x < 0.0 ? NAN : (x == 0.0 ? -INFINITY : log(x)); }
float op_Log1p(float x) { return x < -1.0 ? NAN : (x == -1.0 ? -INFINITY : (abs(x) < 1e-4 ? x - 0.5 * x * x : log(1.0 + x))); }
float op_Sqrt(float x) { return x < 0.0 ? NAN : sqrt(x); }
float op_Rsqrt(float x) { return x < 0.0 ? NAN : inversesqrt(x); }
float op_Reciprocal(float x) { return 1.0 / x; }
float op_Elu(float x) { return x >= 0.0 ? x : exp(x) - 1.0; }

float op_Selu(float x) {
  float scaleAlpha = 1.7580993408473768;
  float scale = 1.0507009873554805;
  return x >= 0.0 ? scale * x : scaleAlpha * (exp(x) - 1.0);
}

float op_Sigmoid(float x) { return 1.0 / (1.0 + exp(-x)); }

float op_Tanh(float x) {
  // tanh(x) = sign(x) * (1 - e^-2|x|) / (1 + e^-2|x|): no overflow for large |x|
  if (isNaN(x)) return x;
  float e = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - e) / (1.0 + e);
}

float op_Softplus(float x) {
  if (x > 15.0) return x;
  if (x < -15.0) return exp(x);
  return log(exp(x) + 1.0);
}

float op_Sin(float x) { return sin(x); }
float op_Cos(float x) { return cos(x); }
float op_Floor(float x) { return floor(x); }
float op_Ceil(float x) { return ceil(x); }
float op_Round(float x) { return roundEven(x); }
float op_LogicalNot(float x) { return x == 0.0 ? 1.0 : 0.0; }
float op_LeakyRelu(float x) { return x < 0.0 ? alpha * x : x; }
float op_ClipByValue(float x) { return isNaN(x) ? x : clamp(x, clipMin, clipMax); }

// --- inverse trigonometric, hyperbolic, erf, expm1, step, tests --------------------------------
// GPU exp/log/sin are approximations: the forms below avoid cancellation near 0 and overflow
// far from it, so that float32 results agree with numpy's to a few ulp where exp/log allow.
// (NaN never reaches these: the unary program returns it first, except for the tests.)
// Constants are written out: only functions are taken from this file, not #defines.

bool isInfinite(float x) { return (floatBitsToUint(x) & 0x7fffffffu) == 0x7f800000u; }

// log(1 + u), accurate near 0 (Kahan: the rounding error of 1 + u cancels out).
float log1pAccurate(float u) {
  float v = 1.0 + u;
  if (v == 1.0) return u;
  if (isInfinite(v)) return v;
  return log(v) * (u / (v - 1.0));
}

// e^x - 1: a Taylor polynomial where exp(x) - 1 would cancel.
float expm1Accurate(float x) {
  if (abs(x) >= 0.5) return exp(x) - 1.0;
  float p = 1.0 / 40320.0;
  p = p * x + 1.0 / 5040.0;
  p = p * x + 1.0 / 720.0;
  p = p * x + 1.0 / 120.0;
  p = p * x + 1.0 / 24.0;
  p = p * x + 1.0 / 6.0;
  p = p * x + 0.5;
  return (p * x + 1.0) * x;
}

float op_Acos(float x) { return abs(x) > 1.0 ? NAN : acos(x); }
float op_Asin(float x) { return abs(x) > 1.0 ? NAN : asin(x); }
float op_Atan(float x) { return isInfinite(x) ? sign(x) * 1.5707963267948966 : atan(x); }

float op_Acosh(float x) {
  if (x < 1.0) return NAN;
  if (x > 1e4) return log(x) + 0.6931471805599453;  // x^2 would overflow; acosh(x) ~ log(2x)
  float u = x - 1.0;
  return log1pAccurate(u + sqrt(u * (x + 1.0)));     // log(x + sqrt(x^2 - 1)), exact near 1
}

float op_Asinh(float x) {
  float a = abs(x);
  if (a > 1e4) return sign(x) * (log(a) + 0.6931471805599453);  // asinh(x) ~ log(2|x|)
  // log(a + sqrt(a^2 + 1)) = log1p(a + a^2 / (1 + sqrt(a^2 + 1)))
  return sign(x) * log1pAccurate(a + a * a / (1.0 + sqrt(a * a + 1.0)));
}

float op_Atanh(float x) {
  float a = abs(x);
  if (a > 1.0) return NAN;
  return sign(x) * 0.5 * log1pAccurate(2.0 * a / (1.0 - a));
}

float op_Cosh(float x) {
  float h = exp(abs(x) - 0.6931471805599453);  // e^|x| / 2: finite as long as cosh is
  return h + 0.25 / h;
}

float op_Sinh(float x) {
  float a = abs(x);
  if (a < 0.5) {
    float m = expm1Accurate(a);
    return sign(x) * 0.5 * (m + m / (m + 1.0));      // (e^a - e^-a) / 2 without cancellation
  }
  float h = exp(a - 0.6931471805599453);
  return sign(x) * (h - 0.25 / h);
}

float op_Tan(float x) { return tan(x); }

float op_Erf(float x) {
  // TF.js's approximation (Abramowitz and Stegun 7.1.26), as on the cpu backend
  float v = abs(x);
  float t = 1.0 / (1.0 + 0.3275911 * v);
  float p = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  return sign(x) * (1.0 - p * exp(-v * v));
}

float op_Expm1(float x) { return expm1Accurate(x); }
float op_Step(float x) { return x > 0.0 ? 1.0 : alpha; }

// The tests see NaN themselves (they are in the NaN-aware set of programs/elementwise.py).
float op_IsNan(float x) { return float(isNaN(x)); }
float op_IsInf(float x) { return float(isInfinite(x)); }
float op_IsFinite(float x) { return float(!isNaN(x) && !isInfinite(x)); }
