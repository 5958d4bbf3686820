package ref

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// decodeConfig sizes a Qwen3.5-like decode step (one token): layers of
// gated-delta-net mixing with every third layer full attention, each
// followed by a SwiGLU FFN. It stands in for the models/ builders in
// the interpreter's own tests and benchmarks.
type decodeConfig struct {
	Hidden, Layers, Heads, KVHeads, HeadDim, FFN, Cache int
}

// qwenDecode is the benchmark size: hidden 1024, 8 layers, 16 heads of 64
// (4 kv heads), FFN 2816 (hidden·2.75), 256 cached positions.
var qwenDecode = decodeConfig{Hidden: 1024, Layers: 8, Heads: 16, KVHeads: 4, HeadDim: 64, FFN: 2816, Cache: 256}

// tinyDecode is the same graph at toy size.
var tinyDecode = decodeConfig{Hidden: 64, Layers: 3, Heads: 4, KVHeads: 2, HeadDim: 16, FFN: 176, Cache: 5}

func (c decodeConfig) attention(layer int) bool { return layer%3 == 2 }

// matmulFLOPs returns the floating-point operations of the step's
// matmuls (2 per multiply-add).
func (c decodeConfig) matmulFLOPs() float64 {
	e, qd, kvd := c.Hidden, c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	var macs int
	for l := range c.Layers {
		if c.attention(l) {
			macs += e*qd + 2*e*kvd + e*qd + qd*e // q, k, v, output gate, o
		} else {
			macs += 4*e*qd + 2*e*c.Heads + qd*e // q, k, v, z, g, β, o
		}
		macs += 3 * e * c.FFN
	}
	return 2 * float64(macs)
}

// gen writes MLIR with numbered SSA values.
type gen struct {
	sb   strings.Builder
	n    int
	args []string
}

func (g *gen) op(format string, args ...any) string {
	name := fmt.Sprintf("%%v%d", g.n)
	g.n++
	fmt.Fprintf(&g.sb, "  %s = "+format+"\n", append([]any{name}, args...)...)
	return name
}

func ty(dims ...int) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range dims {
		fmt.Fprintf(&sb, "%dx", d)
	}
	sb.WriteString("f32>")
	return sb.String()
}

func (g *gen) arg(name, t string) string {
	g.args = append(g.args, "%"+name+": "+t)
	return "%" + name
}

func (g *gen) param(name string, dims ...int) string {
	return g.op(`graph.param "%s" : %s`, name, ty(dims...))
}

func (g *gen) matmul(x string, m, k, n int, w string) string {
	return g.op("graph.matmul %s, %s : (%s, %s) -> %s", x, w, ty(m, k), ty(k, n), ty(m, n))
}

func (g *gen) reshape(x, from, to string) string {
	return g.op("graph.reshape %s : (%s) -> %s", x, from, to)
}

func (g *gen) binary(op, a, b, ta, tb, tr string) string {
	return g.op("graph.%s %s, %s : (%s, %s) -> %s", op, a, b, ta, tb, tr)
}

func (g *gen) unary(op, x, t string) string {
	return g.op("graph.%s %s : (%s) -> %s", op, x, t, t)
}

func (g *gen) rmsNorm(x, w, tx, tw string) string {
	return g.op("graph.rms_norm %s, %s {epsilon = 1.0e-06 : f32} : (%s, %s) -> %s", x, w, tx, tw, tx)
}

