#!/usr/bin/env python3
"""Writes an AEM adventureList response of about N megabytes to stdout, built from the WKND adventures.

The adventures come from the shared corpus beside the repository when it is there; otherwise a synthetic
adventure with the same shape (accents, rich text, nested image, decimal price) is used.
"""
import argparse
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "..", "shared", "corpus", "aem", "wknd-shared", "adventures.json")

parser = argparse.ArgumentParser()
parser.add_argument("--megabytes", type=float, default=100)
args = parser.parse_args()

if os.path.exists(corpus):
    with open(corpus, encoding="utf-8") as f:
        adventures = json.load(f)
else:
    adventures = [{
        "title": "Café à la plage", "slug": "cafe", "activity": "Surfing", "price": 1234.5,
        "tripLength": "5 Days", "description": "<p>Day one: <b>arrive</b> &amp; settle in.</p>",
        "primaryImage": "/content/dam/wknd-shared/en/adventures/cafe.jpg",
    }]

out = sys.stdout
out.write('{"data":{"adventureList":{"items":[')
written, index, limit = 0, 0, int(args.megabytes * 1_000_000)
while written < limit:
    item = dict(adventures[index % len(adventures)])
    path = item.get("primaryImage") or "/content/dam/x.jpg"
    item["_path"] = f"/content/dam/wknd-shared/en/adventures/item-{index}/item-{index}"
    item["primaryImage"] = {"_path": path, "_dynamicUrl": f"/adobe/dynamicmedia/deliver/dm-aid--{index}/image.jpg",
                            "mimeType": "image/jpeg", "width": 1600, "height": 1200}
    html = item.get("description")
    if isinstance(html, str):
        item["description"] = {"html": html, "plaintext": html}
    text = ("," if index else "") + json.dumps(item, ensure_ascii=False, separators=(",", ":"))
    out.write(text)
    written += len(text.encode("utf-8"))
    index += 1
out.write("]}}}\n")
