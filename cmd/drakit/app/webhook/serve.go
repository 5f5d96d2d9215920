package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/admission"
	"github.com/drakit/drakit/driverconfig/schemavalidation"
)

var (
	serveLong = `Serve a validating admission webhook that checks drivers' opaque configs
against the schemas the drivers publish, with no driver code: the
parameters of each config of a driver the schemas file names, in
DeviceClasses, ResourceClaims and ResourceClaimTemplates of every version
(and 1.30's ResourceClaimParameters and ResourceClassParameters), are
validated as the API server validates a custom resource against its
CustomResourceDefinition's schema (OpenAPI v3 with defaults, list types and
x-kubernetes-validations CEL rules), with unknown fields refused as
fieldValidation=Strict refuses them. A refused object's errors name each
config's path in the object as the user wrote it, one cause each, so
kubectl prints them one per line. Configs of other drivers are left alone.

The schemas file:

  apiVersion: webhook.drakit.io/v1alpha1
  kind: ConfigSchemas
  drivers:
  - names: [gpu.example.com]          # every name the driver uses
    configs:
    - apiVersion: gpu.example.com/v1  # what the parameters carry
      kind: GpuConfig
      openAPIV3Schema:                # as in a CRD version's schema
        type: object
        properties:
          sharing:
            type: string
            enum: [TimeSlicing, SpacePartitioning]
        x-kubernetes-validations:
        - rule: "!has(self.replicas) || self.sharing == 'TimeSlicing'"

Each schema is checked at start as the API server checks a CRD's (it must
be structural; rules must compile within the cost limits); a bad file
stops the command with every problem's path in the file.

The certificate and key are read again when they change on disk
(rotation by cert-manager or a Secret mount), for the next connection.
Reviews are answered on --path; /healthz answers "ok". The command runs
until interrupted (SIGINT, SIGTERM) and then finishes the reviews in
flight. drakit webhook config writes the configuration that registers it.`

	serveExample = `  # Serve on :8443 with a cert-manager certificate
  drakit webhook serve --schemas /etc/gpu/schemas.yaml \
    --tls-cert-file /certs/tls.crt --tls-private-key-file /certs/tls.key`
)

// ServeOptions are the options of "drakit webhook serve".
type ServeOptions struct {
	SchemasFile       string
	CertFile, KeyFile string
	BindAddress       string
	Port              int
	Path              string
	// ReviewTimeout bounds one review's validation; ReadTimeout and
	// WriteTimeout one request on the connection.
	ReviewTimeout, ReadTimeout, WriteTimeout, ShutdownTimeout time.Duration
	MaxRequestBytes                                           int64

	// ctx, when set, stops the server when done (tests); otherwise
	// SIGINT or SIGTERM does.
	ctx context.Context
	// listening, when set, gets the address the server listens on.
	listening func(addr string)

	validator *schemavalidation.Validator
	genericiooptions.IOStreams
}

// NewServeOptions are the options with their defaults.
func NewServeOptions(streams genericiooptions.IOStreams) *ServeOptions {
	return &ServeOptions{
		BindAddress:     "0.0.0.0",
		Port:            8443,
		Path:            "/validate",
		ReviewTimeout:   admission.DefaultTimeout,
		ReadTimeout:     30 * time.Second,
		WriteTimeout:    30 * time.Second,
		ShutdownTimeout: 15 * time.Second,
		MaxRequestBytes: admission.DefaultMaxRequestBytes,
		IOStreams:       streams,
	}
}

