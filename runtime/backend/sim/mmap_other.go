//go:build !unix

package sim

import "errors"

func mapFile(path string, n int64) ([]byte, error) {
	return nil, errors.New("the sim backend needs a Unix system (shared memory maps)")
}

func unmap(b []byte) error { return nil }
