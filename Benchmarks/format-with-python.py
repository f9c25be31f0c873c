#!/usr/bin/env python3
"""The Python side of the comparison: orjson + csv, the same items and fields as `content format`."""
import csv
import sys

import orjson

with open(sys.argv[1], "rb") as f:
    document = orjson.loads(f.read())
writer = csv.writer(sys.stdout, lineterminator="\n")
writer.writerow(["title", "activity", "price", "tripLength", "primaryImage._dynamicUrl"])
for item in document["data"]["adventureList"]["items"]:
    image = item.get("primaryImage") or {}
    writer.writerow([item.get("title"), item.get("activity"), item.get("price"), item.get("tripLength"),
                     image.get("_dynamicUrl")])
