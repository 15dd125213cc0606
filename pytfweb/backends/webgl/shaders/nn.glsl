// Softmax, LogSoftmax (programs/nn.py, with the row reductions of reduction.glsl) and OneHot.
// rowMax and total have the logits' shape with a last axis of 1, so they broadcast along rows.

// NaN stays NaN: SwiftShader's exp and log turn it into a number.

// @program exp_shifted
// Shifted by the row's maximum, exp cannot overflow.
void main() {
  float v = getXAtOutCoords() - getRowMaxAtOutCoords();
  setOutput(isNaN(v) ? v : exp(v));
}

// @program softmax
void main() {
  setOutput(getExpsAtOutCoords() / getTotalAtOutCoords());
}

// @program log_softmax
void main() {
  float total = getTotalAtOutCoords();
  setOutput((getXAtOutCoords() - getRowMaxAtOutCoords()) - (isNaN(total) ? total : log(total)));
}

// @program one_hot
// DEPTH (Python) is the output's last axis; onValue and offValue are uniforms.
void main() {
  int index = getOutputIndex();
  setOutput(toInt(getIndicesFlat(index / DEPTH)) == index % DEPTH ? onValue : offValue);
}
