package outfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// File is an output file being written. Its Write goes to a temporary
// file (or straight to a device); Commit puts it in place.
type File struct {
	path   string // the file the output replaces (the link's target for a link)
	f      *os.File
	direct bool        // f is the target itself (a device or pipe)
	mode   fs.FileMode // the replaced file's permissions (0 for a new file)
	done   bool
	err    error // the first write error
}

// Create starts the output file path. Nothing at path changes until
// Commit.
func Create(path string) (*File, error) {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var keep fs.FileMode // the existing target's permissions, if any
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &File{path: target, f: f, direct: true}, nil
		}
		keep = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := createTemp(target)
	if err != nil {
		return nil, err
	}
	return &File{path: target, f: f, mode: keep}, nil
}

// createTemp creates a new file beside target, with mode 0666 less the
// umask as os.Create would give the target itself.
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Dir(target), filepath.Base(target)
	for try := 0; ; try++ {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		// Errors name the target: the temporary name means nothing to a
		// user.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: pe.Op, Path: target, Err: pe.Err}
		}
		return f, err
	}
}

// Path returns the file the output goes to (a link's target).
func (o *File) Path() string { return o.path }

// Write writes p to the output.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// Commit finishes the output: it closes the temporary file and renames
// it over the target. It fails, leaving the target as it was, when a
// write failed or the rename does. A File is committed or discarded once.
func (o *File) Commit() error {
	if o.done {
		return errors.New("outfile: " + o.path + " is already finished")
	}
	o.done = true
	err := o.err
	if o.direct {
		if cerr := o.f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	tmp := o.f.Name()
	if err == nil && o.mode != 0 {
		err = o.f.Chmod(o.mode)
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Discard drops the output, leaving the target as it was. It does
// nothing after Commit, so `defer f.Discard()` is safe.
func (o *File) Discard() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	if !o.direct {
		os.Remove(o.f.Name())
	}
}

// WriteFile writes data to path through a File: the target changes only
// once everything is written.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// WriteWith writes path through a buffered File with write: the target
// changes only when write and the flush succeed.
func WriteWith(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

var _ io.Writer = (*File)(nil)
