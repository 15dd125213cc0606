// Math programs (programs/math.py): prelu, add_n, cumulative sums and products, bincount.

// Prelu runs as a binary elementwise program (elementwise.glsl's `binary`); NaN stays NaN.
float op_Prelu(float a, float b) { return a < 0.0 ? b * a : a; }

// @program add_n
// Python defines SUM: the sum of getX0AtOutCoords(), getX1AtOutCoords(), ... (one term per input).
void main() {
  setOutput(SUM);
}

// Cumulative programs read x flat: the scanned axis has AXIS_SIZE values, AXIS_STRIDE apart.
// DIRECTION is 1 (scan from the start) or -1 (reverse: from the end); COMBINE(a, b) is a + b or
// a * b, IDENTITY 0.0 or 1.0 (all defined by Python).

// @program cum_scan
// One step of a Hillis-Steele scan: each value combined with the one `reach` places before it
// along the axis (reach = 1, 2, 4, ... in successive passes: log2(AXIS_SIZE) passes in all).
void main() {
  int index = getOutputIndex();
  int position = (index / AXIS_STRIDE) % AXIS_SIZE;
  int source = position - DIRECTION * reach;
  float value = getXFlat(index);
  if (source >= 0 && source < AXIS_SIZE) {
    value = COMBINE(getXFlat(index - DIRECTION * reach * AXIS_STRIDE), value);
  }
  setOutput(value);
}

// @program cum_shift
// The values moved one place along the axis, IDENTITY in the first place: the exclusive scan
// of x is the inclusive scan of this.
void main() {
  int index = getOutputIndex();
  int position = (index / AXIS_STRIDE) % AXIS_SIZE;
  int source = position - DIRECTION;
  setOutput(source >= 0 && source < AXIS_SIZE ? getXFlat(index - DIRECTION * AXIS_STRIDE) : IDENTITY);
}

// @program bincount
// One bin of one row of x (read flat, ROW_LENGTH values a row): the sum of WEIGHT(i) over the
// row's values equal to the bin; with BINARY_OUTPUT, 1 if there is any. Negative values match
// no bin (a shader cannot raise the cpu backend's error). Python defines SIZE (bins a row),
// ROW_LENGTH, WEIGHT(i) (getWeightsFlat(i), or 1.0 without weights) and BINARY_OUTPUT.
void main() {
  int index = getOutputIndex();
  int row = index / SIZE;
  int bin = index - row * SIZE;
  float total = 0.0;
  for (int i = row * ROW_LENGTH; i < (row + 1) * ROW_LENGTH; i++) {
    if (toInt(getXFlat(i)) == bin) total += WEIGHT(i);
  }
#if BINARY_OUTPUT
  setOutput(total > 0.0 ? 1.0 : 0.0);
#else
  setOutput(total);
#endif
}
