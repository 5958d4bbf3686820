#!/usr/bin/env python3
"""Shared-memory wavefronts of the staged q4_0 GEMV's decode reads, by model.

The model: threadgroup memory is 32 banks of 4-byte words; one warp-wide
request takes as many wavefronts as the most distinct words any one bank
must return (lanes reading the same word share it). docs/gpu-check.md,
run 26, checks it against ncu (run 26g): for the committed q4_0 kernel at
K x N = 14336x4096 (512 threadgroups of 128 threads, 8 rows, 7 stages of
64 blocks) it gives 1,146,880 wavefronts for 573,440 decode requests;
ncu counted 1,162,735 for 575,488 (the rest are the row sums' reads).

Usage: python3 bench/gpu/banks.py
"""


def wavefronts(addrs):
    """Wavefronts of one request: addrs holds each lane's byte address."""
    banks = {}
    for a in addrs:
        banks.setdefault((a // 4) % 32, set()).add(a // 4)
    return max(len(words) for words in banks.values())


def per_weight(requests, weights):
    """Total wavefronts of requests (lists of addresses) per weight decoded."""
    return sum(wavefronts(r) for r in requests) / weights


def lanes(warp, per_block, first=0):
    """The (block, part) of each lane of a warp of a 128-thread threadgroup
    whose per_block lanes share a block, from block first on."""
    return [(first + (warp * 32 + l) // per_block, l % per_block) for l in range(32)]


def stage_units(j, warp):
    """The 16-byte units of a stage's 8 rows (576) that a warp's lanes
    store in their j-th store (unit tpos.x + 128j)."""
    return [e for e in (warp * 32 + l + 128 * j for l in range(32)) if e < 576]


def committed():
    """Two lanes a block (p), 16 blocks a warp; a lane reads d and four
    2-byte words of its 8 quant bytes from the raw 18-byte blocks."""
    reqs = []
    for warp in range(4):
        ls = lanes(warp, 2)
        reqs.append([ib * 18 for ib, _ in ls])
        for i in range(4):
            reqs.append([ib * 18 + 2 + 8 * p + 2 * i for ib, p in ls])
    return reqs, 64 * 32  # one row of a 64-block stage


def eight_lanes():
    """Eight lanes a block, 4 blocks a warp; a lane reads d and one 2-byte
    word (four weights)."""
    reqs = []
    for slot in range(4):  # 128 threads cover 16 blocks a slot
        for warp in range(4):
            ls = lanes(warp, 8, slot * 16)
            reqs.append([ib * 18 for ib, _ in ls])
            reqs.append([ib * 18 + 2 + 2 * p for ib, p in ls])
    return reqs, 64 * 32


def aligned_tile():
    """The quants re-laid at 16 bytes a block (d apart): a lane reads its
    8 quant bytes as one 8-byte load (a 64-bit request: 256 bytes a warp,
    two wavefronts at least); the stores that re-lay the tile are not
    counted."""
    reqs = []
    for warp in range(4):
        ls = lanes(warp, 2)
        reqs.append([4096 + 2 * ib for ib, _ in ls])  # d, 2 bytes a block
        q = [ib * 16 + 8 * p for ib, p in ls]
        # An 8-byte request is served a half-warp at a time, each lane
        # taking two words.
        for half in (q[:16], q[16:]):
            reqs.append([a + 4 * w for a in half for w in range(2)])
    return reqs, 64 * 32


def raw_stores():
    """The committed staging: each thread stores its 16-byte units as they
    came, one 16-byte store each (served a quarter-warp at a time)."""
    reqs = []
    for j in range(5):
        for warp in range(4):
            es = stage_units(j, warp)
            for quarter in range(4):
                part = es[quarter * 8:(quarter + 1) * 8]
                if part:
                    reqs.append([16 * e + 4 * w for e in part for w in range(4)])
    return reqs, 8 * 64 * 32  # the stage's 8 rows


def relaid_stores():
    """Re-laying the same units into aligned_tile's layout at 2-byte
    granularity: eight 2-byte stores a unit, each to d's array or to the
    block's 16-byte slot."""
    reqs = []
    for j in range(5):
        for warp in range(4):
            es = stage_units(j, warp)
            if not es:
                continue
            for k in range(8):
                addrs = []
                for e in es:
                    r, u = divmod(e, 72)
                    b, o = divmod(16 * u + 2 * k, 18)
                    blk = r * 64 + b
                    addrs.append(8 * 64 * 16 + 2 * blk if o == 0 else blk * 16 + o - 2)
                reqs.append(addrs)
    return reqs, 8 * 64 * 32


def main():
    print("layout                 wavefronts/weight")
    for name, fn in [("committed (2 lanes)", committed), ("8 lanes a block", eight_lanes),
                     ("16-byte aligned tile", aligned_tile), ("stores, raw units", raw_stores),
                     ("stores, re-laid", relaid_stores)]:
        reqs, weights = fn()
        print(f"{name:22s} {per_weight(reqs, weights):.4f}")
    reqs, _ = committed()
    total = sum(wavefronts(r) for r in reqs) * 8 * 7 * 512
    print(f"committed at 14336x4096: {total} wavefronts, {len(reqs) * 8 * 7 * 512} requests")


if __name__ == "__main__":
    main()
