package app

import "testing"

// kubectl runs a plugin with the plugin's file as argv[0]; an underscore in
// the file name is a dash in the command.
func TestDisplayName(t *testing.T) {
	for argv0, want := range map[string]string{
		"/usr/local/bin/kubectl-dra": "kubectl dra", "kubectl-dra.exe": "kubectl dra",
		"kubectl-dra_kit": "kubectl dra-kit", "./drakit": "drakit", "/tmp/go-build/exe/app": "drakit",
	} {
		if got := displayName(argv0); got != want {
			t.Errorf("displayName(%q) = %q, want %q", argv0, got, want)
		}
	}
}
