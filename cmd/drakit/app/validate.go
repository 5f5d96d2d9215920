package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
)

type validateOptions struct {
	files        fileFlags
	asVersion    string
	output       string
	strict       bool
	rejectQuirks bool
}

func newValidateCommand(s Streams) *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate -f FILENAME",
		Short: "Check manifests against the validation rules of their release",
		Long: `Validate DRA manifests offline, with the rules the API server of each
version's release applies on create:

  resource.k8s.io/v1alpha1   Kubernetes 1.26
  resource.k8s.io/v1alpha2   Kubernetes 1.30
  resource.k8s.io/v1alpha3   Kubernetes 1.31

With --as-version, every object is first converted to that version and
checked with its rules: will these manifests still be valid after an
upgrade?

Each invalid object is reported on one line, as kubectl reports the
server's answer, after its file, line and document (counted from 1):

  claims.yaml:7: document 2: resourceclaims.resource.k8s.io "gpu" is invalid: spec.devices.requests[0].deviceClassName: Required value

Documents of other API groups are skipped and counted in the summary. With
-o json the report is one JSON object, for programs: every object with its
result and the server-style causes of each error, every input problem, and
the summary.

Exit code 0 when every object is valid, 1 when one is invalid or an input
could not be read, 2 for a wrong command line.`,
		Example: `  # Validate the examples of every version
  drakit validate -f examples/ -R

  # Would the 1.30 manifests be valid in 1.31?
  drakit validate -f examples/v1alpha2 --as-version resource.k8s.io/v1alpha3

  # Machine-readable report from standard input
  kubectl get resourceclaims -A -o yaml | drakit validate -f - -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(s)
		},
	}
	o.files.add(cmd, "to validate")
	cmd.Flags().StringVar(&o.asVersion, "as-version", "", "convert every object to this version first and apply its rules: "+strings.Join(groupVersions(), ", "))
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "output format: empty for text, or json")
	cmd.Flags().BoolVar(&o.strict, "strict", true, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().BoolVar(&o.rejectQuirks, "reject-quirks", false, "also reject what the release's API server accepts only by accident (upper-case driver names, qualified names with several '/', duplicate allocation results, ...)")
	_ = cmd.RegisterFlagCompletionFunc("as-version", completeGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion("json"))
	return cmd
}

// validationResult is one entry of the JSON report: an object with its
// result, or an input problem (Error set).
type validationResult struct {
	Source     string               `json:"source"`
	Document   int                  `json:"document,omitempty"`
	Line       int                  `json:"line,omitempty"`
	Path       string               `json:"path,omitempty"`
	APIVersion string               `json:"apiVersion,omitempty"`
	Kind       string               `json:"kind,omitempty"`
	Namespace  string               `json:"namespace,omitempty"`
	Name       string               `json:"name,omitempty"`
	Valid      bool                 `json:"valid"`
	Warning    bool                 `json:"warning,omitempty"`
	Message    string               `json:"message,omitempty"`
	Causes     []metav1.StatusCause `json:"causes,omitempty"`
	Error      string               `json:"error,omitempty"`
}

type validationSummary struct {
	Objects  int            `json:"objects"`
	Valid    int            `json:"valid"`
	Invalid  int            `json:"invalid"`
	Errors   int            `json:"inputErrors"`
	Warnings int            `json:"warnings"`
	Skipped  int            `json:"skipped"`
	ByKind   map[string]int `json:"skippedKinds,omitempty"`
}

func (o *validateOptions) run(s Streams) error {
	var asVersion *schema.GroupVersion
	if o.asVersion != "" {
		gv, err := parseGroupVersion("--as-version", o.asVersion)
		if err != nil {
			return err
		}
		asVersion = &gv
	}
	if o.output != "" && o.output != "json" {
		return usageErrorf("unknown output format %q: leave -o out for text, or use json", o.output)
	}
	inputs, err := o.files.expand()
	if err != nil {
		return err
	}

	out := bufio.NewWriter(s.Out)
	defer out.Flush()
	sum := validationSummary{ByKind: map[string]int{}}
	var report *jsonReport
	if o.output == "json" {
		report = newJSONReport(out)
	}
	// Input problems: text goes to standard error as they come; JSON keeps
	// them in the report.
	problem := func(e *manifest.Error, warning bool) {
		if warning {
			sum.Warnings++
		} else {
			sum.Errors++
		}
		if report != nil {
			report.add(validationResult{Source: e.Source, Document: e.Index, Line: e.Line, Path: e.Path, Warning: warning, Error: e.Error()})
			return
		}
		out.Flush()
		prefix := "error"
		if warning {
			prefix = "warning"
		}
		fmt.Fprintf(s.ErrOut, "%s: %s\n", prefix, e.Error())
	}
	reader := &objects.Reader{Strict: o.strict, Report: problem}
	opts := validation.Options{Strict: o.rejectQuirks}

	for _, in := range inputs {
		rc, err := in.open(s.In)
		if err != nil {
			problem(asManifestError(err), false)
			continue
		}
		err = reader.Each(manifest.NewReader(rc, in.Name), func(obj *objects.Object) error {
			if obj.Typed == nil {
				sum.Skipped++
				sum.ByKind[obj.Head.APIVersion+" "+obj.Head.Kind]++
				return nil
			}
			typed := obj.Typed
			gvk := obj.GVK
			if asVersion != nil && gvk.GroupVersion() != *asVersion {
				converted, err := conversion.Convert(typed, *asVersion)
				if err != nil {
					problem(obj.Errorf("cannot convert to %s: %v", asVersion, err), false)
					return nil
				}
				typed = converted
				gvk = typed.GetObjectKind().GroupVersionKind()
			}
			sum.Objects++
			res := validationResult{Source: obj.Doc.Source, Document: obj.Doc.Index, Line: obj.Line(), Path: obj.At,
				APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: obj.Head.Metadata.Namespace, Name: obj.Head.Metadata.Name, Valid: true}
			errs, panicked := validateSafely(typed, opts)
			if panicked != nil {
				problem(obj.Errorf("internal error in validation: %v (please report it, with this document)", panicked), false)
				return nil
			}
			if len(errs) == 0 {
				sum.Valid++
				if report != nil {
					report.add(res)
				}
				return nil
			}
			sum.Invalid++
			status := apierrors.NewInvalid(schema.GroupKind{Group: resource.GroupName, Kind: gvk.Kind}, obj.Head.Metadata.Name, errs)
			res.Valid = false
			res.Message = status.Error()
			if status.ErrStatus.Details != nil {
				res.Causes = status.ErrStatus.Details.Causes
			}
			if report != nil {
				report.add(res)
				return nil
			}
			fmt.Fprintf(out, "%s: %s\n", location(obj), foldLines(res.Message))
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}

	if report != nil {
		if err := report.finish(sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(out, summaryLine(sum))
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if sum.Invalid > 0 || sum.Errors > 0 {
		return errFailed
	}
	return nil
}

// location is "file:line: document N" for an object, with the list item.
func location(obj *objects.Object) string {
	loc := fmt.Sprintf("%s:%d: document %d", obj.Doc.Source, obj.Line(), obj.Doc.Index)
	if obj.At != "" {
		loc += ": " + obj.At
	}
	return loc
}

func summaryLine(sum validationSummary) string {
	line := fmt.Sprintf("Summary: %d %s, %d valid, %d invalid", sum.Objects, plural(sum.Objects, "object", "objects"), sum.Valid, sum.Invalid)
	if sum.Skipped > 0 {
		var kinds []string
		for k, n := range sum.ByKind {
			kinds = append(kinds, fmt.Sprintf("%s: %d", k, n))
		}
		sort.Strings(kinds)
		line += fmt.Sprintf("; %d of other groups skipped (%s)", sum.Skipped, strings.Join(kinds, ", "))
	}
	if sum.Errors > 0 {
		line += fmt.Sprintf("; %d input %s", sum.Errors, plural(sum.Errors, "error", "errors"))
	}
	return line
}

// jsonReport writes the JSON report as it goes, so that memory does not
// grow with the number of objects.
type jsonReport struct {
	w     io.Writer
	n     int
	err   error
	start bool
}

func newJSONReport(w io.Writer) *jsonReport { return &jsonReport{w: w} }

func (r *jsonReport) add(res validationResult) {
	if r.err != nil {
		return
	}
	if !r.start {
		_, r.err = io.WriteString(r.w, "{\n    \"results\": [\n")
		r.start = true
	} else {
		_, r.err = io.WriteString(r.w, ",\n")
	}
	if r.err != nil {
		return
	}
	r.err = writeIndented(r.w, res, "        ")
	r.n++
}

func (r *jsonReport) finish(sum validationSummary) error {
	if r.err != nil {
		return r.err
	}
	if !r.start {
		if _, err := io.WriteString(r.w, "{\n    \"results\": ["); err != nil {
			return err
		}
	} else if _, err := io.WriteString(r.w, "\n    "); err != nil {
		return err
	}
	if _, err := io.WriteString(r.w, "],\n    \"summary\": "); err != nil {
		return err
	}
	if len(sum.ByKind) == 0 {
		sum.ByKind = nil
	}
	if err := writeIndented(r.w, sum, "    "); err != nil {
		return err
	}
	_, err := io.WriteString(r.w, "\n}\n")
	return err
}

func writeIndented(w io.Writer, v any, prefix string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // CEL expressions are full of & and <
	enc.SetIndent(prefix, "    ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	if strings.HasSuffix(prefix, "        ") {
		if _, err := io.WriteString(w, prefix); err != nil {
			return err
		}
	}
	_, err := w.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	return err
}

func asManifestError(err error) *manifest.Error {
	if e, ok := err.(*manifest.Error); ok {
		return e
	}
	return &manifest.Error{Err: err}
}

// foldLines puts a multi-line message (CEL compile errors have several) on
// one line, so that every invalid object takes exactly one line.
func foldLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ")
}

// validateSafely runs the validation, turning a panic (a bug met by one
// object) into a result, so that one object cannot crash the command.
func validateSafely(obj runtime.Object, opts validation.Options) (errs field.ErrorList, panicked any) {
	defer func() {
		panicked = recover()
	}()
	return validation.ValidateObject(obj, opts), nil
}
