package importer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/dialect/graph"
	"github.com/rlx-compiler/rlx/runtime/ref"
	"github.com/rlx-compiler/rlx/runtime/tensor"
	"github.com/rlx-compiler/rlx/runtime/weights"
)

// oracle decodes tokens through a Hugging Face checkpoint of the Llama
// family (Llama, Mistral, Mixtral, Qwen2, Qwen2-MoE, Qwen3, Qwen3-MoE,
// Phi-3, Gemma 2, Gemma 3, SmolLM3, Granite, OLMo 2) in float64, written from transformers' modeling code
// and nothing of the importer but its reading of config.json: RMSNorm
// (`1 + w` or not; Cohere's LayerNorm without a bias) before and, for
// Gemma and GLM-4, after attention and the MLP (OLMo 2 and EXAONE 4: only
// after, OLMo 2's q/k norms over the whole projections; Cohere: one norm
// for attention and the MLP in parallel);
// GQA attention with optional q/k norms, attention biases, a score scale,
// Gemma 2's soft-capping of scores and logits, and sliding windows with
// their own rope base; rotate-half or adjacent-pair rope (none in
// SmolLM3's NoPE layers, EXAONE 4's and Cohere 2's global ones) with
// float32 angles and cosines, as transformers computes them; SwiGLU,
// gated gelu_tanh or routed experts with or without a shared expert;
// fused or separate projections; scaled embeddings, Granite's residual
// and logit scales, Cohere's logit scale; YaRN's and LongRoPE's
// tables. It is the reference for checkpoints built in the tests
// (biases, windows, MoE shapes no fixture has); TestOracle checks it
// against transformers' logits on the llama and qwen3 fixtures.
func oracle(t testing.TB, dir string, tokens []int) [][]float64 {
	t.Helper()
	s, err := specFromConfig(dir, math.MaxInt32) // any sliding window is kept
	if err != nil {
		t.Fatal(err)
	}
	if s.keyHeads > 0 || s.gatedAttention {
		t.Fatalf("oracle: %s is not of the Llama family", s.arch)
	}
	src, err := weights.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := hfNamesFor(s.arch, src)
	if s.experts > 0 && !s.oss {
		// The published files' [E, in, out] experts, or transformers 5's
		// [E, out, in] (the layout is the weights' fact, not the model's).
		s.expertsInOut = publishedExperts(s, n, src)
	}
	load := func(name string) []float64 {
		info, ok := src.Info(name)
		if !ok {
			t.Fatalf("oracle: no tensor %q", name)
		}
		// As stored (an FP8 matrix reads as BF16), its values as floats.
		w, err := src.Weight(ref.Spec{Name: name, Type: ref.TensorType{DType: info.DType, Shape: info.Shape}})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, w.Len())
		for i, v := range w.Floats() {
			out[i] = float64(v)
		}
		return out
	}
	has := func(name string) bool { _, ok := src.Info(name); return ok }
	d, heads, kvh := s.headDim, s.heads, s.kvHeads
	// matrix is layer l's projection of the role, cut from Phi-3's fused
	// qkv_proj ([q; k; v] rows) and gate_up_proj ([gate; up]) where the
	// checkpoint fuses them.
	matrix := func(l int, role string) []float64 {
		rows := func(fused string, from, count, width int) []float64 {
			return load(n.of(l, fused))[from*width : (from+count)*width]
		}
		if s.fusedQKV && s.interleavedQKV {
			// GPT-NeoX: each head's q, k and v rows in turn.
			part := map[string]int{roleQ: 0, roleK: 1, roleV: 2}[role]
			all := load(n.of(l, roleAttnQKV))
			var out []float64
			for hh := range heads {
				out = append(out, all[(3*hh+part)*d*s.hidden:(3*hh+part+1)*d*s.hidden]...)
			}
			return out
		}
		switch {
		case s.fusedQKV && role == roleQ:
			return rows(roleAttnQKV, 0, heads*d, s.hidden)
		case s.fusedQKV && role == roleK:
			return rows(roleAttnQKV, heads*d, kvh*d, s.hidden)
		case s.fusedQKV && role == roleV:
			return rows(roleAttnQKV, (heads+kvh)*d, kvh*d, s.hidden)
		case s.fusedGateUp && role == roleGate:
			return rows(roleGateUp, 0, s.ffn, s.hidden)
		case s.fusedGateUp && role == roleUp:
			return rows(roleGateUp, s.ffn, s.ffn, s.hidden)
		}
		return load(n.of(l, role))
	}
	// rmsEps is RMSNorm at epsilon eps; rms at the config's.
	rmsEps := func(x, w []float64, eps float64) []float64 {
		var ss float64
		for _, v := range x {
			ss += v * v
		}
		inv := 1 / math.Sqrt(ss/float64(len(x))+eps)
		out := make([]float64, len(x))
		for i, v := range x {
			if s.zeroCentred { // Gemma's (1 + w)
				out[i] = (1 + w[i]) * (v * inv)
			} else {
				out[i] = w[i] * (v * inv)
			}
		}
		return out
	}
	rms := func(x, w []float64) []float64 { return rmsEps(x, w, s.eps) }
	// norm is a hidden state's norm: RMSNorm, or Cohere's LayerNorm
	// without a bias (mean subtracted, the biased variance).
	norm := func(x, w []float64) []float64 {
		if !s.layerNorm {
			return rms(x, w)
		}
		var mean, vr float64
		for _, v := range x {
			mean += v
		}
		mean /= float64(len(x))
		for _, v := range x {
			vr += (v - mean) * (v - mean)
		}
		inv := 1 / math.Sqrt(vr/float64(len(x))+s.eps)
		out := make([]float64, len(x))
		for i, v := range x {
			if s.zeroCentred { // Nemotron's LayerNorm1P
				out[i] = (1 + w[i]) * ((v - mean) * inv)
			} else {
				out[i] = w[i] * ((v - mean) * inv)
			}
		}
		return out
	}
	// normNamed is norm by the weight name, plus StarCoder2's LayerNorm
	// bias (the name with .bias).
	normNamed := func(x []float64, name string) []float64 {
		out := norm(x, load(name))
		if s.normBias {
			for i, b := range load(strings.TrimSuffix(name, ".weight") + ".bias") {
				out[i] += b
			}
		}
		return out
	}
	bias := func(layer int, role string) []float64 {
		if s.fusedQKV && s.interleavedQKV && role != roleOBias {
			// GPT-NeoX's fused bias, a head's q, k and v in turn.
			part := map[string]int{roleQBias: 0, roleKBias: 1, roleVBias: 2}[role]
			all := load(n.of(layer, roleAttnQKVBias))
			var out []float64
			for hh := range heads {
				out = append(out, all[(3*hh+part)*d:(3*hh+part+1)*d]...)
			}
			return out
		}
		if name, ok := n.lookup(layer, role); ok && has(name) {
			return load(name)
		}
		return nil
	}
	rope := func(x []float64, nh, pos int, invFreq []float64, attn float64) {
		half := s.rotaryDim / 2
		for h := range nh {
			v := x[h*d : (h+1)*d]
			for i := range half {
				angle := float32(pos) * float32(invFreq[i])
				c, sn := float32(math.Cos(float64(angle))), float32(math.Sin(float64(angle)))
				if attn != 0 { // YaRN's and LongRoPE's factor, on float32 cos and sin
					c, sn = c*float32(attn), sn*float32(attn)
				}
				j, k := i, i+half // pairs half a rotation apart
				if s.ropeStyle == graph.RopeGPTJ {
					j, k = 2*i, 2*i+1 // adjacent pairs (Cohere, GLM, ERNIE)
				}
				a, b := v[j], v[k]
				v[j], v[k] = a*float64(c)-b*float64(sn), b*float64(c)+a*float64(sn)
			}
		}
	}
	embed := load(n.embed)
	head := embed
	if !s.tied {
		head = load(n.head)
	}
	// mlp is layer l's dense MLP of h.
	mlp := func(l int, h []float64) []float64 {
		switch {
		case s.plainGelu: // StarCoder2, Phi-2, GPT-NeoX: c_proj(gelu(c_fc(h) + b)) + b
			u := matvec(load(n.of(l, roleUp)), h, load(n.of(l, roleUpBias)))
			for i, v := range u {
				if s.erfGelu {
					u[i] = 0.5 * v * (1 + math.Erf(v/math.Sqrt2))
				} else {
					u[i] = 0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))
				}
			}
			return matvec(load(n.of(l, roleDown)), u, load(n.of(l, roleDownBias)))
		case s.reluSquared: // Arcee, Nemotron: down(relu(up(h))²)
			u := matvec(load(n.of(l, roleUp)), h, nil)
			for i, v := range u {
				u[i] = math.Max(v, 0) * math.Max(v, 0)
			}
			return matvec(load(n.of(l, roleDown)), u, nil)
		case s.xielu: // Apertus: down(xIELU(up(h))), XIELUActivation's formula
			param := func(role string, def float64) float64 {
				if name := n.of(l, role); has(name) {
					return load(name)[0]
				}
				return def
			}
			softplus := func(v float64) float64 { return math.Log1p(math.Exp(v)) }
			beta, eps := param(roleXIELUBeta, 0.5), param(roleXIELUEps, -1e-6)
			ap, an := softplus(param(roleXIELUAlphaP, 0)), beta+softplus(param(roleXIELUAlphaN, 0))
			u := matvec(load(n.of(l, roleUp)), h, nil)
			for i, v := range u {
				if v > 0 {
					u[i] = ap*v*v + beta*v
				} else {
					u[i] = (math.Expm1(math.Min(v, eps))-v)*an + beta*v
				}
			}
			return matvec(load(n.of(l, roleDown)), u, nil)
		case s.geluTanh:
			return gatedGelu(h, matrix(l, roleGate), matrix(l, roleUp), load(n.of(l, roleDown)), s.erfGelu)
		}
		return swiglu(h, matrix(l, roleGate), matrix(l, roleUp), load(n.of(l, roleDown)))
	}
	keys := make([][][]float64, s.layers)
	vals := make([][][]float64, s.layers)
	// latent is DeepSeek's multi-head latent attention of layer l at pos,
	// as transformers computes it (no absorption): each head's q and k
	// [nope ‖ rope] and v from kv_b_proj of the normed latent, the rope
	// dims of k one for all heads; it appends k and v to the layer's
	// cache and returns the heads' outputs [heads·vDim].
	latent := func(l, pos int, h, invFreq []float64, attn float64) []float64 {
		m := s.mla
		qd := m.nope + m.rope
		var q []float64
		// The latent norms at DeepseekV3RMSNorm's default epsilon, 1e-6:
		// transformers does not pass them rms_norm_eps.
		latentRMS := func(x, w []float64) []float64 { return rmsEps(x, w, 1e-6) }
		if m.qLora > 0 {
			q = matvec(load(n.of(l, roleQB)), latentRMS(matvec(load(n.of(l, roleQA)), h, nil), load(n.of(l, roleQANorm))), nil)
		} else {
			q = matvec(load(n.of(l, roleQ)), h, nil)
		}
		ckv := matvec(load(n.of(l, roleKVA)), h, nil)
		kv := matvec(load(n.of(l, roleKVB)), latentRMS(ckv[:m.kvLora], load(n.of(l, roleKVANorm))), nil)
		kr := append([]float64(nil), ckv[m.kvLora:]...)
		rope(kr, 1, pos, invFreq, attn)
		k, v := make([]float64, heads*qd), make([]float64, heads*m.vDim)
		qr := make([]float64, heads*m.rope)
		for hh := range heads {
			copy(qr[hh*m.rope:], q[hh*qd+m.nope:(hh+1)*qd])
		}
		rope(qr, heads, pos, invFreq, attn)
		for hh := range heads {
			copy(q[hh*qd+m.nope:], qr[hh*m.rope:(hh+1)*m.rope])
			copy(k[hh*qd:], kv[hh*(m.nope+m.vDim):hh*(m.nope+m.vDim)+m.nope])
			copy(k[hh*qd+m.nope:], kr)
			copy(v[hh*m.vDim:], kv[hh*(m.nope+m.vDim)+m.nope:(hh+1)*(m.nope+m.vDim)])
		}
		keys[l], vals[l] = append(keys[l], k), append(vals[l], v)
		out := make([]float64, heads*m.vDim)
		for hh := range heads {
			attendHead64(q[hh*qd:(hh+1)*qd], keys[l], vals[l], hh*qd, hh*m.vDim, s.attnScale, out[hh*m.vDim:(hh+1)*m.vDim])
		}
		return out
	}
	convIn := make([][][]float64, s.layers) // LFM2: each conv layer's B·x so far
	var logits [][]float64
	for pos, tok := range tokens {
		x := append([]float64(nil), embed[tok*s.hidden:(tok+1)*s.hidden]...)
		if s.embedScale != 0 {
			// Gemma: × √hidden in the table's type (here float32);
			// Granite: × embedding_multiplier.
			f := s.embedScale
			if s.embedRound {
				f = float64(float32(f))
			}
			for i := range x {
				x[i] *= f
			}
		}
		// Granite's residual_multiplier on each block's output.
		residual := 1.0
		if s.residualScale != 0 {
			residual = s.residualScale
		}
		for l := range s.layers {
			if s.layerTypes[l] == shortConvLayer {
				oracleShortConv(s, x, convIn, l, func(role string) []float64 { return load(n.of(l, role)) }, norm)
			} else {
				// Gemma 3's sliding layers: their window and rope base.
				invFreq, window, attn := s.invFreq, s.window, s.ropeAttn
				if s.longInvFreq != nil && pos >= s.longFrom {
					invFreq = s.longInvFreq // LongRoPE past the original context
				}
				if s.sliding != nil && !s.sliding[l] {
					window = 0
				} else if s.localInvFreq != nil {
					invFreq, attn = s.localInvFreq, 0
				}
				h := x // OLMo 2: no norm before attention or the MLP
				if !s.postNorms {
					h = normNamed(x, n.of(l, roleAttnNorm))
				}
				var att []float64
				if s.mla.kvLora > 0 {
					att = latent(l, pos, h, invFreq, attn)
				} else {
					q := matvec(matrix(l, roleQ), h, bias(l, roleQBias))
					k := matvec(matrix(l, roleK), h, bias(l, roleKBias))
					v := matvec(matrix(l, roleV), h, bias(l, roleVBias))
					if s.qkNormWhole { // OLMo 2: over the whole projections
						q, k = rms(q, load(n.of(l, roleQNorm))), rms(k, load(n.of(l, roleKNorm)))
					}
					if s.qkNorm {
						qn, kn := load(n.of(l, roleQNorm)), load(n.of(l, roleKNorm))
						for hh := range heads {
							copy(q[hh*d:], rms(q[hh*d:(hh+1)*d], qn))
						}
						for hh := range kvh {
							copy(k[hh*d:], rms(k[hh*d:(hh+1)*d], kn))
						}
					}
					if s.qkLayerNorm { // StableLM, Command R+: a LayerNorm a head, without a bias
						headNorm := func(x []float64, role string, nh int) {
							for hh := range nh {
								var w []float64
								if name := n.of(l, role); strings.Contains(name, "*") {
									w = load(strings.Replace(name, "*", fmt.Sprint(hh), 1)) // StableLM's, a tensor a head
								} else {
									w = load(name)[hh*d : (hh+1)*d] // Command R+'s [heads, head dim]
								}
								v := x[hh*d : (hh+1)*d]
								var mean, vr float64
								for _, e := range v {
									mean += e / float64(d)
								}
								for _, e := range v {
									vr += (e - mean) * (e - mean) / float64(d)
								}
								for i, e := range v {
									v[i] = w[i] * (e - mean) / math.Sqrt(vr+s.eps)
								}
							}
						}
						headNorm(q, roleQNorm, heads)
						headNorm(k, roleKNorm, kvh)
					}
					rotated := s.noRope == nil || !s.noRope[l] // SmolLM3's NoPE layers
					if rotated {
						rope(q, heads, pos, invFreq, attn)
						rope(k, kvh, pos, invFreq, attn)
						if s.qkL2Norm { // Llama 4: each head over its RMS, after the rope
							one := make([]float64, d)
							for i := range one {
								one[i] = 1
							}
							for hh := range heads {
								copy(q[hh*d:], rms(q[hh*d:(hh+1)*d], one))
							}
							for hh := range kvh {
								copy(k[hh*d:], rms(k[hh*d:(hh+1)*d], one))
							}
						}
					}
					if s.tempFloor > 0 && (!rotated || s.tempAll) {
						// Llama 4's temperature tuning of the NoPE layers' q
						// (Ministral 3's of every layer's, after the rope), in
						// float32 as transformers computes it.
						f := float32(math.Log1p(math.Floor(float64(float32(pos)+float32(s.tempOffset))/float64(s.tempFloor))))*float32(s.tempScale) + 1
						for i := range q {
							q[i] *= float64(f)
						}
					}
					keys[l] = append(keys[l], k)
					vals[l] = append(vals[l], v)
					att = make([]float64, heads*d)
					first := 0 // the first row a sliding window keeps
					if window > 0 {
						first = max(0, pos-window+1)
					}
					if s.chunkedLayer(l) { // Llama 4: the rows of pos's chunk
						first = pos / s.chunk * s.chunk
					}
					scale := 1 / math.Sqrt(float64(d))
					if s.attnScale != 0 {
						scale = s.attnScale // Gemma: query_pre_attn_scalar^−½
					}
					for hh := range heads {
						g := hh / (heads / kvh)
						qh := q[hh*d : (hh+1)*d]
						scores := make([]float64, pos+1-first)
						best := math.Inf(-1)
						for j := range scores {
							var dot float64
							for i, qv := range qh {
								dot += qv * keys[l][first+j][g*d+i]
							}
							scores[j] = dot * scale
							if c := s.attnSoftcap; c != 0 { // Gemma 2
								scores[j] = c * math.Tanh(scores[j]/c)
							}
							best = math.Max(best, scores[j])
						}
						var sum float64
						for j := range scores {
							scores[j] = math.Exp(scores[j] - best)
							sum += scores[j]
						}
						if s.oss { // gpt-oss: the head's sink in the denominator
							sum += math.Exp(load(n.of(l, roleSinks))[hh] - best)
						}
						for j, p := range scores {
							for i := range d {
								att[hh*d+i] += p / sum * vals[l][first+j][g*d+i]
							}
						}
					}
				}
				o := matvec(load(n.of(l, roleO)), att, bias(l, roleOBias))
				if s.sandwich || s.postNorms {
					o = normNamed(o, n.of(l, rolePostAttnNorm))
				}
				if s.parallel {
					// Cohere, Phi-2, StableLM: x + attention + MLP of the
					// one norm; GPT-NeoX: the MLP of its own norm.
					if s.parallelNorms {
						h = normNamed(x, n.of(l, roleFFNNorm))
					}
					y := mlp(l, h)
					for i := range x {
						x[i] = x[i] + o[i] + y[i]
					}
					continue
				}
				for i := range x {
					x[i] += residual * o[i]
				}
			}
			h := x
			if !s.postNorms {
				h = normNamed(x, n.of(l, roleFFNNorm))
			}
			var y []float64
			if s.experts > 0 && s.moeLayer[l] && s.oss {
				y = ossOracle(s, h, func(role string) []float64 { return load(n.of(l, role)) })
			} else if s.experts > 0 && s.moeLayer[l] {
				var selectBias []float64
				if (s.sigmoidRouter || s.selectSoftmax) && !s.noSelectBias {
					selectBias = load(n.of(l, roleRouterSelect))
				}
				y = moeOracle(s, h, load(n.of(l, roleRouter)), selectBias, func(e int, role string) []float64 {
					if fused := n.of(l, roleExpertGateUpFused); has(fused) && s.expertsInOut {
						// Qwen3-VL-MoE's [E, H, 2I] (gate's columns, then
						// up's) and [E, I, H]: each matrix [out, in] taken
						// out transposed.
						f, hid := s.moeFFN, s.hidden
						m := make([]float64, f*hid)
						switch role {
						case roleExpertGate, roleExpertUp:
							gu, off := load(fused), 0
							if role == roleExpertUp {
								off = f
							}
							for o := range f {
								for c := range hid {
									m[o*hid+c] = gu[(e*hid+c)*2*f+off+o]
								}
							}
						default:
							d := load(n.of(l, roleExpertDownFused))
							for o := range hid {
								for c := range f {
									m[o*f+c] = d[(e*f+c)*hid+o]
								}
							}
						}
						return m
					}
					if fused := n.of(l, roleExpertGateUpFused); has(fused) {
						// transformers 5's tables: [E, 2I, H] and [E, H, I].
						per := s.moeFFN * s.hidden
						switch role {
						case roleExpertGate:
							return load(fused)[2*e*per : (2*e+1)*per]
						case roleExpertUp:
							return load(fused)[(2*e+1)*per : (2*e+2)*per]
						}
						return load(n.of(l, roleExpertDownFused))[e*per : (e+1)*per]
					}
					return load(strings.Replace(n.of(l, role), "*", fmt.Sprint(e), 1))
				})
				if s.sharedFFN > 0 {
					// Qwen2-MoE's shared expert, scaled by sigmoid(gate·h);
					// Granite MoE's, its gate and up fused, unscaled.
					gate, up := n.of(l, roleSharedGate), n.of(l, roleSharedUp)
					var sh []float64
					if fused, ok := n.lookup(l, roleSharedGateUp); ok && has(fused) {
						gu := load(fused)
						half := len(gu) / 2
						sh = swiglu(h, gu[:half], gu[half:], load(n.of(l, roleSharedDown)))
					} else {
						sh = swiglu(h, load(gate), load(up), load(n.of(l, roleSharedDown)))
					}
					g := 1.0
					if !s.sharedUngated {
						g = 1 / (1 + math.Exp(-matvec(load(n.of(l, roleSharedRouter)), h, nil)[0]))
					}
					for i := range y {
						y[i] += g * sh[i]
					}
				}
			} else {
				y = mlp(l, h)
			}
			if s.sandwich || s.postNorms {
				y = normNamed(y, n.of(l, rolePostFFNNorm))
			}
			for i := range x {
				x[i] += residual * y[i]
			}
		}
		var headBias []float64
		if s.headBias { // Phi-2
			headBias = load(strings.TrimSuffix(n.head, ".weight") + ".bias")
		}
		out := matvec(head, normNamed(x, n.finalNorm), headBias)
		if c := s.finalSoftcap; c != 0 { // Gemma 2
			for i, v := range out {
				out[i] = c * math.Tanh(v/c)
			}
		}
		if c := s.logitScale; c != 0 { // Granite's logits_scaling
			for i := range out {
				out[i] /= c
			}
		}
		if c := s.logitMul; c != 0 { // Cohere's logit_scale
			for i := range out {
				out[i] *= c
			}
		}
		logits = append(logits, out)
	}
	return logits
}

