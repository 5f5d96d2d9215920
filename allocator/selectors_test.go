package allocator

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// simpleInventory are devices whose attributes the selectors of
// simpleClaims can all read.
func simpleInventory() []*resource.ResourceSlice {
	var devs []resource.Device
	models := []string{"h100", "a100", "l40"}
	for i := 0; i < 12; i++ {
		devs = append(devs, dev(fmt.Sprintf("gpu%d", i),
			attr("model", models[i%3]),
			attr("gpu.example.com/index", i),
			attr("healthy", i%4 != 1),
			attr("net.example.com/rack", i/4),
			attr("driverVersion", fmt.Sprintf("v:1.%d.%d", i%5, i%3)),
			attr("uuid", fmt.Sprintf("gpu-%x", 1000+i)),
			attr("memory", apiresource.MustParse(fmt.Sprintf("%dGi", 16*(1+i%4))))))
	}
	return []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), devs...)}
}

// simpleClaims use selectors of the simple grammar only.
func simpleClaims() []*resource.ResourceClaim {
	return []*resource.ResourceClaim{
		claim("model", req("r", "gpu", sel(`device.attributes["gpu.example.com"].model == "a100"`), count(2))),
		claim("healthy-high", req("r", "gpu", sel(`device.attributes["gpu.example.com"].index >= 6 && !device.attributes["gpu.example.com"].healthy`))),
		claim("or", req("r", "gpu", all(), sel(`device.attributes['gpu.example.com'].model == 'l40' || 2 > device.attributes["gpu.example.com"].index`))),
		claim("rack", req("r", "gpu", all(), sel(`device.attributes["net.example.com"].rack != 1`), sel(`device.attributes["gpu.example.com"].healthy`))),
		claim("none", req("r", "gpu", sel(`device.attributes["gpu.example.com"].model == "b200"`))),
		claim("two", req("a", "gpu", sel(`device.attributes["gpu.example.com"].index < 3`)), req("b", "gpu", sel(`device.attributes["gpu.example.com"].index > 8`))),
		claim("semver", req("r", "gpu", all(), sel(`device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.0"))`))),
		claim("quantity", req("r", "gpu", all(), sel(`device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) > 0`))),
		claim("regex", req("r", "gpu", all(), sel(`device.attributes["gpu.example.com"].uuid.matches("^gpu-[0-9a-f]+[7a]$")`))),
		claim("bind", req("r", "gpu", count(2), sel(`cel.bind(a, device.attributes["gpu.example.com"], a.model in ["a100", "l40"] && a.driverVersion.minor() >= 2 && a.healthy)`))),
	}
}

// notSimple rewrites a selector into one that means the same (for a
// selector that gives a bool) but that the fast path's grammar refuses, so
// that it goes through cel-go.
func notSimple(expr string) string { return "(" + expr + ") == true" }

// withoutSimple rewrites the selectors of classes and claims with notSimple.
func withoutSimple(classes []*resource.DeviceClass, claims []*resource.ResourceClaim) ([]*resource.DeviceClass, []*resource.ResourceClaim) {
	var outClasses []*resource.DeviceClass
	for _, c := range classes {
		c = c.DeepCopy()
		for i := range c.Spec.Selectors {
			c.Spec.Selectors[i].CEL.Expression = notSimple(c.Spec.Selectors[i].CEL.Expression)
		}
		outClasses = append(outClasses, c)
	}
	var outClaims []*resource.ResourceClaim
	for _, c := range claims {
		c = c.DeepCopy()
		for i := range c.Spec.Devices.Requests {
			if r := c.Spec.Devices.Requests[i].Exactly; r != nil {
				for j := range r.Selectors {
					r.Selectors[j].CEL.Expression = notSimple(r.Selectors[j].CEL.Expression)
				}
			}
		}
		outClaims = append(outClaims, c)
	}
	return outClasses, outClaims
}

// outcome is a result in comparable form; the messages of failures name
// the expressions as the claim had them before notSimple.
func outcome(r Result, rewritten map[string]string) string {
	if r.Err != nil {
		msg := r.Err.Error()
		for from, to := range rewritten {
			msg = strings.ReplaceAll(msg, fmt.Sprintf("%q", from), fmt.Sprintf("%q", to))
		}
		return "error: " + msg
	}
	return strings.Join(devicesOf(r.Allocation), " ")
}

var simpleFeatureSets = []struct {
	name     string
	features *Features
}{
	{"1.31", legacy131},
	{"1.37", nil},
	{"1.37 with list attributes", func() *Features { f := DefaultFeatures(); f.ListTypeAttributes = true; return &f }()},
}

// allocateEach allocates each claim on a fresh Allocator and returns the
// outcomes and the selectors compiled in all.
func allocateEach(t *testing.T, features *Features, classes []*resource.DeviceClass, slices []*resource.ResourceSlice, claims []*resource.ResourceClaim, rewritten map[string]string) ([]string, int64) {
	t.Helper()
	var out []string
	var compiled int64
	for _, c := range claims {
		a, err := New(Options{Classes: classes, Slices: slices, Node: node("n1"), Features: features})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out = append(out, c.Name+": "+outcome(res[0], rewritten))
		compiled += a.Stats().Compiled
	}
	return out, compiled
}

