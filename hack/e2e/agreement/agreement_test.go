// Package agreement replays drakit's validation corpus
// (apis/resource/validation/testdata/corpus, see its README) against the
// API server with dryRun=All, one corpus directory per resource.k8s.io
// version the server serves, and requires drakit's validator to give the
// same "reason field" pairs as the server on every case. For the kinds
// validated with the server's own release's rules (v1alpha2 on 1.30, the
// v1-era directories on 1.37) the corpus records the server's answers, and
// the corpus's drift file lists where drakit answers otherwise; for kinds
// of an earlier release's rules on a later server (v1alpha3's 1.31 rules on
// 1.33) drift_test.go lists where the server differs. Either list fails the
// test when it names a difference that no longer occurs, so it stays true.
// DRAKIT_E2E_RECORD=1 writes the server's answers into the cases of its own
// release (review the diff).
package agreement

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// Where a case's expectations come from decides what a difference means.
// A case whose kind the server's own release validates (the catalogue's
// Rules of the kind equals the server's minor release: v1alpha2 on 1.30,
// the v1-era directories on 1.37) records the server's answers: the server
// must still give them, and drakit must give them too unless the corpus's
// drift file lists the case with drakit's own answer. A case of an earlier
// release's rules replayed against a later server (v1alpha3's 1.31 rules on
// 1.33) records drakit's answers, and drift_test.go lists where the later
// server differs.
func TestValidatorAgreement(t *testing.T) {
	srv := e2eenv.Get(t)
	gates, err := readServerGates(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	dirs := corpusDirs(t, srv)
	nss := newNamespaces(t, srv)
	corpusDrift := readCorpusDrift(t)
	// Only the kinds with 1.37 rules read the gates; on other servers they
	// stay at drakit's defaults.
	draGates := features.Defaults()
	if srv.Minor() == corpusGatesRelease {
		draGates = checkCorpusGates(t, srv, gates)
	}
	seenDrift := map[string]bool{}
	known := knownDrift[srv.Minor()]
	seen := map[string]bool{}
	var totals tally
	for _, d := range dirs {
		r := newReplayer(t, srv, d, gates, draGates, nss)
		files, err := filepath.Glob(filepath.Join(corpusDir, d.name, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no corpus for %s under %s", d.name, corpusDir)
		}
		var n tally
		for i, path := range files {
			if strings.HasSuffix(path, ".old.yaml") {
				continue
			}
			c := readCase(t, path)
			n.total++
			id := d.name + "/" + c.name
			own := ownRelease(t, c, d.version, srv.Minor())
			t.Run(id, func(t *testing.T) {
				if own {
					ld, listed := corpusDrift[id]
					if listed {
						seenDrift[id] = true
					}
					n.add(r.checkOwnRelease(t, c, i, ld, listed))
					return
				}
				dr, listed := known[c.name]
				if listed {
					seen[c.name] = true
				}
				o := r.checkLaterRelease(t, c, i, dr, listed)
				n.add(o)
				if o == outcomeSkipped {
					t.SkipNow()
				}
			})
		}
		t.Logf("kube-apiserver %s, corpus %s: %d cases, %d agree exactly (decision and paths), %d agree on the decision only, %d decide differently, %d not replayed",
			srv.KubeVersion, d.name, n.total, n.exact, n.decisionOnly, n.differentDecision, n.skipped)
		totals.addTally(n)
	}
	for name, d := range known {
		if !seen[name] {
			t.Errorf("the drift list names %s (%s), which is not a corpus case replayed on %s", name, d.reason, srv.KubeVersion)
		}
	}
	for id, d := range corpusDrift {
		// The drift file is about the release of the corpus gates; a
		// server of another release replays none of its cases.
		if srv.Minor() == corpusGatesRelease && !seenDrift[id] {
			t.Errorf("%s lists %s (%s), which is not a corpus case replayed on %s", driftFile, id, d.reason, srv.KubeVersion)
		}
	}
	t.Logf("kube-apiserver %s, all corpus directories: %d cases, %d agree exactly (decision and paths), %d agree on the decision only, %d decide differently, %d not replayed",
		srv.KubeVersion, totals.total, totals.exact, totals.decisionOnly, totals.differentDecision, totals.skipped)
}

// tally counts the outcomes of a directory.
type tally struct {
	total, exact, decisionOnly, differentDecision, skipped int
}

type outcome int

const (
	outcomeExact outcome = iota
	outcomeDecisionOnly
	outcomeDifferentDecision
	outcomeSkipped
	outcomeFailed
)

func (n *tally) add(o outcome) {
	switch o {
	case outcomeExact:
		n.exact++
	case outcomeDecisionOnly:
		n.decisionOnly++
	case outcomeDifferentDecision:
		n.differentDecision++
	case outcomeSkipped:
		n.skipped++
	}
}

func (n *tally) addTally(o tally) {
	n.total += o.total
	n.exact += o.exact
	n.decisionOnly += o.decisionOnly
	n.differentDecision += o.differentDecision
	n.skipped += o.skipped
}

func compare(a, b []string) outcome {
	switch {
	case strings.Join(a, "\n") == strings.Join(b, "\n"):
		return outcomeExact
	case (len(a) == 0) == (len(b) == 0):
		return outcomeDecisionOnly
	default:
		return outcomeDifferentDecision
	}
}

// checkOwnRelease replays a case whose expectations are this server's
// answers.
func (r *replayer) checkOwnRelease(t *testing.T, c corpusCase, index int, d listedDrift, listed bool) outcome {
	if c.requires != "" && !r.gates.enabled(c.requires) {
		t.Fatalf("%s needs feature gate %s, which kube-apiserver %s does not enable; the corpus of a release must be replayable on it", c.path, c.requires, r.srv.KubeVersion)
	}
	if k, _ := c.doc["kind"].(string); !r.serves(k) {
		t.Fatalf("kube-apiserver %s does not serve %s in %s", r.srv.KubeVersion, k, r.dir.version)
	}
	server, err := r.replay(c, index)
	if err != nil {
		t.Fatal(err)
	}
	if recording() {
		if err := recordExpectations(c, server); err != nil {
			t.Fatal(err)
		}
		c.expect = server
	}
	if compare(server, c.expect) != outcomeExact {
		t.Errorf("kube-apiserver %s no longer gives the answer %s records (rerun with DRAKIT_E2E_RECORD=1 and review the diff):\n server: %q\n corpus: %q",
			r.srv.KubeVersion, c.path, server, c.expect)
	}
	local := r.validate(t, c, index)
	o := compare(server, local)
	switch {
	case o == outcomeExact && listed:
		t.Errorf("%s lists this case (%s), but drakit and the server agree now: %q; remove it from the list", driftFile, d.reason, server)
	case listed && compare(local, d.drakit) != outcomeExact:
		t.Errorf("%s lists drakit's answer as %q (%s), but drakit answers %q (server: %q)", driftFile, d.drakit, d.reason, local, server)
	case listed:
		t.Logf("known drift (%s):\n server: %q\n drakit: %q", d.reason, server, local)
	case o != outcomeExact:
		t.Errorf("drakit's validator and kube-apiserver %s disagree on %s, and %s does not list it:\n server: %q\n drakit: %q\n%s",
			r.srv.KubeVersion, c.path, driftFile, server, local, driftStub(r.dir.name+"/"+c.name, local))
	}
	return o
}

// driftStub is the entry to add to the drift file, once the reason is
// known, to make a difference listed.
func driftStub(id string, local []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n    reason: <key under reasons>\n    drakit:", id)
	if len(local) == 0 {
		b.WriteString(" []\n")
		return b.String()
	}
	b.WriteString("\n")
	for _, l := range local {
		fmt.Fprintf(&b, "    - %s\n", l)
	}
	return b.String()
}

// checkLaterRelease replays a case of an earlier release's rules, whose
// expectations are drakit's answers, on a later server.
func (r *replayer) checkLaterRelease(t *testing.T, c corpusCase, index int, d drift, listed bool) outcome {
	skip := ""
	if c.requires != "" && !r.gates.enabled(c.requires) {
		skip = fmt.Sprintf("needs feature gate %s, which kube-apiserver %s does not enable", c.requires, r.srv.KubeVersion)
	} else if k, _ := c.doc["kind"].(string); !r.serves(k) {
		skip = fmt.Sprintf("kube-apiserver %s does not serve %s in %s", r.srv.KubeVersion, k, r.dir.version)
	}
	if skip != "" {
		if !listed {
			t.Fatalf("%s, and the drift list does not say why", skip)
		}
		t.Logf("not replayed: %s", d.reason)
		return outcomeSkipped
	}
	server, err := r.replay(c, index)
	if err != nil {
		t.Fatal(err)
	}
	local := r.validate(t, c, index)
	o := compare(server, local)
	switch {
	case o == outcomeExact && listed:
		t.Errorf("listed as drift (%s), but drakit and the server agree now: %q; remove it from the list", d.reason, server)
	case listed && !d.decision && o == outcomeDifferentDecision:
		t.Errorf("listed as a drift of reasons or paths only (%s), but the decisions differ:\n server: %q\n drakit: %q", d.reason, server, local)
	case listed:
		t.Logf("known drift (%s):\n server: %q\n drakit: %q", d.reason, server, local)
	case o != outcomeExact:
		t.Errorf("drakit's validator and kube-apiserver %s disagree on %s:\n server: %q\n drakit: %q\n corpus: %q",
			r.srv.KubeVersion, c.path, server, local, c.expect)
	}
	return o
}

// corpusDirectory is one directory of the corpus replayed on the server.
type corpusDirectory struct {
	// name is the directory: the version, or "<version>-1.<minor>" for a
	// version whose kinds on that release have rules of their own.
	name    string
	version string
}

// corpusDirs are the directories replayed on srv: for each version it
// serves, "<version>-1.<minor>" when the corpus has it, else "<version>".
func corpusDirs(t *testing.T, srv *e2eenv.Server) []corpusDirectory {
	var out []corpusDirectory
	for _, v := range srv.ResourceVersions {
		name := fmt.Sprintf("%s-1.%d", v, srv.Minor())
		if _, err := os.Stat(filepath.Join(corpusDir, name)); err != nil {
			name = v
		}
		out = append(out, corpusDirectory{name: name, version: v})
	}
	return out
}

// ownRelease reports whether drakit validates the case's kind with the
// rules of the server's release (the catalogue's Rules of the kind), so
// that the case records the server's answers.
func ownRelease(t *testing.T, c corpusCase, version string, minor int) bool {
	t.Helper()
	kind, _ := c.doc["kind"].(string)
	v, k, ok := catalogue.Find(kind, version)
	if !ok {
		t.Fatalf("%s: kind %q is not a kind of %s in drakit's catalogue", c.path, kind, version)
	}
	return v.RulesOf(k) == minor
}

// checkCorpusGates makes sure the server runs with the gates the v1-era
// expectations were recorded with, and returns them.
func checkCorpusGates(t *testing.T, srv *e2eenv.Server, gates serverGates) features.Gates {
	t.Helper()
	want := corpusGates(t)
	got, err := gates.dra()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("kube-apiserver %s runs with the DRA feature gates %s, the corpus was recorded with %s (%s); make them equal (hack/e2e.sh server_gates) and re-record",
			srv.KubeVersion, got, want, gatesFile)
	}
	return got
}

// namespaces are the two namespaces of a replay: a plain one and one
// labelled for DRA admin access.
type namespaces struct {
	plain, adminAccess string
}

func newNamespaces(t *testing.T, srv *e2eenv.Server) namespaces {
	t.Helper()
	cs, err := kubernetes.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "drakit-e2e-admin-", Labels: map[string]string{adminAccessLabel: "true"}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create the admin-access namespace: %v", err)
	}
	return namespaces{plain: srv.Namespace(t), adminAccess: ns.Name}
}

