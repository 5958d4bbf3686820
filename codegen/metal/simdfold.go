package metal

import "fmt"

// simdFold emits the sums over a simdgroup of n per-lane values, the
// floats <acc>[0] … <acc>[n-1], as a butterfly that halves the values a
// lane holds at each exchange: at lane bit o (16, 8, …) a lane keeps one
// half of its values, the half its bit o selects, sends the other half to
// lane ^ o and adds what it receives, so that n ≤ 32 sums take n − 1 +
// (5 − log₂ n) shuffles and as many additions instead of 5n for n
// separate simd_sums (n padded with zeros to a power of two; past 32, a
// lane holds n/32 of them at the end). store is called for each sum a
// lane holds, with its index expression (a uint) and the value's name,
// inside an if that lets through one lane a sum; indices past n are not
// stored. Every lane of the simdgroup must reach it.
//
// The order of the additions is fixed (it does not depend on the values
// or on timing), though it differs from simd_sum's.
func simdFold(b *kb, acc string, n int64, store func(idx, v string)) {
	c := int64(1)
	for c < n {
		c *= 2
	}
	cur := make([]string, c)
	for i := range c {
		if i < n {
			cur[i] = fmt.Sprintf("%s[%d]", acc, i)
		} else {
			cur[i] = "0.0f"
		}
	}
	b.l("{")
	round := 0
	for o := SimdWidth / 2; o >= 1; o /= 2 {
		if len(cur) == 1 {
			b.l("const float f%d_0 = %s + simd_shuffle_xor(%s, %du);", round, cur[0], cur[0], o)
			cur = []string{fmt.Sprintf("f%d_0", round)}
			round++
			continue
		}
		h := len(cur) / 2
		b.l("const bool up%d = (lane & %du) != 0u;", round, o)
		next := make([]string, h)
		for j := range h {
			lo, hi := cur[j], cur[j+h]
			b.l("const float f%d_%d = (up%d ? %s : %s) + simd_shuffle_xor(up%d ? %s : %s, %du);",
				round, j, round, hi, lo, round, lo, hi, o)
			next[j] = fmt.Sprintf("f%d_%d", round, j)
		}
		cur = next
		round++
	}
	// A lane's values are the sums of indices (lane >> (5 − log₂ c)) when
	// c ≤ 32, lane · (c/32) + j otherwise.
	if c <= SimdWidth {
		per := SimdWidth / c
		if c == n {
			b.l("if ((lane & %du) == 0u) {", per-1)
		} else {
			b.l("if ((lane & %du) == 0u && lane / %du < %du) {", per-1, per, n)
		}
		store(fmt.Sprintf("lane / %du", per), cur[0])
		b.l("}")
	} else {
		for j, v := range cur {
			b.l("if (lane * %du + %du < %du) {", c/SimdWidth, j, n)
			store(fmt.Sprintf("lane * %du + %du", c/SimdWidth, j), v)
			b.l("}")
		}
	}
	b.l("}")
}
