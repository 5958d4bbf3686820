// Package fmath holds the float64 elementary functions behind the reference
// kernels' transcendental ops, written so that they give the same bits on
// every machine.
//
// Go's math package cannot promise that. math.Exp is assembly on amd64,
// arm64, loong64 and s390x (and the amd64 version switches to FMA
// instructions when the CPU has them), math.Log on amd64 and s390x, and most
// functions on s390x; the compiler may also fuse x*y+z in the pure-Go code
// (on arm64, ppc64le, s390x and riscv64, and on amd64 with GOAMD64=v3).
//
// The functions here are ports of Go's pure-Go implementations (which derive
// from FreeBSD's msun and Cephes; Go's BSD licence) with every product that
// feeds an addition wrapped in an explicit float64() conversion, which the Go
// specification defines as a rounding that forbids fusion. Only exact
// operations of the math package are used (Ldexp, Frexp, Sqrt, Abs, Trunc,
// Copysign, bit conversions).
//
// Accuracy is that of the originals (about 1 ulp in float64), far more than
// the kernels' float32 results need.
package fmath
