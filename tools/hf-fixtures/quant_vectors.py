#!/usr/bin/env python3
"""Writes test vectors of ggml's block formats from gguf-py's own
dequantisation (gguf.quants.dequantize), for runtime/gguf's tests.

For each type: BLOCKS blocks of seeded random bytes, their half-precision
scale fields (and MXFP4's E8M0 exponent) replaced by finite values, and
gguf-py's float32 values of them. Written to OUT/<TYPE>.bin (the blocks)
and OUT/<TYPE>.f32 (little-endian float32), with OUT/vectors.json naming
the gguf version, the types and their block sizes.

Usage: python3 quant_vectors.py OUT
It needs numpy and gguf (gguf-py); no network.
"""

import json
import os
import sys

import numpy as np

try:
    import gguf
    from gguf.constants import GGMLQuantizationType as T, GGML_QUANT_SIZES
except ImportError as e:  # the MXFP4 check below needs only transformers
    gguf = None
    GGUF_ERROR = repr(e)

BLOCKS = 64

# Each type's half-precision fields (byte offsets in a block).
HALVES = {
    "Q4_0": [0], "Q4_1": [0, 2], "Q5_0": [0], "Q5_1": [0, 2], "Q8_0": [0],
    "Q2_K": [80, 82], "Q3_K": [108], "Q4_K": [0, 2], "Q5_K": [0, 2], "Q6_K": [208],
    "IQ4_NL": [0], "IQ4_XS": [0],
    "MXFP4": [],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(62)
    report = {"gguf": getattr(gguf, "__version__", "?") if gguf else GGUF_ERROR, "numpy": np.__version__, "types": {}}
    for name, halves in (HALVES.items() if gguf else []):
        try:
            qt = getattr(T, name)
            block, nbytes = GGML_QUANT_SIZES[qt]
            data = rng.integers(0, 256, size=(BLOCKS, nbytes), dtype=np.uint8)
            for off in halves:
                h = (rng.uniform(0.002, 0.2, size=BLOCKS) * rng.choice([-1, 1], size=BLOCKS)).astype(np.float16)
                data[:, off:off + 2] = h.view(np.uint8).reshape(BLOCKS, 2)
            if name == "MXFP4":
                data[:, 0] = rng.integers(112, 136, size=BLOCKS, dtype=np.uint8)
            vals = gguf.quants.dequantize(data, qt).astype(np.float32).reshape(-1)
            if vals.size != BLOCKS * block or not np.all(np.isfinite(vals)):
                raise ValueError(f"{vals.size} values, finite {np.all(np.isfinite(vals))}")
            data.tofile(os.path.join(out, name + ".bin"))
            vals.astype("<f4").tofile(os.path.join(out, name + ".f32"))
            report["types"][name] = {"block": block, "bytes": nbytes, "blocks": BLOCKS}
            print(f"{name}: {BLOCKS} blocks of {block}, max |x| {np.abs(vals).max():.4g}")
        except Exception as e:  # one type's failure must not lose the rest
            report["types"][name] = {"error": repr(e)}
            print(f"{name}: FAILED {e!r}")
    # transformers' decoding of the MXFP4 pairs of gpt-oss's safetensors
    # checkpoints: blocks [2, 4, 2, 16] and scales [2, 4, 2].
    try:
        import torch
        from transformers.integrations.mxfp4 import convert_moe_packed_tensors
        blocks = rng.integers(0, 256, size=(2, 4, 2, 16), dtype=np.uint8)
        scales = rng.integers(118, 136, size=(2, 4, 2), dtype=np.uint8)
        vals = convert_moe_packed_tensors(torch.from_numpy(blocks), torch.from_numpy(scales), dtype=torch.float32)
        blocks.tofile(os.path.join(out, "MXFP4_HF.blocks"))
        scales.tofile(os.path.join(out, "MXFP4_HF.scales"))
        vals.float().numpy().astype("<f4").tofile(os.path.join(out, "MXFP4_HF.f32"))
        report["types"]["MXFP4_HF"] = {"blocks_shape": list(blocks.shape), "values_shape": list(vals.shape)}
        print(f"MXFP4_HF: values {list(vals.shape)}")
    except Exception as e:
        report["types"]["MXFP4_HF"] = {"error": repr(e)}
        print(f"MXFP4_HF: FAILED {e!r}")
    with open(os.path.join(out, "vectors.json"), "w") as fh:
        json.dump(report, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
