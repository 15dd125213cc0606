"""Layers and models to and from JSON configs in TF.js 4.22's layers format (tfjs-layers'
toJSON / modelFromJSON / loadWeights), and tf.serialization.

A layer's config is its get_config(): snake_case constructor arguments, with initializers,
regularizers, constraints and sub-layers as {"class_name", "config"} (config_value). A config
becomes a layer again through the class registry (every built-in layer class by its class_name,
plus classes given to register_class or passed as custom_objects) and the class's from_config,
which keeps only the arguments its constructor takes, as TF.js ignores unknown fields.

Weights are named as TF.js names them, by structure rather than by variable name: a layer's
weight is '<layer name>/<weight name>'; a TimeDistributed's inner weights take the wrapper's
name, a Bidirectional's '<name>/forward_<...>/...', a stacked RNN's '<name>/RNNCell_<i>/...';
a nested model's layers keep their own names. A model's weights are listed as TF.js lists them:
every trainable weight, then every non-trainable one.

A file is data: nothing in it is run. A Lambda layer (code) or an unknown class is refused with
the layer's name.
"""
import contextlib

from ..core.limits import check_depth, load_json
from .config import (_REFUSED, _REGISTERED, _REGISTERED_NAMES, SerializationMap, _building,  # noqa: F401
                     _disposing_on_error, _track, builtin_layers, config_value, deserialize_layer,
                     get_registered_name, layer_kwargs, register_class, serialize)
from .engine import InputLayer, assign_checked
from .initializers import fast_init
from .recurrent import RNN, StackedRNNCells
from .wrappers import Bidirectional, TimeDistributed

_builtin_layers = builtin_layers   # (the tests' name)

KERAS_VERSION = "tfjs-layers 4.22.0"
BACKEND = "tensor_flow.js"


# --- models ---------------------------------------------------------------------------------------------
def sequential_config(model):
    return {"name": model.name, "layers": [serialize(layer) for layer in model.layers]}


def sequential_from_config(cls, config, custom_objects=None):
    layer_specs = config if isinstance(config, list) else config.get("layers")
    if not isinstance(layer_specs, list):
        raise ValueError("A Sequential config must have a 'layers' list")
    name = None if isinstance(config, list) else config.get("name")
    model = cls(name=name)
    _track(model)
    for spec in layer_specs:
        model.add(deserialize_layer(spec, custom_objects))
    return model


def functional_config(model):
    """TF.js's Container.getConfig: layers with their inbound nodes (node indices counted over the
    nodes that belong to this model), input_layers and output_layers."""
    own = {id(n) for n in model._nodes}
    for x in model.inputs:
        own.add(id(x.source_layer.inbound_nodes[x.node_index]))
    index = {}   # (id(layer), original node index) -> index within this model

    def node_key(layer, i):
        if (id(layer), i) not in index:
            kept = [j for j, n in enumerate(layer.inbound_nodes) if id(n) in own]
            for k, j in enumerate(kept):
                index[(id(layer), j)] = k + _first_node(layer)
        return index.get((id(layer), i), i)

    layers = []
    for layer in model.layers:
        nodes = []
        if not isinstance(layer, InputLayer):
            for i, node in enumerate(layer.inbound_nodes):
                if id(node) not in own:
                    continue
                nodes.append([[x.source_layer.name, node_key(x.source_layer, x.node_index), x.tensor_index, {}]
                              for x in node.input_tensors])
        layers.append({"name": layer.name, "class_name": layer.get_class_name(), "config": layer.get_config(),
                       "inbound_nodes": nodes})
    ends = lambda xs: [[x.source_layer.name, node_key(x.source_layer, x.node_index), x.tensor_index]  # noqa: E731
                       for x in xs]
    return {"name": model.name, "layers": layers, "input_layers": ends(model.inputs),
            "output_layers": ends(model.outputs)}


def _model_class():
    """Model, from the registry: models.py imports this module, not the other way round."""
    return builtin_layers()["Model"]


