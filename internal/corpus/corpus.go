// Package corpus reads the validation corpus of
// apis/resource/validation/testdata/corpus (its README describes the
// format): the header of a case file, the feature gates the v1-era
// expectations were recorded with, and the drift file. The unit test of the
// validators and the end-to-end replay against real API servers both read
// the corpus through it, so that a header means the same to both; each
// keeps its own way of running a case.
package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/features"
)

const (
	// GatesFile holds the feature gates the v1-era expectations were
	// recorded with, in kube-apiserver's --feature-gates syntax.
	GatesFile = "feature-gates-1.37"
	// DriftFile lists the v1-era cases where drakit answers differently
	// from the server, with drakit's answer and the reason.
	DriftFile = "drift-1.37.yaml"
	// GatesRelease is the minor release of GatesFile and DriftFile.
	GatesRelease = 37

	// AdminAccessNamespace is the value of "# namespace:" that puts a case
	// into a namespace labelled for DRA admin access.
	AdminAccessNamespace = "admin-access"
)

// Operations a case can ask for.
const (
	OperationCreate = "create"
	OperationUpdate = "update"
	OperationStatus = "status"
)

// Case is one case file: its header and its content.
type Case struct {
	// Path is the file the case was read from.
	Path string
	// Comment is the first header line when it is free text rather than
	// one of the keys below: what the case is meant to show.
	Comment string
	// Operation is create (the default), update or status.
	Operation string
	// Old is the file of the stored object of an update or status case,
	// relative to the case's directory.
	Old string
	// Requires names a feature gate without which the case means nothing.
	Requires string
	// Namespace is "" or AdminAccessNamespace.
	Namespace string
	// OmitResourceVersion sends an update without metadata.resourceVersion
	// ("# resourceVersion: omit").
	OmitResourceVersion bool
	// Valid is set by "# expect: valid".
	Valid bool
	// Expect are the "<reason> <field>" pairs of the expected errors,
	// sorted; empty when Valid. A case with neither is new: the replay
	// against a server can record the server's answer into it, the unit
	// test refuses it (see Expects).
	Expect []string
	// Data is the whole file, header included.
	Data []byte
}

// OldPath is the path of the stored object of an update or status case.
func (c *Case) OldPath() string {
	return filepath.Join(filepath.Dir(c.Path), c.Old)
}

// Expects reports whether the case says what to expect: valid or errors.
func (c *Case) Expects() bool {
	return c.Valid || len(c.Expect) > 0
}

// ReadCase reads and parses a case file.
func ReadCase(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCase(path, data)
}

// ParseCase parses the header of a case file: the comment lines up to the
// first line that is not one. A "# key: value" line with a key of the
// format must have a value that key allows; other comment lines are free
// text. Errors name the file and, where one is to blame, the line.
func ParseCase(path string, data []byte) (*Case, error) {
	c := &Case{Path: path, Operation: OperationCreate, Data: data}
	seen := map[string]int{}
	oldLine := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			break
		}
		text := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		key, value, ok := strings.Cut(text, ":")
		if !ok || !isKey(key) {
			if n == 1 {
				c.Comment = text
			}
			continue
		}
		lineErr := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		// A value may be followed by a comment, as in the README.
		value, _, _ = strings.Cut(value, " #")
		value = strings.TrimSpace(value)
		if value == "" {
			return nil, lineErr("%q without a value", key)
		}
		if key != "expect" {
			if first, dup := seen[key]; dup {
				return nil, lineErr("a second %q (the first is on line %d)", key, first)
			}
			seen[key] = n
		}
		switch key {
		case "operation":
			switch value {
			case OperationCreate, OperationUpdate, OperationStatus:
				c.Operation = value
			default:
				return nil, lineErr("unknown operation %q (create, update or status)", value)
			}
		case "old":
			c.Old, oldLine = value, n
		case "requires":
			c.Requires = value
		case "namespace":
			if value != AdminAccessNamespace {
				return nil, lineErr("unknown namespace %q (only %s)", value, AdminAccessNamespace)
			}
			c.Namespace = value
		case "resourceVersion":
			if value != "omit" {
				return nil, lineErr("resourceVersion %q (only omit)", value)
			}
			c.OmitResourceVersion = true
		case "expect":
			if value == "valid" {
				if c.Valid || len(c.Expect) > 0 {
					return nil, lineErr("\"expect: valid\" with other expect lines")
				}
				c.Valid = true
				continue
			}
			if c.Valid {
				return nil, lineErr("an expected error after \"expect: valid\"")
			}
			if fields := strings.Fields(value); len(fields) != 2 || !strings.HasPrefix(fields[0], "FieldValue") {
				return nil, lineErr("expect %q is neither valid nor \"<reason> <field>\", e.g. FieldValueInvalid spec.driver", value)
			}
			c.Expect = append(c.Expect, value)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case c.Operation == OperationCreate && c.Old != "":
		return nil, fmt.Errorf("%s:%d: a create has no old object", path, oldLine)
	case c.Operation != OperationCreate && c.Old == "":
		return nil, fmt.Errorf("%s: an %s needs \"# old:\"", path, c.Operation)
	}
	sort.Strings(c.Expect)
	return c, nil
}

func isKey(key string) bool {
	switch key {
	case "operation", "old", "requires", "namespace", "resourceVersion", "expect":
		return true
	}
	return false
}

// ReadGates reads GatesFile in dir.
func ReadGates(dir string) (features.Gates, error) {
	data, err := os.ReadFile(filepath.Join(dir, GatesFile))
	if err != nil {
		return features.Gates{}, err
	}
	g, err := features.Parse(strings.TrimSpace(string(data)))
	if err != nil {
		return features.Gates{}, fmt.Errorf("%s: %w", GatesFile, err)
	}
	return g, nil
}

// Drift is drakit's answer to a case listed in DriftFile.
type Drift struct {
	// Reason says why drakit differs (the text of the named reason).
	Reason string
	// Drakit are drakit's "<reason> <field>" pairs, sorted.
	Drakit []string
}

// ReadDrift reads DriftFile in dir, by case ("<directory>/<case>").
func ReadDrift(dir string) (map[string]Drift, error) {
	data, err := os.ReadFile(filepath.Join(dir, DriftFile))
	if err != nil {
		return nil, err
	}
	var file struct {
		Reasons map[string]string `json:"reasons"`
		Cases   map[string]struct {
			Reason string   `json:"reason"`
			Drakit []string `json:"drakit"`
		} `json:"cases"`
	}
	if err := yaml.UnmarshalStrict(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", DriftFile, err)
	}
	out := make(map[string]Drift, len(file.Cases))
	for name, c := range file.Cases {
		reason, ok := file.Reasons[c.Reason]
		if !ok {
			return nil, fmt.Errorf("%s: case %s names reason %q, which is not under reasons", DriftFile, name, c.Reason)
		}
		drakit := append([]string(nil), c.Drakit...)
		sort.Strings(drakit)
		out[name] = Drift{Reason: reason, Drakit: drakit}
	}
	return out, nil
}
