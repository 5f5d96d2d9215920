// Package webhook registers drivers' opaque-config webhooks on the real
// API server: the driverconfig admission handler with a small Go decoder,
// served in the test, and "drakit webhook serve" with a schemas file, run
// as the binary hack/e2e.sh builds (DRAKIT_E2E_DRAKIT). Both are
// registered with the ValidatingWebhookConfiguration "drakit webhook
// config --release <the server's>" writes, over TLS on 127.0.0.1 with a
// self-signed CA as caBundle. Then, in every version the server serves,
// claims, claim templates and device classes (on 1.30 the parameter
// objects that hold 1.30's vendor parameters) with a good and a bad
// config are created: the bad ones are refused with the config's path in
// the causes, the good ones stored unchanged. The generated slice policy
// is created too, and the plugin's service account (impersonated, with
// its node) may write its own node's slices of its driver only.
package webhook

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/admission"
	"github.com/drakit/drakit/driverconfig/admissionconfig"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// The two webhooks' driver names: names no other package uses, so that
// only this test's configs are theirs to check.
const (
	goDriver     = "go.e2e.drakit.io"
	schemaDriver = "schema.e2e.drakit.io"
	// selectorLabel limits the webhooks to this test's objects: the other
	// packages run at the same time, and a webhook that stops while its
	// configuration is still registered would refuse their writes.
	selectorLabel = "webhook.e2e.drakit.io/run"
)

// GpuConfig is the Go driver's config kind.
type GpuConfig struct {
	metav1.TypeMeta `json:",inline"`
	Sharing         *Sharing `json:"sharing,omitempty"`
}

type Sharing struct {
	Strategy string `json:"strategy,omitempty"`
	Replicas *int   `json:"replicas,omitempty"`
}

func (c *GpuConfig) DeepCopyObject() runtime.Object {
	out := *c
	if c.Sharing != nil {
		s := *c.Sharing
		if s.Replicas != nil {
			r := *s.Replicas
			s.Replicas = &r
		}
		out.Sharing = &s
	}
	return &out
}

// goDecoder is the driver code a Go driver writes: its scheme and a
// validation function.
func goDecoder() driverconfig.Decoder {
	s := runtime.NewScheme()
	s.AddKnownTypes(schema.GroupVersion{Group: goDriver, Version: "v1"}, &GpuConfig{})
	return driverconfig.NewSchemeDecoder(s, func(_ context.Context, obj runtime.Object, path *field.Path) field.ErrorList {
		c := obj.(*GpuConfig)
		var errs field.ErrorList
		if c.Sharing != nil {
			p := path.Child("sharing")
			if c.Sharing.Strategy != "" && c.Sharing.Strategy != "TimeSlicing" && c.Sharing.Strategy != "SpacePartitioning" {
				errs = append(errs, field.NotSupported(p.Child("strategy"), c.Sharing.Strategy, []string{"TimeSlicing", "SpacePartitioning"}))
			}
			if c.Sharing.Replicas != nil && *c.Sharing.Replicas < 1 {
				errs = append(errs, field.Invalid(p.Child("replicas"), *c.Sharing.Replicas, "must be at least 1"))
			}
		}
		return errs
	})
}

const schemas = `apiVersion: webhook.drakit.io/v1alpha1
kind: ConfigSchemas
drivers:
- names: [` + schemaDriver + `]
  configs:
  - apiVersion: ` + schemaDriver + `/v1
    kind: GpuConfig
    openAPIV3Schema:
      type: object
      properties:
        sharing:
          type: object
          properties:
            strategy: {type: string, enum: [TimeSlicing, SpacePartitioning]}
            replicas: {type: integer}
          x-kubernetes-validations:
          - rule: "!has(self.replicas) || self.replicas >= 1"
            message: must be at least 1
            fieldPath: .replicas
`

func params(driver string, replicas int) map[string]any {
	return map[string]any{"apiVersion": driver + "/v1", "kind": "GpuConfig", "sharing": map[string]any{"strategy": "TimeSlicing", "replicas": int64(replicas)}}
}

