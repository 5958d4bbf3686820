package plan_test

import (
	"testing"

	"github.com/rlx-compiler/rlx/codegen/metal"
	"github.com/rlx-compiler/rlx/runtime/plan"
	"github.com/rlx-compiler/rlx/runtime/ref"
)

// TestSplitKernelTemporaries plans a region whose decode kernels split
// their work (the GEMV over K, attention decode over the keys): each
// split kernel writes its partials to a kernel temporary that the next
// dispatch of the region reads. The plan must give each temporary its own
// arena slot, live for that step only, bound at the same offset by the
// writer and by the merge, and sharing no byte with the step's operands,
// results or the other temporary.
func TestSplitKernelTemporaries(t *testing.T) {
	src := `func.func @step(%x: tensor<1x256xf32>, %q: tensor<1x1x8x128xf32>, %k: tensor<1x256x2x128xf32>, %v: tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>, tensor<1x64xf32>) {
  %r:2 = thunk.call @step_thunk0(%x, %q, %k, %v) {target = "metal"} : (tensor<1x256xf32>, tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> (tensor<1x64xf32>, tensor<1x1x8x128xf32>) {
  ^bb0(%a: tensor<1x256xf32>, %b: tensor<1x1x8x128xf32>, %c: tensor<1x256x2x128xf32>, %d: tensor<1x256x2x128xf32>):
    %w = graph.param "w" : tensor<256x64xf32>
    %0 = graph.matmul %a, %w : (tensor<1x256xf32>, tensor<256x64xf32>) -> tensor<1x64xf32>
    %1 = graph.attention %b, %c, %d {mask = "causal"} : (tensor<1x1x8x128xf32>, tensor<1x256x2x128xf32>, tensor<1x256x2x128xf32>) -> tensor<1x1x8x128xf32>
    thunk.yield %0, %1 : tensor<1x64xf32>, tensor<1x1x8x128xf32>
  }
  %s = thunk.call @step_thunk1(%r#0) {target = "metal"} : (tensor<1x64xf32>) -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x64xf32>):
    %e = graph.exp %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
    thunk.yield %e : tensor<1x64xf32>
  }
  return %r#0, %r#1, %s : tensor<1x64xf32>, tensor<1x1x8x128xf32>, tensor<1x64xf32>
}`
	mod := parse(t, src)
	out, err := metal.Emit(mod, metal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := ref.EntryFunc(mod, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Build(f, out.Manifest, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Check(p); err != nil {
		t.Fatal(err)
	}
	st := p.Steps[0]
	var temps []*plan.Value
	for _, id := range st.Temps {
		if v := p.Values[id]; v.Kind == plan.KindTemp {
			temps = append(temps, v)
		}
	}
	if len(temps) != 2 || temps[0].Bytes != 8*64*4 || temps[1].Bytes != 4*8*130*4 {
		t.Fatalf("step 0 has temporaries %+v, want the GEMV's 8 splits of 64 and attention's 4 ranges of 8 heads × 130", temps)
	}
	kernels := []string{"gemv_0", "gemv_merge_0", "attention_decode_0", "attention_merge_0"}
	if len(st.Dispatches) != len(kernels) {
		t.Fatalf("step 0 has %d dispatches, want %v", len(st.Dispatches), kernels)
	}
	for i, d := range st.Dispatches {
		if d.Kernel != kernels[i] {
			t.Fatalf("dispatch %d is %s, want %s", i, d.Kernel, kernels[i])
		}
	}
	// The writer's last binding and the merge's first are the temporary,
	// at its slot.
	for i, tv := range temps {
		w := st.Dispatches[2*i].Bindings[len(st.Dispatches[2*i].Bindings)-1]
		r := st.Dispatches[2*i+1].Bindings[0]
		for _, b := range []plan.Binding{w, r} {
			if b.Buffer != plan.BufArena || b.Value != tv.ID || b.Offset != tv.Offset || b.Bytes != tv.Bytes {
				t.Errorf("%s binds %+v, want temporary %s at %d (%d bytes)", kernels[2*i], b, tv.Name, tv.Offset, tv.Bytes)
			}
		}
		if w.Access != "write" || r.Access != "read" {
			t.Errorf("temporary %s: written with %q, read with %q", tv.Name, w.Access, r.Access)
		}
		if tv.Def != 0 || tv.Last != 0 {
			t.Errorf("temporary %s is live over [%d, %d], want step 0 only", tv.Name, tv.Def, tv.Last)
		}
	}
	overlap := func(a, b *plan.Value) bool {
		return a.Offset < b.Offset+b.Bytes && b.Offset < a.Offset+a.Bytes
	}
	var others []int
	others = append(others, st.Inputs...)
	others = append(others, st.Outputs...)
	for i, tv := range temps {
		for _, id := range others {
			if overlap(tv, p.Values[id]) {
				t.Errorf("temporary %s shares bytes with %s", tv.Name, p.Values[id].Name)
			}
		}
		if i > 0 && overlap(tv, temps[0]) {
			t.Errorf("temporaries %s and %s share bytes", temps[0].Name, tv.Name)
		}
	}
}
