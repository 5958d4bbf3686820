//go:build !unix

package kernels

// processCPUSeconds is unavailable here; the per-CPU-second metric is skipped.
func processCPUSeconds() float64 { return 0 }