func TestWebhooks(t *testing.T) {
	s := e2eenv.Get(t)
	start := time.Now()
	drakit := os.Getenv("DRAKIT_E2E_DRAKIT")
	if drakit == "" {
		// hack/e2e.sh builds it; without it, build it here.
		drakit = filepath.Join(t.TempDir(), "drakit")
		build := exec.Command("go", "build", "-o", drakit, "./cmd/drakit")
		build.Dir = filepath.Join("..", "..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("DRAKIT_E2E_DRAKIT is not set, and building drakit failed: %v\n%s", err, out)
		}
		t.Logf("built drakit in %v (DRAKIT_E2E_DRAKIT is not set)", time.Since(start).Round(time.Millisecond))
	}
	ctx := context.Background()
	dir := t.TempDir()
	caFile, certFile, keyFile := selfSigned(t, dir)
	kube := kubernetes.NewForConfigOrDie(s.Config)
	dyn := dynamic.NewForConfigOrDie(s.Config)
	run := fmt.Sprintf("r%d", time.Now().UnixNano()%1e9)

	// The Go driver's webhook, with the TLS helper of driverconfig/admission.
	reg := driverconfig.NewRegistry()
	reg.MustRegister(goDecoder(), goDriver)
	srv, err := admission.NewServer("127.0.0.1:0", admission.NewHandler(reg), certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { _ = srv.Close() })
	goURL := "https://" + ln.Addr().String() + "/validate"

	// drakit webhook serve, the binary.
	schemasFile := filepath.Join(dir, "schemas.yaml")
	if err := os.WriteFile(schemasFile, []byte(schemas), 0o600); err != nil {
		t.Fatal(err)
	}
	schemaURL := serveBinary(t, drakit, schemasFile, certFile, keyFile)

	minor := s.Minor()
	release := fmt.Sprintf("1.%d", minor)
	for _, w := range []struct{ driver, url string }{{goDriver, goURL}, {schemaDriver, schemaURL}} {
		out, err := exec.Command(drakit, "webhook", "config", "--driver", w.driver, "--release", release, "--url", w.url, "--ca-bundle-file", caFile, "-o", "json").Output()
		if err != nil {
			t.Fatalf("drakit webhook config: %v", stderrOf(err))
		}
		var cfg admissionregistrationv1.ValidatingWebhookConfiguration
		if err := json.Unmarshal(out, &cfg); err != nil {
			t.Fatal(err)
		}
		checkRules(t, s, cfg.Webhooks[0].Rules)
		cfg.Name += "-" + run
		cfg.Webhooks[0].ObjectSelector = &metav1.LabelSelector{MatchLabels: map[string]string{selectorLabel: run}}
		if _, err := kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, &cfg, metav1.CreateOptions{}); err != nil {
			t.Fatalf("registering %s: %v", cfg.Name, err)
		}
		name := cfg.Name
		// Registered after the servers started, so removed before they stop.
		t.Cleanup(func() {
			_ = kube.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(context.Background(), name, metav1.DeleteOptions{})
		})
	}
	t.Logf("servers up and configurations registered after %v", time.Since(start).Round(time.Millisecond))
	fromCluster(t, s, drakit, run)

	ns := s.Namespace(t)
	cases := objectCases(t, s, ns)
	if len(cases) == 0 {
		t.Fatalf("no kind holding opaque configs is served by %s", s.KubeVersion)
	}
	waitActive(t, dyn, ns, run, cases[0])
	for _, c := range cases {
		for _, driver := range []string{goDriver, schemaDriver} {
			t.Run(c.name+"/"+driver, func(t *testing.T) {
				// Refused: the second config is invalid.
				bad := c.object(driver, params(driver, 0), run, "bad")
				_, err := dyn.Resource(c.gvr).Namespace(c.namespace).Create(ctx, bad, metav1.CreateOptions{})
				wantField := c.badPath + ".sharing.replicas"
				var status apierrors.APIStatus
				if err == nil || !errorsAs(err, &status) {
					t.Fatalf("created; want a refusal with a cause at %s (err %v)", wantField, err)
				}
				st := status.Status()
				if st.Details == nil || !slices.ContainsFunc(st.Details.Causes, func(c metav1.StatusCause) bool { return c.Field == wantField }) {
					t.Fatalf("refused without a cause at %s: %v (details %+v)", wantField, err, st.Details)
				}
				if !strings.Contains(st.Message, "denied the request") || !strings.Contains(st.Message, wantField) {
					t.Errorf("message %q", st.Message)
				}
				// Allowed, and stored as sent.
				good := c.object(driver, params(driver, 2), run, "good")
				created, err := dyn.Resource(c.gvr).Namespace(c.namespace).Create(ctx, good, metav1.CreateOptions{FieldValidation: "Strict"})
				if err != nil {
					t.Fatalf("good object refused: %v", err)
				}
				got, err := dyn.Resource(c.gvr).Namespace(c.namespace).Get(ctx, created.GetName(), metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want, _, _ := unstructured.NestedFieldNoCopy(good.Object, c.configField...)
				stored, _, _ := unstructured.NestedFieldNoCopy(got.Object, c.configField...)
				if !reflect.DeepEqual(normalize(want), normalize(stored)) {
					t.Errorf("stored %s differs:\n got %v\nwant %v", strings.Join(c.configField, "."), stored, want)
				}
				_ = dyn.Resource(c.gvr).Namespace(c.namespace).Delete(ctx, created.GetName(), metav1.DeleteOptions{})
			})
		}
	}

	t.Run("slice-policy", func(t *testing.T) { slicePolicy(t, s, drakit, release, kube, run) })
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

// fromCluster runs the commands against the server itself: config
// --from-cluster names what its discovery lists, and lint --from-cluster
// finds no error in the configurations just registered (warnings for the
// versions the release serves but the server has not enabled are fine).
func fromCluster(t *testing.T, s *e2eenv.Server, drakit, run string) {
	t.Helper()
	kubeconfig := os.Getenv("DRAKIT_E2E_KUBECONFIG")
	if kubeconfig == "" {
		t.Log("DRAKIT_E2E_KUBECONFIG is not set: --from-cluster is not tried")
		return
	}
	out, err := exec.Command(drakit, "webhook", "config", "--driver", goDriver, "--from-cluster", "--kubeconfig", kubeconfig, "--url", "https://127.0.0.1:1/validate", "-o", "json").Output()
	if err != nil {
		t.Fatalf("drakit webhook config --from-cluster: %v", stderrOf(err))
	}
	var cfg admissionregistrationv1.ValidatingWebhookConfiguration
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatal(err)
	}
	checkRules(t, s, cfg.Webhooks[0].Rules)
	for _, r := range cfg.Webhooks[0].Rules {
		for _, v := range r.APIVersions {
			if !slices.Contains(s.ResourceVersions, v) {
				t.Errorf("config --from-cluster names %s, which the server does not serve", v)
			}
		}
	}
	// The servers are shared with the packages running at the same time:
	// only the findings about this test's configurations (named -<run>)
	// count; its exit code is another package's business when they have
	// an error of their own.
	cmd := exec.Command(drakit, "webhook", "lint", "--from-cluster", "--kubeconfig", kubeconfig)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("drakit webhook lint --from-cluster: %v", err)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "error: ") && strings.Contains(line, "-"+run+":") {
			t.Errorf("drakit webhook lint --from-cluster: %s", line)
		}
	}
	t.Logf("lint --from-cluster: %s", strings.TrimSpace(stderr.String()))
}

