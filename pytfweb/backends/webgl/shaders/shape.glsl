// Shape programs that are not plain views of one input (those are `view` in slicing.glsl).
// Python (programs/shape.py) defines the few shape-dependent macros each section names.

// @program concat
// Inputs t0, t1, ... viewed as 2D [outer, columns] and joined along the columns; concat of
// any axis and stack (Pack) reduce to this. Python defines CONCAT_READ, one line per input:
// `if (col < end_i) return getT_i(row, col - start_i);` (the last one unconditional).
float concatRead(int row, int col) {
  CONCAT_READ
}

void main() {
  ivec2 c = getOutputCoords();
  setOutput(concatRead(c.x, c.y));
}

// @program tile
// out[c] = x[c mod x.shape] along every repeated axis. Python defines COORDS and TILE_ARGS,
// the input coordinates as getX arguments (`c.x % 3, c.y`).
void main() {
  COORDS c = getOutputCoords();
  setOutput(getX(TILE_ARGS));
}

// @program pad
// out[c] = x[c - before] inside x, padValue outside; the `before` paddings are uniforms
// padBefore0, padBefore1, ... Python defines COORDS, PAD_COORDS (declares i0, i1, ...),
// PAD_OUTSIDE (a bool over the padded axes, written `uint(i) >= size` to test both ends at
// once) and PAD_ARGS (i0, i1, ...).
void main() {
  COORDS c = getOutputCoords();
  PAD_COORDS
  if (PAD_OUTSIDE) {
    setOutput(padValue);
  } else {
    setOutput(getX(PAD_ARGS));
  }
}