// oracleShortConv adds LFM2's gated short convolution of layer l to x:
// out(C · conv(B·x)) over the last shortConv values of B·x (convIn[l],
// zeros before the first), B, C and x from in_proj of the operator norm.
func oracleShortConv(s *spec, x []float64, convIn [][][]float64, l int, load func(role string) []float64, norm func(x, w []float64) []float64) {
	h := norm(x, load(roleAttnNorm))
	bcx := matvec(load(roleConvIn), h, nil)
	e := s.hidden
	bx := make([]float64, e)
	for i := range bx {
		bx[i] = bcx[i] * bcx[2*e+i]
	}
	convIn[l] = append(convIn[l], bx)
	taps := load(roleShortConv) // [e, shortConv]
	y := make([]float64, e)
	for i := range y {
		var acc float64
		for t := range s.shortConv {
			if j := len(convIn[l]) - s.shortConv + t; j >= 0 {
				acc += convIn[l][j][i] * taps[i*s.shortConv+t]
			}
		}
		y[i] = bcx[e+i] * acc
	}
	o := matvec(load(roleConvOut), y, nil)
	for i := range x {
		x[i] += o[i]
	}
}

// matvec is W·x (+ b) for W [rows, len(x)].
func matvec(w []float64, x []float64, b []float64) []float64 {
	out := make([]float64, len(w)/len(x))
	for r := range out {
		var acc float64
		for c, xv := range x {
			acc += w[r*len(x)+c] * xv
		}
		if b != nil {
			acc += b[r]
		}
		out[r] = acc
	}
	return out
}

