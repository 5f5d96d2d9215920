// Package fuzzer is the random filler of drakit's tests: one
// sigs.k8s.io/randfill configuration, seeded, with the custom functions the
// tests share (quantities in canonical form, raw extensions that are JSON,
// driver selectors, legacy requests, lists where the wire keeps an empty
// list apart from none), and the policy for how many random objects a test
// tries (Iterations). Only tests import it.
//
// It knows the hub types but none of the versioned packages: the tests of
// the packages those import (the stash and the legacy shapes) use it too.
// A test adds what only it needs with Funcs on the filler New returns; a
// function given there replaces the one given here for the same type.
package fuzzer

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/apis/resource"
)

// FullEnv is the environment variable that asks for the full iteration
// counts: DRAKIT_FUZZ_FULL=1 (CI sets it). Without it a test runs its quick
// count, so that `go test ./...` stays a developer's loop, and with -short
// a tenth of that.
const FullEnv = "DRAKIT_FUZZ_FULL"

// Full reports whether FullEnv asks for the full iteration counts. Any
// value strconv.ParseBool takes as true does ("1", "true").
func Full() bool {
	full, _ := strconv.ParseBool(os.Getenv(FullEnv))
	return full
}

// Iterations is how many random objects a test tries: full when FullEnv is
// set, else quick, or with -short a tenth of quick (at least one). Call it
// from a test only: it asks the testing package for -short.
func Iterations(full, quick int) int {
	switch {
	case Full():
		return full
	case testing.Short():
		return max(1, quick/10)
	default:
		return quick
	}
}

// New returns a filler seeded with seed: nil one time in five for pointers,
// slices and maps, one to three elements in a list (so that an empty list
// comes only from the functions that mean it), and the custom functions of
// Funcs.
func New(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(1, 3).Funcs(Funcs()...)
}

// Funcs are the custom functions New installs:
//
//   - quantities in canonical form, as parsing their text gives them
//     (Quantity);
//   - raw extensions that are nil or a compact JSON object (RawExtension),
//     the only forms the API's wire has;
//   - device selectors that are, one time in three, a driver's selector
//     (resource.DriverSelector), which v1alpha1/v1alpha2 show as driverName;
//   - device requests that are, one time in three, the request a legacy
//     resourceClassName stands for, and otherwise have an allocation mode
//     and count of every kind, defaulted or not (DeviceRequest);
//   - claim allocation modes of every kind, empty included;
//   - allocations in each version's shape: with handles but no device
//     results, with results but no handles, or both;
//   - pools that are, half the time, the pool a v1alpha2 slice stands for;
//   - lists where the hub keeps an empty list apart from none (a claim's
//     requests, a slice's devices, a structured handle's results): nil, empty
//     or filled;
//   - pointers to lists, which the stash payloads use to keep an empty list
//     apart from none: nil, or a list, empty or not, never a nil one.
func Funcs() []any {
	return []any{
		func(q *apiresource.Quantity, c randfill.Continue) { *q = Quantity(c) },
		func(re *runtime.RawExtension, c randfill.Continue) { *re = RawExtension(c) },
		func(s *resource.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = resource.DriverSelector(Name(c))
			}
		},
		func(r *resource.DeviceRequest, c randfill.Continue) { *r = DeviceRequest(c) },
		func(m *resource.AllocationMode, c randfill.Continue) {
			switch c.Intn(4) {
			case 0:
				*m = ""
			case 1:
				*m = resource.AllocationModeWaitForFirstConsumer
			case 2:
				*m = resource.AllocationModeImmediate
			default:
				*m = resource.AllocationMode(c.String(8))
			}
		},
		func(a *resource.AllocationResult, c randfill.Continue) {
			c.FillNoCustom(a)
			switch c.Intn(4) {
			case 0:
				a.ResourceHandles = nil
			case 1:
				a.Devices.Results = nil
			}
		},
		func(p *resource.ResourcePool, c randfill.Continue) {
			c.FillNoCustom(p)
			if c.Bool() {
				*p = resource.ResourcePool{Name: Name(c), ResourceSliceCount: 1}
			}
		},
		func(h *resource.StructuredResourceHandle, c randfill.Continue) {
			c.FillNoCustom(h)
			if c.Intn(4) == 0 {
				h.Results = []resource.DriverAllocationResult{}
			}
		},
		NilEmptyOrFilled[resource.DeviceRequest](),
		NilEmptyOrFilled[resource.Device](),
		ListPointer[resource.DeviceRequest](),
		ListPointer[resource.ResourceHandle](),
		ListPointer[resource.DeviceAttribute](),
	}
}

// Quantity is a random quantity, negative ones included, in the canonical
// form of its format, as parsing that text gives it: writing it out and
// parsing it again gives the same quantity.
func Quantity(c randfill.Continue) apiresource.Quantity {
	formats := []apiresource.Format{apiresource.BinarySI, apiresource.DecimalSI}
	q := apiresource.NewQuantity(c.Int63n(1<<40)-1<<39, formats[c.Intn(len(formats))])
	return apiresource.MustParse(q.String())
}

