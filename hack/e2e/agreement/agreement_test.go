// Package agreement replays drakit's validation corpus
// (apis/resource/validation/testdata/corpus, see its README) against the
// API server with dryRun=All and requires drakit's validator to make the
// same decision as the server on every case, with the same "reason field"
// pairs where the server names fields. Differences caused by the server
// being a later release than the one drakit's version stands for are
// listed in drift_test.go, each with its reason; a listed difference that no
// longer occurs fails too, so the list stays true.
package agreement

import (
	"bufio"
	"bytes"
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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// corpusDir is the corpus, relative to this package.
const corpusDir = "../../../apis/resource/validation/testdata/corpus"

type corpusCase struct {
	name      string
	path      string
	operation string // create, update, status
	old       string // file of the stored object
	requires  string // feature gate
	expect    []string
	doc       map[string]any // the object, as JSON
}

func readCase(t *testing.T, path string) corpusCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := corpusCase{name: strings.TrimSuffix(filepath.Base(path), ".yaml"), path: path, operation: "create"}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		switch key {
		case "operation":
			c.operation = value
		case "old":
			c.old = value
		case "requires":
			c.requires = value
		case "expect":
			if value != "valid" {
				c.expect = append(c.expect, value)
			}
		}
	}
	c.doc = readDoc(t, path)
	sort.Strings(c.expect)
	return c
}

func readDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// enabledGates are the feature gates hack/e2e.sh turns on besides the
// defaults of the release.
var enabledGates = map[string]bool{"DynamicResourceAllocation": true}

