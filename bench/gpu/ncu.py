"""ncu's CSV (--csv --page details) as launches: one dict per profiled
kernel launch, {"kernel", "grid", "block", "metrics"}, metrics keyed by
name and unit ("Duration (ns)") with ncu's text values. check.py's
profile stage uses it; bench/gpu/prepare's tests run it on a committed
profile. Standard library only."""

import csv
import io


def parse(text):
    lines = [l for l in text.splitlines() if l.startswith('"')]
    by_id = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        k = by_id.setdefault(row["ID"], {"kernel": row["Kernel Name"], "grid": row.get("Grid Size"),
                                         "block": row.get("Block Size"), "metrics": {}})
        unit = row.get("Metric Unit") or ""
        k["metrics"][row["Metric Name"] + (f" ({unit})" if unit else "")] = row["Metric Value"]
    return list(by_id.values())


if __name__ == "__main__":
    import json
    import sys

    json.dump(parse(sys.stdin.read()), sys.stdout, indent=1)
