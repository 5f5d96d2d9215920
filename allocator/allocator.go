package allocator

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/internal/quantityguard"
)

// DeviceID names one device: the driver, the pool and the device's name.
type DeviceID struct {
	Driver, Pool, Device string
}

func (d DeviceID) String() string { return d.Driver + "/" + d.Pool + "/" + d.Device }

// Mode says how the claims of one Allocate call relate.
type Mode int

const (
	// Joint allocates the claims of a call together, all or nothing, the
	// way the scheduler allocates the claims of one pod: if one of them
	// cannot be allocated, none is, and the others fail with
	// ReasonOtherClaimFailed.
	Joint Mode = iota
	// Sequential allocates the claims one after the other; each claim keeps
	// what it got, and a claim that cannot be allocated does not stop the
	// ones after it.
	Sequential
)

// Options are the inputs of an Allocator. All objects are hub objects
// (convert versioned objects with conversion.ToHub, or use
// AllocateObjects) and must not be modified while the Allocator uses them:
// to change a slice, pass a new object through SetSlices.
type Options struct {
	// Classes are the DeviceClasses that requests may name.
	Classes []*resource.DeviceClass
	// Slices are the published devices. Slices of all nodes may be given;
	// each allocation sees only those the node can reach. The list is
	// kept, not copied: neither it nor its slices may be modified while
	// the Allocator uses them (SetSlices replaces the inventory).
	Slices []*resource.ResourceSlice
	// AllocatedClaims are claims whose status.allocation holds devices that
	// are in use. Claims without allocation are ignored. A result with
	// adminAccess holds nothing and a result with a shareID holds only its
	// share: the capacity it consumed.
	AllocatedClaims []*resource.ResourceClaim
	// AllocatedDevices are further devices in use. The list is kept, not
	// copied (as upstream keeps the caller's set of allocated devices): it
	// must not be modified while the Allocator uses it. Record changes
	// with MarkAllocated and MarkFree.
	AllocatedDevices []DeviceID
	// Node is the node on which the claims are to be used. Nil means no
	// node: only slices with allNodes are considered (network-attached
	// devices that every node reaches).
	Node *corev1.Node
	// Mode relates the claims of one Allocate call; Joint by default.
	Mode Mode
	// Features switch the parts of structured allocation that Kubernetes
	// keeps behind feature gates (see Features). Nil means
	// DefaultFeatures, the defaults of a 1.37 scheduler; the zero Features
	// has every gate off.
	Features *Features
	// DeviceTaintRules are the DeviceTaintRules in force. With
	// Features.DeviceTaints and Features.DeviceTaintRules their taints
	// count as taints of the devices they select, as the scheduler's slice
	// tracker merges them; otherwise they play no part.
	DeviceTaintRules []*resource.DeviceTaintRule
}

// Allocator allocates claims against an inventory of classes and slices.
// It keeps, across calls, the compiled selectors and the result of every
// selector on every device, until the device's slice is replaced. An
// Allocator is not safe for concurrent use.
//
// Its state is grouped by lifetime: the configuration (set by New and the
// setters), the inventory (slices, what was learnt about them, what is in
// use), the selector store (compiled expressions and interned values,
// kept for the Allocator's life) and the memory of one call (callScratch,
// emptied by startCall).
type Allocator struct {
	config
	inventory
	selectorStore
	callScratch
	stats Stats
}

// config is what New and the setters set.
type config struct {
	node     *corev1.Node
	mode     Mode
	features Features
	// taintRules are the DeviceTaintRules; taintRulesGen counts their
	// changes (sliceTaints).
	taintRules    []*resource.DeviceTaintRule
	taintRulesGen int
	classes       map[string]*resource.DeviceClass
}

