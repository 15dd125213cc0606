// Optimizer updates (programs/optimizers.py): each optimizer's float32 steps (train/*.py) in their
// order. A program is a `<optimizer>_common` section (the new slot values) and, for each output,
// a `<optimizer>_<output>` function of the same name giving its new value; Python writes main,
// which stores every output in one draw (or one output a draw where the context has too few
// draw buffers). Inputs are the variable `value`, its `gradient` and its slots (one shape), and
// scalars; uniforms come from the hyper-parameters. Python prepends op_Sqrt, op_Abs, op_Maximum
// and the helpers section.

// @program helpers
// NaN in gives NaN out, as the unary ops' programs do
float sqrtOf(float x) { return isNaN(x) ? x : op_Sqrt(x); }
float absOf(float x) { return isNaN(x) ? x : op_Abs(x); }

// @program sgd_common

// @program sgd_value
float sgd_value() { return negLearningRate * getGradientAtOutCoords() + getValueAtOutCoords(); }

// @program momentum_common
float newAccumulation() { return momentum * getAccumulationAtOutCoords() + getGradientAtOutCoords(); }

// @program momentum_accumulation
float momentum_accumulation() { return newAccumulation(); }

// @program momentum_value
float momentum_value() { return negLearningRate * newAccumulation() + getValueAtOutCoords(); }

// @program momentum_nesterov_value
float momentum_nesterov_value() {
  return negLearningRate * (getGradientAtOutCoords() + newAccumulation() * momentum) + getValueAtOutCoords();
}

// @program rmsprop_common
float newMs() {
  float g = getGradientAtOutCoords();
  return getMsAtOutCoords() * decay + g * g * oneMinusDecay;
}
float newMom() {
  return getMomAtOutCoords() * momentum + getGradientAtOutCoords() * learningRate / sqrtOf(newMs() + epsilon);
}

// @program rmsprop_centered_common
float newMs() {
  float g = getGradientAtOutCoords();
  return getMsAtOutCoords() * decay + g * g * oneMinusDecay;
}
float newMg() { return getMgAtOutCoords() * decay + getGradientAtOutCoords() * oneMinusDecay; }
float newMom() {
  float mg = newMg();
  return getMomAtOutCoords() * momentum
         + getGradientAtOutCoords() * learningRate / sqrtOf(newMs() - (mg * mg + epsilon));
}

// @program rmsprop_ms
float rmsprop_ms() { return newMs(); }

// @program rmsprop_mg
float rmsprop_mg() { return newMg(); }

// @program rmsprop_mom
float rmsprop_mom() { return newMom(); }

// @program rmsprop_value
float rmsprop_value() { return getValueAtOutCoords() - newMom(); }

// @program adagrad_common
float newAccumulator() {
  float g = getGradientAtOutCoords();
  return getAccumulatorAtOutCoords() + g * g;
}

// @program adagrad_accumulator
float adagrad_accumulator() { return newAccumulator(); }

// @program adagrad_value
float adagrad_value() {
  return getGradientAtOutCoords() / sqrtOf(newAccumulator() + epsilon) * negLearningRate + getValueAtOutCoords();
}

// @program adadelta_common
float newAccumGrad() {
  float g = getGradientAtOutCoords();
  return getAccumGradAtOutCoords() * rho + g * g * oneMinusRho;
}
// TF.js's: the previous accumulated gradient, not the new one
float updates() {
  return sqrtOf(getAccumVarAtOutCoords() + epsilon) / sqrtOf(getAccumGradAtOutCoords() + epsilon)
         * getGradientAtOutCoords();
}

// @program adadelta_accumGrad
float adadelta_accumGrad() { return newAccumGrad(); }

// @program adadelta_accumVar
float adadelta_accumVar() {
  float u = updates();
  return getAccumVarAtOutCoords() * rho + u * u * oneMinusRho;
}

// @program adadelta_value
float adadelta_value() { return updates() * negLearningRate + getValueAtOutCoords(); }

// @program adamax_common
float newM() { return getMAtOutCoords() * beta1 + getGradientAtOutCoords() * oneMinusBeta1; }
float newV() { return op_Maximum(getVAtOutCoords() * beta2, absOf(getGradientAtOutCoords())); }

// @program adamax_m
float adamax_m() { return newM(); }

// @program adamax_v
float adamax_v() { return newV(); }

// @program adamax_value
float adamax_value() {
  return getLrAtOutCoords() / getOneMinusAccBeta1AtOutCoords() * (newM() / (newV() + epsilon))
         + getValueAtOutCoords();
}

// @program adam_common
float newM() { return getMAtOutCoords() * beta1 + getGradientAtOutCoords() * oneMinusBeta1; }
float newV() {
  float g = getGradientAtOutCoords();
  return getVAtOutCoords() * beta2 + g * g * oneMinusBeta2;
}

// @program adam_m
float adam_m() { return newM(); }

// @program adam_v
float adam_v() { return newV(); }

// @program adam_value
float adam_value() {
  float m = newM() / getOneMinusAccBeta1AtOutCoords();
  float v = newV() / getOneMinusAccBeta2AtOutCoords();
  return m / (sqrtOf(v) + epsilon) * negLearningRate + getValueAtOutCoords();
}