// gatedGelu is Gemma's MLP, down(gelu_tanh(gate·h) ⊙ up·h), or with erf
// the exact gelu's.
func gatedGelu(h, gate, up, down []float64, erf bool) []float64 {
	a := matvec(gate, h, nil)
	u := matvec(up, h, nil)
	for i, g := range a {
		if erf { // Gemma with hidden_act "gelu"
			a[i] = 0.5 * g * (1 + math.Erf(g/math.Sqrt2)) * u[i]
		} else {
			a[i] = 0.5 * g * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(g+0.044715*g*g*g))) * u[i]
		}
	}
	return matvec(down, a, nil)
}

// swiglu is down(silu(gate·h) ⊙ up·h).
func swiglu(h, gate, up, down []float64) []float64 {
	a := matvec(gate, h, nil)
	u := matvec(up, h, nil)
	for i, g := range a {
		a[i] = g / (1 + math.Exp(-g)) * u[i]
	}
	return matvec(down, a, nil)
}

// moeOracle is transformers' routed experts (Mixtral's, Qwen2-MoE's and
// Qwen3-MoE's blocks without the shared expert): the router's softmax (in
// float32, as transformers computes it), the topK largest, renormalised
// under norm_topk_prob, or with sigmoidRouter DeepSeek-V3's routing
// (GLM-4.5's, sigmoidRoute), and the chosen experts' SwiGLU outputs
// weighted by them; Llama 4's (inputRouted) weight each chosen expert's
// input instead. expert(e, role) is expert e's matrix of the role.
func moeOracle(s *spec, h, router, selectBias []float64, expert func(e int, role string) []float64) []float64 {
	logits := matvec(router, h, nil)
	chosen, weights := softmaxRoute(s, logits)
	if s.sigmoidRouter {
		chosen, weights = sigmoidRoute(s, logits, selectBias)
	}
	if s.selectSoftmax {
		chosen, weights = ernieRoute(s, logits, selectBias)
	}
	if s.inputRouted {
		// Llama 4: the top k logits; each chosen expert's input × σ(its
		// logit) (in float32), its output unweighted.
		chosen, _ = topWeighted(s, logits, logits, 0, 0)
		weights = nil
	}
	out := make([]float64, s.hidden)
	for j, e := range chosen {
		in := h
		if s.inputRouted {
			g := float64(float32(1 / (1 + math.Exp(-logits[e]))))
			in = make([]float64, len(h))
			for i, v := range h {
				in[i] = v * g
			}
		}
		y := swiglu(in, expert(e, roleExpertGate), expert(e, roleExpertUp), expert(e, roleExpertDown))
		if weights == nil {
			for i := range out {
				out[i] += y[i]
			}
			continue
		}
		for i := range out {
			out[i] += weights[j] * y[i]
		}
	}
	return out
}