// inventory is the caller's list of slices (kept, not copied) with what
// the allocator learnt about them, and what is in use.
type inventory struct {
	// By position in the list, each slice's entry, made when a call first
	// needs the slice (entryAt), except for the slices without a
	// nodeName, which SetSlices makes at once (it checks their node
	// selection).
	sliceList  []*resource.ResourceSlice
	entries    []*sliceEntry
	allNodes   []*sliceEntry
	bySelector []*sliceEntry
	perDevice  []*sliceEntry // node selection per device
	// byNode is the position of each node's first slice and nodeNext,
	// by position, that of the node's next slice (-1: none): most nodes
	// have one slice, and a list per node cost a cold scheduler's
	// Allocator an allocation per node of the cluster. Both are built once
	// nodeScanLimit nodes were looked up by scanning the list
	// (appendNodeSlices).
	byNode    map[string]int32
	nodeNext  []int32
	nodeScans int
	// nodeViews are the views kept by node name (viewFor), nil for a node
	// asked about once.
	nodeViews map[string]*view
	byPool    map[poolKey][]int32 // positions in name order, built on first use (poolSlices)
	// scannedList are the scanned entries, for setInUse; scannedByPool holds
	// them by pool once setInUse has looked for a pool's entries in the
	// list poolScanLimit times (a fresh Allocator's calls change no pool,
	// or few).
	scannedList   []*sliceEntry
	scannedScans  int
	scannedByPool map[poolKey][]*sliceEntry
	// scannedLast are the entries of pool scannedLastKey, when
	// scannedLastOK (setInUse).
	scannedLastKey poolKey
	scannedLast    []*sliceEntry
	scannedLastOK  bool
	// poolCounterCache remembers the counter sets of pools by their slices.
	poolCounterCache map[poolKey]poolCounterEntry
	// Duplicate checks of pools spread over several slices.
	poolChecks map[poolKey]poolCheck

	allocated inUseSet
	// shares are the shares of multi-allocation devices allocated before
	// the call (ConsumableCapacity): their shareIDs and the capacity they
	// consume together.
	shares map[DeviceID]*deviceShares
	// sharesGen counts the devices gaining their first share or losing
	// their last (sliceEntry.sharesOf).
	sharesGen int
	// shareMemo remembers the IDs shareID derived for a name, attempt by
	// attempt: the derivation is a pure function, and claims of one
	// identity hash the same names again on every call (one SHA-1 per
	// share already on the device). It is cleared when it grows past
	// maxShareMemo names.
	shareMemo map[string]*shareNames
}

// selectorStore holds the compiled expressions and the values interned for
// them, for the Allocator's life.
type selectorStore struct {
	// selectorIDs numbers the selector expressions seen so far; the number
	// indexes selectors and the per-slice selectorResults.
	selectorIDs map[string]int
	// selectors are the selectors by number: a simple form and the
	// program, compiled when first needed (see selectors.go).
	selectors         []selectorProgram
	attributeValueIDs map[valueKey]int32 // attribute values for constraints, interned (attributes.go)
	// attributeElems are, with ListTypeAttributes, the elements of each
	// interned list value (by its id): the ids of the single values they
	// equal, sorted, each once. Single values are their own one element.
	attributeElems map[int32][]int32
	// derivedPrograms are the compiled expressions of derived attributes.
	derivedPrograms map[string]*cel.Program
	// maskKeys interns the keys of callState.masksFor, capacityKeys
	// those of capacityKey: they recur from call to call.
	maskKeys     map[string]string
	capacityKeys map[string]string
}

// callScratch is the memory of one call, reused by the next (an Allocator
// serves one call at a time): what a scheduler asking about node after
// node would otherwise allocate anew each time. startCall empties it.
type callScratch struct {
	// callNode is the node of the current call.
	callNode *corev1.Node
	// The call's masks and candidate lists by key.
	callMasks callTable[[][]uint64]
	callLists callTable[*candidateList]
	callWords maskMemory
	// callRequests is the memory of the list of a call's requests,
	// callPlans that of its claims' plans.
	callRequests []*requestPlan
	callPlans    []*claimPlan
	plans        arena[requestPlan]
	lists        arena[candidateList]
	claims       arena[claimPlan]
	pools        arena[poolState]
	// Memory of what planning a claim needs for a moment: the specs of
	// its requests (an exact request's one spec), the list of a
	// request's selectors, an exact request's one plan.
	specLists   [][]requestSpec
	exactSpecs  arena[[1]requestSpec]
	selectorBuf []selectorRef
	onePlan     []*requestPlan
	// callShareSets are the solver's records of shares taken in a call.
	callShareSets arena[callShares]
	// callShareIDs are the shareIDs made in the current call.
	callShareIDs []madeShare
	shareBuf     []byte
	// scanAttrs, scanKinds and scanValues are the memory of a
	// candidateScan's lists (candidates).
	scanAttrs  []resource.FullyQualifiedName
	scanKinds  []attrKind
	scanValues [][]int32
	// visible and viewMem are the memory of the view (buildView).
	visible []*sliceEntry
	viewMem view
	search  solver // reused by newSolver
	// lastNamed is the last claim named for messages (claimID), kept from
	// call to call: a scheduler asks about one claim on node after node,
	// most of which fail it, and each failure names the claim.
	lastNamed struct{ namespace, name, id string }
}

