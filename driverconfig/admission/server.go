package admission

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// CertReloader serves a certificate and key from two PEM files and reads
// them again when they change, so that a webhook keeps serving across
// rotations (cert-manager, a kubelet-updated Secret volume) without a
// restart. It looks at the files' size and modification time on every
// TLS handshake (a stat of two files; handshakes are rare with keep-alive
// connections) and reloads when either changed. A pair that does not load
// (the key written, the certificate not yet) leaves the previous pair in
// service, and is tried again at the next handshake.
type CertReloader struct {
	certFile, keyFile string
	logger            logr.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   fileStamp
	lastErr error
}

type fileStamp struct {
	certMod, keyMod   time.Time
	certSize, keySize int64
}

// NewCertReloader loads the pair once; it fails if that first load does.
func NewCertReloader(certFile, keyFile string) (*CertReloader, error) {
	c := &CertReloader{certFile: certFile, keyFile: keyFile, logger: klog.Background().WithName("driverconfig-admission")}
	if err := c.reload(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *CertReloader) stampNow() (fileStamp, error) {
	cs, err := os.Stat(c.certFile)
	if err != nil {
		return fileStamp{}, err
	}
	ks, err := os.Stat(c.keyFile)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{certMod: cs.ModTime(), keyMod: ks.ModTime(), certSize: cs.Size(), keySize: ks.Size()}, nil
}

// reload loads the pair if the files changed since the last load. The
// caller holds no lock.
func (c *CertReloader) reload() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	stamp, err := c.stampNow()
	if err != nil {
		return fmt.Errorf("serving certificate: %w", err)
	}
	if c.cert != nil && stamp == c.stamp {
		return nil
	}
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		err = fmt.Errorf("loading the serving certificate %s and key %s: %w", c.certFile, c.keyFile, err)
		if c.lastErr == nil || c.lastErr.Error() != err.Error() {
			c.logger.Error(err, "keeping the previous serving certificate")
		}
		c.lastErr = err
		return err
	}
	if c.cert != nil {
		c.logger.Info("reloaded the serving certificate", "cert", c.certFile, "key", c.keyFile)
	}
	c.cert, c.stamp, c.lastErr = &pair, stamp, nil
	return nil
}

// GetCertificate is tls.Config.GetCertificate: the current pair, after a
// reload if the files changed.
func (c *CertReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	_ = c.reload() // on error the previous pair stays, and was logged
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cert, nil
}

// TLSConfig is a server TLS configuration (TLS 1.2 at least) that serves
// the reloader's pair.
func (c *CertReloader) TLSConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.GetCertificate}
}

// NewServer returns the HTTPS server of a webhook: handler on addr, the
// pair of certFile and keyFile reloaded as they rotate, and timeouts that
// a stalled or slow client cannot hold a connection past. Start it with
// ListenAndServeTLS("", "") and stop it with Shutdown.
func NewServer(addr string, handler http.Handler, certFile, keyFile string) (*http.Server, error) {
	certs, err := NewCertReloader(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	return &http.Server{
		Addr:              addr,
		Handler:           handler,
		TLSConfig:         certs.TLSConfig(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}, nil
}
