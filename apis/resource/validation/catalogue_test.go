package validation

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/conversion"
)

// TestEveryCatalogueKindHasRules: every kind of every version the catalogue
// lists, and its List, has registered rules of the version's release, and
// there are rules for nothing else.
func TestEveryCatalogueKindHasRules(t *testing.T) {
	want := map[reflect.Type]bool{}
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			obj, err := conversion.Scheme.New(v.GroupVersion().WithKind(k.Name))
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, k.Name, err)
			}
			list, err := conversion.Scheme.New(v.GroupVersion().WithKind(k.ListName()))
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, k.ListName(), err)
			}
			typ := reflect.TypeOf(obj)
			want[typ] = true
			r, ok := registry[typ]
			if !ok {
				t.Errorf("%s %s: no validation rules registered", v.Name, k.Name)
			} else if wantRelease := release("1." + strconv.Itoa(v.RulesOf(k))); r.release != wantRelease {
				t.Errorf("%s %s: rules of %s, the catalogue says %s", v.Name, k.Name, r.release, wantRelease)
			}
			if _, ok := listRegistry[reflect.TypeOf(list)]; !ok {
				t.Errorf("%s %s: no validation of its List registered", v.Name, k.ListName())
			}
		}
	}
	for typ := range registry {
		if !want[typ] {
			t.Errorf("rules registered for %v, which no catalogue version lists", typ)
		}
	}
}

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