// adminAccessLabel is the namespace label 1.34+ requires for a request or
// result with adminAccess.
const adminAccessLabel = "resource.kubernetes.io/admin-access"

func (n namespaces) of(c corpusCase) string {
	if c.namespace == adminAccessNamespace {
		return n.adminAccess
	}
	return n.plain
}

// labels is validation.Options.NamespaceLabels for the replay's namespaces.
func (n namespaces) labels(ns string) (map[string]string, error) {
	switch ns {
	case n.adminAccess:
		return map[string]string{adminAccessLabel: "true"}, nil
	case n.plain:
		return map[string]string{}, nil
	}
	return nil, fmt.Errorf("namespace %q is not one of the replay's", ns)
}

type replayer struct {
	srv    *e2eenv.Server
	dir    corpusDirectory
	client *rest.RESTClient
	nss    namespaces
	gates  serverGates
	// dra are the gates drakit's validators get.
	dra   features.Gates
	kinds map[string]servedKind
}

func (r *replayer) serves(kind string) bool {
	_, ok := r.kinds[kind]
	return ok
}

type servedKind struct {
	plural     string
	namespaced bool
}

func newReplayer(t *testing.T, srv *e2eenv.Server, dir corpusDirectory, gates serverGates, dra features.Gates, nss namespaces) *replayer {
	cfg := rest.CopyConfig(srv.Config)
	cfg.GroupVersion = &schema.GroupVersion{Group: resource.GroupName, Version: dir.version}
	cfg.APIPath = "/apis"
	cfg.NegotiatedSerializer = conversion.Codecs.WithoutConversion()
	// Deprecation warnings of the beta and alpha versions would drown the
	// output; warnings are not part of a validation answer.
	cfg.WarningHandler = rest.NoWarnings{}
	client, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	list, err := srv.Discovery.ServerResourcesForGroupVersion(resource.GroupName + "/" + dir.version)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]servedKind{}
	for _, res := range list.APIResources {
		if !strings.Contains(res.Name, "/") {
			kinds[res.Kind] = servedKind{plural: res.Name, namespaced: res.Namespaced}
		}
	}
	return &replayer{srv: srv, dir: dir, client: client, nss: nss, gates: gates, dra: dra, kinds: kinds}
}

