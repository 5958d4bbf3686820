package plan_test

import (
	"bytes"
	"testing"

	"github.com/rlx-compiler/rlx/runtime/plan"
)

// FuzzReadJSON reads arbitrary bytes as a plan (an app reads plan.json
// from a bundle): no panic and no runaway allocation; a plan that is
// read passed Check, and writes back to the same JSON it reads again as.
func FuzzReadJSON(f *testing.F) {
	var b bytes.Buffer
	if err := qwenPlan(&testing.T{}, plan.Options{}).WriteJSON(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"version": 1, "align": 16, "arena_bytes": 1000000000000000}`))
	f.Add([]byte(`{"version": 1, "align": 16, "values": [null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := plan.ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		var once, twice bytes.Buffer
		if err := p.WriteJSON(&once); err != nil {
			t.Fatal(err)
		}
		q, err := plan.ReadJSON(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("a plan read once does not read again: %v", err)
		}
		if err := q.WriteJSON(&twice); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Fatalf("JSON changes on a second round trip:\n%s\n%s", once.Bytes(), twice.Bytes())
		}
	})
}
