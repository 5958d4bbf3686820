//go:build !unix

package ref

func processCPUSeconds() float64 { return 0 }