// claimID is claimName, made once for a claim asked about call after call.
func (s *callScratch) claimID(c *resource.ResourceClaim) string {
	n := &s.lastNamed
	if n.id == "" || c.Name != n.name || c.Namespace != n.namespace {
		n.namespace, n.name, n.id = c.Namespace, c.Name, claimName(c)
	}
	return n.id
}

// startCall empties the memory of the last call for a call on node.
func (s *callScratch) startCall(node *corev1.Node) {
	s.callNode = node
	s.callShareIDs = s.callShareIDs[:0]
	s.callMasks.reset()
	s.callLists.reset()
	s.callWords.reset()
	s.plans.reset()
	s.lists.reset()
	s.claims.reset()
	s.pools.reset()
	s.exactSpecs.reset()
	s.callShareSets.reset()
}

// Stats counts work done by an Allocator, for tests and tuning.
type Stats struct {
	// Evaluations is the number of times a CEL selector was evaluated on
	// a device. Results are kept, so each selector is evaluated at most
	// once per device until the device's slice is replaced.
	Evaluations int64
	// SearchSteps is the number of devices tried during searches.
	SearchSteps int64
	// Compiled is the number of selectors compiled with cel-go; simple
	// selectors are compiled only for a device they cannot judge.
	Compiled int64
}

// Stats returns the counters accumulated so far.
func (a *Allocator) Stats() Stats { return a.stats }

type poolKey struct{ driver, pool string }

// sliceEntry is one slice with what the allocator learnt about its devices.
//
// The fields a call reads on every node it is asked about come first, so
// that they share the entry's first cache lines (with the bit sets of a
// slice of up to 64 devices, held in the entry): a scheduler asks about
// node after node, and on a machine whose L2 cache does not hold the
// entries of all of them, each line of an entry a call reads is a miss.
type sliceEntry struct {
	// A call on a node whose selectors were judged before reads the
	// first two lines: the masks, and the devices in use.
	masks selectorMasks // devices that pass a list of selectors, never changed
	// small holds the four bit sets of a slice of up to 64 devices.
	small [4]uint64
	inUse []uint64 // devices allocated before the call
	words int      // length of the device bit sets, in uint64

	selectable []uint64 // every device (the mask selectors start from)
	devices    []resource.Device
	taints     *sliceTaints // taintsIn
	scanned    bool         // scanDevices filled in the bit sets and flags
	hasBinding bool         // a device has binding conditions (a nil list does not count)
	inputsLent bool         // input lent one since freeVariables
	usesCompat bool         // a device names compatibility groups
	// onNode: spec.nodeName is set and perDeviceNodeSelection is not
	// (createNodeSelector's node-local case, which it need not read the
	// slice for).
	onNode    bool
	results   []*selectorResults // by selector id
	consumers []uint64           // devices that consume counters
	driver    string
	multi     []uint64 // devices with allowMultipleAllocations
	pool      string

	key        string
	obj        *resource.ResourceSlice
	generation int64 // the pool's generation
	sliceCount int64 // the pool's resourceSliceCount
	nodeName   string
	allNodes   bool
	selector   *nodeMatcher

	// What scanDevices fills in, when a call first sees the slice,
	// besides the bit sets and flags above.
	byName    map[string]int32
	duplicate string // a device name the slice uses twice
	// outOfBound, when set, is a quantity of the slice beyond
	// quantityguard's bound, which no comparison may see: it makes the
	// pool invalid.
	outOfBound string

	// What the gated features look at (usesCompat, hasBinding, consumers
	// and multi once scanned).
	perDevice      bool // node selection per device (perDeviceNodeSelection, no slice-level selection)
	perDeviceSet   bool // perDeviceNodeSelection is set at all
	sharedCounters bool // the slice declares counter sets
	deviceNodes    []deviceNode
	usesFor        *poolCounters
	uses           [][]counterUse
	capNeeds       map[string]*capacityNeeds // by capacityKey

	attributeValues map[attrValuesKey][]int32 // constraint values by device, -1 when missing (attrValues)
	derivedValues   map[attrValuesKey][]int32 // the same for derived attributes, by expression; notDerived until evaluated
	inputs          []cel.Input               // selector inputs, made on demand (input)

	// sharesOf are, per device, its shares allocated before the call, as
	// of Allocator.sharesGen (sharesGen-1; sharedConsumption).
	sharesOf  []*deviceShares
	sharesGen int
}

