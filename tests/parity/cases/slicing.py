"""Slicing, gathering, scattering, masks, sets, top-k and sorted searches in TF.js's positional forms."""
from ..spec import T, case, seq, wave

I = "int32"
B = "bool"
S = "string"
NAN, INF = float("nan"), float("inf")
IMAX, IMIN = 2147483647, -2147483648


def F(shape, start=1.0):
    n = 1
    for d in shape:
        n *= d
    return T(seq(n, start), shape)


def N(shape, start=0):
    n = 1
    for d in shape:
        n *= d
    return T(list(range(start, start + n)), shape, I)


def W(shape, scale=1.0):
    n = 1
    for d in shape:
        n *= d
    return T(wave(n, scale), shape)


DEV_SLICE = 'TF.js accepts a begin past the end of an axis and returns a tensor with a negative dimension; pytfweb raises ValueError.'
DEV_STRIDED_SLICE = "TF.js raises when a positive stride's end lies before begin (an empty slice); pytfweb returns the empty tensor, as TensorFlow does."
DEV_TOP_K_NAN = 'TF.js sorts with a comparison that is inconsistent for NaN, so a row holding NaN comes back in no particular order; pytfweb counts NaN as the largest value.'
DEV_TOP_K = 'with sorted=False TF.js returns the k largest values in the order its selection algorithm leaves them (an implementation detail its webgl backend does not share for large inputs); pytfweb returns them largest first, as with sorted=True.'

