"""tf.string: string_n_grams, string_split, string_to_hash_bucket_fast, static_regex_replace.

The 'string' dtype: `tf.tensor(['a', 'b'])` infers it. Values are Python str; bytes are
accepted too and decoded as UTF-8 (bytes that are not UTF-8 kept as surrogate escapes, so
`s.encode('utf-8', 'surrogateescape')` gives TF.js's Uint8Array back). `data_sync()` and
`array_sync()` give str, as TF.js's dataSync()/arraySync() decode its bytes. tf.memory()
counts a string tensor's UTF-8 bytes, as TF.js does. Ops that only move values (reshape,
clone, slice, gather, concat, stack, unstack, split, tile, transpose, reverse) take strings on
cpu; on webgl string tensors stay CPU-side, where reshape/clone and the kernels here run.
Every other op refuses a string argument with a TypeError naming op and argument (as TF.js's
convertToTensor: creation.STRING_OPS lists the ops that take strings), and the engine refuses
a string input to any kernel not in kernels.STRING_KERNELS.

Kernels (every backend, pure Python: pytfweb/backends/strings.py): StringNGrams, StringSplit,
StringToHashBucketFast (TF.js's fingerPrint64, farmhash), StaticRegexReplace.
Differences from TF.js:
- static_regex_replace: the pattern is run by Python's `re`, which reads JavaScript's common
  syntax the same way (classes, quantifiers, groups, lookaround, (?<name>...)); JS-only
  details (\\d and \\w are ASCII in JS, Unicode here; `$` before a final newline) differ.
  The rewrite uses JavaScript's $ patterns ($&, $1, $<name>, $$, $`, $').
- string_n_grams: Python values for data_splits are made int32 (TF.js makes them float32,
  then refuses them); n_gram_widths must be positive.
"""
from typing import Dict, Sequence

from ..core.types import TensorLike
from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from .creation import convert_to_tensor

__all__ = ["static_regex_replace", "string_n_grams", "string_split", "string_to_hash_bucket_fast"]


def _string_input(x, arg, name):
    t = convert_to_tensor(x, arg, name, "string")   # (a tensor passes through as it is)
    if t.dtype != "string":
        raise TypeError(f"{name}: argument '{arg}' must be a string tensor, got {t.dtype}")
    return t


def _str_arg(v, arg, name):
    if not isinstance(v, str):
        raise TypeError(f"{name}: argument '{arg}' must be a str, got {type(v).__name__}")
    return v


def _int_arg(v, arg, name):
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{name}: argument '{arg}' must be an int, got {type(v).__name__}")
    return v.__index__()


@op
def string_n_grams(data: TensorLike, data_splits: TensorLike, separator: str, n_gram_widths: Sequence[int],
                   left_pad: str, right_pad: str, pad_width: int, preserve_short_sequences: bool) -> Dict[str, Tensor]:
    """N-grams of a ragged string tensor, joined by separator.

    Args:
        data: the strings (the ragged tensor's values).
        data_splits: int32 row splits of data.
        separator: the string joining the items of an n-gram.
        n_gram_widths: the n-gram lengths to make.
        left_pad: the string padding the left of each row.
        right_pad: the string padding the right of each row.
        pad_width: how many pads on each side, at most width - 1 (negative: width - 1).
        preserve_short_sequences: make one n-gram of a row shorter than every width.

    Returns:
        {'n_grams': string values, 'n_grams_splits': int32 row splits}.

    Example:
        >>> out = tf.string.string_n_grams(tf.tensor(["a", "b", "c"]), tf.tensor([0, 3], dtype="int32"), "-", [2],
        ...                                "", "", 0, False)
        >>> out["n_grams"].print()
        Tensor
            ['a-b', 'b-c']
    """
    name = "string_n_grams"
    x = _string_input(data, "data", name)
    if x.rank != 1:
        raise ValueError(f"{name}: argument 'data' must be a vector, got shape {list(x.shape)}")
    splits = convert_to_tensor(data_splits, "data_splits", name,
                               "int32" if not isinstance(data_splits, Tensor) else None)
    if splits.dtype != "int32":
        raise TypeError(f"{name}: argument 'data_splits' must be an int32 tensor, got {splits.dtype}")
    if isinstance(n_gram_widths, (int, str)) or not hasattr(n_gram_widths, "__iter__"):
        raise TypeError(f"{name}: argument 'n_gram_widths' must be a list of ints, got {n_gram_widths!r}")
    widths = [_int_arg(w, "n_gram_widths", name) for w in n_gram_widths]
    if any(w < 1 for w in widths):
        raise ValueError(f"{name}: argument 'n_gram_widths' must hold positive ints, got {widths}")
    attrs = {"separator": _str_arg(separator, "separator", name), "n_gram_widths": widths,
             "left_pad": _str_arg(left_pad, "left_pad", name), "right_pad": _str_arg(right_pad, "right_pad", name),
             "pad_width": _int_arg(pad_width, "pad_width", name),
             "preserve_short_sequences": bool(preserve_short_sequences)}
    n_grams, n_grams_splits = ENGINE.run_kernel("StringNGrams", [x, splits], attrs)
    return {"n_grams": n_grams, "n_grams_splits": n_grams_splits}


