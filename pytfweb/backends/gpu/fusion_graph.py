"""Lazy elementwise fusion, the part every GPU backend shares (webgl: webgl/programs/fusion.py,
webgpu: webgpu/programs/fusion.py; each keeps only its code generation and its draw or dispatch).

An elementwise kernel does not run: `record` gives its output data whose values are an expression
(a `Node`) over its inputs, where an input that is itself pending is inlined, a one-value input
still CPU-side is a `Uniform` and any other a `Leaf` (data read at the output's coordinates). The
backend compiles the expression into one program when the values are first needed.

Evaluating every node at the output's coordinates is exact for elementwise trees: each node's
shape broadcasts to the output's, and broadcasting composes. A pending input seen under another
shape (a reshape shares its data) is computed first and read as a leaf.

`PendingData` is the backend's side: which data are pending, and the data their expressions read,
kept alive while read: disposing such data only marks it, and the last expression reading it frees
it."""
from ...kernels import TensorInfo
from ...core.tensor import DataId

#: What a fused program reads and writes (complex64 and string data never reach a shader).
DTYPES = frozenset(("float32", "int32", "bool"))


class Node:
    """One op: `op`, what the backend's code generation makes of it (its structure: never values),
    `values` (per-call values of its attributes, uniforms of the program), args (Nodes, Leaves,
    Uniforms) and its output shape and dtype. An expression is a DAG: a pending value read twice is
    one Node, computed once in the program (`size` counts the distinct nodes). `exact`: the
    expression holds a node that can be evaluated only at its own flat index, not broadcast
    (webgl's pending GEMM unpack): record computes it first where it would be read broadcast."""
    __slots__ = ("op", "values", "args", "shape", "dtype", "_nodes", "size", "leaves", "exact")

    def __init__(self, op, args, shape, dtype, values=()):
        self.op, self.values, self.args = op, values, args
        self.shape, self.dtype = tuple(shape), dtype
        self._nodes = None
        only, count = None, 0   # the one pending argument of a chain
        for a in args:
            if type(a) is not Uniform:
                only, count = a, count + 1
        if count == 1 and type(only) is Node:
            # A chain (an op on one pending value, any others uniforms), what most ops of an
            # elementwise run are: no set of the DAG's nodes is built.
            self.size, self.leaves, self.exact = only.size + 1, only.leaves, only.exact
            return
        merged, any_node, self.exact = {}, False, False
        for a in args:
            if type(a) is Leaf:
                merged[a.key] = a
            elif type(a) is Node:
                any_node = True
                self.exact = self.exact or a.exact
                for leaf in a.leaves:
                    merged[leaf.key] = leaf
        self.leaves = tuple(merged.values())
        self.size = len(self.nodes) if any_node else 1

    @property
    def nodes(self):
        """The ids of the distinct nodes of this expression (made when first asked for)."""
        if self._nodes is None:
            self._nodes = frozenset().union(*(a.nodes for a in self.args if type(a) is Node)) | {id(self)}
        return self._nodes


class Leaf:
    """Data the expression reads: its TensorInfo, with the shape it is read under."""
    __slots__ = ("info", "key")

    def __init__(self, info):
        self.info = info
        self.key = (info.data_id, tuple(info.shape))


class Uniform:
    """A one-value operand whose value is CPU-side: a uniform of the program (its value is not
    part of the program's structure)."""
    __slots__ = ("value", "dtype")

    def __init__(self, value, dtype):
        self.value, self.dtype = value, dtype


