// Reductions, in passes over rows (programs/reduction.py). Python prepends, for one pass:
//   IN_SIZE   values per row in this pass's input
//   WINDOW    values one fragment combines (consecutive in its row)
//   OUT_COLS  fragments per row, ceil(IN_SIZE / WINDOW)
//   int inputIndex(int row, int i)   the flat index in x of value i of row `row`
// then, for `reduce`, COMBINE (a reduce_ function below), DIVISOR and a values section; for
// `arg_reduce`, BETTER (a better_ function below) and a candidates section.

// Combining steps: acc = COMBINE(acc, value). NaN wins in max and min.
float reduce_Sum(float acc, float v) { return acc + v; }
int reduce_Sum_int(int acc, int v) { return acc + v; }  // exact; wraps like Int32Array
float reduce_Prod(float acc, float v) { return acc * v; }
int reduce_Prod_int(int acc, int v) { return acc * v; }
float reduce_Max(float acc, float v) { return isNaN(acc) || v <= acc ? acc : v; }
float reduce_Min(float acc, float v) { return isNaN(acc) || v >= acc ? acc : v; }

// Candidate tests of ArgMax/ArgMin, TF.js's scan made associative: candidates come in index
// order, so a strict test keeps the first index on ties; a NaN at index 0 beats everything,
// a NaN elsewhere loses to every number.
bool better_ArgMax(float v, float best, int bestIndex) {
  return isNaN(best) ? bestIndex != 0 && !isNaN(v) : v > best;
}
bool better_ArgMin(float v, float best, int bestIndex) {
  return isNaN(best) ? bestIndex != 0 && !isNaN(v) : v < best;
}

// @program float_values
#define ACC float
#define LOAD(v) (v)

// @program int_values
// int32 sums and products in int arithmetic (they travel as exact floats).
#define ACC int
#define LOAD(v) toInt(v)

// @program reduce
// DIVISOR is 1.0 except in the last pass of a mean, where it is the number of values.
void main() {
  int index = getOutputIndex();
  int row = index / OUT_COLS;
  int start = (index - row * OUT_COLS) * WINDOW;
  ACC acc = LOAD(getXFlat(inputIndex(row, start)));
  for (int i = 1; i < WINDOW; i++) {
    if (start + i >= IN_SIZE) break;
    acc = COMBINE(acc, LOAD(getXFlat(inputIndex(row, start + i))));
  }
  setOutput(float(acc) / DIVISOR);
}

// @program sum
// Float sums and means: `reduce` with each addition's rounding error kept (Knuth's TwoSum, no
// branch) and added at the end, as if summed in twice the precision. A plain running sum rounds
// at every step: ten equal values summed and divided by 10 missed the value 6 times in 10 where
// TF.js's cpu backend (which sums in float64) misses 1 in 10, and a layer normalization of such
// rows (its x - mean amplified by 1/sqrt(epsilon)) trained away from TF.js's losses.
void main() {
  int index = getOutputIndex();
  int row = index / OUT_COLS;
  int start = (index - row * OUT_COLS) * WINDOW;
  float acc = getXFlat(inputIndex(row, start));
  float lost = 0.0;
  for (int i = 1; i < WINDOW; i++) {
    if (start + i >= IN_SIZE) break;
    float v = getXFlat(inputIndex(row, start + i));
    float t = acc + v;
    float vt = t - acc;
    lost += (acc - (t - vt)) + (v - vt);
    acc = t;
  }
  // an infinite sum's errors are NaN (inf - inf); the plain sum is the answer then
  setOutput((isinf(acc) ? acc : acc + lost) / DIVISOR);
}

// @program arg_first_candidates
// The first pass considers every index along the axis.
#define CANDIDATE(row, i) (i)

// @program arg_next_candidates
// Later passes consider the previous pass's winners, IN_SIZE per row.
#define CANDIDATE(row, i) toInt(getCandidatesFlat((row) * IN_SIZE + (i)))

// @program arg_reduce
// x is always the original tensor: each pass compares x's values at candidate indices.
void main() {
  int index = getOutputIndex();
  int row = index / OUT_COLS;
  int start = (index - row * OUT_COLS) * WINDOW;
  int best = CANDIDATE(row, start);
  float bestValue = getXFlat(inputIndex(row, best));
  for (int i = 1; i < WINDOW; i++) {
    if (start + i >= IN_SIZE) break;
    int candidate = CANDIDATE(row, start + i);
    float v = getXFlat(inputIndex(row, candidate));
    if (BETTER(v, bestValue, best)) {
      best = candidate;
      bestValue = v;
    }
  }
  setOutput(float(best));
}
