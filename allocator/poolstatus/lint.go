package poolstatus

import (
	"context"
	"fmt"
	"sort"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/features"
)

// LintInput is what Lint checks: slices (a cluster's, or those a node
// template would publish) against DeviceClasses.
type LintInput struct {
	Slices  []*resource.ResourceSlice
	Classes []*resource.DeviceClass
	// Gates shape the CEL environment as the scheduler's gates do
	// (device.allowMultipleAllocations, list attributes); the zero value
	// is the defaults of the release drakit follows.
	Gates features.Gates
}

// Severity says whether a finding keeps devices from being allocated.
type Severity string

const (
	// SeverityError: the scheduler would not use the pool or the device,
	// or a claim of the class would fail.
	SeverityError Severity = "error"
	// SeverityWarning: worth a look (a rollout in progress, a class that
	// matches no device of these slices).
	SeverityWarning Severity = "warning"
)

// Finding is one problem Lint found.
type Finding struct {
	Severity Severity
	// Object is the kind and name it is about ("ResourceSlice node-a-gpu",
	// "DeviceClass gpu.example.com"), Field the field path in it (may be
	// empty), Pool the pool ("driver/pool") when it is about one.
	Object, Field, Pool string
	Message             string
}

func (f Finding) String() string {
	s := string(f.Severity) + ": " + f.Object
	if f.Field != "" {
		s += ": " + f.Field
	}
	return s + ": " + f.Message
}

// ClassMatch is what one DeviceClass selects of the slices' devices.
type ClassMatch struct {
	Class string
	// Matched and Devices: of the devices of the pools' newest
	// generations, those all the class's selectors accept, and all.
	Matched, Devices int
	// Failed is how many devices a selector failed on (a CEL runtime
	// error: for the scheduler the claim fails, it does not skip the
	// device).
	Failed int
}

// LintReport is the findings, errors first, and each class's matches.
type LintReport struct {
	Findings []Finding
	Classes  []ClassMatch
}

// Errors counts the findings of SeverityError.
func (r *LintReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == SeverityError {
			n++
		}
	}
	return n
}

// Lint checks the pools of the slices (complete, of one resourceSliceCount
// per generation, mid-rollout, devices named once, counters declared once
// and consumed only where declared) and evaluates every selector of every
// class on every device of the pools' newest generations, with the CEL
// environment and fast path the allocator uses, reporting the classes
// that match no device and the first device each failing selector fails
// on, with CEL's error.
func Lint(ctx context.Context, in LintInput) *LintReport {
	r := &LintReport{}
	byPool := map[poolKey][]*resource.ResourceSlice{}
	var keys []poolKey
	for _, s := range in.Slices {
		if s == nil {
			continue
		}
		k := poolKey{s.Spec.Driver, s.Spec.Pool.Name}
		if _, ok := byPool[k]; !ok {
			keys = append(keys, k)
		}
		byPool[k] = append(byPool[k], s)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].driver != keys[j].driver {
			return keys[i].driver < keys[j].driver
		}
		return keys[i].pool < keys[j].pool
	})
	type device struct {
		pool  string
		slice *resource.ResourceSlice
		dev   *resource.Device
		input *cel.Input
	}
	var devices []device
	for _, k := range keys {
		slices := byPool[k]
		sort.Slice(slices, func(i, j int) bool { return slices[i].Name < slices[j].Name })
		current := r.lintPool(k, slices)
		for _, s := range current {
			for i := range s.Spec.Devices {
				devices = append(devices, device{pool: k.driver + "/" + k.pool, slice: s, dev: &s.Spec.Devices[i]})
			}
		}
	}

	var classes []*resource.DeviceClass
	for _, c := range in.Classes {
		if c != nil {
			classes = append(classes, c)
		}
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i].Name < classes[j].Name })
	opts := cel.Options{Stored: true, SkipCostEstimate: true, Gates: in.Gates, FastPath: true}
	for _, c := range classes {
		obj := "DeviceClass " + c.Name
		type selector struct {
			field   string
			program *cel.Program
			failed  int
			first   string
		}
		var sels []*selector
		broken := false
		for i, s := range c.Spec.Selectors {
			if s.CEL == nil {
				continue
			}
			path := fmt.Sprintf("spec.selectors[%d].cel.expression", i)
			p, err := cel.Compile(s.CEL.Expression, opts)
			if err != nil {
				r.add(SeverityError, obj, path, "", fmt.Sprintf("does not compile: %v; every claim of the class fails", err))
				broken = true
				continue
			}
			sels = append(sels, &selector{field: path, program: p})
		}
		m := ClassMatch{Class: c.Name, Devices: len(devices)}
		if broken {
			r.Classes = append(r.Classes, m)
			continue
		}
		for i := range devices {
			d := &devices[i]
			if d.input == nil {
				d.input = cel.NewInput(d.slice.Spec.Driver, d.dev)
			}
			ok, failed := true, false
			for _, s := range sels {
				match, err := s.program.Matches(ctx, d.input)
				if err != nil {
					s.failed++
					if s.first == "" {
						s.first = fmt.Sprintf("%s/%s (ResourceSlice %s): %v", d.pool, d.dev.Name, d.slice.Name, err)
					}
					failed = true
					break
				}
				if !match {
					ok = false
					break
				}
			}
			switch {
			case failed:
				m.Failed++
			case ok:
				m.Matched++
			}
		}
		for _, s := range sels {
			if s.failed > 0 {
				r.add(SeverityError, obj, s.field, "", fmt.Sprintf("fails on %s, first on %s; a claim of the class fails on a node with such a device (the scheduler does not skip it): make the selector check that the attribute exists (has(...)) or the driver first", plural(s.failed, "device"), s.first))
			}
		}
		// Without any device there is nothing to match: classes given
		// alone are only compiled.
		if m.Matched == 0 && m.Failed == 0 && len(devices) > 0 {
			r.add(SeverityWarning, obj, "", "", fmt.Sprintf("matches none of the %s of these slices; claims of the class cannot be allocated from them", plural(len(devices), "device")))
		}
		r.Classes = append(r.Classes, m)
	}
	sort.SliceStable(r.Findings, func(i, j int) bool {
		return r.Findings[i].Severity == SeverityError && r.Findings[j].Severity != SeverityError
	})
	return r
}