// softmaxRoute chooses the topK experts of the logits' softmax (in
// float32), their weights renormalised under normTopK.
func softmaxRoute(s *spec, logits []float64) (chosen []int, weights []float64) {
	// (DeepSeek-V2: the probabilities of the open groups only, × its
	// routed_scaling_factor.)
	best := math.Inf(-1)
	for _, v := range logits {
		best = math.Max(best, v)
	}
	probs := make([]float64, len(logits))
	var sum float64
	for i, v := range logits {
		probs[i] = math.Exp(v - best)
		sum += probs[i]
	}
	for i := range probs {
		probs[i] = float64(float32(probs[i] / sum))
	}
	if s.openGroups > 0 { // DeepSeek-V2's group_limited_greedy
		groupMask(s, probs)
	}
	chosen, weights = topWeighted(s, probs, probs, 0, 0)
	if s.routedScale != 0 { // DeepSeek-V2's routed_scaling_factor
		for j := range weights {
			weights[j] *= s.routedScale
		}
	}
	return chosen, weights
}

// ernieRoute is ERNIE 4.5's routing as Ernie4_5_MoeSparseMoeBlock
// computes it: the softmax of the logits in float32, the topK of
// probability + selectBias (where given) chosen, weighted by their
// probabilities over max(their sum, moe_norm_min).
func ernieRoute(s *spec, logits, selectBias []float64) (chosen []int, weights []float64) {
	best := slices.Max(logits)
	probs := make([]float64, len(logits))
	var sum float64
	for i, v := range logits {
		probs[i] = math.Exp(v - best)
		sum += probs[i]
	}
	choice := make([]float64, len(logits))
	for i := range probs {
		probs[i] = float64(float32(probs[i] / sum))
		choice[i] = probs[i]
		if selectBias != nil {
			choice[i] += selectBias[i]
		}
	}
	return topWeighted(s, choice, probs, 0, s.normMin)
}

