"""A TensorFlow GraphDef, as TF.js's converter writes it into model.json, parsed into nodes.

The JSON is the protobuf's JSON form: every node has a name, an op, inputs ("x", "x:1", "^x" for
an order-only control input, "node:arg:i" inside library functions) and attributes
({"type": "DT_FLOAT"}, {"i": "1"}, {"f": 0.5}, {"b": true}, {"s": base64}, {"shape": {...}},
{"list": {...}}, {"tensor": {...}}, {"func": {"name": ...}}). Attributes are decoded when an op
asks for them, by the typed getters of Attrs, with TensorFlow's defaults given by the op.
"""
import base64
import math
import struct


# TensorFlow's DataType enum (names and numbers) -> pytfweb dtype; as TF.js, wider and narrower
# types map onto the one pytfweb has (64-bit ints compute as int32, doubles and halves as float32).
_DT_NUMBERS = {1: "DT_FLOAT", 2: "DT_DOUBLE", 3: "DT_INT32", 4: "DT_UINT8", 5: "DT_INT16", 6: "DT_INT8",
               7: "DT_STRING", 8: "DT_COMPLEX64", 9: "DT_INT64", 10: "DT_BOOL", 17: "DT_UINT16",
               18: "DT_COMPLEX128", 19: "DT_HALF", 20: "DT_RESOURCE", 21: "DT_VARIANT", 22: "DT_UINT32",
               23: "DT_UINT64"}
DTYPES = {"DT_FLOAT": "float32", "DT_HALF": "float32", "DT_DOUBLE": "float32", "DT_BFLOAT16": "float32",
          "DT_INT32": "int32", "DT_INT64": "int32", "DT_INT8": "int32", "DT_UINT8": "int32", "DT_INT16": "int32",
          "DT_UINT16": "int32", "DT_UINT32": "int32", "DT_UINT64": "int32",
          "DT_BOOL": "bool", "DT_STRING": "string", "DT_COMPLEX64": "complex64", "DT_COMPLEX128": "complex64"}


def parse_dtype(value):
    """A TensorFlow DataType (its name or number) -> pytfweb dtype, or None when pytfweb has none."""
    if isinstance(value, int):
        value = _DT_NUMBERS.get(value)
    return DTYPES.get(value)


def parse_shape(shape):
    """A TensorShapeProto -> list of ints (-1 for an unknown size), or None for an unknown rank."""
    if shape is None or shape.get("unknownRank"):
        return None
    return [int(d.get("size", 0)) for d in shape.get("dim", ())]


def parse_input(name):
    """'node', 'node:1', 'node:arg:1' or '^node' -> (node name, output arg name or None, index, control)."""
    control = name.startswith("^")
    if control:
        name = name[1:]
    parts = name.split(":")
    if len(parts) == 1:
        return name, None, 0, control
    return parts[0], parts[1] if len(parts) == 3 else None, int(parts[-1]), control


def split_output_name(name):
    """'node' or 'node:2' (a tensor name a user gives) -> (node name, index)."""
    node, _, index = name.rpartition(":")
    if node and index.isdigit():
        return node, int(index)
    return name, 0


def _float(v):
    if isinstance(v, str):  # the JSON form of non-finite floats: "NaN", "Infinity", "-Infinity"
        return float(v.replace("Infinity", "inf"))
    return float(v)


def _bytes(s):
    return base64.b64decode(s) if isinstance(s, str) else bytes(s)


def _text(s):
    return _bytes(s).decode("utf-8", "surrogateescape")


