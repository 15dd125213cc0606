"""Lookup tables: HashTable(V2) makes (once per model) a table that LookupTableImport(V2) /
InitializeTable(V2) fill and LookupTableFind(V2) / LookupTableSize(V2) read. Tables live as long
as the model (a model initializer usually fills them). Async, as in TF.js (keys are read back)."""
from ... import ops as tfo
from ..resources import HashTable
from ._table import table


def create(x, a, rt):
    table_ = rt.model_resources.get(a.node)
    if table_ is None:
        table_ = HashTable(a.str("shared_name", "") or a.node, a.dtype("key_dtype"), a.dtype("value_dtype"))
        rt.model_resources[a.node] = table_
    return table_.handle_copy()


async def import_(x, a, rt):
    table_ = rt.get(x[0], HashTable, a)
    await table_.import_(x[1], x[2])
    return table_.handle_copy()  # TensorFlow's op has no output; TF.js's gives the handle


async def find(x, a, rt):
    return await rt.get(x[0], HashTable, a).find(x[1], x[2])


async def size(x, a, rt):
    return tfo.scalar(rt.get(x[0], HashTable, a).size(), "int32")


async def create_async(x, a, rt):
    return create(x, a, rt)


OPS = table("hash_table", {
    "HashTable": (0, create_async),
    "HashTableV2": (0, create_async),
    "LookupTableImport": (3, import_),
    "LookupTableImportV2": (3, import_),
    "InitializeTable": (3, import_),
    "InitializeTableV2": (3, import_),
    "LookupTableFind": (3, find),
    "LookupTableFindV2": (3, find),
    "LookupTableSize": (1, size),
    "LookupTableSizeV2": (1, size),
}, runtime=True)
