package validate

import (
	"context"
	"fmt"

	"github.com/drakit/drakit/allocator/poolstatus"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/planner"
)

// lintInputs are what --lint checks: the slices and classes of the input,
// each with where it was read.
type lintInputs struct {
	slices  []*resource.ResourceSlice
	classes []*resource.DeviceClass
	// where is "file:line: document N" by "Kind name".
	where map[string]*objects.Object
}

// collect keeps a slice or class of the input for the lint, in hub form;
// an object that does not convert is left to the validation to report.
func (l *lintInputs) collect(obj *objects.Object) {
	hub, err := conversion.ToHub(obj.Typed)
	if err != nil {
		return
	}
	switch h := hub.(type) {
	case *resource.ResourceSlice:
		l.slices = append(l.slices, h)
		l.where["ResourceSlice "+h.Name] = obj
	case *resource.DeviceClass:
		l.classes = append(l.classes, h)
		l.where["DeviceClass "+h.Name] = obj
	}
}

// isNodeGroup tells a node group document (planner.NodeGroup), whose
// template slices --lint checks.
func isNodeGroup(obj *objects.Object) bool {
	return obj.GVK.Group == planner.GroupVersion.Group && obj.GVK.Kind == planner.NodeGroupKind
}

// collectNodeGroup keeps the slices the group's first node would publish,
// with their pool fields filled as the planner fills them; a group that
// cannot be read is an input problem.
func (l *lintInputs) collectNodeGroup(obj *objects.Object, problem func(*manifest.Error, bool)) {
	g, err := planner.DecodeNodeGroup(obj.JSON, location(obj))
	if err != nil {
		problem(obj.Errorf("%v", err), false)
		return
	}
	for _, s := range g.NodeSlices(0) {
		l.slices = append(l.slices, s)
		l.where["ResourceSlice "+s.Name] = obj
	}
}

// lint checks the pools of the input's slices and matches every class
// against their devices (allocator/poolstatus.Lint). With --from-cluster
// the cluster's classes are matched too (the input's replace those of the
// same name), and without slices in the input the cluster's slices are
// checked: new classes against the devices a cluster has.
func (r *validateRun) lint() error {
	in := poolstatus.LintInput{Slices: r.lintIn.slices, Classes: r.lintIn.classes, Gates: r.o.gates}
	from := ""
	if r.cluster != nil {
		inv, err := r.cluster.c.ReadInventory(context.Background())
		if err != nil {
			return err
		}
		given := map[string]bool{}
		for _, c := range r.lintIn.classes {
			given[c.Name] = true
		}
		for _, c := range inv.Classes {
			if !given[c.Name] {
				in.Classes = append(in.Classes, c)
			}
		}
		if len(in.Slices) == 0 {
			in.Slices = inv.Slices
		}
	}
	rep := poolstatus.Lint(context.Background(), in)
	// What has no place in the input is the cluster's.
	from = "cluster"
	for _, f := range rep.Findings {
		if f.Severity == poolstatus.SeverityError {
			r.sum.LintErrors++
		} else {
			r.sum.LintWarnings++
		}
		obj := r.lintIn.where[f.Object]
		if r.report != nil {
			res := validationResult{Source: from, Valid: f.Severity != poolstatus.SeverityError, Lint: string(f.Severity), Path: f.Field, Message: f.Object + ": " + f.Message}
			if obj != nil {
				res.Source, res.Document, res.Line = obj.Doc.Source, obj.Doc.Index, obj.Line()
				res.APIVersion, res.Kind, res.Name = obj.Head.APIVersion, obj.Head.Kind, obj.Head.Metadata.Name
			}
			r.report.add(res)
			continue
		}
		where := from
		if obj != nil {
			where = location(obj)
		}
		fmt.Fprintf(r.out, "%s: lint: %s\n", where, f.String())
	}
	return nil
}
