"""model.summary(): the table Keras 3 prints (keras/src/utils/summary_utils.py), drawn here without rich
(Pyodide has none) as rich draws it with Keras's settings: the same column widths, box characters, wrapping
and totals. Shapes are Python's, `(None, 3)`, where TF.js prints `[null,3]`.

Where it differs from Keras: the rows follow model.layers (TF.js's order, which for a graph with several
inputs can differ from Keras's), the type is the TF.js class name, print_fn is called once per line (Keras 3
calls it once with the whole text), and there is no "Optimizer params" line (an optimizer's state is not
Keras's: TF.js's Adam, for one, keeps other slots).
"""
import re
import shutil

_BYTES = {"float32": 4, "int32": 4, "bool": 1, "complex64": 8, "string": 8}


def summary_lines(model, line_length=None, positions=None):
    """The summary as lines of text (no trailing newlines)."""
    sequential_like = model._is_sequential_like()
    if sequential_like:
        default_length, default_positions = 88, [0.45, 0.80, 1.0]
        header, justify = ["Layer (type)", "Output Shape", "Param #"], ["left", "left", "right"]
    else:
        default_length, default_positions = 108, [0.3, 0.56, 0.74, 1.0]
        header, justify = (["Layer (type)", "Output Shape", "Param #", "Connected to"],
                           ["left", "left", "right", "left"])
    positions = list(positions or default_positions)
    if len(positions) != len(header):
        raise ValueError(f"summary: positions must give {len(header)} column ends ({', '.join(header)}), "
                         f"got {len(positions)}")
    # Keras narrows the table to the terminal (80 columns where there is none, as in the page)
    line_length = line_length or min(default_length, shutil.get_terminal_size().columns - 4)
    ends = [int(p * line_length) if positions[-1] <= 1 else int(p) for p in positions]
    widths, current = [], 0
    for end in ends:
        if end - current < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(end - current)
        current = end

    nodes = {id(n) for n in model._nodes}
    rows = []
    for layer in model.layers:
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        fields = [f"{layer.name} ({layer.get_class_name()})", _output_shape(layer), params]
        if not sequential_like:
            fields.append(_connections(layer, nodes))
        rows.append(fields)

    trainable = _unique(model.trainable_weights)
    non_trainable = _unique(model.non_trainable_weights)
    lines = [f'Model: "{model.name}"']
    lines += _table(header, rows, _cell_widths(widths, line_length), justify)
    for label, weights in (("Total", trainable + non_trainable), ("Trainable", trainable),
                           ("Non-trainable", non_trainable)):
        count = sum(_size(w) for w in weights)
        nbytes = sum(_size(w) * _BYTES.get(w.dtype, 4) for w in weights)
        lines.append(f" {label} params: {count:,} ({_readable(nbytes)})")
    return lines


def _unique(weights):
    return list({id(w): w for w in weights}.values())


def _size(w):
    n = 1
    for d in w.shape:
        n *= d
    return n


def _readable(nbytes):
    """Keras's readable_memory_size: 76.00 B, 1.32 KB, 16.23 MB (powers of 1024)."""
    size = float(nbytes)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def shape_text(shape):
    """A shape as Keras prints it: (None, 3)."""
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _output_shape(layer):
    if not layer.inbound_nodes:
        return "?"
    shapes = layer.inbound_nodes[-1].output_shapes   # Keras shows the shapes of the layer's last call
    if len(shapes) == 1:
        return shape_text(shapes[0])
    return "[" + ", ".join(shape_text(s) for s in shapes) + "]"


def _connections(layer, nodes):
    connected = [f"{inbound.name}[{node.node_indices[j]}][{node.tensor_indices[j]}]"
                 for node in layer.inbound_nodes if id(node) in nodes
                 for j, inbound in enumerate(node.inbound_layers)]
    return ", ".join(connected) or "-"


# --- the table, as rich renders Keras's rich.table.Table(*columns, width=line_length, show_lines=True) -----------
def _cell_widths(widths, line_length):
    """Each column is its width plus one space of padding either side; the borders take len + 1 characters
    of line_length and rich takes the excess off the columns evenly (rich.table's last resort)."""
    available = line_length - (len(widths) + 1)
    cells = [min(w + 2, available) for w in widths]
    excess = sum(cells) - available
    if excess > 0:
        remaining, ratio = excess, len(cells)
        for i, w in enumerate(cells):
            cut = min(w, round(remaining / ratio))   # rich's ratio_reduce: Python's round, half to even
            cells[i] = w - cut
            remaining -= cut
            ratio -= 1
    return cells


_WORD = re.compile(r"\s*\S+\s*")


def _wrap(text, width):
    """rich's divide_line for a column that overflows with an ellipsis: words keep their trailing space; a
    word wider than the line gets a line of its own, cut short by _cell_lines."""
    breaks, offset = [], 0
    for m in _WORD.finditer(text):
        start, word = m.start(), m.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            if start:
                breaks.append(start)
            offset = len(word)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    bounds = [0] + breaks + [len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])] or [""]


def _cell_lines(text, cell, justify):
    width = cell - 2
    out = []
    for line in _wrap(text, width):
        # rich drops trailing spaces: all of them when right-justifying, else those past the width
        line = line.rstrip() if justify == "right" else line[:max(width, len(line.rstrip()))]
        if len(line) > width:
            line = line[:width - 1] + "…"
        out.append(" " + (line.rjust(width) if justify == "right" else line.ljust(width)) + " ")
    return out


def _row(fields, cells, justify, bar):
    columns = [_cell_lines(f, c, j) for f, c, j in zip(fields, cells, justify)]
    height = max(len(c) for c in columns)
    for col, cell in zip(columns, cells):
        col += [" " * cell] * (height - len(col))
    return [bar + bar.join(parts) + bar for parts in zip(*columns)]


def _rule(cells, left, fill, cross, right):
    return left + cross.join(fill * c for c in cells) + right


def _table(header, rows, cells, justify):
    lines = [_rule(cells, "┏", "━", "┳", "┓")]
    lines += _row(header, cells, justify, "┃")
    lines.append(_rule(cells, "┡", "━", "╇", "┩"))
    for i, fields in enumerate(rows):
        if i:
            lines.append(_rule(cells, "├", "─", "┼", "┤"))
        lines += _row(fields, cells, justify, "│")
    lines.append(_rule(cells, "└", "─", "┴", "┘"))
    return lines


__all__ = ["summary_lines", "shape_text"]