// RawExtension is nil one time in three, else a compact JSON object: what
// the API server stores for parameters. Its strings hold any runes, HTML
// characters and escapes included.
func RawExtension(c randfill.Continue) runtime.RawExtension {
	text, _ := json.Marshal(c.String(8)) // a string always marshals
	switch c.Intn(3) {
	case 1:
		return runtime.RawExtension{Raw: fmt.Appendf(nil, `{"apiVersion":"gpu.example.com/v1","kind":"Config","n":%d,"s":%s}`, c.Int63n(1000), text)}
	case 2:
		return runtime.RawExtension{Raw: fmt.Appendf(nil, `{"l":[1,-2.5e3,true,null,{}],"m":{"a":"\u003c\u0026\u003e","b":%s}}`, text)}
	}
	return runtime.RawExtension{}
}

// Name is a driver or class name from a small set, so that names repeat,
// and empty one time in four: an empty name is where the legacy and
// v1alpha3 shapes are easiest to confuse.
func Name(c randfill.Continue) string {
	if c.Intn(4) == 0 {
		return ""
	}
	return fmt.Sprintf("driver-%d.example.com", c.Intn(3))
}

// DeviceRequest is one time in three the request that a v1alpha1/v1alpha2
// resourceClassName stands for (resource.LegacyRequestName, one device of
// the class). Otherwise it is random, with an allocation mode that is
// ExactCount, All, empty or any string, and a count of one, zero or any.
func DeviceRequest(c randfill.Continue) resource.DeviceRequest {
	if c.Intn(3) == 0 {
		return resource.DeviceRequest{Name: resource.LegacyRequestName, DeviceClassName: Name(c),
			AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}
	}
	var r resource.DeviceRequest
	c.FillNoCustom(&r)
	switch c.Intn(4) {
	case 0:
		r.AllocationMode = resource.DeviceAllocationModeExactCount
	case 1:
		r.AllocationMode = resource.DeviceAllocationModeAll
	case 2:
		r.AllocationMode = ""
	}
	switch c.Intn(3) {
	case 0:
		r.Count = 1
	case 1:
		r.Count = 0
	}
	return r
}

// NilEmptyOrFilled is a custom function for lists of T: nil one time in
// eight, empty one time in eight, else filled. Use it for lists whose JSON
// keeps [] apart from null.
func NilEmptyOrFilled[T any]() func(*[]T, randfill.Continue) {
	return func(l *[]T, c randfill.Continue) {
		switch c.Intn(8) {
		case 0:
			*l = nil
		case 1:
			*l = []T{}
		default:
			c.FillNoCustom(l)
		}
	}
}

// ListPointer is a custom function for pointers to lists of T: nil one time
// in five, else a list of zero to two filled elements. It never points to a
// nil list, which JSON cannot tell from no pointer.
func ListPointer[T any]() func(**[]T, randfill.Continue) {
	return func(p **[]T, c randfill.Continue) {
		if c.Intn(5) == 0 {
			*p = nil
			return
		}
		l := make([]T, c.Intn(3))
		for i := range l {
			c.Fill(&l[i])
		}
		*p = &l
	}
}

// hardPieces are what HardString builds strings from: every class of byte
// that a JSON writer or reader treats apart (quotes, backslashes, each kind
// of control character, HTML characters, the JavaScript line separators,
// invalid and truncated UTF-8, multi-byte runes).
var hardPieces = []string{
	"a", "Z9", " ", "device.driver == \"x\"", `"`, `\`, `\"`, "/", "<", ">", "&", "&&", "'",
	"\u2028", "\u2029", "é", "😀", "\ufffd", "\ufeff",
	"\x00", "\x01", "\b", "\f", "\n", "\r", "\t", "\x1b", "\x1f", "\x7f",
	"\xff", "\xc3", "\xed\xa0\x80", "\xf0\x9f\x98", "\x80\x80",
}

// HardString is a random string, empty one time in five, that mixes
// hardPieces with single random bytes and randfill's own runes. It need not
// be valid UTF-8.
func HardString(c randfill.Continue) string {
	if c.Intn(5) == 0 {
		return ""
	}
	var b strings.Builder
	for n := 1 + c.Intn(6); n > 0; n-- {
		switch c.Intn(4) {
		case 0:
			b.WriteByte(byte(c.Intn(256)))
		case 1:
			b.WriteString(c.String(4))
		default:
			b.WriteString(hardPieces[c.Intn(len(hardPieces))])
		}
	}
	return b.String()
}

// HardStrings are custom functions that fill strings, and the string types
// of the hub and of core/v1 node selectors, with HardString. Add them with
// Funcs where strings travel through a writer and a reader of one's own.
func HardStrings() []any {
	return []any{
		func(s *string, c randfill.Continue) { *s = HardString(c) },
		func(s *resource.QualifiedName, c randfill.Continue) { *s = resource.QualifiedName(HardString(c)) },
		func(s *resource.FullyQualifiedName, c randfill.Continue) {
			*s = resource.FullyQualifiedName(HardString(c))
		},
		func(s *resource.AllocationMode, c randfill.Continue) { *s = resource.AllocationMode(HardString(c)) },
		func(s *resource.DeviceAllocationMode, c randfill.Continue) {
			*s = resource.DeviceAllocationMode(HardString(c))
		},
		func(s *resource.AllocationConfigSource, c randfill.Continue) {
			*s = resource.AllocationConfigSource(HardString(c))
		},
		func(s *corev1.NodeSelectorOperator, c randfill.Continue) {
			*s = corev1.NodeSelectorOperator(HardString(c))
		},
	}
}
