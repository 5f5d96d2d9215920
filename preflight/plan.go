package preflight

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/conversion"
)

// The ways a storage plan moves a kind's objects.
const (
	// MethodNone: every release on the way reads what the cluster
	// stores; the target rewrites objects in its storage version as they
	// are written (a migration there moves them all at once).
	MethodNone = "none"
	// MethodMigrate: rewrite every object on Plan.Release (a
	// StorageVersionMigration where that release serves one, else a
	// no-op update of each) before moving on.
	MethodMigrate = "migrate"
	// MethodRecreate: export, delete, move, convert, create again
	// (docs/migration.md).
	MethodRecreate = "recreate"
	// MethodDelete: the target has no such kind; export and delete.
	MethodDelete = "export-and-delete"
)

// StorageVersionMigrationRelease is the first release that serves
// storagemigration.k8s.io/v1 (GA; k8s.io/api v0.37.2
// storagemigration/v1/types.go, introduced=1.37). 1.35 and 1.36 serve
// v1beta1 (introduced=1.35), off by default.
const StorageVersionMigrationRelease = 37

// PlanStep is what the storage plan does with one kind.
type PlanStep struct {
	Kind     string `json:"kind"`
	Resource string `json:"resource"`
	Objects  int    `json:"objects"`
	// Method is one of the Method* constants.
	Method string `json:"method"`
	// Release is where the step runs ("1.33").
	Release string `json:"release"`
	// Version is the version the step writes the objects in: the storage
	// version of Release for a migration, the target's preferred version
	// for a recreation.
	Version string `json:"version"`
	// Why says why this method.
	Why string `json:"why"`
	// Migration is the StorageVersionMigration to create, when Release
	// serves storagemigration.k8s.io/v1.
	Migration *storagemigrationv1.StorageVersionMigration `json:"migration,omitempty"`
	// Commands are the commands of the step, in order.
	Commands []string `json:"commands"`
	// Proven counts the objects that were converted to Version and back
	// to equal, and pass Release's validation; Failed lists the others.
	Proven int           `json:"proven"`
	Failed []PlanFailure `json:"failed,omitempty"`

	// writtenOn is the release that writes the objects: Release for a
	// migration, the target for a recreation.
	writtenOn int
}

// PlanFailure is an object that would not survive its plan step.
type PlanFailure struct {
	Object string `json:"object"`
	Why    string `json:"why"`
}

// Plan makes the storage plan of a cluster at release from moving to
// release to: for every hub kind it holds objects of (hub objects, as
// hubclient reads them), how they are moved, proven on each object: it is
// converted to the version the step writes and back and compared, and
// validated with the rules of the release that writes it (as an update
// for a migration, as a create for a recreation, with that release's
// default gates: a field it would drop does not survive).
func Plan(from, to int, objects map[string][]runtime.Object) []PlanStep {
	var out []PlanStep
	for _, hub := range catalogue.HubKinds() {
		objs := objects[hub]
		if len(objs) == 0 {
			continue
		}
		step := planKind(hub, from, to)
		step.Objects = len(objs)
		for _, obj := range objs {
			if why := prove(obj, step); why != "" {
				step.Failed = append(step.Failed, PlanFailure{Object: nameOf(hub, obj), Why: why})
			} else {
				step.Proven++
			}
		}
		out = append(out, step)
	}
	return out
}

// planKind decides how objects of hub move from release from to to.
func planKind(hub string, from, to int) PlanStep {
	res := plural(hub)
	step := PlanStep{Kind: hub, Resource: res}
	for _, f := range CheckStorage(from, to, nil) {
		if f.Object != "stored "+res || f.Severity != Breaking {
			continue
		}
		var at int
		fmt.Sscanf(f.Release, "1.%d", &at)
		cur := at - 1
		if to < from {
			cur = at + 1
		}
		switch {
		case f.Check == CheckKindGone:
			step.Method, step.Release, step.Why = MethodDelete, rel(cur), f.Why
			step.Version = preferredName(hub, cur)
			step.Commands = []string{
				fmt.Sprintf("kubectl get %s.%s.%s -A -o yaml > %s.yaml   # on %s: the backup", res, step.Version, resource.GroupName, res, rel(cur)),
				fmt.Sprintf("kubectl delete %s.%s.%s -A --all", res, step.Version, resource.GroupName),
			}
			return step
		case strings.HasPrefix(f.Do, "on "):
			step.Method, step.Release, step.Why, step.writtenOn = MethodMigrate, rel(cur), f.Why, cur
			step.Version = mustStorage(hub, cur)
			migrate(&step, cur)
			return step
		default:
			step.Method, step.Release, step.Why, step.writtenOn = MethodRecreate, rel(cur), f.Why, to
			step.Version = preferredName(hub, to)
			old := preferredName(hub, cur)
			step.Commands = []string{
				fmt.Sprintf("kubectl get %s.%s.%s -A -o yaml > %s-%s.yaml   # on %s", res, old, resource.GroupName, res, rel(cur), rel(cur)),
				fmt.Sprintf("kubectl delete %s.%s.%s -A --all", res, old, resource.GroupName),
				fmt.Sprintf("# move the cluster to %s, then:", rel(to)),
				fmt.Sprintf("drakit convert -f %s-%s.yaml --output-version %s/%s --for-create > %s-%s.yaml", res, rel(cur), resource.GroupName, step.Version, res, rel(to)),
				fmt.Sprintf("kubectl create -f %s-%s.yaml", res, rel(to)),
			}
			if k, ok := catalogue.PreferredIn(hub, to); ok && k.Kind.Status {
				step.Commands = append(step.Commands, fmt.Sprintf("kubectl replace --subresource=status -f %s-%s.yaml", res, rel(to)))
			}
			return step
		}
	}
	// Nothing breaks on the way. A migration moves every object to the
	// storage version of the target, or, for the Announced release, of
	// the followed one (the announced release stops serving v1beta1).
	at := min(to, catalogue.Release)
	step.Method, step.Release, step.writtenOn = MethodNone, rel(at), at
	step.Version = mustStorage(hub, at)
	step.Why = fmt.Sprintf("every release from %s to %s reads what the cluster stores; %s stores %s as %s", rel(from), rel(to), rel(at), hub, step.Version)
	if at >= 35 {
		step.Why += fmt.Sprintf("; a migration on %s moves every object to it", rel(at))
		migrate(&step, at)
	}
	return step
}

