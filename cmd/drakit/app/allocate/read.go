package allocate

import (
	"runtime"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
)

// read collects the inventory, the claims and the pods. The documents are
// parsed, decoded and converted on every core (a cluster export has
// thousands); what they add to the inventory is taken in inputs.Input order.
func (o *Options) read(ins []inputs.Input, rep *cmdutil.Reporter) (*inventory, error) {
	inv := &inventory{skipped: map[string]int{}}
	nodeNames := map[string]bool{}
	reader := &objects.Reader{Strict: o.Strict, Report: rep.Report}
	for _, in := range ins {
		rc, err := in.Open(o.In)
		if err != nil {
			rep.Fail(err)
			continue
		}
		err = reader.EachParallel(manifest.NewReader(rc, in.Name), runtime.GOMAXPROCS(0), o.prepare, func(obj *objects.Object, prepared any) error {
			o.take(inv, nodeNames, obj, prepared, rep)
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	return inv, nil
}

var (
	podKind  = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	nodeKind = schema.GroupVersionKind{Version: "v1", Kind: "Node"}
)

// decoded is a core/v1 object decoded by prepare, with its problems.
type decoded struct {
	obj      any
	warnings []*manifest.Error
	err      *manifest.Error
}

// hubbed is an object of the group converted to the hub by prepare.
type hubbed struct {
	hub any
	err error
}

// prepare does, for one object, what does not depend on the others:
// decoding Pods and Nodes, converting objects of the group to the hub
// (which tells the kinds apart: a ResourceClass is a DeviceClass, and
// finds every object that cannot be converted, not only the first).
func (o *Options) prepare(obj *objects.Object) any {
	if obj.Typed != nil {
		hub, err := conversion.ToHub(obj.Typed)
		return hubbed{hub, err}
	}
	var into any
	switch obj.GVK {
	case podKind:
		into = &corev1.Pod{}
	case nodeKind:
		into = &corev1.Node{}
	default:
		return nil
	}
	warnings, e := obj.Doc.Decode(obj.JSON, into, o.Strict, obj.At)
	for _, w := range warnings {
		w.Object = obj.Name()
	}
	if e != nil {
		e.Object = obj.Name()
	}
	return decoded{into, warnings, e}
}

// take adds one object to the inventory, in inputs.Input order.
func (o *Options) take(inv *inventory, nodeNames map[string]bool, obj *objects.Object, prepared any, rep *cmdutil.Reporter) {
	switch p := prepared.(type) {
	case decoded:
		for _, w := range p.warnings {
			rep.Report(w, true)
		}
		if p.err != nil {
			rep.Report(p.err, false)
			return
		}
		switch v := p.obj.(type) {
		case *corev1.Pod:
			o.takePod(obj, v, inv, rep)
		case *corev1.Node:
			if nodeNames[v.Name] {
				rep.Report(obj.Errorf("a second Node named %q", v.Name), false)
				return
			}
			nodeNames[v.Name] = true
			inv.nodes = append(inv.nodes, v)
		}
	case hubbed:
		if p.err != nil {
			rep.Report(obj.Errorf("%v", p.err), false)
			return
		}
		takeHub(inv, obj, p.hub)
	default:
		inv.skipped[obj.Head.APIVersion+" "+obj.Head.Kind]++
	}
}

// takeHub files an object of the group by kind; AllocateObjects converts
// the typed objects again.
func takeHub(inv *inventory, obj *objects.Object, hub any) {
	switch h := hub.(type) {
	case *resource.DeviceClass:
	case *resource.ResourceSlice:
		inv.slices = append(inv.slices, h)
	case *resource.ResourceClaim:
		inv.claims = append(inv.claims, &claimEntry{obj: obj, version: obj.GVK.Version})
	case *resource.ResourceClaimTemplate:
		inv.templates = append(inv.templates, obj)
		return
	case *resource.DeviceTaintRule:
		// The allocator takes the rules in hub form, next to the objects.
		inv.taintRules = append(inv.taintRules, h)
		return
	default:
		inv.skipped[obj.Head.APIVersion+" "+obj.Head.Kind]++
		return
	}
	inv.objects = append(inv.objects, obj.Typed)
}
