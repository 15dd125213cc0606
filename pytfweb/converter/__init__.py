"""TF.js's graph models (tfjs-converter): tf.load_graph_model / load_graph_model_sync and
GraphModel, run by mapping TensorFlow ops onto pytfweb's.

    graph.py          the GraphDef JSON of model.json parsed into nodes; attribute decoding
    executor.py       static plans and the frame-aware scheduler for control flow
    resources.py      TensorArray, TensorList, HashTable
    graph_model.py    GraphModel and the loaders
    ops/              the TensorFlow op -> pytfweb table, one module per family
"""
from .graph_model import GraphModel, TensorInfo, load_graph_model, load_graph_model_sync
from .ops import deregister_op, get_registered_op, register_op

__all__ = ["GraphModel", "TensorInfo", "load_graph_model", "load_graph_model_sync", "register_op",
           "get_registered_op", "deregister_op"]
