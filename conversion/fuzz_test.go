package conversion

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"sigs.k8s.io/randfill"
	"sigs.k8s.io/yaml"

	hub "github.com/drakit/drakit/apis/resource"
)

// versionedKinds are the kinds of every version, sorted, for the fuzz
// targets to pick from by number (the meta kinds every version registers
// left out).
func versionedKinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, gv := range Versions {
		for kind, typ := range Scheme.KnownTypes(gv) {
			if strings.HasPrefix(typ.PkgPath(), drakitTypes) || strings.HasPrefix(typ.PkgPath(), kubeAPITypes) {
				out = append(out, gv.WithKind(kind))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// FuzzRoundTrip: an object of any version, filled at random from the fuzz
// input (the first two bytes pick the kind, a hash of all of them seeds the
// filler), comes back as it went in from a trip through every other version
// with its kind, and from one through all of them. Every hop goes over the
// wire (JSON, then the version's own defaulting), as a server stores what
// it is given, so a value that only the Go value keeps is a loss here.
func FuzzRoundTrip(f *testing.F) {
	// The seed corpus (testdata/fuzz/FuzzRoundTrip) starts one object of
	// each kind.
	kinds := versionedKinds()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		gvk := kinds[int(binary.BigEndian.Uint16(data))%len(kinds)]
		h := fnv.New64a()
		h.Write(data)
		in := newObject(t, gvk)
		wireFiller(int64(h.Sum64() >> 1)).Fill(in)
		in = defaulted(overTheWire(t, gvk, defaulted(in)))
		want := wireJSON(t, in)

		hubKind, err := HubKind(gvk)
		if err != nil {
			t.Fatal(err)
		}
		var others []string
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err == nil && gv.Version != gvk.Version {
				others = append(others, gv.Version)
			}
		}
		for _, trip := range trips(others, gvk.Version) {
			var obj runtime.Object = in
			for _, v := range trip {
				next, err := Convert(obj, schema.GroupVersion{Group: hub.GroupName, Version: v})
				if err != nil {
					t.Fatalf("%s through %v: to %s: %v\n%s", gvk, trip, v, err, want)
				}
				kind, _ := KindIn(hubKind, v)
				obj = defaulted(overTheWire(t, gv(v).WithKind(kind), next))
			}
			if got := wireJSON(t, obj); !bytes.Equal(got, want) {
				t.Fatalf("%s through %v changed the object:\n in: %s\nout: %s", gvk, trip, want, got)
			}
		}
	})
}

// wireFiller is the round-trip tests' filler, with managed fields that are
// JSON (the filler's are random bytes, which no server would store).
func wireFiller(seed int64) *randfill.Filler {
	return filler(seed).Funcs(func(f *metav1.FieldsV1, c randfill.Continue) {
		f.Raw = []byte(`{"f:metadata":{}}`)
	})
}

// trips are the trips from version home: through each of others and back,
// and through all of them in turn and back.
func trips(others []string, home string) [][]string {
	var out [][]string
	for _, o := range others {
		out = append(out, []string{o, home})
	}
	if len(others) > 1 {
		out = append(out, append(append([]string{}, others...), home))
	}
	return out
}