class Attrs:
    """The attributes of one node, read with TensorFlow's defaults: a.int("axis", 0),
    a.ints("strides"), a.str("padding"), a.dtype("T"), ... A missing attribute without a default
    is a ValueError naming the node."""

    __slots__ = ("raw", "node", "op")

    def __init__(self, raw, node, op):
        self.raw = raw or {}
        self.node = node
        self.op = op

    _MISSING = object()

    def has(self, name):
        return name in self.raw

    def int(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or ("i" not in value and "f" not in value):
            return self._default(name, default)
        return int(value["i"]) if "i" in value else int(_float(value["f"]))

    def float(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or ("f" not in value and "i" not in value):
            return self._default(name, default)
        return _float(value["f"]) if "f" in value else float(int(value["i"]))

    def bool(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or "b" not in value:
            # protobuf's JSON form leaves false booleans out: {"b": false} is often just {}.
            return False if value is not None and not value else self._default(name, default)
        return bool(value["b"])

    def str(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or "s" not in value:
            return self._default(name, default)
        return _text(value["s"])

    def dtype(self, name, default=_MISSING):
        """The pytfweb dtype of a type attribute. A type pytfweb has no dtype for (DT_RESOURCE,
        DT_VARIANT, quantized types) is None when a default is given (as TF.js reads it), else
        a TypeError naming the node."""
        value = self.raw.get(name)
        if value is None or "type" not in value:
            return self._default(name, default)
        dtype = parse_dtype(value["type"])
        if dtype is None and default is self._MISSING:
            raise TypeError(f"graph model: node '{self.node}' (op {self.op}): attribute '{name}' has the data type "
                            f"{value['type']}, which pytfweb does not support")
        return dtype

    def shape(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or "shape" not in value:
            return self._default(name, default)
        return parse_shape(value["shape"])

    def func(self, name, default=_MISSING):
        value = self.raw.get(name)
        if value is None or "func" not in value:
            return self._default(name, default)
        return value["func"]["name"]

    def _list(self, name):
        value = self.raw.get(name)
        if value is None or "list" not in value:
            return None
        return value["list"] or {}

    def ints(self, name, default=_MISSING):
        lst = self._list(name)
        if lst is None:
            value = self.raw.get(name)
            if value is not None and ("i" in value or "f" in value):  # one number where a list is read (TF.js takes it)
                return [self.int(name)]
            return self._default(name, default)
        if lst.get("f"):
            return [int(_float(v)) for v in lst["f"]]
        return [int(v) for v in lst.get("i", ())]

    def floats(self, name, default=_MISSING):
        lst = self._list(name)
        if lst is None:
            return self._default(name, default)
        return [_float(v) for v in lst.get("f", ())] or [float(int(v)) for v in lst.get("i", ())]

    def strs(self, name, default=_MISSING):
        lst = self._list(name)
        if lst is None:
            return self._default(name, default)
        return [_text(v) for v in lst.get("s", ())]

    def dtypes(self, name, default=_MISSING):
        lst = self._list(name)
        if lst is None:
            return self._default(name, default)
        return [parse_dtype(v) for v in lst.get("type", ())]

    def tensor(self, name, default=_MISSING):
        """A TensorProto attribute -> (flat values or None when it holds none, shape, dtype)."""
        value = self.raw.get(name)
        if value is None or "tensor" not in value:
            return self._default(name, default)
        return tensor_proto_values(value["tensor"], self.node)

    def _default(self, name, default):
        if default is self._MISSING:
            raise ValueError(f"graph model: node '{self.node}' (op {self.op}) has no attribute '{name}'")
        return default


_PROTO_FIELDS = {"float32": ("floatVal", "halfVal", "doubleVal"), "int32": ("intVal", "int64Val", "uint32Val",
                 "uint64Val"), "bool": ("boolVal",), "string": ("stringVal",), "complex64": ("scomplexVal",
                 "dcomplexVal")}
_CONTENT_FORMATS = {"DT_FLOAT": "f", "DT_DOUBLE": "d", "DT_INT32": "i", "DT_INT64": "q", "DT_INT8": "b",
                    "DT_UINT8": "B", "DT_INT16": "h", "DT_UINT16": "H", "DT_UINT32": "I", "DT_UINT64": "Q",
                    "DT_BOOL": "?", "DT_HALF": "e", "DT_COMPLEX64": "f", "DT_COMPLEX128": "d"}


def tensor_proto_values(proto, node):
    """(flat values or None, shape, dtype) of a TensorProto in JSON form. Values come from
    tensorContent (little-endian bytes) or the typed *Val lists, a single value filling the shape
    as TensorFlow does; None when the proto holds no values (the converter moved them to the
    weights)."""
    tf_type = proto.get("dtype", "DT_FLOAT")
    if isinstance(tf_type, int):
        tf_type = _DT_NUMBERS.get(tf_type)
    dtype = DTYPES.get(tf_type)
    if dtype is None:
        raise TypeError(f"graph model: node '{node}' holds a tensor of data type {tf_type}, which pytfweb does not "
                        f"support")
    shape = parse_shape(proto.get("tensorShape")) or []
    size = math.prod(shape)
    if "tensorContent" in proto:
        raw = _bytes(proto["tensorContent"])
        fmt = _CONTENT_FORMATS.get(tf_type)
        if fmt is None or len(raw) != size * struct.calcsize("<" + fmt) * (2 if "COMPLEX" in tf_type else 1):
            raise ValueError(f"graph model: node '{node}': tensorContent has {len(raw)} bytes, which does not hold "
                             f"{size} values of {tf_type}")
        values = list(struct.unpack(f"<{len(raw) // struct.calcsize(fmt)}{fmt}", raw))
    else:
        values = None
        for field in _PROTO_FIELDS[dtype]:
            if field in proto:
                values = proto[field]
                break
        if values is None:
            return None, shape, dtype
        if dtype == "string":
            values = [_text(v) for v in values]
        elif dtype == "float32":
            values = [_float(v) for v in values]
        elif dtype == "complex64":
            values = [_float(v) for v in values]
        elif dtype == "bool":
            values = [bool(v) for v in values]
        else:
            values = [int(v) for v in values]
        per = 2 if dtype == "complex64" else 1
        if len(values) != size * per:
            if len(values) == per and size > 0:  # TensorFlow's compact form: one value for the whole shape
                values = values * size
            elif not (len(values) == 0 and size == 0):
                raise ValueError(f"graph model: node '{node}': the tensor holds {len(values) // per} values for "
                                 f"the shape {shape}")
    if dtype == "bool":
        values = [bool(v) for v in values]
    elif dtype == "float32":
        values = [float(v) for v in values]
    return values, shape, dtype


# The output arguments of TensorFlow ops with several single-tensor outputs: inside library
# functions an input reads "node:arg:i", and arg picks the output.
OUTPUT_ARGS = {
    "FusedBatchNorm": ("y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"),
    "FusedBatchNormV2": ("y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"),
    "FusedBatchNormV3": ("y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2",
                         "reserve_space_3"),
    "TopKV2": ("values", "indices"), "Unique": ("y", "idx"), "UniqueV2": ("y", "idx"),
    "Switch": ("output_false", "output_true"), "Merge": ("output", "value_index"),
    "TensorArrayV3": ("handle", "flow"), "TensorArrayConcatV3": ("value", "lengths"),
    "TensorListPopBack": ("output_handle", "tensor"), "MaxPoolWithArgmax": ("output", "argmax"),
    "NonMaxSuppressionV4": ("selected_indices", "valid_outputs"),
    "NonMaxSuppressionV5": ("selected_indices", "selected_scores", "valid_outputs"),
    "ListDiff": ("out", "idx"),
    "SparseFillEmptyRows": ("output_indices", "output_values", "empty_row_indicator", "reverse_index_map"),
    "SparseReshape": ("output_indices", "output_shape"), "StringSplit": ("indices", "values", "shape"),
    "StringNGrams": ("ngrams", "ngrams_splits"), "RaggedRange": ("rt_nested_splits", "rt_dense_values"),
}


class Node:
    """One graph node. inputs: [(Node, output index)] the data inputs in order; control: [Node]
    order-only inputs; children: nodes reading this one (data or control)."""

    __slots__ = ("name", "op", "attrs", "input_refs", "inputs", "control", "children", "signature_key",
                 "default_output", "consumers")

    def __init__(self, name, op, attrs, input_refs):
        self.name = name
        self.op = op
        self.attrs = attrs
        self.input_refs = input_refs
        self.inputs = []
        self.control = []
        self.children = []
        self.signature_key = None
        self.default_output = 0
        self.consumers = {}  # output index -> [child names reading it]

    def __repr__(self):
        return f"Node({self.name!r}, {self.op})"


class Graph:
    """Parsed nodes (in file order) and what the executor needs to know about them."""

    def __init__(self, nodes, name="graph"):
        self.name = name
        self.nodes = nodes
        self.placeholders = [n for n in nodes.values() if n.op.startswith("Placeholder")]
        self.consts = [n for n in nodes.values() if n.op == "Const"]
        self.init_nodes = [n for n in nodes.values()
                           if not n.op.startswith("Placeholder") and n.op != "Const" and not n.input_refs]
        self.inputs = []
        self.outputs = []
        self.input_names = []
        self.output_names = []
        self.functions = {}

    def unlink(self):
        """Drop the links between the nodes (and those of the functions' graphs): each edge is a
        reference cycle (parent.children, child.inputs), so a disposed model's thousands of nodes
        would otherwise wait for a full collection of the cyclic GC, which walks every object
        (~50 ms in the page, charged to whatever runs next). Emptied in place: new empty lists would
        be four allocations a node, enough to set off a collection of their own."""
        for g in (self, *self.functions.values()):
            for node in g.nodes.values():
                node.inputs.clear()
                node.control.clear()
                node.children.clear()
                node.consumers.clear()


def _node_list(defs, where):
    nodes = {}
    for i, d in enumerate(defs or ()):
        name = d.get("name") if isinstance(d, dict) else None
        op = d.get("op") if name is not None else None
        if not isinstance(name, str) or not isinstance(op, str):
            raise ValueError(f"graph model: {where}: node {i} must be an object with a 'name' and an 'op', got "
                             f"{str(d)[:80]}")
        if name in nodes:
            raise ValueError(f"graph model: {where} has two nodes named '{name}'")
        inputs = d.get("input")
        refs = []
        if inputs:
            if not isinstance(inputs, list):
                raise ValueError(f"graph model: node '{name}': 'input' must be a list of strings")
            for s in inputs:
                if s.__class__ is not str and not isinstance(s, str):
                    raise ValueError(f"graph model: node '{name}': 'input' must be a list of strings")
                # most inputs name a node's first output: no parse
                refs.append((s, None, 0, False) if ":" not in s and not s.startswith("^") else parse_input(s))
        nodes[name] = Node(name, op, Attrs(d.get("attr"), name, op), refs)
    return nodes


def _link(nodes, where):
    # A node's refs are linked together, node after node, so a repeated edge (Mul(x, x)) can only
    # repeat the last entry of the parent's lists: no scan of a list that a widely shared node
    # (a constant read by hundreds) makes long.
    output_args = OUTPUT_ARGS
    for node in nodes.values():
        name = node.name
        for src, arg, index, control in node.input_refs:
            parent = nodes.get(src)
            if parent is None:
                raise ValueError(f"graph model: node '{name}' ({node.op}) in {where} reads '{src}', which is not a "
                                 f"node of the graph")
            if control:
                node.control.append(parent)
            else:
                if arg is not None and parent.op in output_args and arg in output_args[parent.op]:
                    index += output_args[parent.op].index(arg)
                node.inputs.append((parent, index))
                readers = parent.consumers.get(index)
                if readers is None:
                    parent.consumers[index] = [name]
                elif readers[-1] != name:
                    readers.append(name)
            children = parent.children
            if not children or children[-1] is not node:
                children.append(node)


def _signature_names(entries):
    """signature inputs/outputs {key: {"name": "x:0", ...}} -> {"x:0": key}."""
    out = {}
    for key, info in (entries or {}).items():
        if isinstance(info, dict) and "name" in info:
            out[info["name"]] = key
    return out


def parse_graph(graph_def, signature=None):
    """model.json's modelTopology (a GraphDef) -> Graph with inputs, outputs and functions."""
    if not isinstance(graph_def, dict) or not isinstance(graph_def.get("node", []), list):
        raise ValueError("graph model: modelTopology must be a GraphDef object with a 'node' list")
    nodes = _node_list(graph_def.get("node"), "the graph")
    _link(nodes, "the graph")
    graph = Graph(nodes)
    sig_in = _signature_names((signature or {}).get("inputs"))
    sig_out = _signature_names((signature or {}).get("outputs"))
    # outputs / inputs: the nodes; output_names / input_names: what the user calls them (the
    # signature key, else the node name), one entry per signature tensor
    if sig_out:
        for tensor_name, key in sig_out.items():
            node = nodes.get(split_output_name(tensor_name)[0])
            if node is not None:
                node.signature_key = key
                graph.outputs.append(node)
                graph.output_names.append(key)
    else:
        graph.outputs = [n for n in nodes.values() if not n.children]
        graph.output_names = [n.name for n in graph.outputs]
    if sig_in:
        for tensor_name, key in sig_in.items():
            node = nodes.get(split_output_name(tensor_name)[0])
            if node is not None:
                node.signature_key = key
                graph.inputs.append(node)
                graph.input_names.append(key)
    else:
        graph.inputs = list(graph.placeholders)
        graph.input_names = [n.name for n in graph.inputs]
    for fdef in (graph_def.get("library") or {}).get("function") or ():
        fn = parse_function(fdef)
        graph.functions[fn.name] = fn
    return graph


def parse_function(fdef):
    """A FunctionDef of the graph's library -> Graph whose inputs are its argument placeholders and
    whose outputs are its return values, in signature order."""
    sig = fdef.get("signature") or {}
    name = sig.get("name")
    if not isinstance(name, str):
        raise ValueError("graph model: a library function has no signature name")
    where = f"function '{name}'"
    nodes = {}
    args = []
    for arg in sig.get("inputArg") or ():
        node = Node(arg["name"], "Placeholder", Attrs({"dtype": {"type": arg.get("type", "DT_FLOAT")}}, arg["name"],
                                                       "Placeholder"), [])
        node.signature_key = arg["name"]
        nodes[arg["name"]] = node
        args.append(node)
    body = _node_list(fdef.get("nodeDef"), where)
    for key, node in body.items():
        if key in nodes:
            raise ValueError(f"graph model: {where}: node '{key}' has the name of an argument")
        nodes[key] = node
    _link(nodes, where)
    graph = Graph(nodes, name)
    graph.inputs = args
    ret = fdef.get("ret") or {}
    graph.output_refs = []
    for arg in sig.get("outputArg") or ():
        ref = ret.get(arg["name"])
        if ref is None:
            raise ValueError(f"graph model: {where} does not say what its output '{arg['name']}' returns")
        src, out_arg, index, _ = parse_input(ref)
        node = nodes.get(src)
        if node is None:
            raise ValueError(f"graph model: {where} returns '{ref}', which is not a node of the function")
        if out_arg is not None and node.op in OUTPUT_ARGS and out_arg in OUTPUT_ARGS[node.op]:
            index += OUTPUT_ARGS[node.op].index(out_arg)
        graph.output_refs.append((node, index))
        graph.outputs.append(node)
    graph.signature = {"method_name": name,
                       "inputs": {a["name"]: {"name": a["name"], "dtype": a.get("type")} for a in sig.get("inputArg") or ()},
                       "outputs": {a["name"]: {"name": ret.get(a["name"]), "dtype": a.get("type")}
                                   for a in sig.get("outputArg") or ()}}
    return graph

