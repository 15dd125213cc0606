// Sparse tensors (pytfweb/backends/webgl/programs/sparse.py).

// @program sparse_to_dense
// Output [size] (the dense tensor, flat); indices [NUM_UPDATES, RANK], values [NUM_UPDATES]
// (or [1] with SCALAR_VALUES), defaultValue [1]. Each output element loops over the entries:
// the last one naming it wins (as TF.js's cpu kernel), else the default. An index outside the
// output names no element and is ignored.
void main() {
  int c = getOutputCoords();
  int strides[RANK] = int[RANK](ND_STRIDES);
  int dims[RANK] = int[RANK](ND_SHAPE);
  float value = getDefaultValueFlat(0);
  for (int i = 0; i < NUM_UPDATES; i++) {
    int pos = 0;
    bool inside = true;
    for (int j = 0; j < RANK; j++) {
      int k = toInt(getIndicesFlat(i * RANK + j));
      inside = inside && k >= 0 && k < dims[j];
      pos += k * strides[j];
    }
    if (inside && pos == c) {
#ifdef SCALAR_VALUES
      value = getValuesFlat(0);
#else
      value = getValuesFlat(i);
#endif
    }
  }
  setOutput(value);
}
