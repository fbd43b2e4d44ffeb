"""The marshaller anchor: Python's own ElementTree (standard library only) rebuilding and
serialising the documents of a spi-static site, as spi-static's render stage does from its model.

    python3 renderWithElementTree.py --site OUT [--rounds 3] [--json]

Every .xml document under OUT is read into plain Python data first (tag, attributes, text,
children), untimed; then each round builds every document's element tree from that data and
serialises it (indented two spaces, with an XML declaration, as spi-static writes), timed.
Median wall and CPU time of the rounds are reported.
"""

import argparse
import json
import os
import statistics
import sys
import time
import xml.etree.ElementTree as ElementTree

parser = argparse.ArgumentParser()
parser.add_argument("--site", required=True)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--json", action="store_true")
options = parser.parse_args()
# The SPI namespace as the default one, as spi-static writes it (not ns0: prefixes).
ElementTree.register_namespace("", "http://www.worlddab.org/schemas/spi/31")


def model_of(element):
    """An element as plain data: what a renderer starts from."""
    return (element.tag, dict(element.attrib), element.text, [model_of(child) for child in element])


def build(model, parent=None):
    tag, attributes, text, children = model
    element = (
        ElementTree.Element(tag, attributes)
        if parent is None
        else ElementTree.SubElement(parent, tag, attributes)
    )
    if text is not None and text.strip():
        element.text = text
    for child in children:
        build(child, element)
    return element


models = []
for folder, _, names in os.walk(options.site):
    for name in sorted(names):
        if name.endswith(".xml"):
            models.append(model_of(ElementTree.parse(os.path.join(folder, name)).getroot()))

walls, cpus, size = [], [], 0
for _ in range(options.rounds):
    started, cpu_started = time.perf_counter(), time.process_time()
    size = 0
    for model in models:
        root = build(model)
        ElementTree.indent(root, "  ")
        size += len(ElementTree.tostring(root, encoding="UTF-8", xml_declaration=True))
    walls.append(time.perf_counter() - started)
    cpus.append(time.process_time() - cpu_started)

result = {
    "documents": len(models),
    "megabytes": round(size / 1e6, 2),
    "seconds": round(statistics.median(walls), 3),
    "cpuSeconds": round(statistics.median(cpus), 3),
    "python": sys.version.split()[0],
}
print(json.dumps(result) if options.json else result)
