package importer

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFixtureTools runs tools/hf-fixtures/share_weights.py (standard
// library only) on fixtures of its own: a variant whose safetensors equal
// its base's loses them and names the base in fixture.json; one whose
// differ keeps them. make_fixtures.py (which needs torch) is only parsed.
func TestFixtureTools(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found; skipping the fixture tools' test")
	}
	tools := filepath.Join("..", "..", "tools", "hf-fixtures")
	if out, err := exec.Command(python, "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", filepath.Join(tools, "make_fixtures.py")).CombinedOutput(); err != nil {
		t.Fatalf("make_fixtures.py: %v\n%s", err, out)
	}
	out := t.TempDir()
	write := func(name, weights string) {
		d := filepath.Join(out, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "model.safetensors"), []byte(weights), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "fixture.json"), []byte(`{"arch": "X"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("qwen2", "same bytes")
	write("qwen2_yarn", "same bytes")
	write("mistral", "these bytes")
	write("mistral_window", "other bytes")
	if b, err := exec.Command(python, filepath.Join(tools, "share_weights.py"), out).CombinedOutput(); err != nil {
		t.Fatalf("share_weights.py: %v\n%s", err, b)
	}
	from := func(name string) (string, bool) {
		data, err := os.ReadFile(filepath.Join(out, name, "fixture.json"))
		if err != nil {
			t.Fatal(err)
		}
		var f fixture
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		_, err = os.Stat(filepath.Join(out, name, "model.safetensors"))
		return f.WeightsFrom, err == nil
	}
	if base, kept := from("qwen2_yarn"); base != "qwen2" || kept {
		t.Errorf("qwen2_yarn (the same weights as qwen2): weights_from %q, safetensors kept %v; want qwen2, dropped", base, kept)
	}
	if base, kept := from("mistral_window"); base != "" || !kept {
		t.Errorf("mistral_window (other weights than mistral's): weights_from %q, safetensors kept %v; want none, kept", base, kept)
	}
}
