package allocate

import (
	"bufio"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
)

// The TOLERATIONS cell of -o wide uses kubectl's taint notation, so that a
// reader can match it against the taints a driver or a DeviceTaintRule set.
func TestFormatTolerations(t *testing.T) {
	seconds := int64(300)
	for _, tc := range []struct {
		name string
		in   []resource.DeviceToleration
		want string
	}{
		{name: "none", want: ""},
		{name: "equal", in: []resource.DeviceToleration{{Key: "example.com/recall", Operator: resource.DeviceTolerationOpEqual, Value: "firmware", Effect: resource.DeviceTaintEffectNoExecute}}, want: "example.com/recall=firmware:NoExecute"},
		{name: "operator defaults to Equal", in: []resource.DeviceToleration{{Key: "k", Value: "v"}}, want: "k=v"},
		{name: "exists", in: []resource.DeviceToleration{{Key: "example.com/maintenance", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoSchedule}}, want: "example.com/maintenance:NoSchedule"},
		{name: "everything", in: []resource.DeviceToleration{{Operator: resource.DeviceTolerationOpExists}}, want: "*"},
		{name: "seconds, two", in: []resource.DeviceToleration{
			{Key: "a", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoExecute, TolerationSeconds: &seconds},
			{Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoSchedule},
		}, want: "a:NoExecute(300s),*:NoSchedule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := formatTolerations(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFormatCapacity(t *testing.T) {
	got := formatCapacity(map[resource.QualifiedName]apiresource.Quantity{
		"memory":                       apiresource.MustParse("0"),
		"example.com/bandwidth":        apiresource.MustParse("40G"),
		"example.com/virtualFunctions": apiresource.MustParse("1"),
	})
	if want := "example.com/bandwidth=40G,example.com/virtualFunctions=1,memory=0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := formatCapacity(nil); got != "" {
		t.Errorf("nil: got %q, want empty", got)
	}
}

// -o wide shows, per device, what a 1.37 result records besides the
// device: the share of a shared device and what it consumes, the
// tolerations, the binding conditions and admin access; the request of an
// alternative as "request/alternative".
func TestPrintTableResultFields(t *testing.T) {
	share := types.UID("4a6c3a9e-5b1f-4a57-9d0e-0c1f6a3b2d11")
	admin := true
	obj := &objects.Object{}
	obj.Head.Metadata.Name, obj.Head.Metadata.Namespace = "nic", "team-a"
	alloc := &resource.AllocationResult{Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{
		{Request: "net/fast", Driver: "nic.example.com", Pool: "rack-r1", Device: "nic-0", ShareID: &share,
			ConsumedCapacity: map[resource.QualifiedName]apiresource.Quantity{"bandwidth": apiresource.MustParse("40G")}},
		{Request: "gpu", Driver: "gpu.example.com", Pool: "node-a", Device: "gpu-0", AdminAccess: &admin,
			Tolerations:       []resource.DeviceToleration{{Key: "example.com/recall", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoExecute}},
			BindingConditions: []string{"example.com/attached", "example.com/ready"}},
	}}}
	inv := &inventory{claims: []*claimEntry{{obj: obj, version: "v1", outcome: allocator.ObjectResult{Node: "node-a", Result: allocator.Result{Allocation: alloc}}}}}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	if err := printTable(w, inv); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := [][]string{
		strings.Split(wideColumns, "\t"),
		{"team-a/nic", "v1", "net/fast", "nic.example.com", "rack-r1", "nic-0", "node-a", "allocated", string(share), "bandwidth=40G", "-", "-", "-"},
		{"team-a/nic", "v1", "gpu", "gpu.example.com", "node-a", "gpu-0", "node-a", "allocated", "-", "-", "example.com/recall:NoExecute", "example.com/attached,example.com/ready", "true"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, l := range lines {
		if got := strings.Fields(l); strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("line %d:\n got: %q\nwant: %q", i, got, want[i])
		}
	}
}