// selectorResults holds the outcome of one selector for the devices of a slice.
type selectorResults struct {
	known, match, failed []uint64
	errs                 map[int32]error
	// small holds the three sets of a slice of up to 64 devices.
	small [3]uint64
}

// newSelectorResults makes the results of a slice with words words of
// devices in one allocation, or two beyond 64 devices: a fresh Allocator
// makes them for every slice a scheduler's first pod looks at.
func newSelectorResults(words int) *selectorResults {
	r := &selectorResults{}
	sets := r.small[:]
	if words > 1 {
		sets = make([]uint64, 3*words)
	}
	r.known, r.match, r.failed = sets[:words:words], sets[words:2*words:2*words], sets[2*words:3*words:3*words]
	return r
}

// New builds an Allocator. It fails on inputs that cannot be used: two
// classes or slices with the same name, or a slice whose node selection is
// invalid.
func New(opts Options) (*Allocator, error) {
	a := &Allocator{
		config: config{node: opts.Node, mode: opts.Mode},
		selectorStore: selectorStore{
			selectorIDs:       map[string]int{},
			attributeValueIDs: map[valueKey]int32{},
		},
	}
	// The list first: claims add to the pools it indexes. It is read, never
	// written (inUseSet).
	a.allocated.pending = opts.AllocatedDevices
	if opts.Mode != Joint && opts.Mode != Sequential {
		return nil, fmt.Errorf("unknown allocation mode %d", opts.Mode)
	}
	a.features = DefaultFeatures()
	if opts.Features != nil {
		a.features = *opts.Features
	}
	if err := a.SetDeviceTaintRules(opts.DeviceTaintRules); err != nil {
		return nil, err
	}
	if err := a.SetClasses(opts.Classes); err != nil {
		return nil, err
	}
	for _, c := range opts.AllocatedClaims {
		// What the claims consumed is added up and compared with
		// capacities: it must be within the quantity bound.
		if c != nil && c.Status.Allocation != nil {
			if err := quantityguard.FirstField(c.Status.Allocation, field.NewPath("status", "allocation")); err != nil {
				return nil, fmt.Errorf("allocated ResourceClaim %s/%s: %v", c.Namespace, c.Name, err)
			}
		}
		a.addAllocatedClaim(c)
	}
	if err := a.SetSlices(opts.Slices); err != nil {
		return nil, err
	}
	return a, nil
}

// Features returns the features the Allocator allocates with.
func (a *Allocator) Features() Features { return a.features }

// SetDeviceTaintRules replaces the DeviceTaintRules (see
// Options.DeviceTaintRules).
func (a *Allocator) SetDeviceTaintRules(rules []*resource.DeviceTaintRule) error {
	for i, r := range rules {
		if r == nil {
			return fmt.Errorf("deviceTaintRules[%d] is nil", i)
		}
	}
	a.taintRules = append([]*resource.DeviceTaintRule(nil), rules...)
	a.taintRulesGen++
	return nil
}