def record(backend, op, inputs, out_shape, dtype, scalar_of, limits, materialize, values=(), check=None):
    """The output (TensorInfo) of an elementwise op, pending, or None where the op is not deferred
    (dtypes a program does not take: it then runs as without fusion). scalar_of(info): the value of
    a one-value input that goes as a uniform, or None. limits: (most nodes, most leaves) of one
    program; beyond them the largest pending input is computed first (materialize(backend,
    data_id)) and read as a leaf. check(): raises what running the op would raise, so that the
    error comes at the op, not at a later read."""
    if dtype not in DTYPES:
        return None
    for t in inputs:
        if t.dtype not in DTYPES:
            return None
    if check is not None:
        check()
    max_nodes, max_leaves = limits
    args = [_arg(backend, t, scalar_of, materialize) for t in inputs]
    for i, a in enumerate(args):
        if type(a) is Node and a.exact and a.shape != tuple(out_shape):
            materialize(backend, inputs[i].data_id)    # read broadcast: as a leaf
            args[i] = _arg(backend, inputs[i], scalar_of, materialize)
    node = Node(op, args, out_shape, dtype, values)
    while node.size > max_nodes or len(node.leaves) > max_leaves:
        i = max((i for i, a in enumerate(args) if isinstance(a, Node)), key=lambda i: args[i].size)
        materialize(backend, inputs[i].data_id)
        args[i] = _arg(backend, inputs[i], scalar_of, materialize)
        node = Node(op, args, out_shape, dtype, values)
    return backend.add_pending(node)


def _arg(backend, t, scalar_of, materialize):
    pending = backend.pending.get(t.data_id)
    if pending is not None:
        if pending.shape == tuple(t.shape):
            return pending
        materialize(backend, t.data_id)    # read under another shape: as a leaf
    value = scalar_of(t)
    return Uniform(value, t.dtype) if value is not None else Leaf(TensorInfo(t.data_id, tuple(t.shape), t.dtype))


def generate(root, leaf, uniform, node):
    """Code generation's walk of an expression, for a backend's program: leaf(Leaf) and
    node(Node, [its arguments' values]) are called once per distinct leaf and node (a DAG: a value
    read twice is computed once), uniform(Uniform) once per use; each returns the code of the
    value. Returns root's."""
    done = {}   # Leaf key or id(Node) -> the code of its value

    def visit(n):
        if isinstance(n, Uniform):
            return uniform(n)
        key = n.key if isinstance(n, Leaf) else id(n)
        if key not in done:
            done[key] = leaf(n) if isinstance(n, Leaf) else node(n, [visit(a) for a in n.args])
        return done[key]
    return visit(root)


class PendingData:
    """The pending-data bookkeeping of a backend (a mixin): `pending` maps DataId -> the Node its
    values are still to be computed from; `leaf_refs` counts the pending expressions reading each
    DataId; `free_later` holds data disposed while read. The backend supplies `data_class(shape,
    dtype)` (its per-data record, in `store`), `materialize(data_id)` and `_free(data_id)`."""

    def _init_pending(self):
        self.pending = {}
        self.leaf_refs = {}
        self.free_later = set()

    def add_pending(self, node):
        """New data whose values are node's, computed when first needed."""
        data_id = DataId(self)
        self.store[data_id] = self.data_class(node.shape, node.dtype)
        self.pending[data_id] = node
        for leaf in node.leaves:
            key = leaf.info.data_id
            self.leaf_refs[key] = self.leaf_refs.get(key, 0) + 1
        return TensorInfo(data_id, node.shape, node.dtype)

    def resolve_pending(self, data_id, out):
        """A pending data's expression was computed into out: the data takes out's record."""
        node = self.pending.pop(data_id)
        self.store[data_id] = self.store.pop(out.data_id)
        self._release_leaves(node)

    def materialize_all(self):
        for data_id in list(self.pending):
            self.materialize(data_id)

    def dispose_pending(self, data_id):
        """dispose_data's part for fusion: True where it is done (data never computed: nothing to
        free but what its expression holds; data a pending expression reads: freed with the last),
        False where the backend frees it as usual."""
        node = self.pending.pop(data_id, None)
        if node is not None:
            self.store.pop(data_id, None)
            self._release_leaves(node)
            return True
        if data_id in self.leaf_refs:
            self.free_later.add(data_id)
            return True
        return False

    def _release_leaves(self, node):
        for leaf in node.leaves:
            key = leaf.info.data_id
            n = self.leaf_refs[key] - 1
            if n:
                self.leaf_refs[key] = n
            else:
                del self.leaf_refs[key]
                if key in self.free_later:
                    self.free_later.discard(key)
                    self._free(key)

    def clear_pending(self):
        self.pending.clear()
        self.leaf_refs.clear()
        self.free_later.clear()
