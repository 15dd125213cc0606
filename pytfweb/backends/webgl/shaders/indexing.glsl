// Indexing programs. Python (programs/indexing.py) defines the shape-dependent macros each
// section names; index tuples of int32 inputs travel as floats (toInt recovers them).

// Whether index i0 of x's row `batch` comes before index i1 in TopK's order (topk_swap,
// topk_merge): NaN first, then larger values, equal values by lower index; indices from n on are
// padding (-infinity, after every real element). Outside every section: the TopK programs take it
// with shader_source.function.
bool topkFirst(int batch, int i0, int i1) {
  float x0 = i0 < n ? getX(batch, i0) : -INFINITY;
  float x1 = i1 < n ? getX(batch, i1) : -INFINITY;
  bool nan0 = isNaN(x0);
  bool nan1 = isNaN(x1);
  return nan0 ? (!nan1 || i1 > i0) : !nan1 && (x0 > x1 || (x0 == x1 && i1 > i0));
}

// @program gather_nd
// x viewed as [slices, SLICE_SIZE], indices as [count, SLICE_DIM], output [count, SLICE_SIZE].
// ND_SHAPE and ND_STRIDES: the indexed axes of x and their strides in slices. A tuple outside
// x reads 0, as on TF.js's webgl backend (checking would need a readback).
void main() {
  ivec2 c = getOutputCoords();
  int dims[SLICE_DIM] = int[SLICE_DIM](ND_SHAPE);
  int strides[SLICE_DIM] = int[SLICE_DIM](ND_STRIDES);
  int pos = 0;
  bool outside = false;
  for (int j = 0; j < SLICE_DIM; j++) {
    int index = toInt(getIndices(c.x, j));
    outside = outside || index < 0 || index >= dims[j];
    pos += index * strides[j];
  }
  setOutput(outside ? 0.0 : getX(pos, c.y));
}

// @program scatter
// Output [slices, slice size]; updates [NUM_UPDATES, slice size], indices [NUM_UPDATES,
// SLICE_DIM]. Each output slice loops over the updates: SCATTER_SUM adds those that land on it
// (zero when none does); otherwise the last one wins over getBase (TensorScatterUpdate).
void main() {
  ivec2 c = getOutputCoords();
  int strides[SLICE_DIM] = int[SLICE_DIM](ND_STRIDES);
  float value = 0.0;
  bool found = false;
  for (int i = 0; i < NUM_UPDATES; i++) {
    int pos = 0;
    for (int j = 0; j < SLICE_DIM; j++) {
      pos += toInt(getIndices(i, j)) * strides[j];
    }
    if (pos == c.x) {
#ifdef SCATTER_SUM
      value += getUpdates(i, c.y);
#else
      value = getUpdates(i, c.y);
#endif
      found = true;
    }
  }
#ifdef SCATTER_SUM
  setOutput(value);
#else
  setOutput(found ? value : getBase(c.x, c.y));
#endif
}

// @program mirror_pad
// out[c] = x[mirror(c_i - before_i, size_i) for each axis]; MIRROR_OFFSET is 0 for 'reflect'
// (the edge is not repeated) and 1 for 'symmetric'. Python defines COORDS and MIRROR_ARGS.
int mirror(int i, int n) {
  if (i < 0) {
    return -i - MIRROR_OFFSET;
  }
  if (i >= n) {
    return 2 * n - 2 - i + MIRROR_OFFSET;
  }
  return i;
}

void main() {
  COORDS c = getOutputCoords();
  setOutput(getX(MIRROR_ARGS));
}

// @program diag
// x as a vector of n values, output [n, n] with x on the diagonal.
void main() {
  ivec2 c = getOutputCoords();
  setOutput(c.x == c.y ? getX(c.x) : 0.0);
}

