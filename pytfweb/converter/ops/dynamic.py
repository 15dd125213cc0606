"""Dynamic shapes: non-max suppression, Where, ListDiff. Their output sizes depend on the values,
so they read back (awaiting the data) and run only in execute_async, as in TF.js."""
from ... import ops as tfo
from ._table import int_, num, table


def _nms_args(x):
    boxes, scores, max_size, iou = x[:4]
    score = num(x[4]) if len(x) > 4 else float("-inf")
    return boxes, scores, int_(max_size), num(iou), score


async def nms(x, a):
    return await tfo.image.non_max_suppression_async(*_nms_args(x))


async def nms_padded(x, a):
    r = await tfo.image.non_max_suppression_padded_async(*_nms_args(x), a.bool("pad_to_max_output_size", False))
    return [r["selected_indices"], r["valid_outputs"]]


async def nms_with_score(x, a):
    r = await tfo.image.non_max_suppression_with_score_async(*_nms_args(x), num(x[5]) if len(x) > 5 else 0.0)
    return [r["selected_indices"], r["selected_scores"],
            tfo.scalar(r["selected_indices"].shape[0], "int32")]


async def where(x, a):
    cond = x[0] if x[0].dtype == "bool" else tfo.cast(x[0], "bool")
    try:
        return await tfo.where_async(cond)
    finally:
        if cond is not x[0]:
            cond.dispose()


async def list_diff(x, a):
    return list(await tfo.setdiff1d_async(x[0], x[1]))


OPS = table("dynamic", {
    "NonMaxSuppressionV2": (4, nms),
    "NonMaxSuppressionV3": (5, nms),
    "NonMaxSuppressionV4": (5, nms_padded),
    "NonMaxSuppressionV5": (6, nms_with_score),
    "Where": (1, where),
    "ListDiff": (2, list_diff),
})