def _first_node(layer):
    """The index files give a layer's first application: 1 for a model, whose node 0 is the one
    TF.js and Keras make for the model itself (linking its own inputs to its outputs)."""
    return 1 if isinstance(layer, _model_class()) else 0


def functional_from_config(cls, config, custom_objects=None):
    """Rebuild the graph: make every layer, then apply each to its inbound nodes' tensors as soon
    as those exist (Keras's processing order, which tolerates layers listed before their inputs)."""
    if not isinstance(config, dict) or not isinstance(config.get("layers"), list):
        raise ValueError("A functional model config must have a 'layers' list")
    made = {}        # layer name -> layer
    outputs = {}     # (layer name, node index) -> output SymbolicTensors
    pending = []     # [layer, remaining node specs, next node index]
    for spec in config["layers"]:
        layer = deserialize_layer(spec, custom_objects)
        name = spec.get("name") or layer.name
        if name in made:
            raise ValueError(f"Model config: the layer name '{name}' is used twice")
        made[name] = layer
        if isinstance(layer, InputLayer):
            outputs[(name, 0)] = layer.inbound_nodes[0].output_tensors
        pending.append([layer, list(spec.get("inbound_nodes") or []), _first_node(layer), name])

    def tensor(ref, consumer):
        if not isinstance(ref, (list, tuple)) or len(ref) < 3:
            raise ValueError(f"Model config: layer '{consumer}' has a malformed inbound node entry {ref!r}")
        src, node_index, tensor_index = ref[0], ref[1], ref[2]
        if src not in made:
            raise ValueError(f"Model config: layer '{consumer}' reads from '{src}', which is not a layer of the "
                             f"model")
        outs = outputs.get((src, node_index))
        return None if outs is None else outs[tensor_index]

    progress = True
    while progress and any(p[1] for p in pending):
        progress = False
        for entry in pending:
            layer, nodes, _, name = entry
            while nodes:
                node = nodes[0]
                refs = node["args"] if isinstance(node, dict) else node   # a plain list in TF.js / Keras 2
                xs = [tensor(r, name) for r in refs]
                if any(x is None for x in xs):
                    break
                out = layer.apply(xs if len(xs) > 1 else xs[0])
                outputs[(name, entry[2])] = out if isinstance(out, list) else [out]
                entry[2] += 1
                nodes.pop(0)
                progress = True
    stuck = [p[3] for p in pending if p[1]]
    if stuck:
        raise ValueError(f"Model config: cannot connect layer(s) {', '.join(stuck)}: their inputs never become "
                         f"available (a cycle, or a reference to a node that does not exist)")

    def ends(key):
        refs = config.get(key) or []
        if refs and not isinstance(refs[0], (list, tuple)):
            refs = [refs]
        xs = [tensor(r, key) for r in refs]
        if any(x is None for x in xs):
            raise ValueError(f"Model config: an entry of {key} names a node that does not exist: {refs!r}")
        return xs

    model = cls(ends("input_layers"), ends("output_layers"), name=config.get("name"))
    _track(model)
    return model


def model_to_topology(model):
    """The modelTopology of model.json, as TF.js's model.toJSON(null, false)."""
    return {"class_name": model.get_class_name(), "config": model.get_config(), "keras_version": KERAS_VERSION,
            "backend": BACKEND}


def model_from_topology(topology, custom_objects=None, nesting_checked=False, fast_weight_init=False):
    """The model a modelTopology (TF.js's or Keras 2's JSON; a {"model_config": ...} wrapper is
    accepted) describes, its weights made by their initializers (TF.js's modelFromJSON). A bad
    config leaves nothing behind. nesting_checked: the topology came from limits.load_json, which
    checked its nesting. fast_weight_init: the weights are zeros, for a caller about to assign
    every one of them (TF.js's fastWeightInit: a file loaded with its weights, strictly)."""
    if isinstance(topology, str):
        topology = load_json(topology, "model_from_topology: argument 'topology'")
    elif not nesting_checked:
        check_depth(topology, "model topology")
    if isinstance(topology, dict) and "model_config" in topology:
        topology = topology["model_config"]
    if not isinstance(topology, dict) or "class_name" not in topology:
        raise ValueError("A model topology must be an object with 'class_name' and 'config'")
    with _disposing_on_error(), (fast_init() if fast_weight_init else contextlib.nullcontext()):
        model = deserialize_layer(topology, custom_objects)
        if not isinstance(model, _model_class()):
            raise ValueError(f"The topology describes a {topology['class_name']} layer, not a model (Sequential "
                             f"or Model)")
    return model


