package describe

import (
	"bytes"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/allocator"
)

// A pod whose claims fit says on which node, counting the nodes tried in
// words that fit one node as well as several.
func TestOutcomeCountsNodes(t *testing.T) {
	for _, c := range []struct {
		nodes int
		want  string
	}{
		{1, "  Its claims can be allocated on node n0 (the only node; DRA and the node filters allow it): what keeps it pending is not its devices\n"},
		{3, "  Its claims can be allocated on node n0 (the first of 3 nodes, by name, that DRA and the node filters allow): what keeps it pending is not its devices\n"},
	} {
		placed := &allocator.Placement{}
		for i := 0; i < c.nodes; i++ {
			placed.Nodes = append(placed.Nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n" + string(rune('0'+i))}})
		}
		var out bytes.Buffer
		printOutcome(&out, &Replay{Pod: allocator.PodResult{Name: "ml/a", Node: "n0"}, Placement: placed}, true)
		if got, _, _ := strings.Cut(out.String(), "\n"); got+"\n" != c.want {
			t.Errorf("%d nodes: got\n%s\nwant\n%s", c.nodes, got, c.want)
		}
	}
}
