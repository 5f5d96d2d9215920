package allocator

import (
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// nodeMatcher is a parsed core/v1 NodeSelector: the terms are ORed, the
// requirements of one term ANDed, as the scheduler's node affinity does.
type nodeMatcher struct {
	terms []nodeTerm
}

type nodeTerm struct {
	labels []requirement
	fields []requirement
}

type requirement struct {
	key    string
	op     corev1.NodeSelectorOperator
	values map[string]struct{}
	number int64 // Gt, Lt
}

// parseNodeSelector checks a selector the way the scheduler's node affinity
// does when it builds one, so that a selector the scheduler would refuse is
// refused here too, naming the offending field.
func parseNodeSelector(sel *corev1.NodeSelector) (*nodeMatcher, error) {
	m := &nodeMatcher{}
	for i, term := range sel.NodeSelectorTerms {
		var t nodeTerm
		for j, req := range term.MatchExpressions {
			r, err := parseRequirement(req, false)
			if err != nil {
				return nil, fmt.Errorf("nodeSelectorTerms[%d].matchExpressions[%d]: %w", i, j, err)
			}
			t.labels = append(t.labels, r)
		}
		for j, req := range term.MatchFields {
			r, err := parseRequirement(req, true)
			if err != nil {
				return nil, fmt.Errorf("nodeSelectorTerms[%d].matchFields[%d]: %w", i, j, err)
			}
			t.fields = append(t.fields, r)
		}
		m.terms = append(m.terms, t)
	}
	return m, nil
}

func parseRequirement(req corev1.NodeSelectorRequirement, field bool) (requirement, error) {
	r := requirement{key: req.Key, op: req.Operator}
	if field {
		// Nodes can be selected by one field only.
		if req.Key != "metadata.name" {
			return r, fmt.Errorf("key %q: only metadata.name can be used in matchFields", req.Key)
		}
		if req.Operator != corev1.NodeSelectorOpIn && req.Operator != corev1.NodeSelectorOpNotIn {
			return r, fmt.Errorf("operator %q: matchFields supports only In and NotIn", req.Operator)
		}
		if len(req.Values) != 1 {
			return r, fmt.Errorf("matchFields for metadata.name needs exactly one value, got %d", len(req.Values))
		}
	}
	switch req.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(req.Values) == 0 {
			return r, fmt.Errorf("operator %s needs at least one value", req.Operator)
		}
		r.values = make(map[string]struct{}, len(req.Values))
		for _, v := range req.Values {
			r.values[v] = struct{}{}
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(req.Values) != 0 {
			return r, fmt.Errorf("operator %s takes no values", req.Operator)
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(req.Values) != 1 {
			return r, fmt.Errorf("operator %s needs exactly one value", req.Operator)
		}
		n, err := strconv.ParseInt(req.Values[0], 10, 64)
		if err != nil {
			return r, fmt.Errorf("operator %s needs an integer value, got %q", req.Operator, req.Values[0])
		}
		r.number = n
	default:
		return r, fmt.Errorf("unknown operator %q", req.Operator)
	}
	return r, nil
}

func (m *nodeMatcher) matches(node *corev1.Node) bool {
	for _, t := range m.terms {
		// A term without requirements selects no node.
		if len(t.labels) == 0 && len(t.fields) == 0 {
			continue
		}
		if allMatch(t.labels, node.Labels) && allMatch(t.fields, map[string]string{"metadata.name": node.Name}) {
			return true
		}
	}
	return false
}

func allMatch(reqs []requirement, values map[string]string) bool {
	for _, r := range reqs {
		v, has := values[r.key]
		switch r.op {
		case corev1.NodeSelectorOpIn:
			if _, ok := r.values[v]; !has || !ok {
				return false
			}
		case corev1.NodeSelectorOpNotIn:
			if _, ok := r.values[v]; has && ok {
				return false
			}
		case corev1.NodeSelectorOpExists:
			if !has {
				return false
			}
		case corev1.NodeSelectorOpDoesNotExist:
			if has {
				return false
			}
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
			if !has {
				return false
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || (r.op == corev1.NodeSelectorOpGt && n <= r.number) || (r.op == corev1.NodeSelectorOpLt && n >= r.number) {
				return false
			}
		}
	}
	return true
}