CASES = [
    # slice(x, begin, size?)
    case("tf.slice", F([4]), [1], [2], grad=True),
    case("tf.slice", F([4]), 1, 2, grad=True),
    case("tf.slice", F([4]), [1], grad=True),
    case("tf.slice", F([4]), [1], [-1], grad=True),
    case("tf.slice", F([3, 4]), [1, 1], [2, 2], grad=True),
    case("tf.slice", F([3, 4]), [1], grad=True),
    case("tf.slice", F([3, 4]), [0, 1], [-1, 2], grad=True),
    case("tf.slice", F([2, 3, 4]), [1, 0, 2], [1, 2, 2], grad=True),
    case("tf.slice", F([2, 2, 3, 2]), [0, 1, 1, 0], [2, 1, 2, 1], grad=True),
    case("tf.slice", F([2, 1, 2, 3, 2]), [1, 0, 1, 1, 0], [1, 1, 1, 2, 2], grad=True),
    case("tf.slice", N([5]), [2], [3]),
    case("tf.slice", T([True, False, True], [3], B), [1], [2]),
    case("tf.slice", T(["a", "b", "c"], [3], S), [1], [1]),
    case("tf.slice", F([4]), [2], [0]),
    case("tf.slice", T([NAN, INF, -0.0], [3]), [1], [2]),
    case("tf.slice", F([4]), [3], [2], error=True),
    case("tf.slice", F([4]), [5], deviation=DEV_SLICE),
    case("tf.slice", F([2, 2]), [0, 0, 0], error=True),
    case("tf.slice1d", F([5]), 1, 3, grad=True),
    case("tf.slice1d", N([5]), 0, 2),
    case("tf.slice1d", F([2, 2]), 0, 1, error=True),
    case("tf.slice2d", F([3, 4]), [1, 2], [2, 2], grad=True),
    case("tf.slice2d", F([3, 4]), [0, 1], [-1, 1]),
    case("tf.slice3d", F([2, 3, 2]), [1, 1, 0], [1, 2, 2], grad=True),
    case("tf.slice4d", F([2, 2, 2, 2]), [1, 0, 1, 0], [1, 2, 1, 2], grad=True),
    case("tf.slice4d", F([2, 2]), [0, 0, 0, 0], [1, 1, 1, 1], error=True),
    # stridedSlice(x, begin, end, strides?, beginMask, endMask, ellipsisMask, newAxisMask, shrinkAxisMask)
    case("tf.stridedSlice", F([6]), [1], [5], grad=True),
    case("tf.stridedSlice", F([6]), [1], [5], [2], grad=True),
    case("tf.stridedSlice", F([6]), [5], [0], [-1], grad=True),
    case("tf.stridedSlice", F([6]), [-1], [-7], [-2], grad=True),
    case("tf.stridedSlice", F([6]), [-4], [100], [1], grad=True),
    case("tf.stridedSlice", F([3, 4]), [1, 0], [3, 4], [1, 2], grad=True),
    case("tf.stridedSlice", F([3, 4]), [1, 1], [0, 0], [1, 1], 1, 2, grad=True),
    case("tf.stridedSlice", F([3, 4]), [0, 1], [2, 3], [1, 1], 0, 0, 0, 0, 1, grad=True),
    case("tf.stridedSlice", F([3, 4]), [1, 0], [2, 0], [1, 1], 0, 2, 0, 0, 1, grad=True),
    case("tf.stridedSlice", F([3, 4]), [0, 0], [1, 2], [1, 1], 0, 0, 0, 1, grad=True),
    case("tf.stridedSlice", F([2, 3, 4]), [0, 1], [1, 3], [1, 1], 0, 0, 1, grad=True),
    case("tf.stridedSlice", F([2, 3, 4]), [1, 0, 1], [2, 0, 3], [1, 1, 1], 0, 0, 2, grad=True),
    case("tf.stridedSlice", F([2, 3, 4]), [0, 0, 0, 1], [1, 2, 3, 4], [1, 1, 1, 2], 0, 0, 0, 2, grad=True),
    case("tf.stridedSlice", F([2, 3, 4]), [1, 2, 3], [2, 3, 4], [1, 1, 1], 0, 0, 0, 0, 7),
    case("tf.stridedSlice", F([2, 2, 2, 3]), [1, 0, 1, 0], [2, 2, 2, 3], [1, 2, 1, -1], 0, 0, 0, 0, 0, grad=True),
    case("tf.stridedSlice", F([2, 2, 2, 3]), [0, 1, 0, 2], [2, 2, 2, 0], [1, 1, 1, -1], 0, 0, 0, 0, 0),
    case("tf.stridedSlice", N([5]), [1], [4], [2]),
    case("tf.stridedSlice", T([True, False, True], [3], B), [0], [3], [2]),
    case("tf.stridedSlice", T(["a", "b", "c"], [3], S), [2], [0], [-1]),
    case("tf.stridedSlice", F([4]), [3], [1], deviation=DEV_STRIDED_SLICE),
    case("tf.stridedSlice", F([4]), [0], [4], [0], error=True),
    # gather(x, indices, axis?, batchDims?)
    case("tf.gather", F([4]), T([3, 0, 0, 2], dtype=I), grad=True),
    case("tf.gather", F([3, 2]), T([2, 0], dtype=I), grad=True),
    case("tf.gather", F([3, 2]), T([1, 1, 0], dtype=I), 1, grad=True),
    case("tf.gather", F([3, 2]), T([[0, 2], [1, 1]], dtype=I), 0, grad=True),
    case("tf.gather", F([2, 3, 2]), T([1, 0], dtype=I), -1, grad=True),
    case("tf.gather", F([2, 3, 2]), T([[2, 0], [1, 1]], dtype=I), 1, 1, grad=True),
    case("tf.gather", F([2, 3]), T([[2, 0], [1, 1]], dtype=I), 1, -1, grad=True),
    case("tf.gather", F([2, 2, 3]), T([[[1], [0]], [[2], [2]]], dtype=I), 2, 2, grad=True),
    case("tf.gather", N([4]), T([1, 3], dtype=I)),
    case("tf.gather", T([True, False], [2], B), T([1, 1, 0], dtype=I)),
    case("tf.gather", T(["a", "b", "c"], [3], S), T([2, 0], dtype=I), error=True),
    case("tf.gather", F([4]), T([], [0], I), grad=True),
    case("tf.gather", F([4]), T(2, dtype=I), grad=True),
    case("tf.gather", F([4]), T([1.0, 2.0]), error=True),
    case("tf.gather", F([4]), T([1], dtype=I), 1, error=True),
    case("tf.gather", F([2, 3]), T([[1], [0]], dtype=I), 1, 2, error=True),
    # gatherND(x, indices)
    case("tf.gatherND", F([2, 3]), T([[1, 2], [0, 0]], dtype=I), grad=True),
    case("tf.gatherND", F([2, 3]), T([[1], [0]], dtype=I), grad=True),
    case("tf.gatherND", F([2, 2, 2]), T([[[1, 0]], [[0, 1]]], dtype=I), grad=True),
    case("tf.gatherND", F([3]), T([[2], [2]], dtype=I), grad=True),
    case("tf.gatherND", N([3, 2]), T([2, 1], dtype=I)),
    case("tf.gatherND", T([True, False, False, True], [2, 2], B), T([[0, 1], [1, 1]], dtype=I)),
    case("tf.gatherND", T(["a", "b", "c", "d"], [2, 2], S), T([[1, 0]], dtype=I)),
    case("tf.gatherND", F([2, 3]), T([], [0, 2], I)),
    case("tf.gatherND", F([2, 3]), T([[1, 2, 0]], dtype=I), error=True),
    case("tf.gatherND", F([2, 3]), T([[1.0, 2.0]]), error=True),
    # scatterND(indices, updates, shape)
    case("tf.scatterND", T([[1], [3]], dtype=I), F([2]), [5], grad=True),
    case("tf.scatterND", T([[1], [1]], dtype=I), F([2]), [3], grad=True),
    case("tf.scatterND", T([[0, 1], [2, 0]], dtype=I), F([2]), [3, 2], grad=True),
    case("tf.scatterND", T([[1], [0]], dtype=I), F([2, 3]), [2, 3], grad=True),
    case("tf.scatterND", T([[2], [0]], dtype=I), N([2, 2], 5), [3, 2]),
    case("tf.scatterND", T([[1]], dtype=I), T([True], [1], B), [2]),
    case("tf.scatterND", T([[0], [1]], dtype=I), F([3]), [3], error=True),
    case("tf.scatterND", T([[1.0]]), F([1]), [3], error=True),
    # tensorScatterUpdate(tensor, indices, updates)
    case("tf.tensorScatterUpdate", F([5]), T([[1], [3]], dtype=I), F([2], 10), grad=True),
    case("tf.tensorScatterUpdate", F([3, 2]), T([[2], [0]], dtype=I), F([2, 2], 10), grad=True),
    case("tf.tensorScatterUpdate", F([3, 2]), T([[0, 1], [2, 0]], dtype=I), F([2], 10)),
    case("tf.tensorScatterUpdate", N([4]), T([[0]], dtype=I), N([1], 9)),
    case("tf.tensorScatterUpdate", T([True, True], [2], B), T([[1]], dtype=I), T([False], [1], B)),
    case("tf.tensorScatterUpdate", F([4]), T([[0]], dtype=I), N([1]), error=True),
    case("tf.tensorScatterUpdate", F([4]), T([[0]], dtype=I), F([2]), error=True),
    case("tf.tensorScatterUpdate", T(1.0), T([[0]], dtype=I), F([1]), error=True),
    # where(condition, a, b)
    case("tf.where", T([True, False, True], dtype=B), F([3]), F([3], 10), grad=True),
    case("tf.where", T([[True], [False]], dtype=B), F([2, 3]), F([2, 3], 10), grad=True),
    case("tf.where", T([True, False], dtype=B), F([2, 2]), F([2, 2], 10), grad=True),
    case("tf.where", T([True, False, True], dtype=B), F([3]), F([1], 10), grad=True),
    case("tf.where", T(True, dtype=B), F([2]), F([2], 10), grad=True),
    case("tf.where", T([[True, False], [False, True]], dtype=B), F([2, 1]), F([1, 2], 10), grad=True),
    case("tf.where", T([True, False], dtype=B), N([2]), N([2], 5)),
    case("tf.where", T([True, False], dtype=B), T([True, True], dtype=B), T([False, False], dtype=B)),
    case("tf.where", T([True, False], dtype=B), T(["a", "b"], dtype=S), T(["c", "d"], dtype=S), error=True),
    case("tf.where", T([False, True], dtype=B), T([NAN, 1.0]), T([2.0, INF])),
    case("tf.where", T([], [0], B), T([], [0]), T([], [0])),
    case("tf.where", T([True, False], dtype=B), F([2]), N([2]), grad=True),
    case("tf.where", T([True, False], dtype=B), N([2], 5), T([True, False], dtype=B)),
    case("tf.where", T([False, True], dtype=B), T([True, True], dtype=B), T([0.5, -1.5])),
    case("tf.where", T([1.0, 0.0]), F([2]), F([2]), error=True),
    case("tf.where", T([True, False, True], dtype=B), F([2]), F([2]), error=True),
    # whereAsync(condition)
    case("tf.whereAsync", T([True, False, True], dtype=B)),
    case("tf.whereAsync", T([[True, False], [False, True]], dtype=B)),
    case("tf.whereAsync", T([[[False, True]], [[True, True]]], dtype=B)),
    case("tf.whereAsync", T(True, dtype=B)),
    case("tf.whereAsync", T([False, False], dtype=B)),
    case("tf.whereAsync", T([], [0, 2], B)),
    case("tf.whereAsync", T([1.0, 0.0]), error=True),
    # booleanMaskAsync(tensor, mask, axis?)
    case("tf.booleanMaskAsync", T([[1, 2], [3, 4], [5, 6]]), T([True, False, True], dtype=B)),
    case("tf.booleanMaskAsync", F([2, 3]), T([False, True, True], dtype=B), 1),
    case("tf.booleanMaskAsync", F([2, 2, 2]), T([[True, False], [False, True]], dtype=B)),
    case("tf.booleanMaskAsync", F([2, 2, 2]), T([[True, False], [True, True]], dtype=B), 1),
    case("tf.booleanMaskAsync", N([3]), T([False, False, False], dtype=B)),
    case("tf.booleanMaskAsync", T(["a", "b"], dtype=S), T([False, True], dtype=B), error=True),
    case("tf.booleanMaskAsync", T([True, False], dtype=B), T([True, True], dtype=B)),
    case("tf.booleanMaskAsync", F([3]), T([True, False], dtype=B), error=True),
    case("tf.booleanMaskAsync", F([3]), T(True, dtype=B), error=True),
    case("tf.booleanMaskAsync", F([3]), T([1, 0, 1], dtype=I), error=True),
    # setdiff1dAsync(x, y)
    case("tf.setdiff1dAsync", T([1, 2, 3, 4], dtype=I), T([2, 4], dtype=I)),
    case("tf.setdiff1dAsync", T([4.0, 1.0, 4.0, 2.0]), T([1.0])),
    case("tf.setdiff1dAsync", T([1, 2], dtype=I), T([1, 2, 3], dtype=I)),
    case("tf.setdiff1dAsync", T([1, 2], dtype=I), T([], [0], I)),
    case("tf.setdiff1dAsync", T(["a", "b", "c"], dtype=S), T(["b"], dtype=S), error=True),
    case("tf.setdiff1dAsync", T([1.0, 2.0]), T([1], dtype=I), error=True),
    case("tf.setdiff1dAsync", T([[1, 2]], dtype=I), T([1], dtype=I), error=True),
    # unique(x, axis?)
    case("tf.unique", T([1, 1, 2, 4, 4, 4, 7, 8, 8], dtype=I)),
    case("tf.unique", T([3.0, NAN, 3.0, -0.0, 0.0, INF, NAN])),
    case("tf.unique", T([[1, 0, 0], [1, 0, 0], [2, 0, 0]], dtype=I)),
    case("tf.unique", T([[1, 0, 0], [1, 0, 0], [2, 0, 0]], dtype=I), 1),
    case("tf.unique", T([[1.0, 0.0], [1.0, 0.0]]), -1),
    case("tf.unique", T([True, False, True], dtype=B)),
    case("tf.unique", T(["a", "b", "a"], dtype=S)),
    case("tf.unique", T([], [0], I)),
    case("tf.unique", T(1, dtype=I), error=True),
    case("tf.unique", T([1, 2], dtype=I), 1, error=True),
    # topk(x, k?, sorted?)
    case("tf.topk", T([1.0, 5.0, 3.0, 4.0]), grad=True),
    case("tf.topk", T([1.0, 5.0, 3.0, 4.0]), 2, grad=True),
    case("tf.topk", T([[1.0, 5.0, 3.0], [9.0, 2.0, 8.0]]), 2, grad=True),
    case("tf.topk", T([[1.0, 5.0, 3.0], [9.0, 2.0, 8.0]]), 3, False, deviation=DEV_TOP_K),
    case("tf.topk", T([[[1.0, 5.0], [3.0, 9.0]]]), 1, grad=True),
    case("tf.topk", T([2.0, 2.0, 1.0, 2.0]), 3),
    case("tf.topk", T([NAN, 1.0, INF, -INF]), 4),
    case("tf.topk", T([3, 1, 2], dtype=I), 2),
    case("tf.topk", T([-16777216, 16777215, 0], dtype=I), 3),   # int32 travels exactly up to 2^24 on webgl
    case("tf.topk", T([[NAN, 2.0, NAN, 5.0], [1.0, NAN, -INF, INF]]), 4, deviation=DEV_TOP_K_NAN),
    case("tf.topk", T([[1.0, NAN, 3.0], [NAN, 7.0, 0.0]]), 3, deviation=DEV_TOP_K_NAN),
    case("tf.topk", T([3.0, 1.0]), 0),
    case("tf.topk", T([3.0, 1.0]), 3, error=True),
    case("tf.topk", T([3.0, 1.0]), -1, error=True),
    case("tf.topk", T(3.0), error=True),
    case("tf.topk", T([True, False], dtype=B), 1),
    # searchSorted(sortedSequence, values, side?), lowerBound, upperBound
    case("tf.searchSorted", T([1.0, 2.0, 2.0, 5.0]), T([0.0, 2.0, 3.0, 6.0])),
    case("tf.searchSorted", T([1.0, 2.0, 2.0, 5.0]), T([0.0, 2.0, 3.0, 6.0]), "right"),
    case("tf.searchSorted", T([1.0, 2.0, 2.0, 5.0]), T([0.0, 2.0, 3.0, 6.0]), "left"),
    case("tf.searchSorted", T([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]), T([[4.0, 5.0], [1.0, 7.0]]), "right"),
    case("tf.searchSorted", T([1, 3, 5], dtype=I), T([3, 4], dtype=I)),
    case("tf.searchSorted", T([1.0, 2.0]), T([NAN, INF, -INF])),
    case("tf.searchSorted", T([1.0, 2.0]), T([[1.0, 3.0]])),
    case("tf.searchSorted", T([[1.0, 2.0]]), T([[0.0, 5.0, 1.5]])),
    case("tf.searchSorted", T([], [0]), T([1.0]), error=True),
    case("tf.searchSorted", T([1.0, 2.0]), T(1.0), error=True),
    case("tf.searchSorted", T([[1.0, 2.0], [3.0, 4.0]]), T([[1.0]]), error=True),
    case("tf.searchSorted", T([1.0, 2.0]), T([1], dtype=I)),
    case("tf.lowerBound", T([1.0, 2.0, 2.0, 5.0]), T([2.0, 3.0])),
    case("tf.lowerBound", T([[1, 3], [2, 2]], dtype=I), T([[3], [2]], dtype=I)),
    case("tf.upperBound", T([1.0, 2.0, 2.0, 5.0]), T([2.0, 3.0])),
    case("tf.upperBound", T([[1, 3], [2, 2]], dtype=I), T([[3], [2]], dtype=I)),
    # sparseToDense(sparseIndices, sparseValues, outputShape, defaultValue?)
    case("tf.sparseToDense", T([0, 2], dtype=I), T([5.0, 6.0]), [4]),
    case("tf.sparseToDense", T([0, 2], dtype=I), T([5.0, 6.0]), [4], T(-1.0)),
    case("tf.sparseToDense", T([[0, 1], [1, 0]], dtype=I), T([5, 6], dtype=I), [2, 2], T(9, dtype=I)),
    case("tf.sparseToDense", T([1, 3], dtype=I), T(7.0), [4]),
    case("tf.sparseToDense", T(1, dtype=I), T(7.0), [3]),
    case("tf.sparseToDense", T([0, 1], dtype=I), T([True, True], dtype=B), [3], T(False, dtype=B)),
    case("tf.sparseToDense", T([0, 2], dtype=I), T([5.0, 6.0]), [4], T(1, dtype=I), error=True),
    case("tf.sparseToDense", T([0, 2], dtype=I), T([5.0, 6.0, 7.0]), [4], error=True),
    case("tf.sparseToDense", T([0.0]), T([5.0]), [4], error=True),
    # raggedGather(paramsNestedSplits, paramsDenseValues, indices, outputRaggedRank)
    case("tf.raggedGather", [T([0, 2, 3, 5], dtype=I)], F([5]), T([2, 0], dtype=I), 1),
    case("tf.raggedGather", [T([0, 2, 3, 5], dtype=I)], N([5, 2]), T([1, 1, 2], dtype=I), 1),
    case("tf.raggedGather", [T([0, 1, 3], dtype=I), T([0, 2, 3, 4], dtype=I)], F([4]), T([1], dtype=I), 2),
    case("tf.raggedGather", [T([0, 2, 3, 5], dtype=I)], F([5]), T([[2, 0], [1, 1]], dtype=I), 2),
    case("tf.raggedGather", [T([0, 2, 3], dtype=I)], F([3]), T([3], dtype=I), 1, error=True),
    # raggedRange(starts, limits, deltas)
    case("tf.raggedRange", T([0, 5, 8], dtype=I), T([3, 5, 12], dtype=I), T([1, 1, 2], dtype=I)),
    case("tf.raggedRange", T([0.0, 5.0]), T([1.0, 2.0]), T([0.25, -1.5])),
    case("tf.raggedRange", T(0, dtype=I), T([3, 2], dtype=I), T(1, dtype=I)),
    case("tf.raggedRange", T([0, 3], dtype=I), T([3, 0], dtype=I), T([1, 1], dtype=I)),
    case("tf.raggedRange", T([0], dtype=I), T([3], dtype=I), T([0], dtype=I), error=True),
    case("tf.raggedRange", T([0, 1], dtype=I), T([3], dtype=I), T([1, 1, 1], dtype=I), error=True),
    # raggedTensorToTensor(shape, values, defaultValue, rowPartitionTensors, rowPartitionTypes)
    case("tf.raggedTensorToTensor", T([3, 3], dtype=I), F([5]), T(0.0),
         [T([0, 2, 2, 5], dtype=I)], ["ROW_SPLITS"]),
    case("tf.raggedTensorToTensor", T([-1, -1], dtype=I), N([4]), T(-1, dtype=I),
         [T([0, 1, 4], dtype=I)], ["ROW_SPLITS"]),
    case("tf.raggedTensorToTensor", T([2, 2], dtype=I), N([4]), T(-1, dtype=I),
         [T([0, 1, 4], dtype=I)], ["ROW_SPLITS"]),
    case("tf.raggedTensorToTensor", T([3, 2], dtype=I), F([4]), T(9.0),
         [T(3, dtype=I), T([0, 0, 2, 2], dtype=I)], ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]),
    case("tf.raggedTensorToTensor", T([2, 2, 2], dtype=I), F([5]), T(0.0),
         [T([0, 1, 2], dtype=I), T([0, 2, 5], dtype=I)], ["ROW_SPLITS", "ROW_SPLITS"]),
    case("tf.raggedTensorToTensor", T([3, 3], dtype=I), F([5]), T(0.0),
         [T([0, 2, 2, 5], dtype=I)], ["BAD_TYPE"], error=True),
]