// groupMask is DeepSeek's group-limited routing: the groups ranked by
// their two best choices' sum (V3) or their best (V2, groupByMax), the
// choices outside the best openGroups set to 0.
func groupMask(s *spec, choice []float64) {
	per := len(choice) / s.groups
	rank := make([]float64, s.groups)
	order := make([]int, s.groups)
	for gi := range s.groups {
		g := slices.Clone(choice[gi*per : (gi+1)*per])
		slices.SortFunc(g, func(a, b float64) int { return cmp.Compare(b, a) })
		rank[gi], order[gi] = g[0], gi
		if !s.groupByMax {
			rank[gi] += g[1]
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return rank[order[a]] > rank[order[b]] })
	for _, gi := range order[s.openGroups:] {
		for i := range per {
			choice[gi*per+i] = 0
		}
	}
}

// sigmoidRoute is DeepSeek-V3's routing as transformers' GLM-4.5
// computes it: scores σ(logits) in float32, the topK of score +
// selectBias (where given) chosen, weighted by their scores,
// renormalised (+1e-20; LFM2-MoE's +1e-6) under normTopK, ×
// routedScale.
func sigmoidRoute(s *spec, logits, selectBias []float64) (chosen []int, weights []float64) {
	scores := make([]float64, len(logits))
	choice := make([]float64, len(logits))
	for i, v := range logits {
		scores[i] = float64(float32(1 / (1 + math.Exp(-v))))
		choice[i] = scores[i]
		if selectBias != nil {
			choice[i] += selectBias[i]
		}
	}
	if s.openGroups > 0 { // DeepSeek-V3's group-limited routing
		groupMask(s, choice)
	}
	eps := 1e-20
	if s.arch == "Lfm2MoeForCausalLM" {
		eps = 1e-6 // Lfm2MoeSparseMoeBlock's
	}
	chosen, weights = topWeighted(s, choice, scores, eps, 0)
	for j := range weights {
		weights[j] *= s.routedScale
	}
	return chosen, weights
}

