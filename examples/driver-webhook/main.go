// Command driver-webhook is the validating admission webhook of a made-up
// DRA driver, gpu.example.com, built on drakit's driverconfig packages: it
// checks the driver's GpuConfig in the opaque configs of ResourceClaims,
// ResourceClaimTemplates and DeviceClasses of every resource.k8s.io
// version, strictly, and refuses bad ones with a cause per config path.
//
//	driver-webhook --tls-cert-file tls.crt --tls-private-key-file tls.key
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/admission"
)

// GpuConfig is the driver's config: apiVersion gpu.example.com/v1, kind
// GpuConfig.
type GpuConfig struct {
	metav1.TypeMeta `json:",inline"`
	// Sharing is TimeSlicing or MPS; empty means exclusive use.
	Sharing string `json:"sharing,omitempty"`
}

// DeepCopyObject makes GpuConfig a runtime.Object.
func (c *GpuConfig) DeepCopyObject() runtime.Object { out := *c; return &out }

// registry decodes the driver's configs.
func registry() *driverconfig.Registry {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypes(schema.GroupVersion{Group: "gpu.example.com", Version: "v1"}, &GpuConfig{})
	reg := driverconfig.NewRegistry()
	reg.MustRegister(driverconfig.NewSchemeDecoder(scheme, validate), "gpu.example.com")
	return reg
}

// validate is all the driver-specific logic.
func validate(_ context.Context, obj runtime.Object, path *field.Path) field.ErrorList {
	switch c := obj.(type) {
	case *GpuConfig:
		if c.Sharing != "" && c.Sharing != "TimeSlicing" && c.Sharing != "MPS" {
			return field.ErrorList{field.NotSupported(path.Child("sharing"), c.Sharing, []string{"TimeSlicing", "MPS"})}
		}
		return nil
	default:
		return field.ErrorList{field.InternalError(path, fmt.Errorf("unexpected %T", obj))}
	}
}

func main() {
	port := flag.Int("port", 8443, "the HTTPS port")
	cert := flag.String("tls-cert-file", "", "the serving certificate (PEM); reloaded when it changes")
	key := flag.String("tls-private-key-file", "", "the serving certificate's key (PEM)")
	flag.Parse()

	mux := http.NewServeMux()
	mux.Handle("/validate-resource-claim-parameters", admission.NewHandler(registry()))
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	srv, err := admission.NewServer(fmt.Sprintf(":%d", *port), mux, *cert, *key)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.ListenAndServeTLS("", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