func errorsAs(err error, status *apierrors.APIStatus) bool {
	s, ok := err.(apierrors.APIStatus)
	if ok {
		*status = s
	}
	return ok
}

// normalize makes JSON numbers of either decoding compare equal.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// checkRules: the generated rules name every version in which the server
// serves each kind that holds configs (from its discovery).
func checkRules(t *testing.T, s *e2eenv.Server, rules []admissionregistrationv1.RuleWithOperations) {
	t.Helper()
	for _, v := range s.ResourceVersions {
		l, err := s.Discovery.ServerResourcesForGroupVersion("resource.k8s.io/" + v)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !admissionconfig.CarriesConfig(v, r.Kind) {
				continue
			}
			if !slices.ContainsFunc(rules, func(rule admissionregistrationv1.RuleWithOperations) bool {
				return slices.Contains(rule.APIVersions, v) && slices.Contains(rule.Resources, r.Name)
			}) {
				t.Errorf("the generated rules %+v leave out %s/%s, which the server serves", rules, v, r.Name)
			}
		}
	}
}

// objectCase is one kind in one version.
type objectCase struct {
	name      string
	gvr       schema.GroupVersionResource
	namespace string
	// object builds an object whose second config has these parameters.
	object func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured
	// badPath is the second config's parameters' path; configField where
	// the configs are in the object.
	badPath     string
	configField []string
}

