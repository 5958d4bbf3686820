package graph

import (
	"strconv"
	"strings"

	"github.com/rlx-compiler/rlx/ir"
)

// dyn is ir.Dynamic, the unknown dimension `?`, under a short name.
const dyn = ir.Dynamic

// FormatShape renders a shape the way diagnostics show it: `[1, ?, 64]`.
func FormatShape(shape []int64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, d := range shape {
		if i > 0 {
			sb.WriteString(", ")
		}
		if d == dyn {
			sb.WriteByte('?')
		} else {
			sb.WriteString(strconv.FormatInt(d, 10))
		}
	}
	sb.WriteByte(']')
	return sb.String()
}

// dimsCompatible reports whether two dims can be equal: an unknown dim
// matches anything.
func dimsCompatible(a, b int64) bool { return a == dyn || b == dyn || a == b }

// shapesCompatible reports whether two shapes have the same rank and
// compatible dims.
func shapesCompatible(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !dimsCompatible(a[i], b[i]) {
			return false
		}
	}
	return true
}

// mergeDim returns the more precise of two compatible dims.
func mergeDim(a, b int64) int64 {
	if a == dyn {
		return b
	}
	return a
}

// broadcastDim combines two dims by NumPy's rule. ok is false when both
// are known, differ, and neither is 1. An unknown dim against 1 stays
// unknown; against a known n > 1 it must be n.
func broadcastDim(a, b int64) (int64, bool) {
	switch {
	case a == 1:
		return b, true
	case b == 1:
		return a, true
	case a == dyn:
		return b, true
	case b == dyn:
		return a, true
	case a == b:
		return a, true
	}
	return 0, false
}

// BroadcastShapes returns the NumPy broadcast of two shapes (right-aligned,
// size-1 dims stretch), or ok = false when they are incompatible.
func BroadcastShapes(a, b []int64) (out []int64, ok bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out = append([]int64(nil), a...)
	off := len(a) - len(b)
	for i, d := range b {
		r, ok := broadcastDim(out[off+i], d)
		if !ok {
			return nil, false
		}
		out[off+i] = r
	}
	return out, true
}

// broadcastsTo reports whether shape from broadcasts to shape to (every
// dim of from, right-aligned, is 1 or matches).
func broadcastsTo(from, to []int64) bool {
	if len(from) > len(to) {
		return false
	}
	off := len(to) - len(from)
	for i, d := range from {
		if d != 1 && !dimsCompatible(d, to[off+i]) {
			return false
		}
	}
	return true
}

// NormalizeAxis maps a possibly negative axis into [0, rank); ok is false
// when it is out of range.
func NormalizeAxis(axis int64, rank int) (int, bool) {
	if axis < 0 {
		axis += int64(rank)
	}
	if axis < 0 || axis >= int64(rank) {
		return 0, false
	}
	return int(axis), true
}

// withDim returns a copy of shape with dim i set to d.
func withDim(shape []int64, i int, d int64) []int64 {
	out := append([]int64(nil), shape...)
	out[i] = d
	return out
}

// mulDim multiplies dims, unknown when either is; ok is false when the
// product does not fit in an int64.
func mulDim(a, b int64) (int64, bool) {
	if a == dyn || b == dyn {
		return dyn, true
	}
	return ir.MulSize(a, b)
}