// SetNode changes the node that Allocate allocates for.
func (a *Allocator) SetNode(node *corev1.Node) { a.node = node }

// SetClasses replaces the classes.
func (a *Allocator) SetClasses(classes []*resource.DeviceClass) error {
	byName := make(map[string]*resource.DeviceClass, len(classes))
	for i, c := range classes {
		if c == nil {
			return fmt.Errorf("classes[%d] is nil", i)
		}
		if _, dup := byName[c.Name]; dup {
			return fmt.Errorf("two DeviceClasses are named %q", c.Name)
		}
		byName[c.Name] = c
	}
	a.classes = byName
	return nil
}

// SetSlices replaces the inventory. What the allocator learnt about a
// slice (selector results) is kept when the same slice comes back: the
// same object, or an object with the same name, UID and a non-empty,
// unchanged resourceVersion. Anything else counts as a changed slice.
//
// The list is kept, not copied, and a slice with a nodeName is looked at
// only when a call is made for its node: a fresh Allocator's first call
// pays for the slices its node sees, not for those of the whole cluster.
func (a *Allocator) SetSlices(list []*resource.ResourceSlice) error {
	// The entries made so far, to be found again by name.
	var old map[string]*sliceEntry
	for _, e := range a.entries {
		if e != nil && e.obj.Name != "" {
			if old == nil {
				old = map[string]*sliceEntry{}
			}
			old[e.obj.Name] = e
		}
	}
	entries := make([]*sliceEntry, len(list))
	var allNodes, bySelector, perDevice []*sliceEntry
	sorted := true
	prev := ""
	for i, s := range list {
		if s == nil {
			return fmt.Errorf("slices[%d] is nil", i)
		}
		if s.Name != "" {
			// Names in strictly increasing order are distinct; the map
			// below checks any other order.
			sorted = sorted && prev < s.Name
			prev = s.Name
			if e := old[s.Name]; e != nil && sameSlice(e.obj, s) {
				e.obj = s
				entries[i] = e
			}
		}
		if n := s.Spec.NodeName; n != nil && *n != "" {
			continue
		}
		e := entries[i]
		if e == nil {
			var err error
			if e, err = newSliceEntry(sliceKey(s, i), s); err != nil {
				return err
			}
			entries[i] = e
		}
		switch {
		case e.allNodes:
			allNodes = append(allNodes, e)
		case e.selector != nil:
			bySelector = append(bySelector, e)
		case e.perDevice:
			perDevice = append(perDevice, e)
		}
	}
	if !sorted {
		seen := make(map[string]struct{}, len(list))
		for _, s := range list {
			if s.Name == "" {
				continue
			}
			if _, dup := seen[s.Name]; dup {
				return fmt.Errorf("two ResourceSlices are named %q", s.Name)
			}
			seen[s.Name] = struct{}{}
		}
	}
	a.sliceList, a.entries = list, entries
	a.allNodes, a.bySelector, a.perDevice = allNodes, bySelector, perDevice
	a.poolChecks = nil
	a.byNode, a.nodeNext, a.nodeScans = nil, nil, 0
	a.nodeViews = nil
	a.byPool, a.scannedList, a.scannedScans, a.scannedByPool, a.scannedLastOK = nil, nil, 0, nil, false
	for _, e := range entries {
		if e != nil && e.scanned {
			e.markInUse(&a.allocated)
			a.addScanned(e)
		}
	}
	return nil
}

// sliceKey is what orders a slice among the slices of its pool: its name.
// Unnamed slices (from files) are never recognised again.
func sliceKey(s *resource.ResourceSlice, i int) string {
	if s.Name == "" {
		return "\x00" + strconv.Itoa(i)
	}
	return s.Name
}

// entryAt returns the entry of the slice at position i of the list,
// making it when first needed. Only slices with a nodeName are made here
// (SetSlices makes the others), and their entries cannot fail.
func (a *Allocator) entryAt(i int) *sliceEntry {
	if e := a.entries[i]; e != nil {
		return e
	}
	s := a.sliceList[i]
	e, err := newSliceEntry(sliceKey(s, i), s)
	if err != nil {
		// Unreachable (see above); a slice that fails is left out.
		return nil
	}
	a.entries[i] = e
	return e
}