func objectCases(t *testing.T, s *e2eenv.Server, ns string) []objectCase {
	var cases []objectCase
	for _, v := range s.ResourceVersions {
		l, err := s.Discovery.ServerResourcesForGroupVersion("resource.k8s.io/" + v)
		if err != nil {
			t.Fatal(err)
		}
		// The served resources whose objects hold opaque configs: not
		// 1.30's claims, templates and classes, which name parameter
		// objects instead.
		served := map[string]bool{}
		for _, r := range l.APIResources {
			served[r.Name] = admissionconfig.CarriesConfig(v, r.Kind)
		}
		gv := schema.GroupVersion{Group: "resource.k8s.io", Version: v}
		request := map[string]any{"name": "gpu", "exactly": map[string]any{"deviceClassName": "gpu-class"}}
		if v == "v1beta1" || v == "v1alpha3" {
			request = map[string]any{"name": "gpu", "deviceClassName": "gpu-class"}
		}
		devices := func(driver string, second map[string]any) map[string]any {
			return map[string]any{
				"requests": []any{request},
				"config": []any{
					map[string]any{"requests": []any{"gpu"}, "opaque": map[string]any{"driver": driver, "parameters": params(driver, 1)}},
					map[string]any{"opaque": map[string]any{"driver": driver, "parameters": second}},
				},
			}
		}
		meta := func(kind, run, suffix, namespace string) map[string]any {
			m := map[string]any{"generateName": "webhook-" + suffix + "-", "labels": map[string]any{selectorLabel: run}}
			if namespace != "" {
				m["namespace"] = namespace
			}
			return m
		}
		obj := func(kind string, m, spec map[string]any) *unstructured.Unstructured {
			return &unstructured.Unstructured{Object: map[string]any{"apiVersion": gv.String(), "kind": kind, "metadata": m, "spec": spec}}
		}
		if served["resourceclaims"] {
			cases = append(cases, objectCase{
				name: v + "/ResourceClaim", gvr: gv.WithResource("resourceclaims"), namespace: ns,
				object: func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured {
					return obj("ResourceClaim", meta("ResourceClaim", run, suffix, ns), map[string]any{"devices": devices(driver, second)})
				},
				badPath: "spec.devices.config[1].opaque.parameters", configField: []string{"spec", "devices", "config"},
			})
		}
		if served["resourceclaimtemplates"] {
			cases = append(cases, objectCase{
				name: v + "/ResourceClaimTemplate", gvr: gv.WithResource("resourceclaimtemplates"), namespace: ns,
				object: func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured {
					return obj("ResourceClaimTemplate", meta("ResourceClaimTemplate", run, suffix, ns), map[string]any{"spec": map[string]any{"devices": devices(driver, second)}})
				},
				badPath: "spec.spec.devices.config[1].opaque.parameters", configField: []string{"spec", "spec", "devices", "config"},
			})
		}
		if served["deviceclasses"] {
			cases = append(cases, objectCase{
				name: v + "/DeviceClass", gvr: gv.WithResource("deviceclasses"),
				object: func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured {
					return obj("DeviceClass", meta("DeviceClass", run, suffix, ""), map[string]any{"config": []any{
						map[string]any{"opaque": map[string]any{"driver": driver, "parameters": params(driver, 1)}},
						map[string]any{"opaque": map[string]any{"driver": driver, "parameters": second}},
					}})
				},
				badPath: "spec.config[1].opaque.parameters", configField: []string{"spec", "config"},
			})
		}
		if served["resourceclaimparameters"] {
			cases = append(cases, objectCase{
				name: v + "/ResourceClaimParameters", gvr: gv.WithResource("resourceclaimparameters"), namespace: ns,
				object: func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured {
					u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": gv.String(), "kind": "ResourceClaimParameters", "metadata": meta("", run, suffix, ns),
						"driverRequests": []any{map[string]any{"driverName": driver, "vendorParameters": params(driver, 1),
							"requests": []any{map[string]any{"vendorParameters": second, "namedResources": map[string]any{"selector": "true"}}}}}}}
					return u
				},
				badPath: "driverRequests[0].requests[0].vendorParameters", configField: []string{"driverRequests"},
			})
		}
		if served["resourceclassparameters"] {
			cases = append(cases, objectCase{
				name: v + "/ResourceClassParameters", gvr: gv.WithResource("resourceclassparameters"), namespace: ns,
				object: func(driver string, second map[string]any, run, suffix string) *unstructured.Unstructured {
					return &unstructured.Unstructured{Object: map[string]any{"apiVersion": gv.String(), "kind": "ResourceClassParameters", "metadata": meta("", run, suffix, ns),
						"vendorParameters": []any{map[string]any{"driverName": driver, "parameters": second}}}}
				},
				// 1.30 allows one entry per driver.
				badPath: "vendorParameters[0].parameters", configField: []string{"vendorParameters"},
			})
		}
	}
	return cases
}

