"""The expression graph lazy fusion records (backends/gpu/fusion_graph.py), which webgl and webgpu
share: node counts and leaves of chains, trees and DAGs, as the program limits see them."""
from pytfweb.backends.gpu.fusion_graph import Leaf, Node, Uniform, generate
from pytfweb.kernels import TensorInfo


class _Id:
    """A stand-in DataId."""


def _leaf(shape=(4,)):
    return Leaf(TensorInfo(_Id(), shape, "float32"))


def _count(root):
    """Distinct nodes, by walking the expression as code generation does."""
    seen = []
    generate(root, lambda leaf: "x", lambda u: "u", lambda n, args: seen.append(n) or "t")
    return len(seen)


def test_a_chain_counts_one_node_an_op_and_keeps_its_leaves():
    a, b = _leaf(), _leaf()
    node = Node("add", [a, b], (4,), "float32")
    for i in range(40):
        node = Node("mul", [node, Uniform(2.0, "float32")], (4,), "float32")
        assert node.size == i + 2 == _count(node)
        assert node.leaves == (a, b)
    assert len(node.nodes) == 41


def test_a_dag_counts_each_shared_value_once():
    x = _leaf()
    node = Node("neg", [x], (4,), "float32")
    for i in range(30):
        node = Node("add", [node, node], (4,), "float32")     # z = z + z
    assert node.size == 31 == _count(node)
    y = Node("exp", [x], (4,), "float32")
    s = Node("mul", [y, Node("sigmoid", [y], (4,), "float32")], (4,), "float32")   # y read twice
    assert s.size == 3 == _count(s) and s.leaves == (x,)


def test_leaves_of_branches_merge_once_each():
    a, b, c = _leaf(), _leaf(), _leaf((1,))
    left = Node("add", [a, b], (4,), "float32")
    right = Node("mul", [b, c], (4,), "float32")
    both = Node("sub", [left, right], (4,), "float32")
    assert both.size == 3 and both.leaves == (a, b, c)
    again = Node("add", [both, a], (4,), "float32")          # a leaf read again at the top
    assert again.size == 4 and again.leaves == (a, b, c)
