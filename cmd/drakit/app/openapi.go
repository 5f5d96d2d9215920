package app

import (
	"bytes"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/openapi"
)

type openAPIOptions struct {
	apiVersion string
	format     string
}

func newOpenAPICommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	o := &openAPIOptions{}
	cmd := &cobra.Command{
		Use:   "openapi --api-version resource.k8s.io/VERSION",
		Short: "Print the OpenAPI document or JSON Schemas of a version",
		Long: `Print the OpenAPI definition of one version of resource.k8s.io, as the API
server of its release serves it:

  v3          the OpenAPI v3 document of /openapi/v3/apis/resource.k8s.io/VERSION
  v2          the part of the OpenAPI v2 (swagger) document for the version
  jsonschema  standalone JSON Schemas of every kind, keyed by kind, for
              editors and schema-based validators`,
		Example: `  # The 1.30 OpenAPI v3 document
  drakit openapi --api-version resource.k8s.io/v1alpha2

  # JSON Schemas for the 1.31 kinds
  drakit openapi --api-version resource.k8s.io/v1alpha3 --format jsonschema > dra-schemas.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(s)
		},
	}
	cmd.Flags().StringVar(&o.apiVersion, "api-version", "", "the version: "+strings.Join(cmdutil.GroupVersions(), ", "))
	cmd.Flags().StringVar(&o.format, "format", openapi.FormatV3, "v2, v3 or jsonschema")
	_ = cmd.MarkFlagRequired("api-version")
	_ = cmd.RegisterFlagCompletionFunc("api-version", cmdutil.CompleteGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("format", cmdutil.FixedCompletion(openapi.FormatV2, openapi.FormatV3, openapi.FormatJSONSchema))
	return cmd
}

func (o *openAPIOptions) run(s genericiooptions.IOStreams) error {
	gv, err := cmdutil.ParseGroupVersion("--api-version", o.apiVersion)
	if err != nil {
		return err
	}
	switch o.format {
	case openapi.FormatV2, openapi.FormatV3, openapi.FormatJSONSchema:
	default:
		return cmdutil.UsageErrorf("unknown --format %q: use %s, %s or %s", o.format, openapi.FormatV2, openapi.FormatV3, openapi.FormatJSONSchema)
	}
	doc, err := openapi.Document(gv.String(), o.format)
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(doc, []byte("\n")) {
		doc = append(doc, '\n')
	}
	_, err = s.Out.Write(doc)
	return err
}
