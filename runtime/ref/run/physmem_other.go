//go:build !linux && !darwin

package run

// physicalMemory returns 0: on this system rlx-run does not know the
// physical memory, and runs without a default budget.
func physicalMemory() int64 { return 0 }
