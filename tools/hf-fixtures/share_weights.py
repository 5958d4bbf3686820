#!/usr/bin/env python3
"""Drops the weights a fixture shares with another, to keep testdata small.

Some fixtures differ from another only in config fields that leave the
drawn weights alone (the rope, the window): their safetensors are
byte-identical to their base's. share(out, name) removes such a
fixture's *.safetensors and records the base in its fixture.json as
"weights_from"; the Go tests read the base's tensors with the variant's
config.json. A fixture whose weights differ from its base's keeps them.

Usage: python3 share_weights.py DIR   (every pair below found in DIR)
Needs nothing beyond the standard library (make_fixtures.py calls share
after each fixture).
"""

import filecmp
import json
import os
import sys

# variant -> base: the same architecture, seed and sizes.
SHARED = {
    "qwen2_yarn": "qwen2",
    "mistral_window": "mistral",
    "phi3_longrope_short": "phi3",
    "phi3_longrope_long": "phi3",
}


def weight_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".safetensors") or f == "model.safetensors.index.json")


def share(out, name):
    """Returns True when name's weights were dropped for its base's."""
    base = SHARED.get(name)
    if base is None:
        return False
    d, b = os.path.join(out, name), os.path.join(out, base)
    if not os.path.isdir(b) or not os.path.isfile(os.path.join(d, "fixture.json")):
        return False
    files = weight_files(d)
    if not files or files != weight_files(b):
        return False
    if not all(filecmp.cmp(os.path.join(d, f), os.path.join(b, f), shallow=False) for f in files):
        return False
    for f in files:
        os.remove(os.path.join(d, f))
    path = os.path.join(d, "fixture.json")
    with open(path) as fh:
        report = json.load(fh)
    report["weights_from"] = base
    with open(path, "w") as fh:
        json.dump(report, fh, indent=1, sort_keys=True)
    return True


def main():
    out = sys.argv[1]
    for name in SHARED:
        if share(out, name):
            print(f"{name}: weights from {SHARED[name]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
