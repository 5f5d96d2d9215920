package agreement

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/features"
)

// corpusDir is the corpus, relative to this package.
const corpusDir = "../../../apis/resource/validation/testdata/corpus"

// The files of the corpus that describe the v1-era directories as a whole
// (see the corpus README): the feature gates their expectations were
// recorded with, and where drakit's validators answer differently.
const (
	corpusGatesRelease = 37
	gatesFile          = "feature-gates-1.37"
	driftFile          = "drift-1.37.yaml"
)

// adminAccessNamespace is the value of a case's "# namespace:" header that
// puts it into a namespace labelled for DRA admin access.
const adminAccessNamespace = "admin-access"

type corpusCase struct {
	name      string
	path      string
	operation string // create, update, status
	old       string // file of the stored object
	requires  string // feature gate
	namespace string // "" or adminAccessNamespace
	// unconditional sends an update without metadata.resourceVersion.
	unconditional bool
	expect        []string
	doc           map[string]any // the object, as JSON
}

func readCase(t *testing.T, path string) corpusCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := corpusCase{name: strings.TrimSuffix(filepath.Base(path), ".yaml"), path: path, operation: "create"}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		switch key {
		case "operation":
			c.operation = value
		case "old":
			c.old = value
		case "requires":
			c.requires = value
		case "namespace":
			c.namespace = value
		case "resourceVersion":
			c.unconditional = value == "omit"
		case "expect":
			if value != "valid" {
				c.expect = append(c.expect, value)
			}
		}
	}
	c.doc = readDoc(t, path)
	sort.Strings(c.expect)
	return c
}

func readDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	m := readDocFile(path)
	if m == nil {
		t.Fatalf("%s: not a YAML object", path)
	}
	return m
}

func readDocFile(path string) map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(js, &m) != nil {
		return nil
	}
	return m
}

// corpusGates reads the feature gates the v1-era expectations were recorded
// with: one line in kube-apiserver's --feature-gates syntax, DRA gates only.
func corpusGates(t *testing.T) features.Gates {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, gatesFile))
	if err != nil {
		t.Fatal(err)
	}
	g, err := features.Parse(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("%s: %v", gatesFile, err)
	}
	return g
}

// corpusDrift is the drift file: per case ("<directory>/<case>"), drakit's
// own answer and why it differs from the server's.
type corpusDrift struct {
	Reasons map[string]string `json:"reasons"`
	Cases   map[string]struct {
		Reason string   `json:"reason"`
		Drakit []string `json:"drakit"`
	} `json:"cases"`
}

type listedDrift struct {
	reason string
	drakit []string
}

func readCorpusDrift(t *testing.T) map[string]listedDrift {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, driftFile))
	if err != nil {
		t.Fatal(err)
	}
	var d corpusDrift
	if err := yaml.UnmarshalStrict(data, &d); err != nil {
		t.Fatalf("%s: %v", driftFile, err)
	}
	out := map[string]listedDrift{}
	for name, c := range d.Cases {
		reason, ok := d.Reasons[c.Reason]
		if !ok {
			t.Fatalf("%s: case %s names reason %q, which is not under reasons", driftFile, name, c.Reason)
		}
		drakit := append([]string(nil), c.Drakit...)
		sort.Strings(drakit)
		out[name] = listedDrift{reason: reason, drakit: drakit}
	}
	return out
}
