"""The gradient tape: what ran while a gradient was being computed, and backpropagation.

While any gradient computation is running, the engine appends a TapeNode per kernel run.
A node keeps the ids and shapes of all its inputs and outputs, but holds on to the data of
only those its gradient declared it needs (kept references that share the data, released
when the outermost gradient computation ends). Nested computations share one tape, so a
gradient's own kernels are on the tape too and tf.grad(tf.grad(f)) works.
"""


class TapeNode:
    __slots__ = ("kernel", "inputs", "outputs", "attrs", "grad_fn", "x", "y")

    def __init__(self, kernel, inputs, outputs, attrs, config, save):
        self.kernel = kernel
        self.inputs = [_Ref(t) for t in inputs]
        self.outputs = [_Ref(t) for t in outputs]
        self.attrs = attrs
        self.grad_fn = config.fn if config is not None else None
        self.x = _saved(inputs, config.save_inputs, save) if config is not None else []
        self.y = _saved(outputs, config.save_outputs, save) if config is not None else []

    @property
    def input_shapes(self):
        return [r.shape for r in self.inputs]

    @property
    def input_dtypes(self):
        return [r.dtype for r in self.inputs]

    @property
    def output_shapes(self):
        return [r.shape for r in self.outputs]

    def saved(self):
        return [t for t in self.x + self.y if t is not None]


class _Ref:
    """What the tape remembers of a tensor it did not save: identity, shape, dtype."""
    __slots__ = ("id", "shape", "dtype")

    def __init__(self, t):
        self.id, self.shape, self.dtype = t.id, t.shape, t.dtype


def _saved(tensors, which, save):
    if which is True:
        return [save(t) for t in tensors]
    if not which:
        return [None] * len(tensors)
    return [save(t) if i in which else None for i, t in enumerate(tensors)]


def filter_tape(tape, xs, y):
    """The nodes on a path from any of xs to y, each with a mask of the inputs that get a
    gradient (those that depend on xs and lead to y), in tape order."""
    from_x = {x.id for x in xs}
    node_from_x = []
    for node in tape:
        hit = any(r.id in from_x for r in node.inputs)
        node_from_x.append(hit)
        if hit:
            from_x.update(r.id for r in node.outputs)
    lead_to_y = {y.id}
    node_leads = [False] * len(tape)
    for i in range(len(tape) - 1, -1, -1):
        node = tape[i]
        if any(r.id in lead_to_y for r in node.outputs):
            node_leads[i] = True
            lead_to_y.update(r.id for r in node.inputs)
    return [(node, [r.id in from_x and r.id in lead_to_y for r in node.inputs])
            for node, a, b in zip(tape, node_from_x, node_leads) if a and b]


def backpropagate(filtered, grads, ops, tidy=lambda fn: fn()):
    """Walk filtered nodes backwards, accumulating gradients into grads (tensor id -> Tensor).
    ops gives zeros(shape, dtype), cast, clone and add (the engine's _GradOps: kernel runs, as
    the tape sits below ops). tidy(fn) runs fn in a scope of its own: each node's gradient
    does, so that its intermediate tensors go as soon as it is computed, not at the end of
    backpropagation."""
    for node, mask in reversed(filtered):
        dys = [grads.get(r.id) for r in node.outputs]
        if all(d is None for d in dys):
            continue
        if node.grad_fn is None:
            raise ValueError(f"Cannot compute gradient: no gradient function is registered for "
                             f"kernel '{node.kernel}'")
        dys = [d if d is not None else ops.zeros(r.shape, r.dtype) for d, r in zip(dys, node.outputs)]
        input_grads = tidy(lambda: _input_grads(node, dys[0] if len(dys) == 1 else dys, mask))
        for i, (ref, g) in enumerate(zip(node.inputs, input_grads)):
            if g is None:
                continue
            if tuple(g.shape) != tuple(ref.shape):
                raise ValueError(f"Error in gradient for kernel '{node.kernel}': the gradient of input {i} "
                                 f"has shape {list(g.shape)}, which does not match the shape of the input "
                                 f"{list(ref.shape)}")
            if g.dtype not in ("float32", "complex64"):   # a complex gradient stays complex
                g = ops.cast(g, "float32")
            elif any(g is t for t in node.saved()):
                g = ops.clone(g)  # a saved tensor goes with the tape; the gradient must outlive it
            prev = grads.get(ref.id)
            grads[ref.id] = g if prev is None else ops.add(prev, g)


def _input_grads(node, dy, mask):
    """The node's gradient for each input that wants one (None for the others). A gradient
    function may return, per input, a Tensor, None, or a function of no arguments giving one:
    such a function is called only for an input that wants a gradient (TF.js's lazy gradients;
    it spares, say, the second product of a mat_mul whose other operand is a constant)."""
    input_grads = node.grad_fn(dy, node)
    if len(input_grads) != len(node.inputs):
        raise ValueError(f"The gradient of kernel '{node.kernel}' returned {len(input_grads)} "
                         f"gradients for {len(node.inputs)} inputs")
    return [(g() if callable(g) else g) if wanted and g is not None else None
            for wanted, g in zip(mask, input_grads)]