// nodeScanLimit is how many nodes appendNodeSlices looks up by scanning
// the list before it indexes every slice by node: a fresh Allocator's
// first calls look at one node or a few, a long-lived one at many.
const nodeScanLimit = 8

// appendNodeSlices appends the entries of the slices with the node's name.
func (a *Allocator) appendNodeSlices(to []*sliceEntry, node string) []*sliceEntry {
	if node == "" {
		return to
	}
	if a.byNode == nil && a.nodeScans < nodeScanLimit {
		a.nodeScans++
		for i, s := range a.sliceList {
			if n := s.Spec.NodeName; n != nil && *n == node {
				if e := a.entryAt(i); e != nil {
					to = append(to, e)
				}
			}
		}
		return to
	}
	if a.byNode == nil {
		a.indexByNode()
	}
	first, ok := a.byNode[node]
	if !ok {
		return to
	}
	for i := first; i >= 0; i = a.nodeNext[i] {
		if e := a.entryAt(int(i)); e != nil {
			to = append(to, e)
		}
	}
	return to
}

// indexByNode builds byNode and nodeNext. The list is walked from its
// end so that each node's chain comes out in list order.
func (a *Allocator) indexByNode() {
	a.byNode = make(map[string]int32, len(a.sliceList))
	a.nodeNext = make([]int32, len(a.sliceList))
	for i := len(a.sliceList) - 1; i >= 0; i-- {
		a.nodeNext[i] = -1
		n := a.sliceList[i].Spec.NodeName
		if n == nil || *n == "" {
			continue
		}
		if next, ok := a.byNode[*n]; ok {
			a.nodeNext[i] = next
		}
		a.byNode[*n] = int32(i)
	}
}