// topWeighted chooses the topK experts by choice and weights them by
// weight, renormalised under normTopK by the sum plus eps, held at least
// floor (ERNIE's moe_norm_min).
func topWeighted(s *spec, choice, weight []float64, eps, floor float64) (chosen []int, weights []float64) {
	order := make([]int, len(choice))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return choice[order[a]] > choice[order[b]] })
	chosen = order[:s.topK]
	var total float64
	for _, e := range chosen {
		total += weight[e]
	}
	for _, e := range chosen {
		w := weight[e]
		if s.normTopK {
			w /= math.Max(total+eps, floor)
		}
		weights = append(weights, w)
	}
	return chosen, weights
}

// importAndCheck imports the checkpoint in dir and decodes tokens: the module
// reads every tensor, its logits are within 1e-5 of max |logit| of the
// oracle's, and hybrid-split keeps them bit for bit. It returns the logits
// and the model (closed when the test ends).
func importAndCheck(t *testing.T, dir string, tokens []int) (*tensor.Tensor, *Model) {
	t.Helper()
	m, err := ImportHF(newContext(), dir, Options{MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Source.Close() })
	if len(m.Unused) > 0 {
		t.Errorf("the module does not read %v", m.Unused)
	}
	got := decodeModule(t, m.Module, m.Source, tokens)
	rel := oracleAgreement(got, oracle(t, dir, tokens))
	t.Logf("%s safetensors against the oracle: %.3g", m.Arch, rel)
	if rel > 1e-5 {
		t.Errorf("%s: max |Δ| / max |logit| against the oracle = %.3g (tolerance 1e-5)", m.Arch, rel)
	}
	if _, err := checkSplit(t, m, tokens); err != nil {
		t.Errorf("hybrid-split: %v", err)
	}
	return got, m
}