@op
def string_split(input: TensorLike, delimiter: str, skip_empty: bool = True) -> Dict[str, Tensor]:  # noqa: A002 - TF.js name
    """Split each string of a vector at every character of delimiter (an empty delimiter splits into
    single bytes).

    Args:
        input: a 1D string tensor.
        delimiter: the delimiter characters.
        skip_empty: drop empty pieces.

    Returns:
        The sparse result {'indices': int32 [n, 2], 'values': strings, 'shape': int32 [2]}.

    Example:
        >>> tf.string.string_split(tf.tensor(["a b", "c"]), " ")["values"].print()
        Tensor
            ['a', 'b', 'c']
    """
    name = "string_split"
    x = _string_input(input, "input", name)
    d = _string_input(delimiter, "delimiter", name)
    if x.rank != 1:
        raise ValueError(f"{name}: argument 'input' must be a vector, got shape {list(x.shape)}")
    if d.rank != 0:
        raise ValueError(f"{name}: argument 'delimiter' must be a scalar, got shape {list(d.shape)}")
    indices, values, shape = ENGINE.run_kernel("StringSplit", [x, d], {"skip_empty": bool(skip_empty)})
    return {"indices": indices, "values": values, "shape": shape}


@op
def string_to_hash_bucket_fast(input: TensorLike, num_buckets: int) -> Tensor:  # noqa: A002 - TF.js name
    """Each string's fingerprint64 (farmhash, as TF.js) modulo num_buckets.

    Args:
        input: a string tensor.
        num_buckets: the number of buckets.

    Returns:
        An int32 Tensor of input's shape.

    Example:
        >>> tf.string.string_to_hash_bucket_fast(tf.tensor(["a", "b"]), 10).print()
        Tensor
            [9, 2]
    """
    name = "string_to_hash_bucket_fast"
    x = _string_input(input, "input", name)
    n = _int_arg(num_buckets, "num_buckets", name)
    if n < 1:
        raise ValueError(f"{name}: argument 'num_buckets' must be at least 1, got {n}")
    return ENGINE.run_kernel("StringToHashBucketFast", [x], {"num_buckets": n})


@op
def static_regex_replace(input: TensorLike, pattern: str, rewrite: str,  # noqa: A002 - TF.js name
                         replace_global: bool = True) -> Tensor:
    """Replace the matches of a regular expression in each string, as JavaScript's String.replace.

    Args:
        input: a string tensor.
        pattern: the regular expression.
        rewrite: the replacement.
        replace_global: replace every match (False: the first).

    Returns:
        A string Tensor of input's shape.

    Example:
        >>> tf.string.static_regex_replace(tf.tensor(["a-b-c"]), "-", "+").print()
        Tensor
            ['a+b+c']
    """
    name = "static_regex_replace"
    x = _string_input(input, "input", name)
    attrs = {"pattern": _str_arg(pattern, "pattern", name), "rewrite": _str_arg(rewrite, "rewrite", name),
             "replace_global": bool(replace_global)}
    return ENGINE.run_kernel("StaticRegexReplace", [x], attrs)
