package allocator

import (
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
)

// urlNamespace is RFC 4122's name space for URLs (appendix C); share IDs
// are names under "drakit.io/allocator/shareID".
var urlNamespace = [16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}

// shareID names one share of a multi-allocation device. Upstream draws a
// random UUID; drakit derives a name-based UUID (RFC 4122 version 5, SHA-1)
// from the claim's identity (its UID, else namespace/name), the result's
// request, the device and the result's index, so that the same input always
// gives the same allocation, while shares of different claims differ. If
// the ID is already used on the device (a share allocated before, or one
// made earlier in the call, as happens when two claims share an identity),
// the next attempt number is mixed in until it is not. held are the
// device's shares allocated before the call (Allocator.shares).
func (a *Allocator) shareID(claim *resource.ResourceClaim, request string, id DeviceID, index int, held *deviceShares) types.UID {
	identity := string(claim.UID)
	if identity == "" {
		identity = claim.Namespace + "/" + claim.Name
	}
	// The SHA-1 input: name space, then the name.
	name := append(a.shareBuf[:0], urlNamespace[:]...)
	name = append(name, shareIDPrefix...)
	// The memo's key leaves out what every name starts with.
	const keyStart = len(urlNamespace) + len(shareIDPrefix)
	name = append(name, identity...)
	name = append(name, 0)
	name = append(name, request...)
	name = append(name, 0)
	name = append(name, id.Driver...)
	name = append(name, '/')
	name = append(name, id.Pool...)
	name = append(name, '/')
	name = append(name, id.Device...)
	name = append(name, 0)
	name = strconv.AppendInt(name, int64(index), 10)
	base := len(name)
	// Attempts that meet an ID in use cost no allocation: claims of one
	// identity (a benchmark's, a test's) meet one per share on the device.
	memo := a.shareMemo[string(name[keyStart:])]
	var known []types.UID
	if memo != nil {
		known = memo.ids
	}
	derived := len(known)
	// The attempts before the device's hint are in use: they were when
	// the hint was taken, and none was released since.
	start := 0
	if held != nil && memo != nil && held.hintOf == memo && held.hintUnholds == held.unholds {
		start = held.hintNext
	}
	var uid types.UID
	attempt := start
	for ; ; attempt++ {
		if attempt < len(known) {
			uid = known[attempt]
		} else {
			name = name[:base]
			if attempt > 0 {
				name = append(name, 0)
				name = strconv.AppendInt(name, int64(attempt), 10)
			}
			uid = uuidOf(sha1.Sum(name))
			known = append(known, uid)
		}
		if held != nil && held.ids[uid] {
			continue
		}
		if slices.Contains(a.callShareIDs, madeShare{id, uid}) {
			continue
		}
		break
	}
	if len(known) > derived {
		if memo == nil {
			if a.shareMemo == nil || len(a.shareMemo) >= maxShareMemo {
				a.shareMemo = make(map[string]*shareNames)
			}
			memo = &shareNames{}
			a.shareMemo[string(name[keyStart:base])] = memo
		}
		memo.ids = known
	}
	if held != nil {
		held.hintOf, held.hintNext, held.hintUnholds = memo, attempt, held.unholds
	}
	a.shareBuf = name[:0]
	a.callShareIDs = append(a.callShareIDs, madeShare{id, uid})
	return uid
}

// shareNames are the IDs shareID derived for one name, attempt by attempt.
type shareNames struct {
	ids []types.UID
}

// shareIDPrefix follows the name space in the name of every shareID.
const shareIDPrefix = "drakit.io/allocator/shareID\x00"

// maxShareMemo bounds Allocator.shareMemo: past it, the names remembered
// are dropped and derived again when asked for.
const maxShareMemo = 4096

// madeShare is a shareID made in the current call, with its device.
type madeShare struct {
	device DeviceID
	uid    types.UID
}

// nameUUID is the version 5 UUID of name in namespace (RFC 4122 §4.3).
func nameUUID(namespace [16]byte, name []byte) types.UID {
	return uuidOf(sha1.Sum(append(namespace[:], name...)))
}

// uuidOf makes a SHA-1 sum a version 5 UUID in its normalized form:
// lowercase hexadecimal in 8-4-4-4-12 groups.
func uuidOf(sum [sha1.Size]byte) types.UID {
	var s [36]byte
	uuidText(sum, &s)
	return types.UID(s[:])
}

// uuidText writes the UUID of uuidOf into s.
func uuidText(sum [sha1.Size]byte, s *[36]byte) {
	u := sum[:16]
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // variant RFC 4122
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], u[10:16])
}
