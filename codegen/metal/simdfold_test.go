package metal

import (
	"fmt"
	"strings"
	"testing"
)

// TestSimdFoldCounts checks the butterfly's cost and its stores: n ≤ 32
// sums (padded to a power of two c) take c − 1 halving shuffles and 5 −
// log₂ c plain ones, more take c − c/32, against 5n for n simd_sums; a
// lane holds one sum, or c/32 past 32. The sums' values are checked by
// the op suite, which runs the emitted kernels (TestOps).
func TestSimdFoldCounts(t *testing.T) {
	for _, n := range []int64{1, 2, 3, 4, 8, 12, 16, 20, 32, 40, 64} {
		c, log := int64(1), int64(0)
		for c < n {
			c, log = c*2, log+1
		}
		want := c - 1 + (5 - log)
		stores := int64(1)
		if c > SimdWidth {
			want, stores = c-c/SimdWidth, c/SimdWidth
		}
		var b kb
		var idx []string
		simdFold(&b, "acc", n, func(i, v string) {
			idx = append(idx, i)
			b.l("out[%s] = %s;", i, v)
		})
		text := b.body.String()
		if got := int64(strings.Count(text, "simd_shuffle_xor(")); got != want || got >= 5*n && n > 1 {
			t.Errorf("n = %d: %d shuffles, want %d (5n = %d)", n, got, want, 5*n)
		}
		if int64(len(idx)) != stores {
			t.Errorf("n = %d: %d stores, want %d", n, len(idx), stores)
		}
		for i := range n {
			if !strings.Contains(text, fmt.Sprintf("acc[%d]", i)) {
				t.Errorf("n = %d: acc[%d] is not read", n, i)
			}
		}
		if strings.Contains(text, fmt.Sprintf("acc[%d]", n)) {
			t.Errorf("n = %d: reads acc[%d], past the sums", n, n)
		}
	}
}
