package preflight

import (
	"fmt"
	"sort"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// Severity says how bad a finding is.
type Severity string

const (
	// Breaking findings break on the target release: an object it cannot
	// read, a manifest it refuses, a rule that stops matching, a field it
	// drops. drakit upgrade-check exits 1 when it has one.
	Breaking Severity = "Breaking"
	// Warning findings need attention but do not break by themselves: a
	// version served only with --runtime-config, a deprecated version, a
	// rule naming a resource that is gone.
	Warning Severity = "Warning"
	// Info findings say what changes: fields that take effect only on the
	// target release.
	Info Severity = "Info"
)

// rank orders severities, the worst first.
func (s Severity) rank() int {
	switch s {
	case Breaking:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// The checks, as Finding.Check names them.
const (
	CheckStored        = "stored-objects"
	CheckDowngrade     = "downgrade"
	CheckKindGone      = "kind-not-served"
	CheckVersion       = "version-not-served"
	CheckVersionOff    = "version-not-enabled"
	CheckDeprecated    = "version-deprecated"
	CheckLostFields    = "fields-lost"
	CheckDroppedFields = "fields-dropped"
	CheckNewSemantics  = "fields-take-effect"
	CheckSemantics     = "semantics"
	CheckValidation    = "validation"
	CheckWebhook       = "webhook-rule"
	CheckPolicyMatch   = "policy-match"
	CheckPolicyCEL     = "policy-cel"
	CheckRBACResource  = "rbac-resource"
	CheckRBACStatus    = "rbac-status-authorization"
	CheckRoundTrip     = "round-trip"
)

// Finding is one thing that breaks or changes, with why and what to do.
type Finding struct {
	Severity Severity `json:"severity"`
	// Check names the check (the Check* constants).
	Check string `json:"check"`
	// Object names what the finding is about: "ResourceClaim default/gpu",
	// "ValidatingWebhookConfiguration gpu-webhook", or, for a kind as a
	// whole, "stored DeviceClasses".
	Object string `json:"object"`
	// APIVersion is the object's apiVersion, when it has one.
	APIVersion string `json:"apiVersion,omitempty"`
	// Path is the field the finding is about, if any.
	Path string `json:"path,omitempty"`
	// Source, Line and Document place the object in its manifest (set by
	// the caller).
	Source   string `json:"source,omitempty"`
	Line     int    `json:"line,omitempty"`
	Document int    `json:"document,omitempty"`
	// Release is the release the finding is about, as "1.34" (a hop of an
	// upgrade or downgrade through several releases).
	Release string `json:"release,omitempty"`
	// Why says what breaks or changes.
	Why string `json:"why"`
	// Do says what to do.
	Do string `json:"do"`
	// Objects names the objects of a finding about a kind as a whole (a
	// live cluster's stored objects), Count how many there are.
	Objects []string `json:"objects,omitempty"`
	Count   int      `json:"count,omitempty"`
}

// Summary counts findings.
type Summary struct {
	Breaking int            `json:"breaking"`
	Warning  int            `json:"warning"`
	Info     int            `json:"info"`
	ByCheck  map[string]int `json:"byCheck,omitempty"`
}

// Summarize counts the findings by severity and check.
func Summarize(findings []Finding) Summary {
	s := Summary{ByCheck: map[string]int{}}
	for _, f := range findings {
		switch f.Severity {
		case Breaking:
			s.Breaking++
		case Warning:
			s.Warning++
		default:
			s.Info++
		}
		s.ByCheck[f.Check]++
	}
	return s
}

// Sort orders findings by severity, check, then place and object, so that
// reports are stable.
func Sort(findings []Finding) {
	sort.SliceStable(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		if a.Severity.rank() != b.Severity.rank() {
			return a.Severity.rank() < b.Severity.rank()
		}
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		return a.Path < b.Path
	})
}

// rel writes minor release 1.minor.
func rel(minor int) string { return fmt.Sprintf("1.%d", minor) }

// plural is the lower-case plural of a hub kind in the newest version
// that has it ("deviceclasses").
func plural(hub string) string {
	for i := len(catalogue.Versions) - 1; i >= 0; i-- {
		if k, ok := catalogue.Versions[i].HubKind(hub); ok {
			return k.Resource
		}
	}
	return hub
}
