package v1

import "strings"

// String writes the taint the way node taints are usually written:
// "key=value:effect", leaving out "=value" when the value is empty and
// the effect part when the effect is empty (so "key=value:" and "key").
func (t DeviceTaint) String() string {
	var b strings.Builder
	b.WriteString(t.Key)
	if t.Value != "" {
		b.WriteString("=")
		b.WriteString(t.Value)
	}
	if t.Effect != "" || t.Value != "" {
		b.WriteString(":")
		b.WriteString(string(t.Effect))
	}
	return b.String()
}
