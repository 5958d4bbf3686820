//go:build unix

package sim

import (
	"os"
	"syscall"
)

// mapFile creates a file of n bytes at path and maps it shared.
func mapFile(path string, n int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if n == 0 {
		return []byte{}, nil
	}
	if err := f.Truncate(n); err != nil {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

func unmap(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return syscall.Munmap(b)
}
