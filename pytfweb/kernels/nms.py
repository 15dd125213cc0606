"""Non-maximum suppression on the host (kernels NonMaxSuppressionV3/V4/V5): the output size depends
on the values, so every backend reads the boxes and scores back and runs this same pure-Python
code (ops/image.py checks the arguments and holds the kernel contract)."""
import array
import bisect
import math
import sys

__all__ = ["non_max_suppression_impl"]

# Hard NMS (no Soft-NMS sigma) in the page's JavaScript: the same steps as the Python below, on the
# same doubles (the boxes and scores are float32 values), one call instead of a Python loop of IoUs
# (a detector's NMS over thousands of boxes: most of a handtrack predict's Python in the page).
# Soft-NMS stays in Python: its exp() could round differently in JS.
_HARD_NMS_JS = """(boxes, scores, maxOut, iouThreshold, scoreThreshold) => {
  const order = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] > scoreThreshold) order.push(i);
  order.sort((a, b) => (scores[b] - scores[a]) || (a - b));   // best first; ties: lower index first
  const selected = [];
  const iou = (i, j) => {
    const yi0 = boxes[4 * i], xi0 = boxes[4 * i + 1], yi1 = boxes[4 * i + 2], xi1 = boxes[4 * i + 3];
    const yj0 = boxes[4 * j], xj0 = boxes[4 * j + 1], yj1 = boxes[4 * j + 2], xj1 = boxes[4 * j + 3];
    const yminI = Math.min(yi0, yi1), ymaxI = Math.max(yi0, yi1), xminI = Math.min(xi0, xi1), xmaxI = Math.max(xi0, xi1);
    const yminJ = Math.min(yj0, yj1), ymaxJ = Math.max(yj0, yj1), xminJ = Math.min(xj0, xj1), xmaxJ = Math.max(xj0, xj1);
    const areaI = (ymaxI - yminI) * (xmaxI - xminI), areaJ = (ymaxJ - yminJ) * (xmaxJ - xminJ);
    if (areaI <= 0 || areaJ <= 0) return 0;
    const inter = Math.max(Math.min(ymaxI, ymaxJ) - Math.max(yminI, yminJ), 0) *
                  Math.max(Math.min(xmaxI, xmaxJ) - Math.max(xminI, xminJ), 0);
    return inter / (areaI + areaJ - inter);
  };
  for (const i of order) {
    if (selected.length >= maxOut) break;
    let keep = true;
    for (let k = selected.length - 1; k >= 0; k--) {   // the latest selections first, as in Python
      if (iou(i, selected[k]) >= iouThreshold) { keep = false; break; }
    }
    if (keep) selected.push(i);
  }
  return Int32Array.from(selected);
}"""
_HARD_NMS_FN = []


def non_max_suppression_impl(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma=0.0,
                             pad_to_max_output_size=False):
    """(selected indices, their scores, how many were selected) from flat boxes (4 per box) and
    scores, TF.js's nonMaxSuppressionImpl_ step for step, in pure Python: every backend reads
    the values back and runs this (the output size depends on them).

    Candidates above score_threshold are taken best first (ties: lower index first). One is
    dropped if its IoU with a selected box reaches iou_threshold; with Soft-NMS (sigma > 0) its
    score is scaled by exp(-0.5 / sigma * iou^2) for each selected box it overlaps less, and it
    goes back in line if it still scores above the threshold."""
    if soft_nms_sigma <= 0 and sys.platform == "emscripten" and max_output_size > 0:
        selected = _hard_nms_js(boxes, scores, max_output_size, iou_threshold, score_threshold)
        selected_scores = [float(scores[i]) for i in selected]
        valid = len(selected)
        if pad_to_max_output_size and valid < max_output_size:
            selected += [0] * (max_output_size - valid)
            selected_scores += [0.0] * (max_output_size - valid)
        return selected, selected_scores, valid
    scale = -0.5 / soft_nms_sigma if soft_nms_sigma > 0 else 0.0
    # Kept sorted ascending by (score, -index): the best candidate is popped from the end.
    # (score, -index) is unique, so whole tuples sort and insert the same way.
    candidates = sorted((s, -i, 0) for i, s in enumerate(scores) if s > score_threshold)
    selected, selected_scores = [], []
    while len(selected) < max_output_size and candidates:
        score, neg_index, suppress_begin = candidates.pop()
        index, original = -neg_index, score
        if original < score_threshold:
            break
        ignore = False
        # Overlapping boxes tend to have similar scores: the latest selections come first; a
        # candidate back in line is only checked against boxes selected since it left.
        for j in range(len(selected) - 1, suppress_begin - 1, -1):
            iou = _iou(boxes, index, selected[j])
            if iou >= iou_threshold:
                ignore = True
                break
            score *= math.exp(scale * iou * iou)
            if score <= score_threshold:
                break
        if ignore:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            bisect.insort(candidates, (score, -index, len(selected)))
    valid = len(selected)
    if pad_to_max_output_size and valid < max_output_size:
        selected += [0] * (max_output_size - valid)
        selected_scores += [0.0] * (max_output_size - valid)
    return selected, selected_scores, valid


def _hard_nms_js(boxes, scores, max_output_size, iou_threshold, score_threshold):
    import js   # the page only
    if not _HARD_NMS_FN:
        _HARD_NMS_FN.append(js.Function.new("return " + _HARD_NMS_JS)())
    b, s = js.Float64Array.new(len(boxes)), js.Float64Array.new(len(scores))
    b.assign(_doubles(boxes))
    s.assign(_doubles(scores))
    return list(_HARD_NMS_FN[0](b, s, max_output_size, iou_threshold, score_threshold).to_py())


def _doubles(values):
    return values if isinstance(values, array.array) and values.typecode == "d" else array.array("d", values)


def _iou(boxes, i, j):
    """Intersection over union of boxes i and j (corners in either order); 0 for an empty box."""
    yi0, xi0, yi1, xi1 = boxes[4 * i:4 * i + 4]
    yj0, xj0, yj1, xj1 = boxes[4 * j:4 * j + 4]
    ymin_i, ymax_i, xmin_i, xmax_i = min(yi0, yi1), max(yi0, yi1), min(xi0, xi1), max(xi0, xi1)
    ymin_j, ymax_j, xmin_j, xmax_j = min(yj0, yj1), max(yj0, yj1), min(xj0, xj1), max(xj0, xj1)
    area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i)
    area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j)
    if area_i <= 0 or area_j <= 0:
        return 0.0
    inter = (max(min(ymax_i, ymax_j) - max(ymin_i, ymin_j), 0.0) *
             max(min(xmax_i, xmax_j) - max(xmin_i, xmin_j), 0.0))
    return inter / (area_i + area_j - inter)
