package cuda

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated shim files")

// TestShimFilesUpToDate checks that the generated shim files (the swizzle
// members, the name macros and their undefs) are what the Go lists give;
// go test -run ShimFilesUpToDate -update rewrites them.
func TestShimFilesUpToDate(t *testing.T) {
	for name, want := range generatedShimFiles() {
		path := filepath.Join("shim", name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is stale: run go test ./codegen/metal/cuda -run ShimFilesUpToDate -update", path)
		}
	}
}
