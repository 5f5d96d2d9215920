package admission

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
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
)

// writePair writes a self-signed certificate for 127.0.0.1 with the
// serial and its key, and returns the certificate.
func writePair(t *testing.T, certFile, keyFile string, serial int64) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial),
		Subject:               pkix.Name{CommonName: "webhook"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	// Write the key first and the certificate last, as a rotation that
	// is not atomic would: between the two the pair does not match.
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// TestServerReloadsCertificate serves a review over TLS, rotates the
// pair on disk and sees the next connection served with the new one; a
// half-written rotation keeps the old pair in service.
func TestServerReloadsCertificate(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	first := writePair(t, certFile, keyFile, 1)

	srv, err := NewServer("127.0.0.1:0", testHandler(t), certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 {
		t.Errorf("a server timeout is not set: %+v", srv)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

	// call posts a good review on a new connection trusting cert and
	// returns the serial the server presented.
	call := func(cert *x509.Certificate) (int64, error) {
		pool := x509.NewCertPool()
		pool.AddCert(cert)
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}}
		body := review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", goodParams, goodParams), "")
		resp, err := client.Post("https://"+ln.Addr().String()+"/validate", "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		defer func() { _ = resp.Body.Close() }()
		var out admissionv1.AdmissionReview
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Response == nil || !out.Response.Allowed {
			t.Fatalf("the review over TLS was not allowed: %v %+v", err, out.Response)
		}
		return resp.TLS.PeerCertificates[0].SerialNumber.Int64(), nil
	}
	if serial, err := call(first); err != nil || serial != 1 {
		t.Fatalf("first certificate: serial %d, %v", serial, err)
	}

	// A key that does not match the certificate: the old pair stays.
	if err := os.WriteFile(keyFile, []byte("-----BEGIN EC PRIVATE KEY-----\nbm90IGEga2V5\n-----END EC PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if serial, err := call(first); err != nil || serial != 1 {
		t.Fatalf("during a half-written rotation: serial %d, %v", serial, err)
	}

	second := writePair(t, certFile, keyFile, 2)
	if serial, err := call(second); err != nil || serial != 2 {
		t.Fatalf("after the rotation: serial %d, %v", serial, err)
	}
	if _, err := call(first); err == nil {
		t.Error("the old certificate is still served")
	}
}

func TestNewServerMissingFiles(t *testing.T) {
	if _, err := NewServer(":0", testHandler(t), "/nonexistent/tls.crt", "/nonexistent/tls.key"); err == nil {
		t.Error("NewServer with missing files did not fail")
	}
}
