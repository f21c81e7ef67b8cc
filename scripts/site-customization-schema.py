#!/usr/bin/env python3
"""Cut the reference's SiteCustomizationSettingsBase, with every schema it
refers to, out of the official OpenAPI document into a JSON Schema (2020-12)
that api/sitecustomization.go embeds to validate customizations.

usage: scripts/site-customization-schema.py [reference.json] > authoring/schemas/site-customization.json
"""
import json
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "../shared/reference/gitbook-openapi-0.202.0.json"
schemas = json.load(open(src))["components"]["schemas"]
keep = {}


def walk(o):
    if isinstance(o, dict):
        out = {}
        for k, v in o.items():
            if k in ("description", "example", "examples", "deprecated"):
                continue
            if k == "$ref":
                name = v.split("/")[-1]
                if name not in keep:
                    keep[name] = None
                    keep[name] = walk(schemas[name])
                v = "#/$defs/" + name
            else:
                v = walk(v)
            out[k] = v
        return out
    if isinstance(o, list):
        return [walk(x) for x in o]
    return o


root = walk({"$ref": "#/components/schemas/SiteCustomizationSettingsBase"})
doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", **root, "$defs": dict(sorted(keep.items()))}
json.dump(doc, sys.stdout, indent=1, sort_keys=False)
sys.stdout.write("\n")