// decodeMLIR returns the decode step as a module with one public function
// @decode. Its arguments are the hidden state [1, E], the RoPE tables,
// and per layer the recurrent state (GDN) or the KV cache (attention); it
// returns the final normed hidden state and every layer's new state.
func decodeMLIR(c decodeConfig) string {
	g := &gen{}
	e, h, hkv, d, f := c.Hidden, c.Heads, c.KVHeads, c.HeadDim, c.FFN
	qd, kvd, rot := h*d, hkv*d, d/4
	x := g.arg("x", ty(1, e))
	cos := g.arg("cos", ty(1, rot/2))
	sin := g.arg("sin", ty(1, rot/2))
	var results, resTypes []string
	te, tq := ty(1, e), ty(1, 1, h, d)
	for l := range c.Layers {
		p := fmt.Sprintf("l%d.", l)
		hn := g.rmsNorm(x, g.param(p+"norm", e), te, ty(e))
		var mixed string
		if c.attention(l) {
			kc := g.arg(fmt.Sprintf("kcache%d", l), ty(1, c.Cache, hkv, d))
			vc := g.arg(fmt.Sprintf("vcache%d", l), ty(1, c.Cache, hkv, d))
			tkv := ty(1, 1, hkv, d)
			q := g.reshape(g.matmul(hn, 1, e, qd, g.param(p+"wq", e, qd)), ty(1, qd), tq)
			k := g.reshape(g.matmul(hn, 1, e, kvd, g.param(p+"wk", e, kvd)), ty(1, kvd), tkv)
			v := g.reshape(g.matmul(hn, 1, e, kvd, g.param(p+"wv", e, kvd)), ty(1, kvd), tkv)
			q = g.rmsNorm(q, g.param(p+"q_norm", d), tq, ty(d))
			k = g.rmsNorm(k, g.param(p+"k_norm", d), tkv, ty(d))
			rope := fmt.Sprintf(`{head_dim = %d, rotary_dim = %d, style = "neox"}`, d, rot)
			q = g.op("graph.rope %s, %s, %s %s : (%s, %s, %s) -> %s", q, cos, sin, rope, tq, ty(1, rot/2), ty(1, rot/2), tq)
			k = g.op("graph.rope %s, %s, %s %s : (%s, %s, %s) -> %s", k, cos, sin, rope, tkv, ty(1, rot/2), ty(1, rot/2), tkv)
			tc, tc1 := ty(1, c.Cache, hkv, d), ty(1, c.Cache+1, hkv, d)
			kk := g.op("graph.concat %s, %s {axis = 1} : (%s, %s) -> %s", kc, k, tc, tkv, tc1)
			vv := g.op("graph.concat %s, %s {axis = 1} : (%s, %s) -> %s", vc, v, tc, tkv, tc1)
			a := g.op(`graph.attention %s, %s, %s {mask = "causal"} : (%s, %s, %s) -> %s`, q, kk, vv, tq, tc1, tc1, tq)
			a = g.reshape(a, tq, ty(1, qd))
			gate := g.unary("sigmoid", g.matmul(hn, 1, e, qd, g.param(p+"wgate", e, qd)), ty(1, qd))
			a = g.binary("mul", a, gate, ty(1, qd), ty(1, qd), ty(1, qd))
			mixed = g.matmul(a, 1, qd, e, g.param(p+"wo", qd, e))
			results, resTypes = append(results, kk, vv), append(resTypes, tc1, tc1)
		} else {
			ts := ty(1, h, d, d)
			s0 := g.arg(fmt.Sprintf("state%d", l), ts)
			q := g.reshape(g.matmul(hn, 1, e, qd, g.param(p+"wq", e, qd)), ty(1, qd), tq)
			k := g.reshape(g.matmul(hn, 1, e, qd, g.param(p+"wk", e, qd)), ty(1, qd), tq)
			v := g.reshape(g.matmul(hn, 1, e, qd, g.param(p+"wv", e, qd)), ty(1, qd), tq)
			q = g.rmsNorm(q, g.param(p+"q_norm", d), tq, ty(d))
			k = g.rmsNorm(k, g.param(p+"k_norm", d), tq, ty(d))
			th := ty(1, 1, h)
			gt := g.reshape(g.matmul(hn, 1, e, h, g.param(p+"wg", e, h)), ty(1, h), th)
			gt = g.unary("neg", g.unary("softplus", gt, th), th)
			beta := g.reshape(g.unary("sigmoid", g.matmul(hn, 1, e, h, g.param(p+"wbeta", e, h)), ty(1, h)), ty(1, h), th)
			o := g.op("graph.gated_delta_net %s, %s, %s, %s, %s, %s : (%s, %s, %s, %s, %s, %s) -> (%s, %s)",
				q, k, v, gt, beta, s0, tq, tq, tq, th, th, ts, tq, ts)
			out := g.rmsNorm(o+"#0", g.param(p+"o_norm", d), tq, ty(d))
			z := g.reshape(g.unary("silu", g.matmul(hn, 1, e, qd, g.param(p+"wz", e, qd)), ty(1, qd)), ty(1, qd), tq)
			out = g.reshape(g.binary("mul", out, z, tq, tq, tq), tq, ty(1, qd))
			mixed = g.matmul(out, 1, qd, e, g.param(p+"wo", qd, e))
			results, resTypes = append(results, o+"#1"), append(resTypes, ts)
		}
		x = g.binary("add", x, mixed, te, te, te)
		hn = g.rmsNorm(x, g.param(p+"ffn_norm", e), te, ty(e))
		gate := g.unary("silu", g.matmul(hn, 1, e, f, g.param(p+"w_gate", e, f)), ty(1, f))
		up := g.matmul(hn, 1, e, f, g.param(p+"w_up", e, f))
		m := g.binary("mul", gate, up, ty(1, f), ty(1, f), ty(1, f))
		x = g.binary("add", x, g.matmul(m, 1, f, e, g.param(p+"w_down", f, e)), te, te, te)
	}
	out := g.rmsNorm(x, g.param("final_norm", e), te, ty(e))
	results, resTypes = append([]string{out}, results...), append([]string{te}, resTypes...)
	body := g.sb.String()
	// Multi-result ops were written as `%vN = graph.gated_delta_net`; give
	// them their result count.
	body = strings.ReplaceAll(body, " = graph.gated_delta_net", ":2 = graph.gated_delta_net")
	return fmt.Sprintf("func.func @decode(%s) -> (%s) {\n%s  return %s : %s\n}\n",
		strings.Join(g.args, ", "), strings.Join(resTypes, ", "), body,
		strings.Join(results, ", "), strings.Join(resTypes, ", "))
}

var (
	writeDecode = flag.String("write-decode", "", "write the decode-step model to this .mlir file")
	decodeSize  = flag.String("decode-size", "qwen", "size of the model -write-decode writes: qwen (hidden 1024, 8 layers) or tiny")
)

// TestWriteDecodeModel writes the decode step as MLIR for rlx-run
// (bench/interp.sh, lit-tests/rlx-run/Inputs/decode-tiny.mlir):
//
//	go test ./runtime/ref -run TestWriteDecodeModel -write-decode=FILE [-decode-size=tiny]
func TestWriteDecodeModel(t *testing.T) {
	if *writeDecode == "" {
		t.Skip("needs -write-decode")
	}
	cfg := qwenDecode
	if *decodeSize == "tiny" {
		cfg = tinyDecode
	}
	header := fmt.Sprintf("// A Qwen3.5-like decode step (runtime/ref/decode_test.go): hidden %d, %d layers,\n// %d heads of %d (%d kv heads), FFN %d, %d cached positions; every third layer\n// is full attention, the others gated delta nets.\n", cfg.Hidden, cfg.Layers, cfg.Heads, cfg.HeadDim, cfg.KVHeads, cfg.FFN, cfg.Cache)
	if err := os.WriteFile(*writeDecode, []byte(header+decodeMLIR(cfg)), 0o666); err != nil {
		t.Fatal(err)
	}
}
