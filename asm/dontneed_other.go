//go:build unix && !linux

package asm

// dontNeed does nothing: Go's syscall package has Madvise on Linux only
// (darwin and the BSDs build without it), and the pages are released
// when the source is unmapped anyway.
func dontNeed([]byte) {}
