// Package openapi is "drakit openapi": the OpenAPI document or JSON
// Schemas of one version of resource.k8s.io.
package openapi

import (
	"bytes"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	drakitopenapi "github.com/drakit/drakit/openapi"
)

var (
	openapiLong = `Print the OpenAPI definition of one version of resource.k8s.io, as the API
server of its release serves it:

  v3          the OpenAPI v3 document of /openapi/v3/apis/resource.k8s.io/VERSION
  v2          the part of the OpenAPI v2 (swagger) document for the version
  jsonschema  standalone JSON Schemas of every kind, keyed by kind, for
              editors and schema-based validators`

	openapiExample = `  # The 1.30 OpenAPI v3 document
  drakit openapi --api-version resource.k8s.io/v1alpha2

  # JSON Schemas for the 1.31 kinds
  drakit openapi --api-version resource.k8s.io/v1alpha3 --format jsonschema > dra-schemas.json`
)

// Options are the options of "drakit openapi".
type Options struct {
	// APIVersion is --api-version.
	APIVersion string
	// Format is --format: v2, v3 or jsonschema.
	Format string

	gv schema.GroupVersion

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{Format: drakitopenapi.FormatV3, IOStreams: streams}
}

// NewCmdOpenAPI is "drakit openapi".
func NewCmdOpenAPI(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "openapi --api-version resource.k8s.io/VERSION",
		Short:   "Print the OpenAPI document or JSON Schemas of a version",
		Long:    openapiLong,
		Example: openapiExample,
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
	cmd.Flags().StringVar(&o.APIVersion, "api-version", "", "the version: "+strings.Join(cmdutil.GroupVersions(), ", "))
	cmd.Flags().StringVar(&o.Format, "format", o.Format, "v2, v3 or jsonschema")
	_ = cmd.MarkFlagRequired("api-version")
	_ = cmd.RegisterFlagCompletionFunc("api-version", cmdutil.CompleteGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("format", cmdutil.FixedCompletion(drakitopenapi.FormatV2, drakitopenapi.FormatV3, drakitopenapi.FormatJSONSchema))
	return cmd
}

// Complete reads --api-version.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	gv, err := cmdutil.ParseGroupVersion("--api-version", o.APIVersion)
	if err != nil {
		return err
	}
	o.gv = gv
	return nil
}

// Validate checks --format.
func (o *Options) Validate() error {
	switch o.Format {
	case drakitopenapi.FormatV2, drakitopenapi.FormatV3, drakitopenapi.FormatJSONSchema:
		return nil
	}
	return cmdutil.UsageErrorf("unknown --format %q: use %s, %s or %s", o.Format, drakitopenapi.FormatV2, drakitopenapi.FormatV3, drakitopenapi.FormatJSONSchema)
}

// Run prints the document.
func (o *Options) Run() error {
	doc, err := drakitopenapi.Document(o.gv.String(), o.Format)
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(doc, []byte("\n")) {
		doc = append(doc, '\n')
	}
	_, err = o.Out.Write(doc)
	return err
}
