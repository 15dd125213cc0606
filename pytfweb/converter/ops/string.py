"""Strings: StaticRegexReplace, StringNGrams, StringSplit, StringToHashBucketFast.
String attributes keep their case (TF.js lowercases them: a regex pattern 'A' matches 'a')."""
from ... import ops as tfo
from ._table import table, values


def n_grams(x, a):
    r = tfo.string.string_n_grams(x[0], x[1], a.str("separator"), a.ints("ngram_widths"), a.str("left_pad"),
                                  a.str("right_pad"), a.int("pad_width"), a.bool("preserve_short_sequences"))
    return [r["n_grams"], r["n_grams_splits"]]


def split(x, a):
    r = tfo.string.string_split(x[0], values(x[1])[0], a.bool("skip_empty", True))
    return [r["indices"], r["values"], r["shape"]]


OPS = table("string", {
    "StaticRegexReplace": (1, lambda x, a: tfo.string.static_regex_replace(x[0], a.str("pattern"), a.str("rewrite"),
                                                                           a.bool("replace_global", True))),
    "StringNGrams": (2, n_grams),
    "StringSplit": (2, split),
    "StringToHashBucketFast": (1, lambda x, a: tfo.string.string_to_hash_bucket_fast(x[0], a.int("num_buckets"))),
})
