package printer

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Spool holds a command's output until the command knows it succeeded, so
// that a failure half way leaves nothing half-written on standard output.
// It keeps up to 8 MiB in memory and moves to a temporary file beyond
// that: memory does not grow with the length of the output.
type Spool struct {
	mem      bytes.Buffer
	file     *os.File
	memLimit int
}

// NewSpool is an empty Spool.
func NewSpool() *Spool { return &Spool{memLimit: 8 << 20} }

func (s *Spool) Write(p []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(p) > s.memLimit {
		f, err := os.CreateTemp("", "drakit-output-*")
		if err != nil {
			return 0, fmt.Errorf("cannot buffer the output: %w", err)
		}
		// Unlinked at once where the system allows it: nothing is left
		// behind even if drakit is killed.
		_ = os.Remove(f.Name())
		if _, err := f.Write(s.mem.Bytes()); err != nil {
			f.Close()
			return 0, fmt.Errorf("cannot buffer the output: %w", err)
		}
		s.mem = bytes.Buffer{}
		s.file = f
	}
	if s.file != nil {
		return s.file.Write(p)
	}
	return s.mem.Write(p)
}

// CopyTo writes everything spooled to w.
func (s *Spool) CopyTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

// Close drops what was spooled.
func (s *Spool) Close() {
	if s.file != nil {
		name := s.file.Name()
		s.file.Close()
		_ = os.Remove(name)
		s.file = nil
	}
	s.mem = bytes.Buffer{}
}
