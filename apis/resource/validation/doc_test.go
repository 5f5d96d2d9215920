package validation

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// The package documentation's tables are kept honest here: the versions
// and releases (against the catalogue) and the files (against the
// directory). That no name carries a release number is kept repository-
// wide (internal/repocheck).

// docTableLine is a line of the package documentation's table of versions
// and releases: "v1alpha3  Kubernetes 1.31; DeviceTaintRule and
// ResourcePoolStatusRequest 1.37", with an optional remark in parentheses
// after the release.
var docTableLine = regexp.MustCompile(`^//\t(v\w+) +Kubernetes 1\.(\d+)(?: \([^)]*\))?(?:; (.+) 1\.(\d+))?$`)

// TestDocTableFollowsTheCatalogue keeps the table at the top of doc.go
// honest: one line per catalogue version, in the catalogue's order, with
// the release of its rules and the kinds whose rules are another release's.
func TestDocTableFollowsTheCatalogue(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(doc), "\n") {
		m := docTableLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		entry := m[1] + " 1." + m[2]
		if m[3] != "" {
			entry += "; " + m[3] + " 1." + m[4]
		}
		got = append(got, entry)
	}
	var want []string
	for _, v := range catalogue.Versions {
		entry := v.Name + " 1." + strconv.Itoa(v.Rules)
		others := map[int][]string{}
		for _, k := range v.Kinds {
			if r := v.RulesOf(k); r != v.Rules {
				others[r] = append(others[r], k.Name)
			}
		}
		if len(others) > 1 {
			t.Fatalf("%s: kinds with the rules of more than one other release; the table has no form for that", v.Name)
		}
		for r, kinds := range others {
			sort.Strings(kinds)
			entry += "; " + strings.Join(kinds, " and ") + " 1." + strconv.Itoa(r)
		}
		want = append(want, entry)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the table of doc.go says\n  %s\nthe catalogue says\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// frozenRulesFile is the only form of file name that carries a release:
// the rules of a release no later one changes.
var frozenRulesFile = regexp.MustCompile(`^rules1\d\d\.go$`)

// TestDocFilesTableNamesEveryFile: the Files table of doc.go names every
// file of the package other than tests, and only those; and no file name
// of live code carries a release number.
func TestDocFilesTableNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "// # Files\n")
	end := strings.Index(text, "// # What the server does before it validates")
	if start < 0 || end < start {
		t.Fatal("doc.go has no # Files section before # What the server does before it validates")
	}
	named := map[string]bool{}
	for _, line := range strings.Split(text[start:end], "\n") {
		if !strings.HasPrefix(line, "//\t") {
			continue
		}
		for _, word := range strings.Fields(strings.NewReplacer(",", " ", "(", " ", ")", " ").Replace(line)) {
			if strings.HasSuffix(word, ".go") && !strings.HasSuffix(word, "_test.go") {
				named[word] = true
			}
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if !named[f] {
			t.Errorf("doc.go's Files table does not name %s", f)
		}
		delete(named, f)
		if regexp.MustCompile(`1\d\d`).MatchString(f) && !frozenRulesFile.MatchString(f) {
			t.Errorf("%s: only the frozen rules (rules1NN.go) carry a release in their name", f)
		}
	}
	for f := range named {
		t.Errorf("doc.go's Files table names %s, which is not a file of the package", f)
	}
}
