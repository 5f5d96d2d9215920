package kubeconformtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/yannh/kubeconform/pkg/validator"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/drakit/drakit/apis/resource/install"
)

const group = "resource.k8s.io"

// repoRoot is the drakit repository this module lives in.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "openapi", "jsonschema", "all.json")); err != nil {
		t.Fatalf("no published JSON Schemas under %s/openapi/jsonschema (run hack/update-codegen.sh): %v", root, err)
	}
	return root
}

// layout is one way to point kubeconform at the published schemas.
type layout struct {
	name     string
	location string // kubeconform's -schema-location
	strict   bool   // kubeconform's -strict
}

// layouts are the three variants of the published layout: the standalone
// files with and without -strict (which picks standalone-strict/), and the
// files whose $refs point into _definitions.json.
func layouts(root string) []layout {
	dir := filepath.Join(root, "openapi", "jsonschema")
	standalone := filepath.Join(dir, "standalone{{ .StrictSuffix }}", "{{ .ResourceKind }}{{ .KindSuffix }}.json")
	return []layout{
		{name: "standalone", location: standalone},
		{name: "standalone-strict", location: standalone, strict: true},
		{name: "definitions", location: filepath.Join(dir, "{{ .ResourceKind }}{{ .KindSuffix }}.json")},
	}
}

func newValidator(t *testing.T, l layout, ignoreMissing bool) validator.Validator {
	t.Helper()
	v, err := validator.New([]string{l.location}, validator.Opts{Strict: l.strict, IgnoreMissingSchemas: ignoreMissing})
	if err != nil {
		t.Fatalf("kubeconform with -schema-location %s: %v", l.location, err)
	}
	return v
}

// validateFile runs kubeconform over every document of file.
func validateFile(t *testing.T, v validator.Validator, file string) []validator.Result {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	return v.Validate(file, f) // closes f
}

// manifests lists the YAML and JSON files under dir.
func manifests(t *testing.T, dir string, skipDirs ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			for _, skip := range skipDirs {
				if d.Name() == skip && path != dir {
					return fs.SkipDir
				}
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func describe(r validator.Result) string {
	sig, _ := r.Resource.Signature()
	if sig == nil {
		return r.Resource.Path
	}
	return r.Resource.Path + ": " + sig.Version + " " + sig.Kind + " " + sig.Name
}

func statusName(s validator.Status) string {
	switch s {
	case validator.Valid:
		return "valid"
	case validator.Invalid:
		return "invalid"
	case validator.Error:
		return "an error"
	case validator.Skipped:
		return "skipped"
	case validator.Empty:
		return "empty"
	}
	return fmt.Sprintf("status %d", s)
}

func problems(r validator.Result) string {
	var out []string
	if r.Err != nil {
		out = append(out, r.Err.Error())
	}
	for _, e := range r.ValidationErrors {
		out = append(out, strconv.Quote(e.Path)+": "+e.Msg)
	}
	return strings.Join(out, "; ")
}

// TestValidManifests: every manifest of testdata/valid passes in every
// layout, with and without -strict, and together they cover every kind of
// every version.
func TestValidManifests(t *testing.T) {
	root := repoRoot(t)
	files := manifests(t, filepath.Join("testdata", "valid"))
	if len(files) == 0 {
		t.Fatal("no manifests under testdata/valid")
	}
	covered := map[string]bool{}
	for _, l := range layouts(root) {
		t.Run(l.name, func(t *testing.T) {
			v := newValidator(t, l, false)
			for _, file := range files {
				for _, r := range validateFile(t, v, file) {
					if r.Status == validator.Empty {
						continue
					}
					if r.Status != validator.Valid {
						t.Errorf("%s: want valid, kubeconform says %s", describe(r), problems(r))
						continue
					}
					if sig, err := r.Resource.Signature(); err == nil {
						covered[sig.Version+" "+sig.Kind] = true
					}
				}
			}
		})
	}
	for _, kind := range publishedKinds(t, root) {
		if strings.HasSuffix(kind, "List") {
			continue
		}
		if !covered[kind] {
			t.Errorf("no valid manifest of %s under testdata/valid", kind)
		}
	}
}

// TestExamples: the manifests of the repository's examples/ directory
// (when there is one) pass too. Other groups' kinds in them are skipped,
// as they have no schema here; directories named invalid or broken hold
// examples of errors and are left out.
func TestExamples(t *testing.T) {
	root := repoRoot(t)
	dir := filepath.Join(root, "examples")
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.Skip("the repository has no examples/ directory")
	}
	files := manifests(t, dir, "invalid", "broken")
	for _, l := range layouts(root) {
		t.Run(l.name, func(t *testing.T) {
			v := newValidator(t, l, true)
			for _, file := range files {
				for _, r := range validateFile(t, v, file) {
					sig, err := r.Resource.Signature()
					if r.Status == validator.Empty || (err == nil && !strings.HasPrefix(sig.Version, group+"/")) {
						continue
					}
					if r.Status != validator.Valid {
						t.Errorf("%s: want valid, kubeconform says %s", describe(r), problems(r))
					}
				}
			}
		})
	}
}

// expectation is what the header of a broken manifest says about it:
//
//	# fails: always|strict
//	# at: <JSON pointer of the error>
//	# message: <part of kubeconform's message>
type expectation struct {
	strictOnly bool
	at         string
	message    string
}

func readExpectation(t *testing.T, file string) expectation {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var e expectation
	var fails, at, message bool
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "#") {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "fails":
			fails = true
			switch value {
			case "always":
			case "strict":
				e.strictOnly = true
			default:
				t.Fatalf("%s: fails must be always or strict, not %q", file, value)
			}
		case "at":
			at = true
			if unquoted, err := strconv.Unquote(value); err == nil {
				value = unquoted
			}
			e.at = value
		case "message":
			message = true
			e.message = value
		}
	}
	if !fails || !at || !message {
		t.Fatalf("%s: the header must say fails:, at: and message:", file)
	}
	return e
}

