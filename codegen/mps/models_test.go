package mps

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlx-compiler/rlx/internal/modelregions"
	"github.com/rlx-compiler/rlx/internal/mpsregions"
	"github.com/rlx-compiler/rlx/ir"
	"github.com/rlx-compiler/rlx/passes/lowertomps"
)

// loweredModel splits and lowers one model graph.
func loweredModel(t *testing.T, c modelregions.Case, opts lowertomps.Options) *ir.Operation {
	t.Helper()
	s, err := modelregions.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lowertomps.Lower(s.Module, opts); err != nil {
		t.Fatal(err)
	}
	return s.Module
}

// emitFiles emits mod into dir as out.m and out.h, with check.m, the
// translation unit that imports both (so the header's declarations meet
// the definitions).
func emitFiles(t *testing.T, dir string, mod *ir.Operation, opts Options) *Output {
	t.Helper()
	out, err := Emit(mod, opts)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "out.m"), out.Source)
	writeFile(t, filepath.Join(dir, "out.h"), out.Header)
	writeFile(t, filepath.Join(dir, "check.m"), []byte("#import \"out.h\"\n#import \"out.m\"\n"))
	return out
}

// compareRecorded runs the builders of out (emitted from mod) on the
// recording MPSGraph and requires that each built the region it was
// generated from: the same primitives, operands, shapes, attributes and
// constants, in the same order. It returns the number of regions and of
// primitives compared.
func compareRecorded(t *testing.T, dir string, mod *ir.Operation, out *Output) (regions, prims int) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "driver.m"), []byte(driverSource(out, "out.m", "out.h")))
	recs, err := splitRecord(runRecorded(t, dir, "driver.m"))
	if err != nil {
		t.Fatal(err)
	}
	want := mpsregions.Outlined(mod)
	if len(recs) != len(want) || len(recs) != len(out.Builders) {
		t.Fatalf("%d regions recorded, %d in the module, %d builders", len(recs), len(want), len(out.Builders))
	}
	for i, r := range recs {
		got, err := rebuild(mod.Context(), r, out.Builders[i].Inputs)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		g, w := ir.Sprint(got, ir.PrintOptions{}), ir.Sprint(want[i], ir.PrintOptions{})
		if g != w {
			t.Errorf("@%s: the builder built another graph than its region (-region +recorded):\n%s", r.title, cmp.Diff(w, g))
			continue
		}
		regions++
		prims += strings.Count(w, " = mps.")
	}
	return regions, prims
}

// TestModels emits the builders of every MPS region of the three model
// graphs (toy size, and hidden 1024 without -short), checks that the
// file and its header compile for arm64-apple-macosx14.0 against the stub
// SDK with -fobjc-arc -Werror=unguarded-availability-new -Werror, runs
// the builders against the recording MPSGraph on GNUstep, and requires
// that each built its lowered region exactly.
func TestModels(t *testing.T) {
	clang(t)
	gnustepFlags(t)
	for _, c := range modelregions.Cases() {
		if testing.Short() && !c.Short {
			continue
		}
		t.Run(strings.ReplaceAll(c.Name, "/", "-"), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			mod := loweredModel(t, c, lowertomps.Options{})
			dir := t.TempDir()
			out := emitFiles(t, dir, mod, Options{Input: c.Name})
			if err := syntaxCheck(t, dir, "check.m", DefaultVersion); err != nil {
				t.Fatal(err)
			}
			n, p := compareRecorded(t, dir, mod, out)
			t.Logf("%s: %d builders (%d lines of Objective-C) compiled; %d regions, %d primitives recorded as lowered; %v",
				c.Name, len(out.Builders), strings.Count(string(out.Source), "\n"), n, p, time.Since(start).Round(time.Millisecond))
		})
	}
}
