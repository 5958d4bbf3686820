package asm

import (
	"io"
	"os"
)

// Source is the text of an input file. On Unix a regular file is mapped
// into memory rather than copied, and pages the parser has finished with
// are handed back to the kernel as parsing proceeds, so a 100 MB input does
// not add 100 MB to the peak memory of a compilation. Released pages are
// read back from the file transparently if they are touched again (for
// example to show a source line in a diagnostic).
type Source struct {
	Data    []byte
	release func(upTo int)
	close   func() error
}

// ReadSource reads a file; "-" reads stdin.
func ReadSource(path string, stdin io.Reader) (*Source, error) {
	if path == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, err
		}
		return &Source{Data: b}, nil
	}
	if s, ok := mapFile(path); ok {
		return s, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Source{Data: b}, nil
}

// Release tells the source that bytes before upTo are no longer needed in
// memory. It is only a hint.
func (s *Source) Release(upTo int) {
	if s != nil && s.release != nil {
		s.release(upTo)
	}
}

// Close unmaps the file. Data must not be used afterwards.
func (s *Source) Close() error {
	if s == nil || s.close == nil {
		return nil
	}
	err := s.close()
	s.close, s.release, s.Data = nil, nil, nil
	return err
}
