// complex64 on webgl (programs/spectral.py): a complex tensor is two float32 textures, real
// and imaginary, so every complex program reads both parts and writes one part per pass.

// @program complex_abs
// |re + i im| without overflow or underflow in the squares (TF.js's ComplexAbsProgram).
void main() {
  float re = abs(getReAtOutCoords());
  float im = abs(getImAtOutCoords());
  float mx = max(re, im);
  float mn = min(re, im);
  if (isNaN(re) || isNaN(im)) {
    setOutput(NAN);
  } else if (isinf(mx)) {
    setOutput(INFINITY);
  } else {
    setOutput(mx == 0.0 ? 0.0 : mx * sqrt(1.0 + (mn / mx) * (mn / mx)));
  }
}

// @program complex_mul_real
// (a + ib)(c + id): the real part ac - bd (operands broadcast).
void main() {
  setOutput(getARealAtOutCoords() * getBRealAtOutCoords() - getAImagAtOutCoords() * getBImagAtOutCoords());
}

// @program complex_mul_imag
// (a + ib)(c + id): the imaginary part ad + bc.
void main() {
  setOutput(getARealAtOutCoords() * getBImagAtOutCoords() + getAImagAtOutCoords() * getBRealAtOutCoords());
}

// @program dft
// One part of the DFT of rows of N values (TF.js's FFTProgram: a direct sum per output).
// Python prepends N, SIGN (-1.0 forward, 1.0 inverse), SCALE (1.0, or 1/N for the inverse)
// and REAL_PART (1 for the real part, 0 for the imaginary part).

// (cos, sin) of 2 pi m / N for 0 <= m < N. GPU sin and cos are approximations (SwiftShader's
// are off by about 1e-4 at some angles), so: the quadrant from integers, then Taylor
// polynomials on [0, pi/2), exact to float precision.
vec2 unitCircle(int m) {
  int q = (4 * m) / N;
  float x = 1.5707963267948966 * float(4 * m - q * N) / float(N);
  float x2 = x * x;
  float s = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0 * (1.0 - x2 / 110.0)))));
  float c = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 *
            (1.0 - x2 / 90.0 * (1.0 - x2 / 132.0)))));
  return q == 0 ? vec2(c, s) : q == 1 ? vec2(-s, c) : q == 2 ? vec2(-c, -s) : vec2(s, -c);
}

void main() {
  int index = getOutputIndex();
  int row = index / N;
  int k = index - row * N;
  float sum = 0.0;
  for (int i = 0; i < N; i++) {
    vec2 w = unitCircle((k * i) % N);   // exp(SIGN * 2 pi i k i / N) = (w.x, SIGN * w.y)
    float c = w.x;
    float s = SIGN * w.y;
    float re = getReFlat(row * N + i);
    float im = getImFlat(row * N + i);
    sum += REAL_PART == 1 ? re * c - im * s : re * s + im * c;
  }
  setOutput(sum * SCALE);
}
