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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
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
//     the only forms the API's wire has, and pointers to raw extensions
//     that are nil or point to such an object (a pointer to an empty one
//     is null on the wire, which reads back as no pointer);
//   - times to the second, which is what their JSON keeps (Time);
//   - device selectors that are, one time in three, a driver's selector
//     (resource.DriverSelector), which v1alpha1/v1alpha2 show as driverName;
//   - device requests that are, one time in three, the request a legacy
//     resourceClassName stands for, and otherwise exactly or firstAvailable
//     requests (now and then both, or neither) with an allocation mode and
//     count of every kind, defaulted or not (DeviceRequest);
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
		func(p **runtime.RawExtension, c randfill.Continue) {
			*p = nil
			if c.Intn(4) != 0 {
				re := RawExtension(c)
				for re.Raw == nil {
					re = RawExtension(c)
				}
				*p = &re
			}
		},
		func(t *metav1.Time, c randfill.Continue) { *t = Time(c) },
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
		ListPointer[resource.CounterSet](),
		ListPointer[resource.DeviceCounterConsumption](),
		ListPointer[resource.DeviceTaint](),
		ListPointer[resource.AllocatedDeviceStatus](),
		ListPointer[resource.SkipNodeOperation](),
		ListPointer[string](),
		ListPointer[int64](),
		ListPointer[bool](),
	}
}

// Time is a time to the second, in the local zone, as reading its JSON
// gives it back.
func Time(c randfill.Continue) metav1.Time {
	return metav1.Unix(c.Int63n(1<<33), 0)
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
// resourceClassName stands for (resource.LegacyRequestName, exactly one
// device of the class). Otherwise it is random: mostly an exactly request,
// else a firstAvailable one, and now and then both or neither (which no
// server accepts, but conversion must keep), each with an allocation mode
// that is ExactCount, All, empty or any string, and a count of one, zero or
// any.
func DeviceRequest(c randfill.Continue) resource.DeviceRequest {
	if c.Intn(3) == 0 {
		return resource.DeviceRequest{Name: resource.LegacyRequestName, Exactly: &resource.ExactDeviceRequest{
			DeviceClassName: Name(c), AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}}
	}
	var r resource.DeviceRequest
	c.FillNoCustom(&r)
	switch n := c.Intn(10); {
	case n < 6:
		r.FirstAvailable = nil
		if r.Exactly == nil {
			r.Exactly = &resource.ExactDeviceRequest{}
			c.Fill(r.Exactly)
		}
	case n < 9:
		r.Exactly = nil
		if r.FirstAvailable == nil {
			r.FirstAvailable = make([]resource.DeviceSubRequest, 1+c.Intn(2))
			for i := range r.FirstAvailable {
				c.Fill(&r.FirstAvailable[i])
			}
		}
	}
	if e := r.Exactly; e != nil {
		e.AllocationMode, e.Count = modeAndCount(c, e.AllocationMode, e.Count)
	}
	for i := range r.FirstAvailable {
		s := &r.FirstAvailable[i]
		s.AllocationMode, s.Count = modeAndCount(c, s.AllocationMode, s.Count)
	}
	return r
}

// modeAndCount picks an allocation mode (ExactCount, All, none, or the
// random one given) and a count (one, zero, or the random one given).
func modeAndCount(c randfill.Continue, mode resource.DeviceAllocationMode, count int64) (resource.DeviceAllocationMode, int64) {
	switch c.Intn(4) {
	case 0:
		mode = resource.DeviceAllocationModeExactCount
	case 1:
		mode = resource.DeviceAllocationModeAll
	case 2:
		mode = ""
	}
	switch c.Intn(3) {
	case 0:
		count = 1
	case 1:
		count = 0
	}
	return mode, count
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
		func(s *resource.DeviceTolerationOperator, c randfill.Continue) {
			*s = resource.DeviceTolerationOperator(HardString(c))
		},
		func(s *resource.DeviceTaintEffect, c randfill.Continue) {
			*s = resource.DeviceTaintEffect(HardString(c))
		},
		func(s *resource.SkipNodeOperation, c randfill.Continue) {
			*s = resource.SkipNodeOperation(HardString(c))
		},
		func(s *types.UID, c randfill.Continue) { *s = types.UID(HardString(c)) },
		func(s *corev1.ResourceName, c randfill.Continue) { *s = corev1.ResourceName(HardString(c)) },
	}
}
