package validation

import (
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// shortTypes names error types the way the tests write them.
var shortTypes = map[field.ErrorType]string{
	field.ErrorTypeRequired:     "Required",
	field.ErrorTypeInvalid:      "Invalid",
	field.ErrorTypeDuplicate:    "Duplicate",
	field.ErrorTypeTooMany:      "TooMany",
	field.ErrorTypeTooLong:      "TooLong",
	field.ErrorTypeNotSupported: "NotSupported",
	field.ErrorTypeForbidden:    "Forbidden",
	field.ErrorTypeTypeInvalid:  "TypeInvalid",
	field.ErrorTypeNotFound:     "NotFound",
	field.ErrorTypeInternal:     "Internal",
}

// summary lists the distinct "Type path" pairs of errs, sorted.
func summary(errs field.ErrorList) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		s := shortTypes[e.Type] + " " + e.Field
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// expectErrors fails unless errs has exactly the wanted "Type path" pairs.
func expectErrors(t *testing.T, errs field.ErrorList, want ...string) {
	t.Helper()
	got := summary(errs)
	w := append([]string(nil), want...)
	sort.Strings(w)
	if strings.Join(got, "\n") != strings.Join(w, "\n") {
		t.Errorf("errors differ\n got: %q\nwant: %q\nfull: %v", got, w, errs)
	}
}

// ruleCase is one row of a rule table: the object to create, or obj with
// old for an update (op == opUpdate) or status update (op == opStatus).
type ruleCase struct {
	name   string
	op     operation
	obj    runtime.Object
	old    runtime.Object
	strict bool
	want   []string
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, validateOp(tc.op, tc.obj, tc.old, Options{Strict: tc.strict}), tc.want...)
		})
	}
}

func ptr[T any](v T) *T { return &v }

// repeat returns n strings made by f(i).
func repeat(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func nodeName(i int) string { return "node-" + strconv.Itoa(i) }

// deletedAt is a fixed deletion timestamp.
var deletedAt = metav1.NewTime(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))

// validateOp calls the public function for op.
func validateOp(op operation, obj, old runtime.Object, opts Options) field.ErrorList {
	switch op {
	case opUpdate:
		return ValidateObjectUpdate(obj, old, opts)
	case opStatus:
		return ValidateObjectStatusUpdate(obj, old, opts)
	default:
		return ValidateObject(obj, opts)
	}
}