# --- weights --------------------------------------------------------------------------------------------
def weight_names(model):
    """{id(variable): the TF.js name of that weight} for every weight of model."""
    out = {}
    for layer in model.layers:
        _name_weights(layer, layer.name, out)
    return out


def _name_weights(layer, scope, out):
    if isinstance(layer, _model_class()):
        for sub in layer.layers:
            _name_weights(sub, sub.name, out)
    elif isinstance(layer, Bidirectional):
        for sub in (layer.forward_layer, layer.backward_layer):
            _name_weights(sub, f"{scope}/{sub.name}", out)
    elif isinstance(layer, TimeDistributed):
        _name_weights(layer.layer, scope, out)
    elif isinstance(layer, RNN):
        if isinstance(layer.cell, StackedRNNCells):
            for i, cell in enumerate(layer.cell.cells):
                _name_weights(cell, f"{scope}/RNNCell_{i}", out)
        else:
            _name_weights(layer.cell, scope, out)
    elif isinstance(layer, StackedRNNCells):
        for i, cell in enumerate(layer.cells):
            _name_weights(cell, f"{scope}/RNNCell_{i}", out)
    else:
        for var in layer._trainable_weights + layer._non_trainable_weights:
            out[id(var)] = f"{scope}/{layer._weight_names.get(id(var), var.name)}"


def named_weights(model, trainable_only=False):
    """[{name, tensor}] in TF.js's order (trainable weights, then non-trainable ones)."""
    names = weight_names(model)
    weights = model.trainable_weights + ([] if trainable_only else model.non_trainable_weights)
    out, seen = [], {}
    for w in weights:
        name = names[id(w)]
        if name in seen:
            raise ValueError(f"save: two weights of the model are both named '{name}' (layer names must be unique "
                             f"across nested models for the file to say which is which)")
        seen[name] = w
        out.append({"name": name, "tensor": w})
    return out


def load_named_weights(model, weights, strict=True, source=None, api="load_layers_model"):
    """Assign weights ({name: Tensor}) to the model's weights of the same names. strict: every
    weight of the model must be in the file and every weight in the file must be used. Nothing is
    assigned unless everything fits."""
    where = f" ({source})" if source else ""
    targets = named_weights(model)
    names = {t["name"] for t in targets}
    if strict:
        extra = [n for n in weights if n not in names]
        if extra:
            raise ValueError(f"{api}{where}: the file has weight '{extra[0]}', which no layer of the model has "
                             f"({len(extra)} unused; pass strict=False to ignore them)")
        missing = [t["name"] for t in targets if t["name"] not in weights]
        if missing:
            raise ValueError(f"{api}{where}: weight '{missing[0]}' of the model is missing from the file "
                             f"({len(missing)} missing; pass strict=False to keep their initial values)")
    pairs = [(t, weights[t["name"]]) for t in targets if t["name"] in weights]
    for t, value in pairs:
        if value.dtype != t["tensor"].dtype:
            raise TypeError(f"{api}{where}: weight '{t['name']}' is {value.dtype} in the file, but the model's "
                            f"weight is {t['tensor'].dtype}")
    assign_checked([t["tensor"] for t, _ in pairs], [v for _, v in pairs], "weights", api,
                   lambda i, var, value: f"{api}{where}: weight '{pairs[i][0]['name']}' has shape "
                                         f"{list(value.shape)} in the file, but the model expects "
                                         f"{list(var.shape)}")
