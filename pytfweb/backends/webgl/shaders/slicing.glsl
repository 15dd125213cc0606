// Slicing programs: views of an input read by flat index, and gathers.
// Python (programs/slicing.py) defines the few rank-dependent macros each section names.

// @program view
// out[c] = x[viewOffset + c . viewStep], x read flat (row-major). One program for Slice,
// StridedSlice, Transpose, Reverse, Unpack and SplitV: they differ only in the offset and the
// per-axis steps (uniforms, negative to reverse). Python defines COORDS (the output coordinate
// type) and VIEW_DOT, the dot product of c with viewStep0, viewStep1, ...
void main() {
  COORDS c = getOutputCoords();
  setOutput(getXFlat(viewOffset + VIEW_DOT));
}

// @program gather
// x viewed as [batch, outer, axis, inner], indices as [batch, count], output as
// [batch, outer, count, inner]. An index outside [0, axis) reads 0, as on TF.js's webgl
// backend (checking would need a readback). Python defines AXIS_SIZE.
void main() {
  ivec4 c = getOutputCoords();
  int index = toInt(getIndices(c.x, c.z));
  if (index < 0 || index >= AXIS_SIZE) {
    setOutput(0.0);
    return;
  }
  setOutput(getX(c.x, c.y, index, c.w));
}