// prepare returns the case object and its stored object as they are sent:
// namespaced objects in the case's namespace of the replay, and for update
// and status cases both renamed to a name of their own, so that cases
// sharing a stored object (or a name, in another directory) do not meet.
func (r *replayer) prepare(c corpusCase, index int) (obj, old map[string]any, kind servedKind, err error) {
	obj = deepCopy(c.doc)
	k, _ := obj["kind"].(string)
	kind, ok := r.kinds[k]
	if !ok {
		return nil, nil, kind, fmt.Errorf("kube-apiserver %s does not serve kind %q in %s", r.srv.KubeVersion, k, r.dir.version)
	}
	if c.operation != "create" {
		old = readDocFile(filepath.Join(filepath.Dir(c.path), c.old))
		if old == nil {
			return nil, nil, kind, fmt.Errorf("cannot read the stored object %s", c.old)
		}
		name := fmt.Sprintf("%s-%s-r%d", metaOf(old)["name"], strings.NewReplacer(".", "", "-", "").Replace(r.dir.name), index)
		metaOf(old)["name"] = name
		metaOf(obj)["name"] = name
	}
	if kind.namespaced {
		ns := r.nss.of(c)
		metaOf(obj)["namespace"] = ns
		if old != nil {
			metaOf(old)["namespace"] = ns
		}
	}
	return obj, old, kind, nil
}

