package convert

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// replacement is the new content of a file, written next to it and put in
// its place by rename, so that the file is at every moment either entirely
// old or entirely new.
type replacement struct {
	target string // the file to replace (symbolic links resolved)
	tmp    *os.File
	mode   os.FileMode
	uid    int
	gid    int
	// backup names the old content while a set of files is replaced.
	backup string
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

// abort drops the new content; the file stays as it was.
func (r *replacement) abort() {
	r.tmp.Close()
	_ = os.Remove(r.tmp.Name())
	if r.backup != "" {
		_ = os.Remove(r.backup)
	}
}

// replaceAll puts every finished replacement in place of its file, or, if
// one cannot be put in place, none: the files replaced before it get their
// old content back. Each file is at every moment entirely old or entirely
// new; only if drakit is killed while it renames (or a file cannot be
// put back) can some files be new and others old, and then the error (or
// the .drakit-* files next to them) say where the old content is.
//
// On an error, at is the replacement that failed and restored says whether
// every file has its old content. rename is os.Rename (tests make it fail).
func replaceAll(repls []*replacement, rename func(oldpath, newpath string) error) (at int, restored bool, err error) {
	// The old content stays reachable under a second name (a hard link,
	// or a copy where links are not possible) until all are replaced.
	for i, r := range repls {
		if err := r.keepOld(); err != nil {
			for _, rest := range repls {
				rest.abort()
			}
			return i, true, fmt.Errorf("cannot keep the old content aside: %w", err)
		}
	}
	for i, r := range repls {
		if err := rename(r.tmp.Name(), r.target); err != nil {
			err = fmt.Errorf("cannot replace the file: %w", err)
			restored = true
			for j := i - 1; j >= 0; j-- {
				if rerr := rename(repls[j].backup, repls[j].target); rerr != nil {
					err = fmt.Errorf("%w; and %s could not be put back: its old content is in %s (%v)", err, repls[j].target, repls[j].backup, rerr)
					repls[j].backup = "" // keep it
					restored = false
				}
			}
			for _, rest := range repls {
				rest.abort()
			}
			return i, restored, err
		}
	}
	for _, r := range repls {
		_ = os.Remove(r.backup)
		r.backup = ""
	}
	return -1, true, nil
}

// keepOld gives the file's current content a second name next to it.
func (r *replacement) keepOld() error {
	name := r.tmp.Name() + ".old"
	if err := os.Link(r.target, name); err == nil {
		r.backup = name
		return nil
	}
	old, err := os.Open(r.target)
	if err != nil {
		return err
	}
	defer old.Close()
	cp, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, r.mode)
	if err != nil {
		return err
	}
	r.backup = name
	_, err = io.Copy(cp, old)
	if err == nil {
		err = cp.Sync()
	}
	if cerr := cp.Close(); err == nil {
		err = cerr
	}
	return err
}
