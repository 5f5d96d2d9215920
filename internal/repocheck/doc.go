// Package repocheck holds tests over the Go sources of the main module as a
// whole: rules of the project's style that no one package can check for
// itself (names that carry a Kubernetes release, see names_test.go). It
// has no code of its own.
package repocheck