// @program segment_sum
// x [NUM_ROWS, inner], segmentIds [NUM_ROWS], output [segments, inner]: each output value
// sums the rows of its segment (ids outside the segments match none).
void main() {
  ivec2 c = getOutputCoords();
  float sum = 0.0;
  for (int i = 0; i < NUM_ROWS; i++) {
    if (toInt(getSegmentIds(i)) == c.x) {
      sum += getX(i, c.y);
    }
  }
  setOutput(sum);
}

// @program search_sorted
// sortedSequence [batch, NUM_INPUTS], values [batch, m]: a binary search per value with
// BOUND_CMP (< for side 'left', <= for 'right'), as TF.js's SearchSortedProgram.
void main() {
  ivec2 c = getOutputCoords();
  float value = getValues(c.x, c.y);
  int left = 0;
  int right = NUM_INPUTS;
  while (left < right) {
    int mid = (left + right) / 2;
    if (getSortedSequence(c.x, mid) BOUND_CMP value) {
      left = mid + 1;
    } else {
      right = mid;
    }
  }
  setOutput(float(right));
}

// @program topk_swap
// One compare-and-swap step of a bitonic sort of indices into x [batch, n] (TF.js's
// SwapProgram, after "Bitonic Top K", Shanbhag et al. 2018): pairs (i, i + inc) in groups of
// 2 * inc, ordered descending or ascending in alternate runs of `dir`. Positions past n hold
// -infinity; equal values order by index, lower first; NaN counts as the largest value. On the
// first pass (no indices yet) index i is i itself.
void main() {
  ivec2 c = getOutputCoords();
  int batch = c.x;
  int elem = c.y;
  bool first = elem % (2 * inc) < inc;
  int i = first ? elem : elem - inc;
  int i0 = firstPass == 1 ? i : toInt(getIndices(batch, i));
  int i1 = firstPass == 1 ? i + inc : toInt(getIndices(batch, i + inc));
  bool reverse = elem % (2 * dir) >= dir;
  if (reverse == topkFirst(batch, i0, i1)) {
    int t = i0;
    i0 = i1;
    i1 = t;
  }
  setOutput(float(first ? i0 : i1));
}

// @program topk_merge
// Halves the candidates (TF.js's MergeProgram): output position p keeps the larger of the
// pair (i, i + k) of the previous sequence, where i maps p back into every other run of k.
// Larger in the swap passes' order (topkFirst): keeping i0 on a tie of values, as TF.js does,
// loses cpu's order where i0's index is the higher one.
void main() {
  ivec2 c = getOutputCoords();
  int batch = c.x;
  int elem = c.y;
  int i = elem < k ? elem : elem * 2 - elem % k;
  int i0 = firstPass == 1 ? i : toInt(getIndices(batch, i));
  int i1 = firstPass == 1 ? i + k : toInt(getIndices(batch, i + k));
  setOutput(float(topkFirst(batch, i0, i1) ? i0 : i1));
}

// @program topk_chunk_max
// The largest value of each run of CHUNK elements of a row (NaN the largest): a row's top k lie
// in the k chunks whose maxima come first (by value, ties by chunk, which is index order), so
// TopK sorts the chunk maxima and then only those chunks' elements, not the whole row.
void main() {
  ivec2 c = getOutputCoords();
  int start = c.y * CHUNK;
  float best = -INFINITY;
  for (int j = 0; j < CHUNK; j++) {
    if (start + j >= n) {
      break;
    }
    float v = getX(c.x, start + j);
    if (isNaN(v)) {
      best = v;
      break;
    }
    best = max(best, v);
  }
  setOutput(best);
}

// @program topk_candidates
// The indices of the elements of a row's first k chunks in chunks (sorted chunk numbers), CHUNK
// to a chunk; positions past them get distinct padding indices from n on.
void main() {
  ivec2 c = getOutputCoords();
  int r = c.y / CHUNK;
  int index = r < k ? toInt(getChunks(c.x, r)) * CHUNK + c.y % CHUNK : n;
  setOutput(float(index < n ? index : n + c.y));
}
