package hubclient

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource"
	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
)

// written converts the object a write of the main resource returned to the
// hub, and warns about what the served version keeps only in the stash
// although the cluster's own components read it from the version's fields.
func (r *Resource[T, L]) written(ctx context.Context, s served, out runtime.Object) (T, error) {
	h, err := r.toHub(out)
	if err != nil {
		return h, err
	}
	if msg := stashOnlyWarning(s, h); msg != "" {
		r.c.warnings.HandleWarningHeaderWithContext(ctx, warningCode, warningAgent, msg)
	}
	return h, nil
}

// A warning as the API server sends one (RFC 7234's 299, "miscellaneous
// persistent warning"), which client-go's handlers expect.
const (
	warningCode  = 299
	warningAgent = "drakit"
)

// stashOnlyWarning is the warning for a hub object just written in the
// version s, or "". v1alpha2 (1.30) cannot name the attributes and
// capacities whose names are not lowercase RFC 1123 subdomains, which most
// v1 names are ("driverVersion", "gpu.example.com/model"): conversion keeps
// them in the stash, where drakit reads them back, but the 1.30 scheduler
// reads the slice's instances and does not see them.
func stashOnlyWarning(s served, obj runtime.Object) string {
	slice, ok := obj.(*resource.ResourceSlice)
	if !ok || s.version != "v1alpha2" {
		return ""
	}
	var names []string
	devices := 0
	for i := range slice.Spec.Devices {
		d := &slice.Spec.Devices[i]
		n := len(names)
		for name := range d.Attributes {
			if !a2.IsAttributeName(name) {
				names = append(names, string(name))
			}
		}
		for name := range d.Capacity {
			if !a2.IsAttributeName(name) {
				names = append(names, string(name))
			}
		}
		if len(names) > n {
			devices++
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return fmt.Sprintf("ResourceSlice %q: resource.k8s.io/v1alpha2 (Kubernetes 1.30) cannot hold the names %s, of attributes or capacities of %d of its devices: a 1.30 attribute name must be a lowercase RFC 1123 subdomain. They are kept in the %s annotation, where drakit's clients read them back, but the 1.30 scheduler does not see them; to publish them to it, name them in lowercase with '-' or '.'",
		slice.Name, strings.Join(names, ", "), devices, resource.StashAnnotation)
}

// warningHandler is how a Client hands out its warnings: opts'
// WarningHandler, else klog, as client-go's rest.WarningLogger logs the
// server's.
func warningHandler(opts Options) rest.WarningHandlerWithContext {
	if opts.WarningHandler != nil {
		return opts.WarningHandler
	}
	return rest.WarningLogger{}
}

// withContext makes a rest.WarningHandler one that takes a context.
type withContext struct {
	rest.WarningHandler
}

func (w withContext) HandleWarningHeaderWithContext(_ context.Context, code int, agent, message string) {
	w.HandleWarningHeader(code, agent, message)
}
