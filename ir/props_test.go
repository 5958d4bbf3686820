package ir

import (
	"strings"
	"testing"
)

// TestOwnProps: an op created with PropEntries keeps its properties in
// its own dictionary, which adds nothing to the context's uniquer, yet
// reads like uniqued properties everywhere: Props and PropsDict return the
// context's dictionary (so identity comparisons hold), the generic form
// prints the same, clones keep their own copy, and SetAttr and RemoveAttr
// go back to uniqued properties.
func TestOwnProps(t *testing.T) {
	ctx := NewContext()
	ctx.AllowUnregistered = true
	name := ctx.OpName("test.sym")
	sym, target, other := ctx.StringAttr("f_mps0"), ctx.StringAttr("metal"), ctx.StringAttr("x")
	entries := []NamedAttr{{Name: "target", Value: other}, {Name: "sym_name", Value: sym}, {Name: "target", Value: target}}
	before := ctx.attrs.table.count
	own := NewOperation(ctx, &OperationState{Name: name, PropEntries: entries})
	if got := ctx.attrs.table.count - before; got != 0 {
		t.Fatalf("creating the op uniqued %d attributes, want 0", got)
	}
	if !own.ownsProps() {
		t.Fatal("the op does not keep its own properties")
	}
	want := []NamedAttr{{Name: "sym_name", Value: sym}, {Name: "target", Value: target}}
	if got := own.PropEntries(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("PropEntries = %v, want %v (sorted, the last of a repeated name)", got, want)
	}
	entries[1].Value = other // the op copied the entries
	if own.Attr("sym_name") != sym || own.Attr("target") != target {
		t.Fatal("Attr does not read the op's own properties")
	}

	uniqued := ctx.Dict(want)
	if own.PropsDict() != uniqued || own.Props() != Attribute(uniqued) {
		t.Fatal("PropsDict and Props do not return the context's dictionary")
	}
	twin := NewOperation(ctx, &OperationState{Name: name, Props: uniqued})
	print := func(op *Operation) string {
		var b strings.Builder
		if err := Print(&b, op, PrintOptions{Generic: true}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got, want := print(own), print(twin); got != want {
		t.Fatalf("generic form %q, with uniqued properties %q", got, want)
	}

	clone := own.Clone(NewValueMap())
	if !clone.ownsProps() || clone.PropsDict() != uniqued {
		t.Fatal("a clone does not keep its own copy of the properties")
	}
	own.SetAttr(ctx, "target", other)
	if own.ownsProps() || own.PropsDict() != ctx.Dict([]NamedAttr{want[0], {Name: "target", Value: other}}) {
		t.Fatalf("after SetAttr the properties are %v", own.PropsDict())
	}
	clone.RemoveAttr(ctx, "target")
	if clone.ownsProps() || clone.PropsDict() != ctx.Dict(want[:1]) {
		t.Fatalf("after RemoveAttr the properties are %v", clone.PropsDict())
	}

	// AllAttrEntries merges properties and discardable attributes without
	// uniquing them.
	mixed := NewOperation(ctx, &OperationState{Name: name, PropEntries: want, Attrs: []NamedAttr{{Name: "a", Value: other}}, NumRegions: 1})
	before = ctx.attrs.table.count
	got := mixed.AllAttrEntries()
	if ctx.attrs.table.count != before || len(got) != 3 || got[0].Name != "a" || got[1].Name != "sym_name" || got[2].Name != "target" {
		t.Fatalf("AllAttrEntries = %v (uniqued %d attributes)", got, ctx.attrs.table.count-before)
	}
	if mixed.AllAttrs() != ctx.Dict(got) {
		t.Fatal("AllAttrs differs from AllAttrEntries")
	}
	mixed.SetProps(nil)
	if mixed.ownsProps() || mixed.Props() != nil || mixed.Attr("sym_name") != nil {
		t.Fatalf("after SetProps(nil) the properties are %v", mixed.Props())
	}
}
