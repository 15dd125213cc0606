// FusedBatchNorm, LRN, LRNGrad and Multinomial (programs/normalization.py). Helper functions
// come first: a section runs to the next `// @program` line.

// LRN over the channels of x [batch, height, width, DEPTH]: RADIUS (at most DEPTH) comes from
// Python; bias, alpha and beta are uniforms.

// bias + alpha * (the sum of x^2 over channels d - RADIUS .. d + RADIUS that exist)
float lrnNorm(int b, int r, int c, int d) {
  float sum = 0.0;
  for (int j = -RADIUS; j <= RADIUS; j++) {
    int k = d + j;
    if (k >= 0 && k < DEPTH) {
      float z = getX(b, r, c, k);
      sum += z * z;
    }
  }
  return bias + alpha * sum;
}

// A uniform draw in [0, 1) per output value and seed (a uniform): a PCG hash of both.
uint pcgHash(uint v) {
  uint state = v * 747796405u + 2891336453u;
  uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

float uniformDraw(int index) {
  uint h = pcgHash(uint(index) ^ pcgHash(floatBitsToUint(seed)));
  return float(h >> 8u) / 16777216.0;
}

// @program batch_norm
// OFFSET and SCALE (Python) read those inputs, or are 0.0 and 1.0 when they were not given;
// the parameters broadcast to x through the AtOutCoords getters. varianceEpsilon is a uniform.
void main() {
  float inv = SCALE * inversesqrt(getVarianceAtOutCoords() + varianceEpsilon);
  setOutput((getXAtOutCoords() - getMeanAtOutCoords()) * inv + OFFSET);
}

// @program lrn
// pow is exp2(y * log2(x)) on some GPUs, which loses a NaN norm (a NaN within the radius).
void main() {
  ivec4 c = getOutputCoords();
  float norm = lrnNorm(c.x, c.y, c.z, c.w);
  setOutput(getX(c.x, c.y, c.z, c.w) * (isNaN(norm) ? norm : pow(norm, -beta)));
}

// @program lrn_grad
// dx_k = sum over channels d within RADIUS of k of
//        dy_d * ([d == k] * norm_d^-beta - 2 * alpha * beta * x_k * y_d / norm_d)
void main() {
  ivec4 c = getOutputCoords();
  float xk = getX(c.x, c.y, c.z, c.w);
  float sum = 0.0;
  for (int j = -RADIUS; j <= RADIUS; j++) {
    int d = c.w + j;
    if (d < 0 || d >= DEPTH) continue;
    float norm = lrnNorm(c.x, c.y, c.z, d);
    float term = -2.0 * alpha * beta * xk * getY(c.x, c.y, c.z, d) / norm;
    if (j == 0) term += pow(norm, -beta);
    sum += getDy(c.x, c.y, c.z, d) * term;
  }
  setOutput(sum);
}

// @program multinomial
// probs [batch, OUTCOMES] (Python): the first outcome whose cumulative probability exceeds
// the draw, else the last.
void main() {
  ivec2 c = getOutputCoords();
  float r = uniformDraw(getOutputIndex());
  float cdf = 0.0;
  for (int i = 0; i < OUTCOMES - 1; i++) {
    cdf += getProbs(c.x, i);
    if (r < cdf) {
      setOutput(float(i));
      return;
    }
  }
  setOutput(float(OUTCOMES - 1));
}
