"""tf.data: datasets from arrays, generators, functions and zips, transformed (batch, map, filter,
skip, take, repeat, concatenate, shuffle with a seed, prefetch) and collected with toArray (awaited);
their sizes. csv reads CSV text from data: URLs, which TF.js (under node), the page's fetch and CPython's
urllib all read alike: its options, quoting, number parsing, columnNames() and errors. (file:// paths and
http:// URLs are tests/unit/test_data_csv.py, against TF.js under node.) microphone and webcam need a browser
device: tests/browser/test_data_devices.py runs them and TF.js's on Chromium's fake devices."""
import urllib.parse

from ..spec import T, chain, fn_arg, made, sines

D = "tf.data."
NUMS = [1, 2, 3, 4, 5, 6, 7]
TS = [sines([2], shift=i) for i in range(5)]
XY = [{"xs": [i, i + 1], "ys": i * 10} for i in range(5)]
ARR = made(D + "array", NUMS)
STRS = made(D + "array", ["a", "b", "c"])


def to_array(*calls):
    return list(calls) + [("toArray", [])]


CASES = [
    chain(D + "array", NUMS, calls=to_array()),
    chain(D + "array", NUMS, calls=[("size",)]),
    chain(D + "array", NUMS, calls=to_array(("batch", [3]))),
    chain(D + "array", NUMS, calls=to_array(("batch", [3, False]))),
    chain(D + "array", NUMS, calls=[("batch", [3, False]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("batch", [0])), error=True),
    chain(D + "array", TS, calls=to_array(("batch", [2]))),
    chain(D + "array", XY, calls=to_array(("batch", [2]))),
    chain(D + "array", [[1, 2], [3, 4], [5, 6]], calls=to_array(("batch", [2]))),
    chain(D + "array", ["x", "y", "z"], calls=to_array(("batch", [2]))),
    chain(D + "array", NUMS, calls=to_array(("map", [fn_arg("scale", 3)]))),
    chain(D + "array", TS, calls=to_array(("map", [fn_arg("scale", -2)]))),
    chain(D + "array", NUMS, calls=to_array(("mapAsync", [fn_arg("scale", 2)]))),
    chain(D + "array", NUMS, calls=to_array(("filter", [fn_arg("above", 3)]))),
    chain(D + "array", NUMS, calls=[("filter", [fn_arg("above", 3)]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("skip", [2]), ("take", [3]))),
    chain(D + "array", NUMS, calls=[("skip", [2]), ("take", [3]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("skip", [10]))),
    chain(D + "array", NUMS, calls=[("skip", [10]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("take", [-1]))),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", [3]))),
    chain(D + "array", [1, 2, 3], calls=[("repeat", [3]), ("size",)]),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", []), ("take", [8]))),
    chain(D + "array", [1, 2, 3], calls=[("repeat", []), ("size",)]),
    chain(D + "array", [1, 2, 3], calls=to_array(("repeat", [])), error=True),   # endless
    chain(D + "array", [1, 2, 3], calls=to_array(("concatenate", [STRS]))),
    chain(D + "array", [1, 2, 3], calls=[("concatenate", [STRS]), ("size",)]),
    chain(D + "array", NUMS, calls=to_array(("prefetch", [2]))),
    chain(D + "array", NUMS, calls=to_array(("prefetch", [None])), error=True),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [4, 42]))),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [100, "abc"]))),
    chain(D + "array", list(range(12)), calls=to_array(("shuffle", [3, 7, False]))),
    chain(D + "array", list(range(10)), calls=to_array(("shuffle", [5, 9]), ("batch", [4]))),
    chain(D + "array", NUMS, calls=to_array(("shuffle", [-1])), error=True),
    chain(D + "array", NUMS, calls=to_array(("batch", [2]), ("map", [fn_arg("scale", 0.5)]))),
    chain(D + "generator", fn_arg("range", 5, False), calls=to_array()),
    chain(D + "generator", fn_arg("range", 5, True), calls=to_array(("batch", [2]))),
    chain(D + "generator", fn_arg("range", 5, False), calls=[("size",)]),
    chain(D + "func", fn_arg("countdown", 4), calls=to_array()),
    chain(D + "func", fn_arg("countdown", 5), calls=to_array(("batch", [2]))),
    chain(D + "zip", [ARR, STRS], calls=to_array()),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=to_array()),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=[("size",)]),
    chain(D + "zip", {"a": ARR, "b": STRS}, calls=to_array(("batch", [2]))),
    chain(D + "zip", {"a": ARR, "nested": [STRS, made(D + "array", NUMS[::-1])]}, calls=to_array()),
    chain(D + "zip", [ARR, 3], calls=to_array(), error=True),
]


