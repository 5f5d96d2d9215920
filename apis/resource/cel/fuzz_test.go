package cel

import (
	"context"
	"math/rand"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
)

// fuzzDevicesPerInput is how many random devices each fuzzed expression
// is matched against.
const fuzzDevicesPerInput = 6

// FuzzSimpleSelector: whatever simple.Parse accepts compiles in the
// environment it was accepted for (1.31 when legacy, else 1.37 stored),
// and on random devices (randomSimpleDevice from seed, with the quirks
// that extra's bits add) Match either declines or gives cel-go's answer
// without an error. Nothing panics.
func FuzzSimpleSelector(f *testing.F) {
	seeds := []string{
		`true`, `device.driver == "gpu.example.com"`, `!device.attributes["gpu.example.com"].healthy`,
		`device.attributes["gpu.example.com"].model in ["h100", 'a100']`,
		`device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("16Gi"))`,
		`device.capacity["gpu.example.com"].memory.compareTo(quantity("1e2000")) < 0`,
		`cel.bind(a, device.attributes["gpu.example.com"], a.driverVersion.isLessThan(semver("1.5.0")) || a.index >= 1)`,
		`device.attributes["net.example.com"].model.matches("^h[0-9]+$") && device.allowMultipleAllocations`,
	}
	for i, s := range seeds {
		f.Add(s, i%2 == 0, int64(i), uint8(i*37))
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, expr string, legacy bool, seed int64, extra uint8) {
		s, ok := simple.Parse(expr, legacy)
		if !ok {
			return
		}
		var legacyProg *Program
		var progFollowed storedPrograms
		var err error
		if legacy {
			legacyProg, err = Compile(expr, Options{Release: 31, Stored: true})
		} else {
			progFollowed, err = compileStored(expr)
		}
		if err != nil {
			t.Fatalf("accepted %q (legacy %v), which does not compile: %v", expr, legacy, err)
		}
		rng := rand.New(rand.NewSource(seed))
		for i := range fuzzDevicesPerInput {
			td := randomSimpleDevice(rng, i)
			addQuirks(td.dev, extra>>(i%4))
			lists := !legacy && rng.Intn(2) == 0
			match, answered := simpleMatch(s, td.driver, td.dev, lists)
			if !answered {
				continue
			}
			var want bool
			if legacy {
				want, err = legacyProg.Matches(ctx, NewInput(td.driver, td.dev))
			} else {
				want, err = progFollowed.matches(ctx, td.driver, td.dev, lists)
			}
			if err != nil || want != match {
				t.Fatalf("%q on %s (legacy %v, lists %v): Match says %v, cel-go %v, %v", expr, td, legacy, lists, match, want, err)
			}
		}
	})
}

// addQuirks adds what randomSimpleDevice does not make, one per bit: a
// version that does not parse beside a list, a list beside a good
// version, a capacity beyond the quantity bound, one at its edge.
func addQuirks(dev *hub.Device, bits uint8) {
	if bits&1 != 0 {
		dev.Attributes["gpu.example.com/driverVersion"] = hub.DeviceAttribute{VersionValue: ptr.To("1.2"), IntValues: []int64{1}}
	}
	if bits&2 != 0 {
		dev.Attributes["model"] = hub.DeviceAttribute{VersionValue: ptr.To("1.2.3"), StringValues: []string{"h100"}}
	}
	if bits&(4|8) != 0 && dev.Capacity == nil {
		dev.Capacity = map[hub.QualifiedName]hub.DeviceCapacity{}
	}
	if bits&4 != 0 {
		huge, _ := apiresource.ParseQuantity("1e3000")
		dev.Capacity["gpu.example.com/memory"] = hub.DeviceCapacity{Value: huge}
	}
	if bits&8 != 0 {
		dev.Capacity["memory"] = hub.DeviceCapacity{Value: apiresource.MustParse("9e1999")}
	}
}
