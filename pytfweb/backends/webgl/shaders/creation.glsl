// Tensors made from attributes alone: no inputs, values from uniforms.

// @program fill
void main() {
  setOutput(value);
}

// @program ramp
// start + i * step; the element at lastIndex is exactly lastValue (linspace's stop; -1 for none).
void main() {
  int i = getOutputIndex();
  setOutput(i == lastIndex ? lastValue : start + float(i) * step);
}
