package webhook

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// selfSigned writes a serving certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "drakit webhook test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServe runs the command's server over TLS on a free port with the
// example schemas and sends it reviews: a v1beta1 claim with a good and
// a bad config is refused with the bad one's path, the same claim with
// the bad config fixed is allowed, /healthz answers, and the server stops
// when its context ends.
func TestServe(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t, t.TempDir())
	var errOut bytes.Buffer
	o := NewServeOptions(genericiooptions.IOStreams{Out: io.Discard, ErrOut: &errOut})
	o.SchemasFile = "driverconfig/schemavalidation/testdata/gpu-schemas.yaml"
	o.CertFile, o.KeyFile = certFile, keyFile
	o.BindAddress, o.Port = "127.0.0.1", 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.ctx = ctx
	addrs := make(chan string, 1)
	o.listening = func(addr string) { addrs <- addr }
	if err := o.Complete(nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- o.Run() }()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not listening after 10s")
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}

	claim := func(replicas int) string {
		return `{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"gpu","namespace":"default"},
"spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"gpu.example.com"}],
"config":[{"opaque":{"driver":"gpu.example.com","parameters":{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig"}}},
{"opaque":{"driver":"gpu.example.com","parameters":{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"replicas":` + strconv.Itoa(replicas) + `}}}},
{"opaque":{"driver":"other.example.com","parameters":{"anything":true}}}]}}}`
	}
	review := func(obj string) *admissionv1.AdmissionResponse {
		t.Helper()
		body := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1","kind":{"group":"resource.k8s.io","version":"v1beta1","kind":"ResourceClaim"},
"resource":{"group":"resource.k8s.io","version":"v1beta1","resource":"resourceclaims"},"name":"gpu","namespace":"default","operation":"CREATE","userInfo":{},"object":` + obj + `}}`
		resp, err := client.Post("https://"+addr+"/validate", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out admissionv1.AdmissionReview
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Response == nil {
			t.Fatalf("status %d, %v", resp.StatusCode, err)
		}
		return out.Response
	}

	bad := review(claim(0))
	if bad.Allowed || bad.Result == nil || bad.Result.Details == nil || len(bad.Result.Details.Causes) != 1 {
		t.Fatalf("bad claim: %+v", bad)
	}
	want := metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.devices.config[1].opaque.parameters.sharing.replicas"}
	if c := bad.Result.Details.Causes[0]; c.Type != want.Type || c.Field != want.Field || !strings.Contains(c.Message, "greater than or equal to 1") {
		t.Errorf("cause %+v, want %+v", c, want)
	}
	if good := review(claim(3)); !good.Allowed {
		t.Errorf("good claim refused: %+v", good.Result)
	}

	resp, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("/healthz: %q", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("not stopped 20s after its context ended")
	}
	if !strings.Contains(errOut.String(), "Serving the opaque-config webhook for compute-domain.example.com, gpu.example.com on https://127.0.0.1:") {
		t.Errorf("stderr: %s", errOut.String())
	}
}
