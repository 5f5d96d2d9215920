package agreement

import (
	"fmt"
	"os"
	"strings"
)

// recording reports whether DRAKIT_E2E_RECORD=1 asks the replay to write
// the server's answers into the cases whose expectations are the server's
// (see checkOwnRelease): how a new case gets its expect lines, and how a
// changed server's answers get into the corpus for review in the diff.
func recording() bool { return os.Getenv("DRAKIT_E2E_RECORD") == "1" }

// recordExpectations replaces the expect lines of the case file with the
// server's answer. Only a validation answer is recorded (a success or the
// causes of a 422); anything else (a 400 for an unknown field, a 403 of an
// admission plugin) means the case does not test validation and must be
// fixed by hand.
func recordExpectations(c corpusCase, server []string) error {
	for _, p := range server {
		if !strings.HasPrefix(p, "FieldValue") {
			return fmt.Errorf("%s: the server's answer %q is not a validation error; fix the case", c.path, p)
		}
	}
	data, err := os.ReadFile(c.path)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(data), "\n")
	expect := []string{"# expect: valid\n"}
	if len(server) > 0 {
		expect = expect[:0]
		for _, p := range server {
			expect = append(expect, "# expect: "+p+"\n")
		}
	}
	var out []string
	inserted := false
	header := true
	for _, l := range lines {
		if header && !strings.HasPrefix(l, "#") {
			header = false
			if !inserted {
				out = append(out, expect...)
				inserted = true
			}
		}
		if header && strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "#")), "expect:") {
			if !inserted {
				out = append(out, expect...)
				inserted = true
			}
			continue
		}
		out = append(out, l)
	}
	return os.WriteFile(c.path, []byte(strings.Join(out, "")), 0o644)
}