// TestBrokenManifests: every manifest of testdata/invalid fails at the
// place its header names, with -strict always and without -strict unless
// the header says only strict validation catches it.
func TestBrokenManifests(t *testing.T) {
	root := repoRoot(t)
	files := manifests(t, filepath.Join("testdata", "invalid"))
	if len(files) == 0 {
		t.Fatal("no manifests under testdata/invalid")
	}
	for _, l := range layouts(root) {
		t.Run(l.name, func(t *testing.T) {
			v := newValidator(t, l, false)
			for _, file := range files {
				want := readExpectation(t, file)
				results := validateFile(t, v, file)
				if len(results) != 1 {
					t.Errorf("%s: want 1 document, kubeconform read %d", file, len(results))
					continue
				}
				r := results[0]
				if want.strictOnly && !l.strict {
					if r.Status != validator.Valid {
						t.Errorf("%s: only strict validation should reject it, but kubeconform says %s", describe(r), problems(r))
					}
					continue
				}
				if r.Status != validator.Invalid {
					t.Errorf("%s: want invalid at %q (%s), kubeconform says it is %s: %s", describe(r), want.at, want.message, statusName(r.Status), problems(r))
					continue
				}
				if !reports(r, want) {
					t.Errorf("%s: want an error at %q containing %q, kubeconform says %s", describe(r), want.at, want.message, problems(r))
				}
			}
		})
	}
}

// reports tells whether kubeconform reported the error want expects.
// Errors under a $ref into _definitions.json come back as one error on
// the referring property whose text holds the details, so the text counts
// too.
func reports(r validator.Result, want expectation) bool {
	for _, e := range r.ValidationErrors {
		if e.Path == want.at && strings.Contains(e.Msg, want.message) {
			return true
		}
	}
	if r.Err == nil {
		return false
	}
	text := r.Err.Error()
	for {
		i := strings.Index(text, "at '"+want.at+"': ")
		if i < 0 {
			return false
		}
		text = text[i+len("at '"+want.at+"': "):]
		detail, _, _ := strings.Cut(text, " - at '")
		if strings.Contains(detail, want.message) {
			return true
		}
	}
}