// replay sends the case to the server and returns the sorted "reason
// field" pairs of its answer (none for a success).
func (r *replayer) replay(c corpusCase, index int) ([]string, error) {
	obj, old, kind, err := r.prepare(c, index)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := func() *rest.Request {
		req := r.client.Verb("")
		if kind.namespaced {
			req = req.Namespace(r.nss.of(c))
		}
		return req.Resource(kind.plural).Param("fieldValidation", "Strict").SetHeader("Content-Type", "application/json")
	}
	var result error
	switch c.operation {
	case "create":
		result = base().Verb("POST").Param("dryRun", "All").Body(mustJSON(obj)).Do(ctx).Error()
	case "update", "status":
		stored := map[string]any{}
		status := old["status"]
		create := deepCopy(old)
		delete(create, "status")
		if err := doInto(ctx, base().Verb("POST").Body(mustJSON(create)), &stored); err != nil {
			return nil, fmt.Errorf("creating the stored object %s: %w", c.old, err)
		}
		name := metaOf(stored)["name"].(string)
		defer func() {
			_ = base().Verb("DELETE").Name(name).Do(context.Background()).Error()
		}()
		if c.operation == "status" && status != nil {
			stored["status"] = status
			next := map[string]any{}
			if err := doInto(ctx, base().Verb("PUT").Name(name).SubResource("status").Body(mustJSON(stored)), &next); err != nil {
				return nil, fmt.Errorf("writing the stored status of %s: %w", c.old, err)
			}
			stored = next
		}
		if c.unconditional {
			delete(metaOf(obj), "resourceVersion")
		} else {
			metaOf(obj)["resourceVersion"] = metaOf(stored)["resourceVersion"]
		}
		req := base().Verb("PUT").Name(name).Param("dryRun", "All")
		if c.operation == "status" {
			req = req.SubResource("status")
		}
		result = req.Body(mustJSON(obj)).Do(ctx).Error()
	default:
		return nil, fmt.Errorf("unknown operation %q", c.operation)
	}
	if err := checkInvalidNamesKind(result, obj["kind"]); err != nil {
		return nil, err
	}
	return serverReasons(result)
}

