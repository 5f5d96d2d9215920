package app

// The goldens of the migration recipe (docs/migration.md): a real export of
// a 1.30 cluster's claims brought to v1 for kubectl create, and the same
// export made creatable again at its own version (what the recipe does to
// the kinds v1 has no place for).
func init() {
	goldenCases = append(goldenCases,
		goldenCase{name: "convert-export-for-create", args: []string{"convert", "-f", inputFile("export-1.30-claims.yaml"), "--output-version", "resource.k8s.io/v1", "--for-create"}},
		goldenCase{name: "convert-export-same-version-for-create", args: []string{"convert", "-f", inputFile("export-1.30-claims.yaml"), "--output-version", "resource.k8s.io/v1alpha2", "--for-create"}},
	)
}
