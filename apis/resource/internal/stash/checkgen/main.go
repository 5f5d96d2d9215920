//go:build checkgen

// Command checkgen writes apis/resource/internal/stash/zz_generated.checks.go:
// the compiled functions of the checks every version's conversion makes
// (stash.GenerateChecks). It imports every version of the catalogue, whose
// package variables make the checks, and writes the file with the header
// hack/update-codegen.sh gives the other generators. It must build without
// the file (hack/update-codegen.sh removes it first), which it does: the
// stash package walks the views of checks without a compiled function. It
// builds only with the checkgen tag, which also brings in
// stash.GenerateChecks (see checkgen.go).
//
// Usage: go run -tags checkgen ./apis/resource/internal/stash/checkgen --go-header-file FILE --output-file FILE
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// The versions' checks are made by their package variables, when the
// catalogue's imports are initialised.
var _ = catalogue.Versions

func main() {
	header := flag.String("go-header-file", "", "the file whose text starts the generated file")
	output := flag.String("output-file", "", "the file to write")
	flag.Parse()
	if *header == "" || *output == "" {
		fmt.Fprintln(os.Stderr, "checkgen: --go-header-file and --output-file are required")
		os.Exit(2)
	}
	text, err := os.ReadFile(*header)
	if err != nil {
		fmt.Fprintf(os.Stderr, "checkgen: %v\n", err)
		os.Exit(1)
	}
	src, err := stash.GenerateChecks(text)
	if err == nil {
		err = os.WriteFile(*output, src, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "checkgen: %v\n", err)
		os.Exit(1)
	}
}
