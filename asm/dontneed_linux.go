package asm

import "syscall"

// dontNeed tells the kernel that pages of a mapped source will not be
// read again, so they leave memory first.
func dontNeed(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