// migrate fills the commands of a migration on release minor.
func migrate(step *PlanStep, minor int) {
	name := step.Resource + "." + resource.GroupName + "-" + step.Version
	switch {
	case minor >= StorageVersionMigrationRelease:
		step.Migration = &storagemigrationv1.StorageVersionMigration{
			TypeMeta:   metav1.TypeMeta{APIVersion: storagemigrationv1.SchemeGroupVersion.String(), Kind: "StorageVersionMigration"},
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       storagemigrationv1.StorageVersionMigrationSpec{Resource: metav1.GroupResource{Group: resource.GroupName, Resource: step.Resource}},
		}
		step.Commands = []string{
			fmt.Sprintf("kubectl create -f - <<EOF\napiVersion: storagemigration.k8s.io/v1\nkind: StorageVersionMigration\nmetadata:\n  name: %s\nspec:\n  resource:\n    group: %s\n    resource: %s\nEOF", name, resource.GroupName, step.Resource),
			fmt.Sprintf("kubectl wait storageversionmigration/%s --for=condition=Succeeded", name),
		}
	case minor >= 35:
		step.Commands = []string{
			fmt.Sprintf("# %s serves storagemigration.k8s.io/v1beta1 (beta, off by default): with it enabled, create a StorageVersionMigration of {group: %s, resource: %s}; without it:", rel(minor), resource.GroupName, step.Resource),
			rewriteCommand(step.Resource, minor),
		}
	default:
		step.Commands = []string{rewriteCommand(step.Resource, minor)}
	}
}

func rewriteCommand(res string, minor int) string {
	return fmt.Sprintf("kubectl get %s.%s -A -o json | kubectl replace -f -   # on %s: every object written again, in %s's storage version", res, resource.GroupName, rel(minor), rel(minor))
}

// prove converts obj (a hub object) to the version the step writes and
// back, compares, and validates the converted object with the rules of
// the release that writes it. It returns why the object would not
// survive, or "": it does not when the round trip differs, when the
// version cannot say some of its fields (drakit keeps them in the stash
// annotation for the way back, but the cluster does not act on them),
// when validation refuses it, or when the release drops fields of it.
func prove(obj runtime.Object, step PlanStep) string {
	if step.Method == MethodDelete {
		return ""
	}
	gv := groupVersion(step.Version)
	converted, err := conversion.Convert(obj, gv)
	if err != nil {
		return fmt.Sprintf("cannot be converted to %s: %v", gv, err)
	}
	back, err := conversion.ToHub(converted)
	if err != nil {
		return fmt.Sprintf("%s does not convert back: %v", gv, err)
	}
	want, got := normalized(obj), normalized(back)
	if !apiequality.Semantic.DeepEqual(want, got) {
		return fmt.Sprintf("differs after the round trip through %s, at %s", gv, strings.Join(diffPaths(want, got), ", "))
	}
	if lost := stashedFields(obj, converted); len(lost) > 0 {
		return fmt.Sprintf("%s cannot say %s: kept only in the %s annotation, which no release acts on", gv, strings.Join(lost, ", "), resource.StashAnnotation)
	}
	gates, _ := gatesOf(step.writtenOn)
	opts := validation.Options{FeatureGates: gates}
	var errs []string
	var drops []validation.DropWarning
	if step.Method == MethodRecreate {
		e, d := validation.ValidateObjectWithWarnings(converted.DeepCopyObject(), opts)
		drops = d
		for _, x := range e {
			errs = append(errs, x.Error())
		}
	} else {
		converted = withResourceVersion(converted)
		for _, x := range validation.ValidateObjectUpdate(converted, converted.DeepCopyObject(), opts) {
			errs = append(errs, x.Error())
		}
	}
	if len(errs) > 0 {
		return "refused by validation: " + strings.Join(errs, "; ")
	}
	if len(drops) > 0 {
		var ds []string
		for _, d := range drops {
			ds = append(ds, d.String())
		}
		return "loses fields when created: " + strings.Join(ds, "; ")
	}
	return ""
}

// normalized is a copy of obj as a server holds it: defaulted with the
// hub's defaults (an object read back from a version is), without
// apiVersion and kind, which are not the object's data.
func normalized(obj runtime.Object) runtime.Object {
	out := obj.DeepCopyObject()
	resource.SetObjectDefaults(out)
	out.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return out
}

// diffPaths names the first few fields where a and b differ.
func diffPaths(a, b runtime.Object) []string {
	var r pathReporter
	cmp.Equal(a, b, cmp.Reporter(&r))
	return r.paths
}

// pathReporter is a cmp.Reporter that keeps the paths of the first
// differences.
type pathReporter struct {
	path  cmp.Path
	paths []string
}

func (r *pathReporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *pathReporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }
func (r *pathReporter) Report(rs cmp.Result) {
	if !rs.Equal() && len(r.paths) < 5 {
		r.paths = append(r.paths, strings.TrimPrefix(r.path.GoString(), "*"))
	}
}

func nameOf(hub string, obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return hub
	}
	return ObjectName(hub, m.GetNamespace(), m.GetName())
}