// wireJSON is obj's JSON without its apiVersion and kind.
func wireJSON(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	obj = obj.DeepCopyObject()
	clearTypeMeta(obj)
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzConvertStash: an object whose stash annotation is any text converts
// without a panic, to either a *resource.MalformedStashError or a hub object
// that comes back from its version with a stash that keeps what it kept:
// read again, it gives the same hub object (as JSON), and a trip through every other
// version gives it back unchanged. The objects are the examples' (examples/)
// converted to every version with their kind, so that the stashes meet the
// objects they were written for as well as others.
func FuzzConvertStash(f *testing.F) {
	// The seed corpus (testdata/fuzz/FuzzConvertStash) holds the stash of
	// one base of each kind, the same stash on the next base, its first
	// half, and malformed ones; which picks the base by its position.
	bases := stashBases(f)
	f.Fuzz(func(t *testing.T, which uint16, value string) {
		base := bases[int(which)%len(bases)]
		gvk := base.GetObjectKind().GroupVersionKind()
		obj := base.DeepCopyObject().(interface {
			runtime.Object
			metav1.Object
		})
		annotations := map[string]string{}
		for k, v := range obj.GetAnnotations() {
			annotations[k] = v
		}
		annotations[hub.StashAnnotation] = value
		obj.SetAnnotations(annotations)

		h, err := ToHub(obj)
		var malformed *hub.MalformedStashError
		if err != nil {
			if !errors.As(err, &malformed) {
				t.Fatalf("%s with stash %q: %v, want a *MalformedStashError", gvk, value, err)
			}
			return
		}
		back, err := FromHub(h, gvk.Version)
		var tooLarge *hub.StashTooLargeError
		if errors.As(err, &tooLarge) {
			return
		}
		if err != nil {
			t.Fatalf("%s with stash %q: back from the hub: %v", gvk, value, err)
		}
		again, err := ToHub(back)
		if err != nil {
			t.Fatalf("%s with stash %q: the stash written from it does not read: %v", gvk, value, err)
		}
		// As JSON: a stash may say [] where the hub's JSON leaves an empty
		// list out, which reads as an empty list the first time and as
		// none after the stash is written again, the same on the wire.
		if first, second := wireJSON(t, h), wireJSON(t, again); !bytes.Equal(first, second) {
			t.Fatalf("%s with stash %q: the stash written from it reads as another object:\nfirst: %s\nagain: %s", gvk, value, first, second)
		}
		hubKind, _ := HubKind(gvk)
		var others []string
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err == nil && gv.Version != gvk.Version {
				others = append(others, gv.Version)
			}
		}
		// The trips compare after each version's defaulting, as the
		// round-trip tests do, and from the object one trip through all
		// versions has settled: the examples leave defaults out, and a
		// stashed taint without timeAdded gets the clock's on its first
		// trip through a v1-era version.
		settled, ok := through(t, gvk, value, defaulted(back), append(append([]string{}, others...), gvk.Version))
		if !ok {
			return
		}
		want := wireJSON(t, settled)
		for _, trip := range trips(others, gvk.Version) {
			got, ok := through(t, gvk, value, settled, trip)
			if !ok {
				return
			}
			if got := wireJSON(t, got); !bytes.Equal(got, want) {
				t.Fatalf("%s with stash %q through %v changed the object:\n in: %s\nout: %s", gvk, value, trip, want, got)
			}
		}
	})
}

// through converts obj to each version of trip in turn, each result
// defaulted; not ok when a stash would not fit in the annotations.
func through(t *testing.T, gvk schema.GroupVersionKind, value string, obj runtime.Object, trip []string) (runtime.Object, bool) {
	t.Helper()
	var tooLarge *hub.StashTooLargeError
	for _, v := range trip {
		next, err := Convert(obj, gv(v))
		if errors.As(err, &tooLarge) {
			return nil, false
		}
		if err != nil {
			t.Fatalf("%s with stash %q through %v: to %s: %v", gvk, value, trip, v, err)
		}
		obj = defaulted(next)
	}
	return obj, true
}

// stashBases are the objects of the examples' manifests, each converted to
// every version with its kind.
func stashBases(f *testing.F) []runtime.Object {
	decoder := serializer.NewCodecFactory(Scheme).UniversalDeserializer()
	var bases []runtime.Object
	for _, dir := range []string{"v1alpha1", "v1alpha2", "v1alpha3", "v1"} {
		files, err := filepath.Glob(filepath.Join("..", "examples", dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			f.Fatalf("no examples in %s: %v", dir, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			for _, doc := range strings.Split(string(data), "\n---") {
				js, err := yaml.YAMLToJSON([]byte(doc))
				if err != nil || string(js) == "null" {
					continue
				}
				obj, gvk, err := decoder.Decode(js, nil, nil)
				if err != nil || gvk.Group != hub.GroupName {
					continue // nodes, and the like
				}
				hubKind, err := HubKind(*gvk)
				if err != nil {
					f.Fatalf("%s: %v", file, err)
				}
				for _, gv := range Versions {
					if _, err := KindIn(hubKind, gv.Version); err != nil {
						continue
					}
					out, err := Convert(obj, gv)
					if err != nil {
						f.Fatalf("%s: to %s: %v", file, gv.Version, err)
					}
					bases = append(bases, out)
				}
			}
		}
	}
	return bases
}