// poolSlices are all slices of a pool, in name order; the index is built
// when first needed (a pool whose slices a node does not all see).
func (a *Allocator) poolSlices(key poolKey) []*sliceEntry {
	if a.byPool == nil {
		a.byPool = map[poolKey][]int32{}
		for i, s := range a.sliceList {
			k := poolKey{s.Spec.Driver, s.Spec.Pool.Name}
			a.byPool[k] = append(a.byPool[k], int32(i))
		}
		for _, list := range a.byPool {
			slices.SortFunc(list, func(x, y int32) int {
				return cmp.Compare(sliceKey(a.sliceList[x], int(x)), sliceKey(a.sliceList[y], int(y)))
			})
		}
	}
	var out []*sliceEntry
	for _, i := range a.byPool[key] {
		if e := a.entryAt(int(i)); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// addScanned records a scanned entry under its pool, for setInUse.
func (a *Allocator) addScanned(e *sliceEntry) {
	a.scannedList = append(a.scannedList, e)
	if a.scannedByPool != nil {
		k := poolKey{e.driver, e.pool}
		a.scannedByPool[k] = append(a.scannedByPool[k], e)
	}
	a.scannedLastOK = false
}

// scannedOf returns the scanned entries of a pool, the list's until
// poolScanLimit pools were looked for, then the index's.
func (a *Allocator) scannedOf(k poolKey) []*sliceEntry {
	if a.scannedLastOK && a.scannedLastKey == k {
		return a.scannedLast
	}
	var found []*sliceEntry
	switch {
	case a.scannedByPool == nil && a.scannedScans < poolScanLimit:
		a.scannedScans++
		for _, e := range a.scannedList {
			if e.pool == k.pool && e.driver == k.driver {
				found = append(found, e)
			}
		}
	default:
		if a.scannedByPool == nil {
			a.scannedByPool = make(map[poolKey][]*sliceEntry, len(a.scannedList))
			for _, e := range a.scannedList {
				k := poolKey{e.driver, e.pool}
				a.scannedByPool[k] = append(a.scannedByPool[k], e)
			}
		}
		found = a.scannedByPool[k]
	}
	a.scannedLastKey, a.scannedLast, a.scannedLastOK = k, found, true
	return found
}

func sameSlice(old, s *resource.ResourceSlice) bool {
	if old == s {
		return true
	}
	return s.ResourceVersion != "" && s.ResourceVersion == old.ResourceVersion && s.UID == old.UID && s.Name == old.Name
}

func newSliceEntry(key string, s *resource.ResourceSlice) (*sliceEntry, error) {
	spec := &s.Spec
	e := &sliceEntry{
		key:        key,
		obj:        s,
		driver:     spec.Driver,
		pool:       spec.Pool.Name,
		generation: spec.Pool.Generation,
		sliceCount: spec.Pool.ResourceSliceCount,
		devices:    spec.Devices,
	}
	if spec.NodeName != nil {
		e.nodeName = *spec.NodeName
	}
	e.allNodes = spec.AllNodes != nil && *spec.AllNodes
	// Which node selection counts when several are set (the API server
	// rejects that) follows the scheduler: nodeName, then allNodes, then
	// the selector.
	if e.nodeName == "" && !e.allNodes && spec.NodeSelector != nil {
		m, err := parseNodeSelector(spec.NodeSelector)
		if err != nil {
			return nil, fmt.Errorf("ResourceSlice %q: spec.nodeSelector.%v", s.Name, err)
		}
		e.selector = m
	}
	e.onNode = spec.NodeName != nil && (spec.PerDeviceNodeSelection == nil || !*spec.PerDeviceNodeSelection)
	e.perDeviceSet = spec.PerDeviceNodeSelection != nil
	e.perDevice = e.nodeName == "" && !e.allNodes && e.selector == nil && spec.PerDeviceNodeSelection != nil && *spec.PerDeviceNodeSelection
	e.sharedCounters = len(spec.SharedCounters) > 0
	e.words = (len(e.devices) + 63) / 64
	if e.perDevice {
		if err := e.parseDeviceNodes(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// scanned returns the entry with what the allocator learns from its
// devices (bit sets, duplicate names, the flags the gated features look
// at, the devices in use). Entries are scanned when a call first sees
// them, not in SetSlices: a call looks at the slices of one node, and a
// fresh Allocator would otherwise pay for every device of the cluster
// before its first call.
func (a *Allocator) scanned(e *sliceEntry) *sliceEntry {
	if !e.scanned {
		e.scanDevices()
		e.markInUse(&a.allocated)
		a.addScanned(e)
	}
	return e
}

// scanDevices learns what the allocator needs of the slice's devices.
func (e *sliceEntry) scanDevices() {
	e.scanned = true
	if err := sliceQuantityBeyondBound(&e.obj.Spec); err != nil {
		e.outOfBound = fmt.Sprintf("ResourceSlice %q: %v", e.obj.Name, err)
	}
	// The four bit sets share one allocation, or none for up to 64
	// devices: a cold scheduler's Allocator scans the slices of every
	// node it asks about, a warm one reads them on every call.
	n := e.words
	sets := e.small[:]
	if n > 1 {
		sets = make([]uint64, 4*n)
	}
	e.selectable, e.inUse = sets[:n:n], sets[n:2*n:2*n]
	e.consumers, e.multi = sets[2*n:3*n:3*n], sets[3*n:4*n:4*n]
	// A slice of a few devices is searched for duplicate names device by
	// device, and its index by name made when first needed (index);
	// otherwise the index is made here, where duplicates are looked for.
	small := len(e.devices) <= smallSlice
	if small {
		e.duplicate = duplicateName(e.devices)
	} else {
		e.byName = make(map[string]int32, len(e.devices))
	}
	for i := range e.devices {
		setBit(e.selectable, i)
		d := &e.devices[i]
		if len(d.ConsumesCounters) > 0 {
			setBit(e.consumers, i)
		}
		for _, cc := range d.ConsumesCounters {
			e.usesCompat = e.usesCompat || len(cc.CompatibilityGroups) > 0
		}
		if multiAllocatable(d) {
			setBit(e.multi, i)
		}
		e.hasBinding = e.hasBinding || d.BindingConditions != nil
		if small {
			continue
		}
		if _, dup := e.byName[d.Name]; !dup {
			e.byName[d.Name] = int32(i)
		} else if e.duplicate == "" {
			e.duplicate = d.Name
		}
	}
}

// smallSlice is how many devices a slice may have for scanDevices to
// look for duplicate names without a map.
const smallSlice = 16

// duplicateName is the first name (by its second use) that two of the
// devices share, or "".
func duplicateName(devices []resource.Device) string {
	for i := 1; i < len(devices); i++ {
		for j := 0; j < i; j++ {
			if devices[j].Name == devices[i].Name {
				return devices[i].Name
			}
		}
	}
	return ""
}

// markInUse recomputes which devices of the slice are allocated.
func (e *sliceEntry) markInUse(allocated *inUseSet) {
	clear(e.inUse)
	k := poolKey{e.driver, e.pool}
	if len(e.devices) <= smallSlice && allocated.runsOnly(k) {
		// Most pools a call sees are never changed: their few devices in
		// use are compared by name, with no index.
		allocated.poolRuns(k, func(ids []DeviceID) {
			for _, id := range ids {
				e.markName(id.Device)
			}
		})
		return
	}
	names := allocated.pool(k)
	if len(names) == 0 {
		return
	}
	for i := range e.devices {
		if _, ok := names[e.devices[i].Name]; ok {
			setBit(e.inUse, i)
		}
	}
}

// markName marks the devices of a small slice with the name as in use.
// Names of one slice tend to share their length and differ at the end:
// the last byte, compared inline, turns most of them away.
func (e *sliceEntry) markName(name string) {
	if name == "" {
		return
	}
	last := name[len(name)-1]
	for i := range e.devices {
		n := e.devices[i].Name
		if len(n) == len(name) && n[len(n)-1] == last && n == name {
			setBit(e.inUse, i)
		}
	}
}

func (e *sliceEntry) index(name string) (int32, bool) {
	if e.byName == nil && len(e.devices) <= smallSlice {
		// A few names are compared sooner than they are hashed.
		for i := range e.devices {
			if e.devices[i].Name == name {
				return int32(i), true
			}
		}
		return 0, false
	}
	if e.byName == nil {
		e.byName = make(map[string]int32, len(e.devices))
		for i := range e.devices {
			if _, dup := e.byName[e.devices[i].Name]; !dup {
				e.byName[e.devices[i].Name] = int32(i)
			}
		}
	}
	i, ok := e.byName[name]
	return i, ok
}

func (a *Allocator) addAllocatedClaim(c *resource.ResourceClaim) {
	if c == nil || c.Status.Allocation == nil {
		return
	}
	results := c.Status.Allocation.AllocatedDevices()
	for i := range results {
		a.hold(&results[i])
	}
}

// MarkAllocated records whole devices as in use. Commit records accepted
// results, shares included.
func (a *Allocator) MarkAllocated(ids ...DeviceID) {
	for _, id := range ids {
		a.allocated.add(id)
		a.setInUse(id, true)
	}
}

// MarkFree records whole devices as free again (their claim was
// deallocated); Uncommit undoes Commit, shares included.
func (a *Allocator) MarkFree(ids ...DeviceID) {
	for _, id := range ids {
		a.allocated.remove(id)
		a.setInUse(id, false)
	}
}

func (a *Allocator) setInUse(id DeviceID, on bool) {
	// Entries not scanned yet read the record when a call first sees them.
	// The devices of a result are mostly of one pool: the entries of the
	// last pool are kept (scannedLast).
	for _, e := range a.scannedOf(poolKey{id.Driver, id.Pool}) {
		if i, ok := e.index(id.Device); ok {
			if on {
				setBit(e.inUse, int(i))
			} else {
				clearBit(e.inUse, int(i))
			}
		}
	}
}

// IsAllocated reports whether a device is recorded as in use.
func (a *Allocator) IsAllocated(id DeviceID) bool {
	return a.allocated.has(id)
}

func setBit(b []uint64, i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func clearBit(b []uint64, i int)    { b[i>>6] &^= 1 << (uint(i) & 63) }
func hasBit(b []uint64, i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func popcount(b []uint64) int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}
