"""model.summary(): the table TF.js prints (tfjs-layers utils/layer_utils.ts printSummary)."""

from ._utils import shape_str


def summary_lines(model, line_length=None, positions=None):
    sequential_like = model._is_sequential_like()
    header = ["Layer (type)", "Input Shape", "Output shape", "Param #"]
    if sequential_like:
        line_length = line_length or 90
        positions = positions or [0.32, 0.61, 0.89, 1]
    else:
        line_length = line_length or 115
        positions = positions or [0.24, 0.48, 0.70, 0.80, 1]
        header.append("Receives inputs")
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    nodes = set(id(n) for n in model._nodes)
    lines = ["_" * line_length, _row(header, positions), "=" * line_length]
    layers = model.layers
    for i, layer in enumerate(layers):
        fields = [f"{layer.name} ({layer.get_class_name()})", _input_shapes(layer), _output_shape(layer),
                  str(layer.count_params())]
        if sequential_like:
            lines.append(_row(fields, positions))
        else:
            connections = [f"{inbound.name}[{node.node_indices[j]}][{node.tensor_indices[j]}]"
                           for node in layer.inbound_nodes if id(node) in nodes
                           for j, inbound in enumerate(node.inbound_layers)]
            lines.append(_row(fields + [connections[0] if connections else ""], positions))
            lines.extend(_row(["", "", "", "", c], positions) for c in connections[1:])
        lines.append(("=" if i == len(layers) - 1 else "_") * line_length)
    trainable = sum(_size(w) for w in model.trainable_weights)
    non_trainable = sum(_size(w) for w in model.non_trainable_weights)
    lines += [f"Total params: {trainable + non_trainable}", f"Trainable params: {trainable}",
              f"Non-trainable params: {non_trainable}", "_" * line_length]
    return lines


def _size(w):
    n = 1
    for d in w.shape:
        n *= d
    return n


def _row(fields, positions):
    # TF.js's printRow: each field starts one column early (over the previous one's last
    # character, which becomes a space), is cut at its end position and padded to it.
    line = ""
    for i, field in enumerate(fields):
        if i > 0:
            line = line[:-1] + " "
        line += field
        line = line[:positions[i]]
        line += " " * (positions[i] - len(line))
    return line


def _input_shapes(layer):
    return ",".join(shape_str([list(s) for s in node.input_shapes]) for node in layer.inbound_nodes)


def _output_shape(layer):
    try:
        shape = layer.output_shape
    except AttributeError:
        return "multiple"
    return shape_str(shape)


__all__ = ["summary_lines"]
