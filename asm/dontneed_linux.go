package asm

import "syscall"

// dontNeed tells the kernel that the mapped pages b will not be read soon,
// so it can drop them (MADV_DONTNEED).
func dontNeed(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
