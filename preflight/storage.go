package preflight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// storageVersion is the storage version of hub in release 1.minor, the
// Announced one included.
func storageVersion(hub string, minor int) (catalogue.Storage, bool) {
	if minor == catalogue.Announced {
		return catalogue.AnnouncedStorage(hub)
	}
	return catalogue.StorageVersion(hub, minor)
}

// stored is one version objects of a kind may be stored in, with the
// releases that wrote it.
type stored struct {
	version     string
	first, last int
}

func (s stored) writers() string {
	if s.first == s.last {
		return rel(s.first)
	}
	return rel(s.first) + " to " + rel(s.last)
}

// mayBeStored lists the versions objects of hub may be stored in on a
// cluster at release 1.minor: each storage version of an earlier release
// (or its own) that every release since could read, for an object written
// then and not since.
func mayBeStored(hub string, minor int) []stored {
	var out []stored
	for r := catalogue.FirstRelease; r <= minor; r++ {
		s, ok := storageVersion(hub, r)
		if !ok {
			continue
		}
		readable := true
		for later := r + 1; later <= minor; later++ {
			if !catalogue.Decodes(hub, s.Version, later) {
				readable = false
				break
			}
		}
		if !readable {
			continue
		}
		if n := len(out); n > 0 && out[n-1].version == s.Version && out[n-1].last == r-1 {
			out[n-1].last = r
			continue
		}
		out = append(out, stored{version: s.Version, first: r, last: r})
	}
	return out
}

// CheckStorage walks a control plane from release 1.from to 1.to one
// release at a time, as Kubernetes upgrades and downgrades it, and
// reports, for every hub kind, the objects a release on the way cannot
// read: those stored in a version it does not know, and those of a kind
// it does not have. counts, when not nil, are the objects of each hub kind
// the cluster holds, by name: kinds with none are not reported, and the
// others' findings list them. Releases are from catalogue.FirstRelease to
// catalogue.Announced.
func CheckStorage(from, to int, objects map[string][]string) []Finding {
	var out []Finding
	if from == to {
		return nil
	}
	step := 1
	if to < from {
		step = -1
	}
	for _, hub := range catalogue.HubKinds() {
		names, known := objects[hub]
		if objects != nil && len(names) == 0 {
			continue
		}
		possible := mayBeStored(hub, from)
		for cur := from; cur != to && len(possible) > 0; cur += step {
			next := cur + step
			f := Finding{Object: "stored " + plural(hub), Release: rel(next), Objects: names, Count: len(names)}
			if !known {
				f.Objects, f.Count = nil, 0
			}
			if len(catalogue.ServedIn(hub, next)) == 0 {
				f.Severity, f.Check = Breaking, CheckKindGone
				f.Why = fmt.Sprintf("%s does not have the kind in any version: the objects stay in etcd, unread and unusable", rel(next))
				f.Do = kindGoneAdvice(hub, cur, next)
				out = append(out, f)
				possible = nil
				break
			}
			var unreadable []stored
			var kept []stored
			for _, s := range possible {
				if catalogue.Decodes(hub, s.version, next) {
					kept = append(kept, s)
					if next == catalogue.Announced {
						if _, served := catalogue.Serves(hub, s.version, next); !served {
							w := f
							w.Severity, w.Check = Warning, CheckStored
							w.Why = fmt.Sprintf("objects written by %s and not since are stored as %s, which %s no longer serves; %s announces nothing about reading it, and upstream keeps decoding it for stored objects (k/k#132275)", s.writers(), s.version, rel(next), rel(catalogue.Release))
							w.Do = fmt.Sprintf("on %s, rewrite every object of the kind (a StorageVersionMigration of its resource; drakit upgrade-check --from-cluster --storage-plan gives it) so that it is stored as %s", rel(cur), mustStorage(hub, cur))
							out = append(out, w)
						}
					}
					continue
				}
				unreadable = append(unreadable, s)
			}
			if len(unreadable) > 0 {
				uf, recreated := unreadableFinding(f, hub, cur, next, to, unreadable)
				out = append(out, uf)
				if recreated {
					// They are exported, deleted and created again on
					// the target: nothing of them is on the way.
					break
				}
			}
			possible = kept
			if s, ok := storageVersion(hub, next); ok {
				if i := slices.IndexFunc(possible, func(p stored) bool { return p.version == s.Version }); i >= 0 {
					possible[i].first, possible[i].last = min(possible[i].first, next), max(possible[i].last, next)
				} else {
					possible = append(possible, stored{version: s.Version, first: next, last: next})
				}
			}
		}
	}
	return out
}