func (r *LintReport) add(sev Severity, obj, field, pool, msg string) {
	r.Findings = append(r.Findings, Finding{Severity: sev, Object: obj, Field: field, Pool: pool, Message: msg})
}

// lintPool checks one pool's slices (sorted by name) and returns those of
// its newest generation.
func (r *LintReport) lintPool(k poolKey, slices []*resource.ResourceSlice) []*resource.ResourceSlice {
	pool := k.driver + "/" + k.pool
	newest := slices[0].Spec.Pool.Generation
	for _, s := range slices {
		newest = max(newest, s.Spec.Pool.Generation)
	}
	var current []*resource.ResourceSlice
	olderSlices := 0
	for _, s := range slices {
		if s.Spec.Pool.Generation < newest {
			olderSlices++
			continue
		}
		current = append(current, s)
	}
	first := current[0]
	count := first.Spec.Pool.ResourceSliceCount
	for _, s := range current[1:] {
		if s.Spec.Pool.ResourceSliceCount != count {
			r.add(SeverityError, "ResourceSlice "+s.Name, "spec.pool.resourceSliceCount", pool, fmt.Sprintf("is %d, but ResourceSlice %s of the same pool and generation %d says %d; every slice of a generation must give the number of slices the generation has", s.Spec.Pool.ResourceSliceCount, first.Name, newest, count))
		}
	}
	n := int64(len(current))
	switch {
	case count < 1:
		r.add(SeverityError, "ResourceSlice "+first.Name, "spec.pool.resourceSliceCount", pool, fmt.Sprintf("is %d; it must be the number of slices of the pool's generation (here %d), at least 1: the API server refuses 0, and the scheduler takes a pool whose slices say 0 for incomplete and uses none of its devices", count, n))
	case n < count:
		msg := fmt.Sprintf("pool %s is incomplete: generation %d has %d of %d slices; the scheduler uses none of its devices until all are published", pool, newest, n, count)
		if olderSlices > 0 {
			msg += fmt.Sprintf(" (rolling out: %s of older generations still published)", plural(olderSlices, "slice"))
		}
		r.add(SeverityError, "ResourceSlice "+first.Name, "spec.pool.resourceSliceCount", pool, msg)
	case n > count:
		r.add(SeverityError, "ResourceSlice "+first.Name, "spec.pool.resourceSliceCount", pool, fmt.Sprintf("is %d, but pool %s has %d slices of generation %d; the count must include every slice: the scheduler uses none of the pool's devices until the numbers agree", count, pool, n, newest))
	case olderSlices > 0:
		r.add(SeverityWarning, "ResourceSlice "+first.Name, "spec.pool.generation", pool, fmt.Sprintf("pool %s is rolling out: generation %d is complete, %s of older generations still published (the scheduler ignores them)", pool, newest, plural(olderSlices, "slice")))
	}

	seen := map[string]string{}
	for _, s := range current {
		for i := range s.Spec.Devices {
			name := s.Spec.Devices[i].Name
			if other, ok := seen[name]; ok {
				where := "appears twice in this slice"
				if other != s.Name {
					where = "is also in ResourceSlice " + other
				}
				r.add(SeverityError, "ResourceSlice "+s.Name, fmt.Sprintf("spec.devices[%d].name", i), pool, fmt.Sprintf("device %q %s; the scheduler uses no device of pool %s while a name repeats", name, where, pool))
				continue
			}
			seen[name] = s.Name
		}
	}
	var recs []record
	for _, s := range current {
		for i := range s.Spec.Devices {
			recs = append(recs, record{slice: s, device: &s.Spec.Devices[i]})
		}
	}
	if why := counterProblem(current, recs); why != "" {
		r.add(SeverityError, "ResourceSlice "+first.Name, "", pool, fmt.Sprintf("pool %s is invalid: %s; the scheduler uses none of its devices", pool, why))
	}
	return current
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