// oracleAgreement is max |Δ| / max |want| between logits and the oracle's.
func oracleAgreement(got *tensor.Tensor, want [][]float64) float64 {
	g := got.Floats()
	var maxDiff, maxRef float64
	for s, row := range want {
		for i, w := range row {
			maxDiff = math.Max(maxDiff, math.Abs(float64(g[s*len(row)+i])-w))
			maxRef = math.Max(maxRef, math.Abs(w))
		}
	}
	return maxDiff / maxRef
}

// TestOracle: the oracle computes transformers' logits on every fixture
// of the Llama family (Llama 3's rope, biases, q/k norms, experts, fused
// projections, windows, YaRN, LongRoPE, Gemma 2's caps and Gemma 3's
// layers), to the float32 rounding of the stored references.
func TestOracle(t *testing.T) {
	for _, name := range fixtureNames {
		if strings.HasPrefix(name, "qwen3_5") || name == "qwen3_next" {
			continue // the hybrids are not of the Llama family
		}
		f := loadFixture(t, name)
		if s, err := specFromConfig(f.dir, 16); err == nil && (slices.Contains(s.layerTypes, mambaLayer) || s.parallelSSM) {
			continue // the state-space models (TestMamba2Step and TestFalconH1Step check the Mamba-2 mixer against float64 loops of their own)
		} else if err == nil && s.keyHeads > 0 {
			continue // Kimi Linear's delta attention (TestKimiLinear checks it against kimiReference)
		}
		rel := oracleAgreement(f.ref, oracle(t, f.dir, f.Tokens))
		t.Logf("%s: transformers against the oracle: max |Δ| / max |logit| = %.3g", name, rel)
		if rel > 1e-6 {
			t.Errorf("%s: transformers' logits are %.3g from the oracle's (max |Δ| / max |logit|, tolerance 1e-6)", name, rel)
		}
	}
}