func rewrites(claims []*resource.ResourceClaim, classes []*resource.DeviceClass) map[string]string {
	m := map[string]string{}
	for _, c := range classes {
		for _, s := range c.Spec.Selectors {
			m[notSimple(s.CEL.Expression)] = s.CEL.Expression
		}
	}
	for _, c := range claims {
		for _, r := range c.Spec.Devices.Requests {
			if r.Exactly != nil {
				for _, s := range r.Exactly.Selectors {
					m[notSimple(s.CEL.Expression)] = s.CEL.Expression
				}
			}
		}
	}
	return m
}

// TestSimpleSelectorsAreNotCompiled: a fresh Allocator judges devices with
// simple selectors without compiling any, with the results the compiled
// programs give.
func TestSimpleSelectorsAreNotCompiled(t *testing.T) {
	classes := []*resource.DeviceClass{gpuClass}
	claims := simpleClaims()
	slices := simpleInventory()
	for _, fs := range simpleFeatureSets {
		t.Run(fs.name, func(t *testing.T) {
			got, compiled := allocateEach(t, fs.features, classes, slices, claims, nil)
			if compiled != 0 {
				t.Errorf("%d selectors compiled", compiled)
			}
			slowClasses, slowClaims := withoutSimple(classes, claims)
			want, slowCompiled := allocateEach(t, fs.features, slowClasses, slices, slowClaims, rewrites(claims, classes))
			if slowCompiled == 0 {
				t.Fatal("the rewritten selectors were not compiled: notSimple no longer defeats the fast path")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("simple selectors:\n  %s\ncompiled:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			for _, o := range got {
				if failed := strings.Contains(o, "error"); failed != strings.HasPrefix(o, "none:") {
					t.Errorf("%s", o)
				}
			}
		})
	}
}

// TestSimpleSelectorsFallBack: devices that a simple selector cannot judge
// (a missing attribute, an attribute of another kind, a version that does
// not parse, a list) go to the compiled program, with its result or its
// error, exactly as a selector that is not simple would.
func TestSimpleSelectorsFallBack(t *testing.T) {
	classes := []*resource.DeviceClass{gpuClass}
	inventories := map[string][]*resource.ResourceSlice{
		"missing": {slice("s1", drv, "n1", onNode("n1"),
			dev("gpu0", attr("model", "h100"), attr("index", 0)),
			dev("gpu1", attr("model", "a100")))},
		"other kind": {slice("s1", drv, "n1", onNode("n1"),
			dev("gpu0", attr("model", "h100"), attr("index", "zero")),
			dev("gpu1", attr("model", "a100"), attr("index", 1)))},
		"bad version": {slice("s1", drv, "n1", onNode("n1"),
			dev("gpu0", attr("model", "h100"), attr("index", 0), attr("driverVersion", "v:one")),
			dev("gpu1", attr("model", "a100"), attr("index", 1)))},
		"list": {slice("s1", drv, "n1", onNode("n1"),
			dev("gpu0", attr("model", []string{"h100"}), attr("index", 0)),
			dev("gpu1", attr("model", "a100"), attr("index", 1)))},
	}
	claims := []*resource.ResourceClaim{
		claim("index", req("r", "gpu", all(), sel(`device.attributes["gpu.example.com"].index >= 0`))),
		claim("model", req("r", "gpu", sel(`device.attributes["gpu.example.com"].model == "a100"`))),
		claim("both", req("r", "gpu", sel(`device.attributes["gpu.example.com"].model == "a100" || device.attributes["gpu.example.com"].index == 1`))),
	}
	for _, fs := range simpleFeatureSets {
		for name, slices := range inventories {
			t.Run(fs.name+"/"+name, func(t *testing.T) {
				got, compiled := allocateEach(t, fs.features, classes, slices, claims, nil)
				if compiled == 0 {
					t.Error("no selector compiled, though some devices cannot be judged without")
				}
				slowClasses, slowClaims := withoutSimple(classes, claims)
				want, _ := allocateEach(t, fs.features, slowClasses, slices, slowClaims, rewrites(claims, classes))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("simple selectors:\n  %s\ncompiled:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			})
		}
	}
}

// TestSimpleSelectorCompiledOnce: the program a simple selector falls back
// to is compiled once per Allocator, however many devices need it.
func TestSimpleSelectorCompiledOnce(t *testing.T) {
	var devs []resource.Device
	for i := 0; i < 10; i++ {
		devs = append(devs, dev(fmt.Sprintf("gpu%d", i), attr("model", []string{"h100"})))
	}
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), devs...)}, Node: node("n1"), Features: legacy131})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), sel(`device.attributes["gpu.example.com"].model == "h100"`)))})
		if err != nil {
			t.Fatal(err)
		}
		if !IsReason(res[0].Err, ReasonCELRuntimeError) {
			t.Fatalf("want a runtime error for a device without model: %v", res[0].Err)
		}
	}
	if c := a.Stats().Compiled; c != 1 {
		t.Errorf("compiled %d times, want 1", c)
	}
}