def csv_url(text):
    """A data: URL holding text (UTF-8, percent-encoded)."""
    return "data:text/csv;charset=utf-8," + urllib.parse.quote(text, safe="")


CSV = csv_url('a,b,c\n1,"x,y",true\n2,,false\r\n3.5,"q""r",1\n-4,"",TRUE\n')
NUMBERS = csv_url("v,w\n 12 ,0x1F\n1e3,Infinity\nNaN,-\n.5,0b101\n-0x10, \n")
CONFIGS = {"a": {"dtype": "int32"}, "b": {"default": "none"}, "c": {"dtype": "bool", "isLabel": True}}
CASES += [
    chain(D + "csv", CSV, calls=to_array()),
    chain(D + "csv", CSV, calls=[("columnNames", [])]),
    chain(D + "csv", CSV, calls=[("size",)]),
    chain(D + "csv", CSV, opts={"columnConfigs": CONFIGS}, calls=to_array()),
    chain(D + "csv", CSV, opts={"columnConfigs": {"c": {"dtype": "bool"}, "a": {"dtype": "float32"}},
                                "configuredColumnsOnly": True}, calls=to_array()),
    chain(D + "csv", CSV, opts={"columnConfigs": {"c": {}, "a": {}}, "configuredColumnsOnly": True},
          calls=[("columnNames", [])]),
    chain(D + "csv", CSV, opts={"columnNames": ["p", "q", "r"]}, calls=to_array()),
    chain(D + "csv", CSV, opts={"hasHeader": False, "columnNames": ["p", "q", "r"]}, calls=to_array()),
    chain(D + "csv", CSV, opts={"hasHeader": False, "columnNames": ["p", "q", "r"]}, calls=[("columnNames", [])]),
    chain(D + "csv", csv_url("x;y\n1;2\n3;4\n"), opts={"delimiter": ";"}, calls=to_array()),
    chain(D + "csv", csv_url("x;y\n1;2\n3;4\n"), opts={"delimiter": ";"}, calls=to_array(("batch", [2]))),
    chain(D + "csv", csv_url("x  y   z\n1 2  3\n  4 5 6\n"), opts={"delimWhitespace": True}, calls=to_array()),
    chain(D + "csv", csv_url("x,y\n1,2\n3,4\n5,6"), calls=to_array(("batch", [2]))),
    chain(D + "csv", csv_url("x,y\n1,2\n3,4\n5,6"), opts={"columnConfigs": {"y": {"isLabel": True}}},
          calls=to_array(("batch", [2]))),
    chain(D + "csv", csv_url('s,t\n"a""b""c",x\n"q"r"s",y\n"",z\n"end"\n'), opts={"hasHeader": True},
          calls=to_array(), error=True),   # the last row has 1 field
    chain(D + "csv", csv_url('s,t\n"a""b""c",x\n"q"r"s",y\n"",z\n'), calls=to_array()),
    chain(D + "csv", NUMBERS, calls=to_array()),
    chain(D + "csv", NUMBERS, opts={"columnConfigs": {"v": {"dtype": "int32"}, "w": {"dtype": "bool"}}},
          calls=to_array()),
    chain(D + "csv", csv_url("h\u00e9,w\u00f6rt\n\u00fcber,1\n"), calls=to_array()),
    chain(D + "csv", csv_url("a,b\n1,2\n\n3,4\n"), calls=to_array(), error=True),   # an empty line: 1 field
    chain(D + "csv", csv_url("a,a\n1,2\n"), calls=to_array(), error=True),   # duplicate names
    chain(D + "csv", csv_url("a,b\n1,2,3\n"), calls=to_array(), error=True),   # too many fields
    chain(D + "csv", csv_url("a,b\n1,2\n"), opts={"columnNames": ["x"]}, calls=to_array(), error=True),
    chain(D + "csv", csv_url("a,b\n1,2\n"), opts={"hasHeader": False}, calls=to_array(), error=True),
    chain(D + "csv", csv_url("a,b\n1,2\n"), opts={"hasHeader": False}, calls=[("columnNames", [])], error=True),
    chain(D + "csv", csv_url("a,b\n1,\n"), opts={"columnConfigs": {"b": {"required": True}}}, calls=to_array(),
          error=True),
    chain(D + "csv", csv_url("a,b\n1,\n"), opts={"columnConfigs": {"b": {"isLabel": True}}}, calls=to_array(),
          error=True),
    chain(D + "csv", csv_url("a,b\n1,2\n"), opts={"columnConfigs": {"z": {}}}, calls=to_array(), error=True),
    chain(D + "csv", csv_url(""), calls=to_array(), error=True),   # no header line
    chain(D + "csv", csv_url("a b\n1 2\n"), opts={"delimWhitespace": True, "delimiter": " "}, calls=to_array(),
          error=True),
]