// waitActive waits until the API server calls the webhooks: a
// configuration takes effect shortly after it is created.
func waitActive(t *testing.T, dyn dynamic.Interface, ns, run string, c objectCase) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, errGo := dyn.Resource(c.gvr).Namespace(c.namespace).Create(context.Background(), c.object(goDriver, params(goDriver, 0), run, "probe"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		_, errSchema := dyn.Resource(c.gvr).Namespace(c.namespace).Create(context.Background(), c.object(schemaDriver, params(schemaDriver, 0), run, "probe"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if errGo != nil && errSchema != nil && strings.Contains(errGo.Error(), "denied the request") && strings.Contains(errSchema.Error(), "denied the request") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the webhooks were not called 30s after they were registered: %v; %v", errGo, errSchema)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var servingLine = regexp.MustCompile(`on (https://127\.0\.0\.1:\d+/validate)`)

// serveBinary starts drakit webhook serve on a free loopback port and
// returns its URL; the process is stopped (SIGTERM) when the test ends.
func serveBinary(t *testing.T, drakit, schemasFile, certFile, keyFile string) string {
	t.Helper()
	cmd := exec.Command(drakit, "webhook", "serve", "--schemas", schemasFile, "--tls-cert-file", certFile, "--tls-private-key-file", keyFile, "--bind-address", "127.0.0.1", "--port", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("drakit webhook serve exited before it served")
			}
			if m := servingLine.FindStringSubmatch(line); m != nil {
				go func() {
					for range lines { // drain
					}
				}()
				return m[1]
			}
			t.Logf("drakit webhook serve: %s", line)
		case <-timeout:
			t.Fatal("drakit webhook serve did not say where it serves within 20s")
		}
	}
}

// slicePolicy creates the ResourceSlice policy drakit webhook config
// writes for the release (the server refuses a policy whose CEL does not
// compile) and checks what it lets the plugin's account do.
func slicePolicy(t *testing.T, s *e2eenv.Server, drakit, release string, kube kubernetes.Interface, run string) {
	out, err := exec.Command(drakit, "webhook", "config", "--driver", schemaDriver, "--release", release, "--url", "https://127.0.0.1:1/validate", "--service-account", "drakit-e2e-"+run+"/plugin").Output()
	if err != nil {
		t.Fatalf("drakit webhook config: %v", stderrOf(err))
	}
	docs := bytes.Split(out, []byte("\n---\n"))
	var vap admissionregistrationv1.ValidatingAdmissionPolicy
	var binding admissionregistrationv1.ValidatingAdmissionPolicyBinding
	if len(docs) != 4 || yaml.UnmarshalStrict(docs[2], &vap) != nil || yaml.UnmarshalStrict(docs[3], &binding) != nil {
		t.Fatalf("want the webhook configuration, the policy and its binding:\n%s", out)
	}
	ctx := context.Background()
	vap.Name += "-" + run
	binding.Name, binding.Spec.PolicyName = vap.Name, vap.Name
	created, err := kube.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, &vap, metav1.CreateOptions{FieldValidation: "Strict"})
	if err != nil {
		t.Fatalf("the server refused the policy: %v", err)
	}
	t.Cleanup(func() {
		_ = kube.AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(context.Background(), created.Name, metav1.DeleteOptions{})
	})
	if _, err := kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, &binding, metav1.CreateOptions{FieldValidation: "Strict"}); err != nil {
		t.Fatalf("the server refused the binding: %v", err)
	}
	t.Cleanup(func() {
		_ = kube.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(context.Background(), binding.Name, metav1.DeleteOptions{})
	})
	checkSlicePolicy(t, s, kube, run)
}