// ossOracle is transformers' GptOssMLP for one token: the router's
// logits (with its bias), the topK largest, a softmax over them, and each
// chosen expert's (up + 1)·g·σ(1.702·g) through down_proj plus its bias,
// g and up the even and odd columns of h·gate_up_proj[e] + bias, clamped
// as the experts clamp them. load(role) is the layer's tensor.
func ossOracle(s *spec, h []float64, load func(role string) []float64) []float64 {
	logits := matvec(load(roleRouter), h, load(roleRouterBias))
	order := make([]int, len(logits))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return logits[order[a]] > logits[order[b]] })
	chosen := order[:s.topK]
	var total float64
	for _, e := range chosen {
		total += math.Exp(logits[e] - logits[chosen[0]])
	}
	gu, gub, down, downb := load(roleExpertGateUpFused), load(roleExpertGateUpBias), load(roleExpertDownFused), load(roleExpertDownBias)
	f, hid := s.moeFFN, s.hidden
	out := make([]float64, hid)
	for _, e := range chosen {
		w := math.Exp(logits[e]-logits[chosen[0]]) / total
		act := make([]float64, f)
		for c := range f {
			g, u := gub[e*2*f+2*c], gub[e*2*f+2*c+1]
			for r, x := range h {
				g += x * gu[(e*hid+r)*2*f+2*c]
				u += x * gu[(e*hid+r)*2*f+2*c+1]
			}
			g = math.Min(g, s.swigluLimit)
			u = math.Max(math.Min(u, s.swigluLimit), -s.swigluLimit)
			act[c] = (u + 1) * g / (1 + math.Exp(-1.702*g))
		}
		for o := range hid {
			y := downb[e*hid+o]
			for c, a := range act {
				y += a * down[(e*f+c)*hid+o]
			}
			out[o] += w * y
		}
	}
	return out
}

// attendHead64 is one head's softmax attention in float64: each position's
// key (its entries from kOff, as many as q's) scored against q × scale,
// and the positions' values (their entries from vOff, as many as out's)
// added into out weighted by the softmax of the scores.
func attendHead64(q []float64, keys, vals [][]float64, kOff, vOff int, scale float64, out []float64) {
	scores := make([]float64, len(keys))
	best := math.Inf(-1)
	for j, k := range keys {
		for i, v := range q {
			scores[j] += v * k[kOff+i]
		}
		scores[j] *= scale
		best = math.Max(best, scores[j])
	}
	var sum float64
	for j := range scores {
		scores[j] = math.Exp(scores[j] - best)
		sum += scores[j]
	}
	for j, p := range scores {
		for i := range out {
			out[i] += p / sum * vals[j][vOff+i]
		}
	}
}
