// Package inputs turns the -f and -R flags of the commands that read
// manifests into the streams to read, in order. The flags' values are
// cli-runtime's resource.FilenameOptions, as in kubectl; how they are
// expanded is drakit's: a file, a directory's .yaml, .yml and .json files
// in lexical order (its subdirectories with -R), or "-" for standard
// input once, and every path that cannot be read is a manifest.Error
// naming it.
package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/resource"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// StdinName is how standard input is named in messages.
const StdinName = "<stdin>"

// AddFilenameFlags adds -f, --filename and -R, --recursive to cmd, bound
// to o; what says what the files hold ("to convert"). Unlike kubectl's
// -f, a value is one path even if it has a comma.
func AddFilenameFlags(cmd *cobra.Command, o *resource.FilenameOptions, what string) {
	cmd.Flags().StringArrayVarP(&o.Filenames, "filename", "f", nil,
		"file, directory or \"-\" (standard input) "+what+"; repeat the flag for several")
	cmd.Flags().BoolVarP(&o.Recursive, "recursive", "R", false,
		"process the directories given with -f recursively")
	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
}

// Input is one stream to read: a file or standard input.
type Input struct {
	// Name is the path as the user wrote it (joined for files found in a
	// directory), or StdinName.
	Name string
	// Path is the file to open; empty for standard input.
	Path string
}

// Expand turns the -f arguments into the streams to read, in the order
// given; a directory contributes its manifest files (kubectl's
// resource.FileExtensions) in lexical order. A path that cannot be read
// is an error naming it; no -f at all, or "-" twice, a UsageError.
func Expand(o resource.FilenameOptions) ([]Input, error) {
	if len(o.Filenames) == 0 {
		return nil, cmdutil.UsageErrorf("no input: give files, directories or - (standard input) with -f")
	}
	var inputs []Input
	stdin := false
	for _, name := range o.Filenames {
		if name == "-" {
			if stdin {
				return nil, cmdutil.UsageErrorf("-f - (standard input) can only be given once")
			}
			stdin = true
			inputs = append(inputs, Input{Name: StdinName})
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			return nil, &manifest.Error{Source: name, Err: DescribePathError(err)}
		}
		if !info.IsDir() {
			inputs = append(inputs, Input{Name: name, Path: name})
			continue
		}
		found, err := walk(name, o.Recursive)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			hint := ""
			if !o.Recursive {
				hint = " (use -R to look into its subdirectories)"
			}
			return nil, &manifest.Error{Source: name, Err: errors.New("directory holds no .yaml, .yml or .json files" + hint)}
		}
		inputs = append(inputs, found...)
	}
	return inputs, nil
}

func walk(dir string, recursive bool) ([]Input, error) {
	var found []Input
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return &manifest.Error{Source: path, Err: DescribePathError(err)}
		}
		if d.IsDir() {
			if path != dir && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		if slices.Contains(resource.FileExtensions, strings.ToLower(filepath.Ext(path))) {
			found = append(found, Input{Name: path, Path: path})
		}
		return nil
	})
	sort.SliceStable(found, func(i, j int) bool { return found[i].Name < found[j].Name })
	return found, err
}

// Open opens an input for reading; stdin is standard input.
func (in Input) Open(stdin io.Reader) (io.ReadCloser, error) {
	if in.Path == "" {
		return io.NopCloser(stdin), nil
	}
	file, err := os.Open(in.Path)
	if err != nil {
		return nil, &manifest.Error{Source: in.Name, Err: DescribePathError(err)}
	}
	return file, nil
}

// DescribePathError says what is wrong with a path without repeating it
// (the error line names the file already).
func DescribePathError(err error) error {
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