func mustStorage(hub string, minor int) string {
	s, _ := storageVersion(hub, minor)
	return s.Version
}

// unreadableFinding is the finding for objects of hub stored in versions
// that release next cannot read, on the way from cur to to. recreated
// says that the only way is to recreate them on the target.
func unreadableFinding(f Finding, hub string, cur, next, to int, unreadable []stored) (_ Finding, recreated bool) {
	var what []string
	ownStorage := false
	curStorage := mustStorage(hub, cur)
	for _, s := range unreadable {
		what = append(what, fmt.Sprintf("%s (written by %s)", s.version, s.writers()))
		if s.version == curStorage {
			ownStorage = true
		}
	}
	f.Severity = Breaking
	_, rewriteHelps := catalogue.Serves(hub, curStorage, next)
	rewriteHelps = rewriteHelps || catalogue.Decodes(hub, curStorage, next)
	rewrite := fmt.Sprintf("on %s, rewrite every object of the kind so that it is stored as %s (a StorageVersionMigration of its resource where the cluster serves one, else a no-op update of each: drakit upgrade-check --from-cluster --storage-plan gives the steps), before moving to %s", rel(cur), curStorage, rel(next))
	recreate := fmt.Sprintf("export them on %s (kubectl get <resource> -A -o yaml), delete them, move to %s, convert them (drakit convert --output-version resource.k8s.io/%s --for-create) and create them there: docs/migration.md", rel(cur), rel(to), preferredName(hub, to))
	if len(catalogue.ServedIn(hub, to)) == 0 {
		recreate = fmt.Sprintf("export them on %s (kubectl get <resource> -A -o yaml) and delete them: %s does not have the kind (docs/migration.md says what replaces it)", rel(cur), rel(to))
	}
	if next < cur {
		f.Check = CheckDowngrade
		f.Why = fmt.Sprintf("downgrade from %s to %s is not supported with these objects: %s cannot read objects stored as %s", rel(cur), rel(next), rel(next), strings.Join(what, ", "))
		if ownStorage || !rewriteHelps {
			f.Do = "stay on " + rel(cur) + "; or " + recreate
			return f, true
		}
		f.Do = rewrite + " (upstream does not support the downgrade; this is the only way through)"
		return f, false
	}
	f.Check = CheckStored
	f.Why = fmt.Sprintf("%s cannot read objects stored as %s", rel(next), strings.Join(what, ", "))
	if ownStorage || !rewriteHelps {
		f.Do = recreate
		return f, true
	}
	f.Do = rewrite + "; or " + recreate
	return f, false
}

// kindGoneAdvice says what to do with the objects of a kind that release
// next does not have.
func kindGoneAdvice(hub string, cur, next int) string {
	if next < cur {
		return fmt.Sprintf("delete them before the downgrade, or stay on %s", rel(cur))
	}
	return fmt.Sprintf("export them (kubectl get <resource> -A -o yaml) and delete them before moving to %s; docs/migration.md says what replaces them and how to bring them back", rel(next))
}

// preferredName is the version a client should use for hub with release
// minor, or the newest version of the catalogue that has the kind.
func preferredName(hub string, minor int) string {
	if s, ok := catalogue.PreferredIn(hub, minor); ok {
		return s.Version.Name
	}
	return "v1"
}
