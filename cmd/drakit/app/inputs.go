package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// stdinName is how standard input is named in messages.
const stdinName = "<stdin>"

// fileFlags are the -f and -R flags shared by the commands that read
// manifests.
type fileFlags struct {
	Filenames []string
	Recursive bool
}

func (f *fileFlags) add(cmd *cobra.Command, what string) {
	cmd.Flags().StringArrayVarP(&f.Filenames, "filename", "f", nil,
		"file, directory or \"-\" (standard input) "+what+"; repeat the flag for several")
	cmd.Flags().BoolVarP(&f.Recursive, "recursive", "R", false,
		"process the directories given with -f recursively")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
}

// input is one stream to read: a file or standard input.
type input struct {
	// Name is the path as the user wrote it (joined for files found in a
	// directory), or stdinName.
	Name string
	// Path is the file to open; empty for standard input.
	Path string
}

// manifestExtensions are the files taken from a directory, as in kubectl.
var manifestExtensions = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// expand turns the -f arguments into the streams to read, in the order
// given; a directory contributes its manifest files in lexical order. A
// path that cannot be read is an error naming it.
func (f *fileFlags) expand() ([]input, error) {
	if len(f.Filenames) == 0 {
		return nil, usageErrorf("no input: give files, directories or - (standard input) with -f")
	}
	var inputs []input
	stdin := false
	for _, name := range f.Filenames {
		if name == "-" {
			if stdin {
				return nil, usageErrorf("-f - (standard input) can only be given once")
			}
			stdin = true
			inputs = append(inputs, input{Name: stdinName})
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			return nil, &manifest.Error{Source: name, Err: describePathError(err)}
		}
		if !info.IsDir() {
			inputs = append(inputs, input{Name: name, Path: name})
			continue
		}
		found, err := f.walk(name)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, &manifest.Error{Source: name, Err: errors.New("directory holds no .yaml, .yml or .json files" + map[bool]string{true: "", false: " (use -R to look into its subdirectories)"}[f.Recursive])}
		}
		inputs = append(inputs, found...)
	}
	return inputs, nil
}

func (f *fileFlags) walk(dir string) ([]input, error) {
	var found []input
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return &manifest.Error{Source: path, Err: describePathError(err)}
		}
		if d.IsDir() {
			if path != dir && !f.Recursive {
				return filepath.SkipDir
			}
			return nil
		}
		if manifestExtensions[strings.ToLower(filepath.Ext(path))] {
			found = append(found, input{Name: path, Path: path})
		}
		return nil
	})
	sort.SliceStable(found, func(i, j int) bool { return found[i].Name < found[j].Name })
	return found, err
}

// open opens an input for reading.
func (in input) open(stdin io.Reader) (io.ReadCloser, error) {
	if in.Path == "" {
		return io.NopCloser(stdin), nil
	}
	file, err := os.Open(in.Path)
	if err != nil {
		return nil, &manifest.Error{Source: in.Name, Err: describePathError(err)}
	}
	return file, nil
}

// describePathError says what is wrong with a path without repeating it
// (the error line names the file already).
func describePathError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or directory")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot %s: %v", pe.Op, pe.Err)
	}
	return err
}
