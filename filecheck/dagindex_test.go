package filecheck

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/rlx-compiler/rlx/internal/posixre"
)

func TestDAGIndexAgreesWithIndex(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := "abAB\n"
	word := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		return sb.String()
	}
	for iter := 0; iter < 500; iter++ {
		text := word(r.Intn(200))
		base := 0
		if len(text) > 0 {
			base = r.Intn(len(text))
		}
		end := base + r.Intn(len(text)-base+1)
		icase := r.Intn(2) == 0
		var pats []string
		for i := 0; i < 1+r.Intn(12); i++ {
			pats = append(pats, word(1+r.Intn(4)))
		}
		x := newDAGIndex(text, base, end, pats, icase)
		for _, id := range r.Perm(len(pats)) {
			got, ok := x.firstAt(id, base)
			if !ok {
				t.Fatal("query at base not indexed")
			}
			var want int
			if icase {
				want = posixre.IndexFold(text[base:end], pats[id])
			} else {
				want = strings.Index(text[base:end], pats[id])
			}
			if want >= 0 {
				want += base
			}
			if got != want {
				t.Fatalf("text %q [%d:%d] pattern %q icase %v: got %d, want %d", text, base, end, pats[id], icase, got, want)
			}
		}
	}
}
