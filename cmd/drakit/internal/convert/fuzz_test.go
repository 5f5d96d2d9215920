package convert

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
	"github.com/drakit/drakit/conversion"
)

// FuzzConvert feeds arbitrary streams through the whole decode and convert
// path of `drakit convert`. Whatever the input, conversion must not panic,
// and when it succeeds its output must be a stream that drakit reads back
// without a problem and that is already converted: converting it again to
// the same version changes nothing, byte for byte.
//
// The seeds are every file of examples/ for every target version, and a
// few inputs drakit must refuse. As a normal test (go test) it runs the
// seeds; to fuzz:
//
//	go test ./cmd/drakit/internal/convert -run '^$' -fuzz FuzzConvert -fuzztime 5m
func FuzzConvert(f *testing.F) {
	for _, file := range exampleFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for target := uint8(0); target < 3; target++ {
			f.Add(data, target, true)
		}
	}
	for _, bad := range []string{
		"a: &a [x]\nb: &b [*a,*a]\nc: [*b,*b]\n",
		"{\"apiVersion\":\"resource.k8s.io/v1alpha1\",\"kind\":\"ResourceClaim\",\"spec\":{\"resourceClassName\":\"x\"}}{\"kind\":",
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1alpha2\n  kind: ResourceClaimList\n  items: []\n",
		"apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClassList\nitems:\n- apiVersion: v1\n  kind: Pod\n",
		"\x00\x01binary",
		// Aliases that would expand a small document past the size limit.
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  a: &a \"" + strings.Repeat("x", 4096) + "\"\n  b: [" + strings.Repeat("*a, ", 40) + "*a]\n",
		"apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata: &m {name: x}\nspec:\n  selectors:\n  - cel: {expression: &e 'device.driver == \"x\"'}\n  - cel: {expression: *e}\n",
		"apiVersion: v1\nkind: ConfigMap\ndata: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
		"apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d\n  pool: {name: p, resourceSliceCount: 1}\n  devices:\n  - name: a\n    basic:\n      capacity:\n        mem: 1e100000000\n",
		"apiVersion: resource.k8s.io/v1alpha1\nkind: ResourceClaim\nmetadata:\n  annotations:\n    conversion.drakit.io/stash: '{\"v\":1,'\n",
	} {
		f.Add([]byte(bad), uint8(2), true)
		f.Add([]byte(bad), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, target uint8, strict bool) {
		opts := Options{Target: conversion.Versions[int(target)%len(conversion.Versions)], Strict: strict}
		out, failed, unnamed := convertBytes(opts, data)
		if len(unnamed) > 0 {
			t.Fatalf("problems that do not name the file and document: %q", unnamed)
		}
		if failed > 0 {
			return
		}
		again, failed, _ := convertBytes(opts, out)
		if failed > 0 {
			t.Fatalf("drakit cannot read its own output:\n%s", out)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("converting the output again changed it:\nfirst:\n%s\nsecond:\n%s", out, again)
		}
	})
}

// convertBytes converts data and returns the output, the number of
// problems (not warnings) and the problems that do not name the source and
// document.
func convertBytes(opts Options, data []byte) (out []byte, failed int, problems []string) {
	c := &Converter{Options: opts, Report: func(e *manifest.Error, warning bool) {
		if !warning {
			failed++
		}
		// Every problem names the source and the document, on one line.
		msg := e.Error()
		if e.Source != "fuzz.yaml" || e.Index < 1 || !strings.HasPrefix(msg, "fuzz.yaml") || strings.ContainsAny(msg, "\n\r") {
			problems = append(problems, msg)
		}
	}}
	var buf bytes.Buffer
	r := manifest.NewReader(bytes.NewReader(data), "fuzz.yaml")
	r.SetMaxDocumentBytes(64 << 10)
	if _, err := c.Stream(printer.NewStream(&buf, printer.YAML), r); err != nil {
		failed++
	}
	return buf.Bytes(), failed, problems
}
