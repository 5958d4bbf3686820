package models

import (
	"fmt"
	"strings"

	"github.com/rlx-compiler/rlx/dialect/graph"
)

// Common holds the size knobs every model has. A zero field that the
// field's comment calls derived is computed from the others; the rest must
// be set (the Default* functions give a toy configuration).
type Common struct {
	// Layers is the number of decoder layers (≥ 1).
	Layers int
	// Hidden is the model width E.
	Hidden int
	// Heads and KVHeads are the attention's query and key/value heads
	// (KVHeads divides Heads).
	Heads, KVHeads int
	// HeadDim is the attention head size; derived: Hidden/Heads, in which
	// case Heads must divide Hidden.
	HeadDim int
	// FFN is the feed-forward inner size; derived: 3·Hidden.
	FFN int
	// Past is the number of cached positions before the decoded token (≥ 1).
	// Every size is at most 2²⁴.
	Past int
	// Vocab is the vocabulary size (per codebook for Zonos).
	Vocab int
	// Quant stores the large projections as GGUF blocks used through
	// graph.dequant_matmul ("" keeps them dense). Every quantised
	// projection's input size must be a multiple of the format's block
	// (32 for q4_0/q8_0, 256 for q4_k/q6_k).
	Quant graph.QuantFormat
	// DType is the element type of dense projection weights: "f32" (or
	// ""), or "f16"/"bf16", in which case activations are cast to it
	// around each projection (mixed precision). Exclusive with Quant.
	DType string
}

// projection says how the large projections are built.
type projection struct {
	quant graph.QuantFormat
	half  string
}

func (c Common) projection() projection {
	p := projection{quant: c.Quant}
	if c.DType != "f32" {
		p.half = c.DType
	}
	return p
}

// sizeError collects configuration errors into one message.
type sizeError struct {
	model string
	msgs  []string
}

func (e *sizeError) add(format string, args ...any) {
	e.msgs = append(e.msgs, fmt.Sprintf(format, args...))
}

func (e *sizeError) err() error {
	if len(e.msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", e.model, strings.Join(e.msgs, "; "))
}

// maxSize bounds every size knob, so that a typo cannot ask for
// exabyte-sized tensors or overflow the shape arithmetic.
const maxSize = 1 << 24

// MaxLayers bounds the layer count: ten times the deepest model the
// builders follow (Kimi-K3, 93 layers), so that a typo cannot ask for a
// graph of gigabytes (100,000 layers were 659 MB of text and 2.9 GB of
// memory).
const MaxLayers = 1024

// positive checks that every named size is in [1, maxSize].
func (e *sizeError) positive(names []string, vals ...int) bool {
	ok := true
	for i, v := range vals {
		switch {
		case v < 1:
			e.add("%s = %d must be at least 1", names[i], v)
			ok = false
		case v > maxSize:
			e.add("%s = %d exceeds the limit of %d", names[i], v, maxSize)
			ok = false
		}
	}
	return ok
}

// resolve fills the derived fields and checks the common knobs. It
// reports whether the sizes are sane enough to check the model's own
// knobs.
func (c *Common) resolve(e *sizeError) bool {
	if c.DType == "" {
		c.DType = "f32"
	}
	switch c.DType {
	case "f32", "f16", "bf16":
	default:
		e.add("dtype %q must be f32, f16 or bf16", c.DType)
	}
	if c.Quant != "" {
		if _, _, ok := c.Quant.Block(); !ok {
			e.add("quant %q must be one of q4_0, q8_0, q4_k, q5_k, q6_k, q6_k_c16, q2_k, q3_k, q4_1, q5_0, q5_1, iq4_nl, iq4_xs, mxfp4", c.Quant)
		} else if c.DType != "f32" {
			e.add("quant %s and dtype %s are exclusive: quantised projections take f32 activations (set quant to none or dtype to f32)", c.Quant, c.DType)
		}
	}
	if !e.positive([]string{"layers", "hidden", "heads", "kv-heads", "past", "vocab"},
		c.Layers, c.Hidden, c.Heads, c.KVHeads, c.Past, c.Vocab) {
		return false
	}
	if c.Layers > MaxLayers {
		e.add("layers = %d exceeds the limit of %d", c.Layers, MaxLayers)
		return false
	}
	if c.Heads%c.KVHeads != 0 {
		e.add("kv-heads = %d does not divide heads = %d", c.KVHeads, c.Heads)
	}
	if c.HeadDim == 0 {
		if c.Hidden%c.Heads != 0 {
			e.add("heads = %d does not divide hidden = %d (set head-dim to choose the head size)", c.Heads, c.Hidden)
		}
		c.HeadDim = c.Hidden / c.Heads
	}
	if c.FFN == 0 {
		c.FFN = 3 * c.Hidden
	}
	return e.positive([]string{"head-dim", "ffn"}, c.HeadDim, c.FFN) && len(e.msgs) == 0
}

// projIn is the input size of a kind of quantised projection.
type projIn struct {
	name string
	k    int
}

// checkQuant checks that each quantised projection's input size is a whole
// number of blocks.
func (c *Common) checkQuant(e *sizeError, ins []projIn) {
	if c.Quant == "" {
		return
	}
	block, _, ok := c.Quant.Block()
	if !ok {
		return
	}
	var bad []string
	for _, in := range ins {
		if int64(in.k)%block != 0 {
			bad = append(bad, fmt.Sprintf("%s = %d", in.name, in.k))
		}
	}
	if len(bad) > 0 {
		e.add("quant %s needs every quantised projection's input size to be a multiple of %d, but %s", c.Quant, block, strings.Join(bad, ", "))
	}
}
