//go:build unix && !linux

package asm

// dontNeed does nothing: Go's syscall package has madvise only on Linux,
// so elsewhere the mapped pages stay until the file is unmapped.
func dontNeed([]byte) {}