// NewCmdServe is "drakit webhook serve".
func NewCmdServe(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewServeOptions(streams)
	cmd := &cobra.Command{
		Use:     "serve --schemas FILE --tls-cert-file FILE --tls-private-key-file FILE",
		Short:   "Serve a webhook that checks drivers' opaque configs against their published schemas (no driver code)",
		Long:    serveLong,
		Example: serveExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(f, cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run()
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.SchemasFile, "schemas", o.SchemasFile, "the drivers' config schemas (YAML or JSON, kind ConfigSchemas)")
	fl.StringVar(&o.CertFile, "tls-cert-file", o.CertFile, "PEM serving certificate (with its chain); reloaded when it changes")
	fl.StringVar(&o.KeyFile, "tls-private-key-file", o.KeyFile, "PEM private key of the certificate; reloaded when it changes")
	fl.StringVar(&o.BindAddress, "bind-address", o.BindAddress, "the address to listen on")
	fl.IntVar(&o.Port, "port", o.Port, "the port to listen on (0 picks a free one and prints it)")
	fl.StringVar(&o.Path, "path", o.Path, "the path reviews are POSTed to (the configuration's service path or URL path)")
	fl.DurationVar(&o.ReviewTimeout, "review-timeout", o.ReviewTimeout, "the longest one review's validation may take")
	fl.DurationVar(&o.ReadTimeout, "read-timeout", o.ReadTimeout, "the longest reading one request may take")
	fl.DurationVar(&o.WriteTimeout, "write-timeout", o.WriteTimeout, "the longest answering one request may take")
	fl.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", o.ShutdownTimeout, "how long reviews in flight may finish after SIGTERM")
	fl.Int64Var(&o.MaxRequestBytes, "max-request-bytes", o.MaxRequestBytes, "the largest AdmissionReview read; larger ones are refused")
	for _, name := range []string{"schemas", "tls-cert-file", "tls-private-key-file"} {
		_ = cmd.MarkFlagRequired(name)
	}
	_ = cmd.MarkFlagFilename("schemas", "yaml", "yml", "json")
	return cmd
}

// Complete loads the schemas.
func (o *ServeOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	v, err := schemavalidation.Load(o.SchemasFile)
	if err != nil {
		return err
	}
	o.validator = v
	return nil
}

// Validate checks the flags' values.
func (o *ServeOptions) Validate() error {
	if o.Port < 0 || o.Port > 65535 {
		return cmdutil.UsageErrorf("--port %d: 0 to 65535", o.Port)
	}
	if !strings.HasPrefix(o.Path, "/") || o.Path == "/healthz" {
		return cmdutil.UsageErrorf("--path %q: a path starting with / other than /healthz", o.Path)
	}
	for name, d := range map[string]time.Duration{"--review-timeout": o.ReviewTimeout, "--read-timeout": o.ReadTimeout, "--write-timeout": o.WriteTimeout} {
		if d <= 0 {
			return cmdutil.UsageErrorf("%s %v: must be positive", name, d)
		}
	}
	if o.MaxRequestBytes <= 0 {
		return cmdutil.UsageErrorf("--max-request-bytes %d: must be positive", o.MaxRequestBytes)
	}
	return nil
}

// Run serves until the context ends or a signal comes.
func (o *ServeOptions) Run() error {
	reg := driverconfig.NewRegistry()
	if err := o.validator.Register(reg); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(o.Path, admission.NewHandler(reg, admission.WithTimeout(o.ReviewTimeout), admission.WithMaxRequestBytes(o.MaxRequestBytes)))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) })

	addr := net.JoinHostPort(o.BindAddress, strconv.Itoa(o.Port))
	srv, err := admission.NewServer(addr, mux, o.CertFile, o.KeyFile)
	if err != nil {
		return err
	}
	srv.ReadTimeout, srv.WriteTimeout = o.ReadTimeout, o.WriteTimeout
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	ctx := o.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
	}
	fmt.Fprintf(o.ErrOut, "Serving the opaque-config webhook for %s on https://%s%s\n", strings.Join(o.validator.Drivers(), ", "), ln.Addr(), o.Path)
	if o.listening != nil {
		o.listening(ln.Addr().String())
	}
	served := make(chan error, 1)
	go func() { served <- srv.ServeTLS(ln, "", "") }()
	select {
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("stopping: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(o.ErrOut, "Stopped.")
	return nil
}
