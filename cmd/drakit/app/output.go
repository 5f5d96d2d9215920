package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// spool holds a command's output until the command knows it succeeded, so
// that a failure half way leaves nothing half-written on standard output.
// It keeps up to memLimit bytes in memory and moves to a temporary file
// beyond that: memory does not grow with the length of the output.
type spool struct {
	mem      bytes.Buffer
	file     *os.File
	memLimit int
}

func newSpool() *spool { return &spool{memLimit: 8 << 20} }

func (s *spool) Write(p []byte) (int, error) {
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
func (s *spool) CopyTo(w io.Writer) error {
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
func (s *spool) Close() {
	if s.file != nil {
		name := s.file.Name()
		s.file.Close()
		_ = os.Remove(name)
		s.file = nil
	}
	s.mem = bytes.Buffer{}
}

// replacement is the new content of a file, written next to it and put in
// its place by rename, so that the file is at every moment either entirely
// old or entirely new.
type replacement struct {
	target string // the file to replace (symbolic links resolved)
	tmp    *os.File
	mode   os.FileMode
	uid    int
	gid    int
}

// newReplacement starts a replacement for path.
func newReplacement(path string) (*replacement, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(target)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".drakit-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write next to the file: %w", err)
	}
	r := &replacement{target: target, tmp: tmp, mode: info.Mode().Perm(), uid: -1, gid: -1}
	fileOwner(info, &r.uid, &r.gid)
	return r, nil
}

func (r *replacement) Write(p []byte) (int, error) { return r.tmp.Write(p) }

// finish writes the new content to disk, with the old file's mode (and
// owner, where permitted), and closes it.
func (r *replacement) finish() error {
	err := r.tmp.Chmod(r.mode)
	if err == nil && r.uid >= 0 {
		_ = r.tmp.Chown(r.uid, r.gid) // best effort: needs privileges
	}
	if err == nil {
		err = r.tmp.Sync()
	}
	if cerr := r.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(r.tmp.Name())
		return fmt.Errorf("cannot write next to the file: %w", err)
	}
	return nil
}

// unchanged reports whether the new content (finished) equals the file's.
func (r *replacement) unchanged() bool {
	old, err := os.ReadFile(r.target)
	if err != nil {
		return false
	}
	cur, err := os.ReadFile(r.tmp.Name())
	return err == nil && bytes.Equal(old, cur)
}

// commit puts the finished new content in place of the file.
func (r *replacement) commit() error {
	if err := os.Rename(r.tmp.Name(), r.target); err != nil {
		_ = os.Remove(r.tmp.Name())
		return fmt.Errorf("cannot replace the file: %w", err)
	}
	return nil
}

// abort drops the new content; the file stays as it was.
func (r *replacement) abort() {
	r.tmp.Close()
	_ = os.Remove(r.tmp.Name())
}