// checkSlicePolicy acts as the kubelet plugin's service account on node
// "node-a" (impersonated, with the node name the API server puts into a
// pod's token as extra) and writes ResourceSlices: its own node's slice
// of its driver is allowed; another node's, another driver's, and an
// update of another node's slice are refused by the policy. The account gets
// RBAC for slices first: authorization comes before admission.
func checkSlicePolicy(t *testing.T, s *e2eenv.Server, kube kubernetes.Interface, run string) {
	ctx := context.Background()
	ns, sa := "drakit-e2e-"+run, "plugin"
	user := "system:serviceaccount:" + ns + ":" + sa
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "drakit-e2e-slices-" + run},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceslices"}, Verbs: []string{"get", "create", "update", "delete"}}}}
	if _, err := kube.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = kube.RbacV1().ClusterRoles().Delete(context.Background(), role.Name, metav1.DeleteOptions{})
	})
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: role.Name},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: ns, Name: sa}}}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = kube.RbacV1().ClusterRoleBindings().Delete(context.Background(), binding.Name, metav1.DeleteOptions{})
	})

	cfg := rest.CopyConfig(s.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
		Extra: map[string][]string{"authentication.kubernetes.io/node-name": {"node-a"}}}
	asPlugin := dynamic.NewForConfigOrDie(cfg).Resource(schema.GroupVersionResource{Group: "resource.k8s.io", Version: s.ResourceVersion, Resource: "resourceslices"})
	slice := func(node, driver string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "resource.k8s.io/" + s.ResourceVersion, "kind": "ResourceSlice",
			"metadata": map[string]any{"generateName": "webhook-" + run + "-"}}}
		if s.ResourceVersion == "v1alpha2" {
			u.Object["nodeName"], u.Object["driverName"] = node, driver
			u.Object["namedResources"] = map[string]any{"instances": []any{}}
			return u
		}
		u.Object["spec"] = map[string]any{"driver": driver, "nodeName": node, "pool": map[string]any{"name": node, "generation": int64(1), "resourceSliceCount": int64(1)}, "devices": []any{}}
		return u
	}
	// The policy takes effect shortly after it is created.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := asPlugin.Create(ctx, slice("node-b", schemaDriver), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && strings.Contains(err.Error(), "may not modify resourceslices on node 'node-b'") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the policy did not refuse another node's slice 30s after it was created: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	own, err := asPlugin.Create(ctx, slice("node-a", schemaDriver), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("its own node's slice refused: %v", err)
	}
	if _, err := asPlugin.Create(ctx, slice("node-a", "other.example.com"), metav1.CreateOptions{}); err == nil || !strings.Contains(err.Error(), "may only modify resourceslices of driver "+schemaDriver) {
		t.Errorf("another driver's slice: %v", err)
	}
	// Another node's slice, written by the administrator: the account may
	// not update it.
	admin := dynamic.NewForConfigOrDie(s.Config).Resource(schema.GroupVersionResource{Group: "resource.k8s.io", Version: s.ResourceVersion, Resource: "resourceslices"})
	other, err := admin.Create(ctx, slice("node-b", schemaDriver), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Delete(context.Background(), other.GetName(), metav1.DeleteOptions{}) })
	other.SetLabels(map[string]string{"touched": "yes"})
	if _, err := asPlugin.Update(ctx, other, metav1.UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "may not modify resourceslices on node 'node-b'") {
		t.Errorf("updating another node's slice: %v", err)
	}
	if err := asPlugin.Delete(ctx, own.GetName(), metav1.DeleteOptions{}); err != nil {
		t.Errorf("deleting its own slice: %v", err)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return err.Error() + ": " + string(ee.Stderr)
	}
	return err.Error()
}

// selfSigned writes a CA, and a serving certificate for 127.0.0.1 it
// signed, with the key.
func selfSigned(t *testing.T, dir string) (caFile, certFile, keyFile string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "drakit e2e webhook CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	caFile, certFile, keyFile = filepath.Join(dir, "ca.crt"), filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	for f, b := range map[string]*pem.Block{caFile: {Type: "CERTIFICATE", Bytes: caDER}, certFile: {Type: "CERTIFICATE", Bytes: der}, keyFile: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(f, pem.EncodeToMemory(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return caFile, certFile, keyFile
}