// TestGoTypesAgree: the schemas and drakit's Go types agree on what a
// manifest may say. Every valid manifest decodes strictly into drakit's
// types, and every broken manifest that has an unknown field or a value of
// the wrong type fails to (missing fields are validation's business, not
// decoding's).
func TestGoTypesAgree(t *testing.T) {
	root := repoRoot(t)
	scheme := runtime.NewScheme()
	install.Install(scheme)
	decoder := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Yaml: true, Strict: true})
	// kubeconform splits the files into documents for us.
	v := newValidator(t, layouts(root)[0], false)

	for _, file := range manifests(t, filepath.Join("testdata", "valid")) {
		for _, r := range validateFile(t, v, file) {
			if r.Status == validator.Empty {
				continue
			}
			if _, _, err := decoder.Decode(r.Resource.Bytes, nil, nil); err != nil {
				t.Errorf("%s: does not decode strictly into drakit's types: %v", describe(r), err)
			}
		}
	}
	for _, file := range manifests(t, filepath.Join("testdata", "invalid")) {
		want := readExpectation(t, file)
		if strings.Contains(want.message, "missing property") {
			continue
		}
		for _, r := range validateFile(t, v, file) {
			if _, _, err := decoder.Decode(r.Resource.Bytes, nil, nil); err == nil {
				t.Errorf("%s: decodes strictly into drakit's types, but the schema rejects it (%s)", describe(r), want.message)
			}
		}
	}
}

// TestCommandLine runs the kubeconform command (built from the pinned
// module) as a user would: with -strict and -schema-location, it accepts
// testdata/valid and rejects each file of testdata/invalid.
func TestCommandLine(t *testing.T) {
	root := repoRoot(t)
	bin := filepath.Join(t.TempDir(), "kubeconform")
	build := exec.Command("go", "build", "-o", bin, "github.com/yannh/kubeconform/cmd/kubeconform")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building kubeconform: %v\n%s", err, out)
	}
	location := layouts(root)[0].location

	type report struct {
		Resources []struct {
			Filename string `json:"filename"`
			Status   string `json:"status"`
		} `json:"resources"`
		Summary struct {
			Valid, Invalid, Errors, Skipped int
		} `json:"summary"`
	}
	run := func(dir string) (report, int) {
		cmd := exec.Command(bin, "-strict", "-summary", "-output", "json", "-schema-location", location, dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("running kubeconform: %v", err)
		}
		var rep report
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("kubeconform's JSON output: %v\n%s\n%s", err, stdout.Bytes(), stderr.Bytes())
		}
		return rep, code
	}

	valid, code := run(filepath.Join("testdata", "valid"))
	if code != 0 || valid.Summary.Invalid != 0 || valid.Summary.Errors != 0 || valid.Summary.Skipped != 0 || valid.Summary.Valid == 0 {
		t.Errorf("kubeconform over testdata/valid: exit %d, summary %+v, resources %+v", code, valid.Summary, valid.Resources)
	}

	invalidFiles := manifests(t, filepath.Join("testdata", "invalid"))
	invalid, code := run(filepath.Join("testdata", "invalid"))
	if code != 1 || invalid.Summary.Invalid != len(invalidFiles) || invalid.Summary.Valid != 0 || invalid.Summary.Errors != 0 {
		t.Errorf("kubeconform over testdata/invalid: exit %d, summary %+v; want exit 1 and %d invalid", code, invalid.Summary, len(invalidFiles))
	}
	rejected := map[string]bool{}
	for _, r := range invalid.Resources {
		if r.Status == "statusInvalid" {
			rejected[filepath.Base(r.Filename)] = true
		}
	}
	for _, f := range invalidFiles {
		if !rejected[filepath.Base(f)] {
			t.Errorf("kubeconform -strict did not report %s as invalid", f)
		}
	}
}

// publishedKinds lists "<apiVersion> <kind>" for every standalone schema
// that is published.
func publishedKinds(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "openapi", "jsonschema", "standalone", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no standalone schemas published: %v", err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Kinds []struct{ Group, Version, Kind string } `json:"x-kubernetes-group-version-kind"`
		}
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, k := range schema.Kinds {
			if k.Group == group {
				out = append(out, k.Group+"/"+k.Version+" "+k.Kind)
			}
		}
	}
	sort.Strings(out)
	return out
}
