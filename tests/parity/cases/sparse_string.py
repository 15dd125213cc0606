"""tf.sparse and tf.string: filling empty rows, reshaping sparse indices (with an inferred
dimension), sparse segment sums and means (gaps, repeats, empty segments), regex replacement,
n-grams with padding, splitting and hashing; dtypes and the inputs TF.js rejects."""
from ..spec import T, case


def S(values, shape=None):   # noqa: N802 - a string tensor
    return T(values, shape, "string")


def I(values, shape=None):   # noqa: N802, E743 - an int32 tensor
    return T(values, shape, "int32")


DATA = T([[1.0, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]])
CASES = [
    # sparseFillEmptyRows(indices, values, denseShape, defaultValue)
    case("tf.sparse.sparseFillEmptyRows", I([[0, 0], [1, 0], [1, 3], [1, 4], [3, 2], [3, 3]]),
         T([0.0, 10, 13, 14, 32, 33]), I([5, 6]), -1),
    case("tf.sparse.sparseFillEmptyRows", I([[1, 0], [0, 3]]), I([7, 8]), I([3, 4]), 0),
    case("tf.sparse.sparseFillEmptyRows", I([[0, 0], [1, 1]]), T([1.5, 2.5]), I([2, 2]), 9),
    case("tf.sparse.sparseFillEmptyRows", I([], [0, 2]), T([]), I([3, 2]), 4),
    case("tf.sparse.sparseFillEmptyRows", I([[0, 0], [5, 1]]), T([1.0, 2.0]), I([3, 2]), 0, error=True),
    case("tf.sparse.sparseFillEmptyRows", I([0, 0]), T([1.0]), I([3, 2]), 0, error=True),
    # sparseReshape(inputIndices, inputShape, newShape)
    case("tf.sparse.sparseReshape", I([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]]), I([2, 3, 6]),
         I([9, -1])),
    case("tf.sparse.sparseReshape", I([[0, 1], [1, 2], [2, 0]]), I([3, 4]), I([2, 6])),
    case("tf.sparse.sparseReshape", I([[0, 1], [1, 2], [2, 0]]), I([3, 4]), I([2, 3, 2])),
    case("tf.sparse.sparseReshape", I([[0, 1], [1, 2]]), I([3, 4]), I([12])),
    case("tf.sparse.sparseReshape", I([], [0, 2]), I([3, 4]), I([-1, 2])),
    case("tf.sparse.sparseReshape", I([[0, 1]]), I([3, 4]), I([5, -1]), error=True),
    case("tf.sparse.sparseReshape", I([[0, 1]]), I([3, 4]), I([-1, -1]), error=True),
    case("tf.sparse.sparseReshape", I([[0, 1]]), I([3, 4]), I([2, 5]), error=True),
]
for fn in ("tf.sparse.sparseSegmentSum", "tf.sparse.sparseSegmentMean"):
    CASES += [
        case(fn, DATA, I([0, 1]), I([0, 0])),
        case(fn, DATA, I([0, 1, 2]), I([0, 1, 1])),
        case(fn, DATA, I([0, 2, 1, 1]), I([0, 0, 2, 3])),        # segment 1 empty
        case(fn, DATA, I([2, 2, 2]), I([1, 1, 1])),
        case(fn, T([1.0, 2, 3, 4]), I([0, 3, 3]), I([0, 0, 1])),
        case(fn, T([[[1.0, 2], [3, 4]], [[5, 6], [7, 8]]]), I([0, 1]), I([0, 1])),
        case(fn, DATA, I([], [0]), I([], [0])),
        case(fn, DATA, I([0, 1]), I([1, 0]), error=True),        # ids not sorted
        case(fn, DATA, I([0, 5]), I([0, 0]), error=True),        # index out of range
        case(fn, DATA, I([0, 1]), I([0]), error=True),
        case(fn, DATA, I([[0, 1]]), I([[0, 0]]), error=True),
    ]
CASES += [
    case("tf.sparse.sparseSegmentSum", I([[1, 2], [3, 4], [5, 6]]), I([0, 2]), I([0, 0])),
    # staticRegexReplace(input, pattern, rewrite, replaceGlobal)
    case("tf.string.staticRegexReplace", S(["aa bb aa", "xyz", ""]), "a", "b"),
    case("tf.string.staticRegexReplace", S(["aa bb aa", "xyz"]), "a+", "-", False),
    case("tf.string.staticRegexReplace", S([["ab12cd3", "9"], ["", "q"]]), "[0-9]+", "#"),
    case("tf.string.staticRegexReplace", S(["hello world"]), "(\\w+) (\\w+)", "$2 $1"),
    case("tf.string.staticRegexReplace", S("one", []), "o", "0"),
    # stringNGrams(data, dataSplits, separator, nGramWidths, leftPad, rightPad, padWidth, preserveShortSequences)
    case("tf.string.stringNGrams", S(["a", "b", "c", "d", "e"]), I([0, 3, 5]), "|", [1, 2], "LP", "RP", -1, False),
    case("tf.string.stringNGrams", S(["a", "b", "c", "d", "e"]), I([0, 3, 5]), " ", [3], "<", ">", 1, False),
    case("tf.string.stringNGrams", S(["a", "b", "c", "d", "e"]), I([0, 4, 5]), "+", [3], "", "", 0, True),
    case("tf.string.stringNGrams", S(["a", "b", "c", "d", "e"]), I([0, 4, 5]), "+", [3], "", "", 0, False),
    case("tf.string.stringNGrams", S(["a", "b"]), I([0, 0, 2]), "-", [2, 3], "L", "R", 2, False),
    case("tf.string.stringNGrams", S(["a", "b"]), I([0, 3]), "-", [2], "", "", 0, False, error=True),
    case("tf.string.stringNGrams", S(["a", "b"]), I([0, 2]), "-", [0], "", "", 0, False, error=True),
    # stringSplit(input, delimiter, skipEmpty)
    case("tf.string.stringSplit", S(["a b c", "d", "", "e  f"]), " "),
    case("tf.string.stringSplit", S(["a b c", "d", "", "e  f"]), " ", False),
    case("tf.string.stringSplit", S(["a,b;c", "d;;e"]), ",;"),
    case("tf.string.stringSplit", S(["abc", "de"]), ""),
    case("tf.string.stringSplit", S([["a b"]]), " ", error=True),
    # stringToHashBucketFast(input, numBuckets)
    case("tf.string.stringToHashBucketFast", S(["hello", "world", "", "tf.js", "a longer string, with spaces"]), 1000),
    case("tf.string.stringToHashBucketFast", S([["a", "b"], ["c", "d"]]), 3),
    case("tf.string.stringToHashBucketFast", S(["x"]), 1),
    case("tf.string.stringToHashBucketFast", S(["x"]), 0, error=True),
]