func TestValidatorAgreement(t *testing.T) {
	srv := e2eenv.Get(t)
	version := srv.ResourceVersion
	files, err := filepath.Glob(filepath.Join(corpusDir, version, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no corpus for %s under %s", version, corpusDir)
	}
	r := newReplayer(t, srv)
	known := knownDrift[srv.Minor()]
	seen := map[string]bool{}
	agreed, total := 0, 0
	for i, path := range files {
		if strings.HasSuffix(path, ".old.yaml") {
			continue
		}
		c := readCase(t, path)
		total++
		t.Run(c.name, func(t *testing.T) {
			d, listed := known[c.name]
			if listed {
				seen[c.name] = true
			}
			skip := ""
			if c.requires != "" && !enabledGates[c.requires] {
				skip = fmt.Sprintf("needs feature gate %s, which kube-apiserver %s does not enable", c.requires, srv.KubeVersion)
			} else if k, _ := c.doc["kind"].(string); !r.serves(k) {
				skip = fmt.Sprintf("kube-apiserver %s does not serve %s in %s", srv.KubeVersion, k, version)
			}
			if skip != "" {
				if !listed {
					t.Fatalf("%s, and the drift list does not say why", skip)
				}
				t.Skipf("not replayed: %s", d.reason)
			}
			server, err := r.replay(c, i)
			if err != nil {
				t.Fatal(err)
			}
			local := r.validate(c, i)
			same := strings.Join(server, "\n") == strings.Join(local, "\n")
			sameDecision := (len(server) == 0) == (len(local) == 0)
			switch {
			case same && listed:
				t.Errorf("listed as drift (%s), but drakit and the server agree now: %q; remove it from the list", d.reason, server)
			case listed && !d.decision && !sameDecision:
				t.Errorf("listed as a drift of reasons or paths only (%s), but the decisions differ:\n server: %q\n drakit: %q", d.reason, server, local)
			case listed:
				t.Logf("known drift (%s):\n server: %q\n drakit: %q", d.reason, server, local)
			case !same:
				t.Errorf("drakit's validator and kube-apiserver %s disagree on %s:\n server: %q\n drakit: %q\n corpus: %q",
					srv.KubeVersion, c.path, server, local, c.expect)
			default:
				agreed++
			}
		})
	}
	for name, d := range known {
		if !seen[name] {
			t.Errorf("the drift list names %s (%s), which is not a %s corpus case", name, d.reason, version)
		}
	}
	t.Logf("kube-apiserver %s, corpus %s: %d cases, %d agree exactly, %d known drift", srv.KubeVersion, version, total, agreed, len(known))
}

type replayer struct {
	t      *testing.T
	srv    *e2eenv.Server
	client *rest.RESTClient
	ns     string
	kinds  map[string]servedKind
}

func (r *replayer) serves(kind string) bool {
	_, ok := r.kinds[kind]
	return ok
}

type servedKind struct {
	plural     string
	namespaced bool
}

func newReplayer(t *testing.T, srv *e2eenv.Server) *replayer {
	cfg := rest.CopyConfig(srv.Config)
	cfg.GroupVersion = &schema.GroupVersion{Group: resource.GroupName, Version: srv.ResourceVersion}
	cfg.APIPath = "/apis"
	cfg.NegotiatedSerializer = conversion.Codecs.WithoutConversion()
	client, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	list, err := srv.Discovery.ServerResourcesForGroupVersion(resource.GroupName + "/" + srv.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]servedKind{}
	for _, res := range list.APIResources {
		if !strings.Contains(res.Name, "/") {
			kinds[res.Kind] = servedKind{plural: res.Name, namespaced: res.Namespaced}
		}
	}
	return &replayer{t: t, srv: srv, client: client, ns: srv.Namespace(t), kinds: kinds}
}

// prepare returns the case object and its stored object as they are sent:
// namespaced objects in the replay's namespace, and for update and status
// cases both renamed to a name of their own, so that cases sharing a stored
// object do not meet.
func (r *replayer) prepare(c corpusCase, index int) (obj, old map[string]any, kind servedKind, err error) {
	obj = deepCopy(c.doc)
	k, _ := obj["kind"].(string)
	kind, ok := r.kinds[k]
	if !ok {
		return nil, nil, kind, fmt.Errorf("kube-apiserver %s does not serve kind %q in %s", r.srv.KubeVersion, k, r.srv.ResourceVersion)
	}
	if c.operation != "create" {
		old = readDocFile(filepath.Join(filepath.Dir(c.path), c.old))
		if old == nil {
			return nil, nil, kind, fmt.Errorf("cannot read the stored object %s", c.old)
		}
		name := fmt.Sprintf("%s-r%d", metaOf(old)["name"], index)
		metaOf(old)["name"] = name
		metaOf(obj)["name"] = name
	}
	if kind.namespaced {
		metaOf(obj)["namespace"] = r.ns
		if old != nil {
			metaOf(old)["namespace"] = r.ns
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
			req = req.Namespace(r.ns)
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
		metaOf(obj)["resourceVersion"] = metaOf(stored)["resourceVersion"]
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
func (r *replayer) validate(c corpusCase, index int) []string {
	obj, old, _, err := r.prepare(c, index)
	if err != nil {
		r.t.Fatal(err)
	}
	decode := func(m map[string]any) runtime.Object {
		o, _, err := strictDecoder.Decode(mustJSON(m), nil, nil)
		if err != nil {
			r.t.Fatalf("%s: drakit cannot decode the case: %v", c.path, err)
		}
		return o
	}
	var errs field.ErrorList
	switch c.operation {
	case "create":
		errs = validation.ValidateObject(decode(obj), validation.Options{})
	case "update":
		errs = validation.ValidateObjectUpdate(decode(obj), decode(old), validation.Options{})
	case "status":
		errs = validation.ValidateObjectStatusUpdate(decode(obj), decode(old), validation.Options{})
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

func readDocFile(path string) map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(js, &m) != nil {
		return nil
	}
	return m
}

// doInto sends req and decodes the JSON answer into out.
func doInto(ctx context.Context, req *rest.Request, out *map[string]any) error {
	raw, err := req.DoRaw(ctx)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}
