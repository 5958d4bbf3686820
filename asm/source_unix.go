//go:build unix

package asm

import (
	"os"
	"syscall"
)

// mapFile maps a regular, non-empty file read-only. ok is false when the
// file cannot be mapped; the caller then reads it normally.
func mapFile(path string) (*Source, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() > 1<<40 {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	released := 0
	page := os.Getpagesize()
	s := &Source{Data: data}
	s.release = func(upTo int) {
		upTo = upTo / page * page
		if upTo > len(data) {
			upTo = len(data) / page * page
		}
		if upTo <= released {
			return
		}
		dontNeed(data[released:upTo])
		released = upTo
	}
	s.close = func() error { return syscall.Munmap(data) }
	return s, true
}
