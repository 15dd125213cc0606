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
