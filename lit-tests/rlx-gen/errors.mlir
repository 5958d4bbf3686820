// Bad sizes and flags are one clear line on stderr and exit 1.
// RUN: not rlx-gen qwen35 --heads 5 --kv-heads 1 2>&1 | FileCheck %s --check-prefix=HEADS
// RUN: not rlx-gen qwen35 --hidden 64 --quant q4_k 2>&1 | FileCheck %s --check-prefix=QUANT
// RUN: not rlx-gen qwen35 --layers 0 --past 0 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not rlx-gen zonos --rotary-dim 5 2>&1 | FileCheck %s --check-prefix=ROTARY
// RUN: not rlx-gen zonos --quant q8_0 --dtype f16 2>&1 | FileCheck %s --check-prefix=EXCL
// RUN: rlx-gen zonos --quant q8_0 | FileCheck %s --check-prefix=FOLLOW
// RUN: not rlx-gen qwen35 --layers 100000 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: not rlx-gen kimi --nope-dim 8 --rope-dim 8 --v-head-dim 16 2>&1 | FileCheck %s --check-prefix=MLA
// RUN: not rlx-gen kimi --kv-heads 2 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not rlx-gen gpt2 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not rlx-gen 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: rlx-gen --help | FileCheck %s --check-prefix=HELP

// HEADS: rlx-gen: qwen35: heads = 5 does not divide hidden = 64 (set head-dim to choose the head size)
// QUANT: rlx-gen: qwen35: quant q4_k needs every quantised projection's input size to be a multiple of 256, but hidden = 64, ffn = 192, heads·head-dim = 64, gdn-heads·gdn-head-dim = 64
// MANY: rlx-gen: qwen35: layers = 0 must be at least 1; past = 0 must be at least 1
// ROTARY: rlx-gen: zonos: rotary-dim = 5 must be even and in [2, head-dim = 16]
// EXCL: rlx-gen: zonos: quant q8_0 and dtype f16 are exclusive: quantised projections take f32 activations (set quant to none or dtype to f32)
// Given alone, --quant sets zonos' dtype (f16 by default) to f32.
// FOLLOW: graph.dequant_matmul
// LAYERS: rlx-gen: qwen35: layers = 100000 exceeds the limit of 1024
// MLA: rlx-gen: kimi: nope-dim + rope-dim = 16 must differ from v-head-dim = 16 (MLA's asymmetric heads)
// FLAG: rlx-gen: kimi: flag provided but not defined: -kv-heads (see rlx-gen kimi --help)
// FLAG-NOT: usage
// MODEL: rlx-gen: unknown model "gpt2" (want qwen35, zonos, kimi)
// NONE: rlx-gen: missing the model name (qwen35, zonos or kimi; see rlx-gen --help)
// HELP: usage: rlx-gen MODEL [flags] > out.mlir
// HELP: qwen35
// HELP: zonos
// HELP: kimi
