"""tf.vis in the page with hostile text and markup: nothing runs, the text is shown as text.

Python escapes text and checks colours and sizes (vis/svg.py, unit-tested in tests/unit/test_vis.py);
the page parses what it is given as SVG and keeps only drawing elements and attributes
(web/pytfweb.js's safeSvg). Both lines are tested here, on the session's page (no backend needed:
the charts are drawn from plain lists); the elements and the visor made here are removed after.
"""
import pytest

from .conftest import PageError

HOSTILE = '<img src=x onerror="window.__pwned=1">'

_SETUP = """() => {
  delete window.__pwned;
  delete window.__control;
  const d = document.createElement("div");
  d.id = "vis-security";
  document.body.appendChild(d);
}"""

# A missing image's error event, as a control: once it has fired, an injected <img src=x> would have too.
_CONTROL = """() => {
  const i = new Image();
  i.onerror = () => { window.__control = 1; };
  i.src = "vis-security-missing.png?" + Math.random();
}"""

_CLEANUP = """() => {
  document.getElementById("vis-security")?.remove();
  document.getElementById("pytfweb-visor")?.remove();
  document.getElementById("pytfweb-visor-toggle")?.remove();
  Object.assign(pytfweb.visor, { el: null, tabs: new Map(), current: null });
}"""

# Markup no Python of tf.vis writes, given straight to the page's drawing function.
_MARKUP = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" class="tfvis" '
           'width="40" height="20" onload="window.__pwned=2">'
           '<script>window.__pwned=3</script>'
           '<foreignObject width="10" height="10"><img xmlns="http://www.w3.org/1999/xhtml" src="x" '
           'onerror="window.__pwned=4"/></foreignObject>'
           '<a href="javascript:window.__pwned=5"><text>link</text></a>'
           '<image href="x" onerror="window.__pwned=6"/>'
           '<set attributeName="onclick" to="window.__pwned=7"/>'
           '<rect class="kept" width="5" height="5" fill="url(http://127.0.0.1:1/p.svg#p)" stroke="red" '
           'onclick="window.__pwned=8" style="fill:red"/>'
           '<use xlink:href="#x"/><text x="1" y="15">kept</text></svg>')

_DRAW_JS = """(markup) => {
  const d = document.getElementById("vis-security");
  try {
    pytfweb._vis({ op: "draw", target: d, html: markup });
  } catch (err) {
    return "error: " + err.message;
  }
  return d.innerHTML;
}"""


def test_hostile_text_and_markup_run_nothing_and_show_as_text(pyodide_page):
    page = pyodide_page.page
    page.evaluate(_SETUP)
    try:
        pyodide_page.run("""
tf.vis.render.linechart("vis-security", {"values": [[1.0, 2.0], [2.0, 1.0]], "series": [h, "b"]}, {"title": h})
tf.vis.render.table(tf.vis.visor().surface(h, tab=h), {"headers": [h], "values": [[h]]})
""", h=HOSTILE)
        with pytest.raises(PageError) as e:
            pyodide_page.run("tf.vis.render.linechart('vis-security', [1.0], series_colors=[h])", h=HOSTILE)
        assert e.value.type == "ValueError" and e.value.message.startswith(
            "vis.linechart: option 'series_colors' must hold CSS colors, got ")

        chart = page.locator("#vis-security svg.tfvis")
        assert chart.count() == 1 and page.locator("#vis-security img").count() == 0
        assert chart.locator("path.series").first.get_attribute("data-name") == HOSTILE
        assert HOSTILE in chart.locator("text").all_text_contents()           # title and legend, as text
        surfaces = page.evaluate("""() => [...document.querySelectorAll('#pytfweb-visor section.surface')].map(
            (s) => [s.dataset.name, s.querySelector('h3').textContent, [...s.querySelectorAll('svg text')].map(
            (t) => t.textContent), s.querySelectorAll('img').length])""")
        assert surfaces == [[HOSTILE, HOSTILE, [HOSTILE, HOSTILE], 0]]
        assert page.locator("#pytfweb-visor .tabs button").all_text_contents() == [HOSTILE]

        # the page's own line: whatever markup reaches it, only drawing is kept
        kept = page.evaluate(_DRAW_JS, _MARKUP)
        assert kept == ('<svg xmlns="http://www.w3.org/2000/svg" class="tfvis" width="40" height="20">'
                        '<rect class="kept" width="5" height="5" stroke="red"></rect>'
                        '<text x="1" y="15">kept</text></svg>')
        assert page.evaluate(_DRAW_JS, '<img src="x" onerror="window.__pwned=9"/>').startswith(
            "error: tf.vis: the chart is not well-formed SVG")
        assert page.evaluate(_DRAW_JS, HOSTILE).startswith("error: tf.vis: the chart is not well-formed SVG")

        page.evaluate(_CONTROL)
        page.wait_for_function("window.__control === 1")
        assert page.evaluate("typeof window.__pwned") == "undefined"
    finally:
        page.evaluate(_CLEANUP)