// checkInvalidNamesKind checks that a 422 names the object by its kind, as
// `drakit validate` does in its messages ("ResourceClaim.resource.k8s.io
// "x" is invalid"), not by its resource.
func checkInvalidNamesKind(err error, kind any) error {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Code != 422 || status.Status().Details == nil {
		return nil
	}
	s := status.Status()
	if len(s.Details.Causes) == 1 && s.Details.Causes[0].Field == "metadata.resourceVersion" {
		// The generic registry refuses an update without resourceVersion
		// before the strategy runs, and names the resource (plural) in
		// that 422, not the kind.
		return nil
	}
	prefix := fmt.Sprintf("%s.%s %q is invalid", kind, s.Details.Group, s.Details.Name)
	if s.Details.Kind != kind || !strings.HasPrefix(s.Message, prefix) {
		return fmt.Errorf("the server's 422 names kind %q in %q; drakit writes %q", s.Details.Kind, s.Message, prefix)
	}
	return nil
}

// serverReasons turns the server's answer into "reason field" pairs. A 422
// lists its causes; any other failure (a 400 for a field the server does
// not know, say) is one pair "<reason> <the message>" so that it shows in
// the comparison instead of aborting it.
func serverReasons(err error) ([]string, error) {
	if err == nil {
		return nil, nil
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return nil, err
	}
	s := status.Status()
	if s.Code != 422 || s.Details == nil {
		return []string{fmt.Sprintf("%s %s", s.Reason, s.Message)}, nil
	}
	seen := map[string]bool{}
	var out []string
	for _, cause := range s.Details.Causes {
		f := cause.Field
		if f == "" {
			f = "<nil>"
		}
		p := string(cause.Type) + " " + f
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

var strictDecoder = serializer.NewCodecFactory(conversion.Scheme, serializer.EnableStrict).UniversalDeserializer()

// validate runs drakit's validator on the same objects the replay sends.
func (r *replayer) validate(t *testing.T, c corpusCase, index int) []string {
	t.Helper()
	obj, old, _, err := r.prepare(c, index)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(m map[string]any) runtime.Object {
		o, _, err := strictDecoder.Decode(mustJSON(m), nil, nil)
		if err != nil {
			t.Fatalf("%s: drakit cannot decode the case: %v", c.path, err)
		}
		return o
	}
	if old != nil {
		// The replay sends the stored object's resourceVersion (unless the
		// case omits it); any version stands for it here.
		metaOf(old)["resourceVersion"] = "1"
		if !c.unconditional {
			metaOf(obj)["resourceVersion"] = "1"
		}
	}
	opts := validation.Options{FeatureGates: r.dra, NamespaceLabels: r.nss.labels}
	var errs field.ErrorList
	switch c.operation {
	case "create":
		errs = validation.ValidateObject(decode(obj), opts)
	case "update":
		errs = validation.ValidateObjectUpdate(decode(obj), decode(old), opts)
	case "status":
		errs = validation.ValidateObjectStatusUpdate(decode(obj), decode(old), opts)
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		f := e.Field
		if f == "" {
			f = "<nil>"
		}
		p := string(e.Type) + " " + f
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func metaOf(m map[string]any) map[string]any {
	md, ok := m["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		m["metadata"] = md
	}
	return md
}

func deepCopy(m map[string]any) map[string]any {
	var out map[string]any
	if err := json.Unmarshal(mustJSON(m), &out); err != nil {
		panic(err)
	}
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// doInto sends req and decodes the JSON answer into out.
func doInto(ctx context.Context, req *rest.Request, out *map[string]any) error {
	raw, err := req.DoRaw(ctx)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}
