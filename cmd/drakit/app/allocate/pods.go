package allocate

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	convertstream "github.com/drakit/drakit/cmd/drakit/internal/convert"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

// podEntry is one pod from the input and what became of it.
type podEntry struct {
	obj    *objects.Object
	pod    *corev1.Pod
	result allocator.PodResult
}

// takePod adds a decoded Pod, refusing a second one of the same name.
func (o *Options) takePod(obj *objects.Object, pod *corev1.Pod, inv *inventory, rep *cmdutil.Reporter) {
	if inv.podNames == nil {
		inv.podNames = map[string]bool{}
	}
	key := pod.Namespace + "/" + pod.Name
	if inv.podNames[key] {
		rep.Report(obj.Errorf("a second Pod named %s", key), false)
		return
	}
	inv.podNames[key] = true
	pod.APIVersion, pod.Kind = "v1", "Pod"
	inv.pods = append(inv.pods, &podEntry{obj: obj, pod: pod})
}

// runPods places the pods and writes what became of them.
func (o *Options) runPods(inv *inventory, rep *cmdutil.Reporter, format printer.Format, gates features.Gates) error {
	if n := len(inv.taintRules); n > 0 && !o.features.DeviceTaintRules {
		fmt.Fprintf(o.ErrOut, "note: %d %s not applied: feature gate %s is off\n", n, cmdutil.Plural(n, "DeviceTaintRule", "DeviceTaintRules"), offTaintRuleGate(gates))
	}
	objs := append([]runtime.Object(nil), inv.objects...)
	for _, t := range inv.templates {
		objs = append(objs, t.Typed)
	}
	for _, p := range inv.pods {
		objs = append(objs, p.pod)
	}
	var nodes []*corev1.Node
	for _, n := range o.candidateNodes(inv) {
		if n != nil {
			nodes = append(nodes, n)
		}
	}
	features := o.features
	// --timeout bounds each pod's search, not the whole cluster's.
	placed, err := allocator.PlacePods(context.Background(), objs, allocator.ObjectOptions{Nodes: nodes, Features: &features, DeviceTaintRules: inv.taintRules},
		allocator.PodOptions{Explain: o.Explain, PodTimeout: o.Timeout})
	if err != nil {
		rep.Fail(describe.PodSearchStopped(err, o.Timeout))
		return cmdutil.ErrFailed
	}
	for i, p := range inv.pods {
		p.result = placed.Pods[i]
	}
	out := bufio.NewWriter(o.Out)
	if o.Output == "wide" {
		err = printPodTable(out, inv, placed)
	} else {
		err = printPodObjects(out, inv, placed, format)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return err
	}
	failed := o.reportPods(inv, placed, rep)
	fmt.Fprintln(o.ErrOut, podSummary(inv, placed))
	fmt.Fprintln(o.ErrOut, "Not simulated: "+allocator.NotSimulated+".")
	if failed > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

// podSummary counts what became of the pods and claims.
func podSummary(inv *inventory, placed *allocator.Placement) string {
	var newly, bound, unplaceable, waiting, schedulerErrors int
	for _, p := range inv.pods {
		r := p.result
		switch {
		case r.Waiting != "":
			waiting++
		case r.SchedulerError != "":
			schedulerErrors++
		case r.Failure != nil:
			unplaceable++
		case r.Bound:
			bound++
		default:
			newly++
		}
	}
	allocated := 0
	for _, c := range placed.Claims {
		if c.Err == nil && !c.Result.AlreadyAllocated {
			allocated++
		}
	}
	errorsPart := ""
	if schedulerErrors > 0 {
		errorsPart = fmt.Sprintf(", %d failed by the scheduler with an error", schedulerErrors)
	}
	line := fmt.Sprintf("Summary: %d %s placed, %d bound before, %d unplaceable%s, %d waiting for a claim; %d %s made, %d allocated",
		newly, cmdutil.Plural(newly, "pod", "pods"), bound, unplaceable, errorsPart, waiting, placed.Made, cmdutil.Plural(placed.Made, "claim", "claims"), allocated)
	if rest := skippedPart(inv.skipped); rest != "" {
		line += "; " + rest
	}
	return line
}

// podObject is the pod as written out: placed, or with the condition the
// scheduler gives it, in its words, saying why not (drakit's own reasons
// go to standard error).
func podObject(p *podEntry) *corev1.Pod {
	r := p.result
	var cond *corev1.PodCondition
	switch {
	case r.SchedulerError != "":
		cond = &corev1.PodCondition{Reason: corev1.PodReasonSchedulerError, Message: r.SchedulerError}
	case r.Failure != nil:
		cond = &corev1.PodCondition{Reason: corev1.PodReasonUnschedulable, Message: r.SchedulerMessage}
	default:
		return r.Pod
	}
	pod := r.Pod.DeepCopy()
	cond.Type, cond.Status = corev1.PodScheduled, corev1.ConditionFalse
	pod.Status.Conditions = append(pod.Status.Conditions, *cond)
	return pod
}

// printPodObjects writes the pods, then the claims given, then the
// claims made, each in its version.
func printPodObjects(w *bufio.Writer, inv *inventory, placed *allocator.Placement, format printer.Format) error {
	out := printer.NewStream(w, format)
	for _, p := range inv.pods {
		src := &printer.Source{}
		if p.obj.At == "" {
			src.Comments = p.obj.Doc.Comments()
		}
		pod := podObject(p)
		if pod == p.pod && p.obj.At == "" {
			src.Content, src.JSON, src.IsJSON = p.obj.Doc.Content(), p.obj.JSON, p.obj.Doc.Format == manifest.JSON
			if err := out.Unchanged(src); err != nil {
				return err
			}
			continue
		}
		if err := writeObject(out, src, pod, p.obj.Name()); err != nil {
			return err
		}
	}
	for i, c := range placed.Claims {
		src := &printer.Source{}
		if i < len(inv.claims) {
			entry := inv.claims[i]
			if entry.background {
				continue // the cluster's claim, not part of the answer
			}
			if entry.obj.At == "" {
				src.Comments = entry.obj.Doc.Comments()
			}
			if entry.obj.At == "" && c.Err != nil {
				src.Content, src.JSON, src.IsJSON = entry.obj.Doc.Content(), entry.obj.JSON, entry.obj.Doc.Format == manifest.JSON
				if err := out.Unchanged(src); err != nil {
					return err
				}
				continue
			}
		}
		if err := writeObject(out, src, c.Claim, c.Name); err != nil {
			return err
		}
	}
	return nil
}

func writeObject(out *printer.Stream, src *printer.Source, obj runtime.Object, name string) error {
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	convertstream.PruneNoise(content)
	if md, ok := content["metadata"].(map[string]any); ok {
		// A zero creationTimestamp is written as null; made claims have none.
		if md["creationTimestamp"] == nil {
			delete(md, "creationTimestamp")
		}
	}
	return out.Object(src, content)
}

// skippedPart is the part of a summary that counts the skipped objects.
func skippedPart(skipped map[string]int) string {
	line := allocationSummary(0, 0, 0, skipped)
	if i := strings.Index(line, "; "); i >= 0 {
		return line[i+2:]
	}
	return ""
}
