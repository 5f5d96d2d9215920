package cel

import "sync"

// Cache remembers compiled selectors by expression, including the ones that
// failed to compile, so that each distinct expression is compiled once. It
// is safe for concurrent use; the zero value is ready.
type Cache struct {
	mu      sync.RWMutex
	device  map[string]cachedDevice
	named   map[string]cachedNamed
	envType EnvType
}

type cachedDevice struct {
	prog *DeviceProgram
	err  error
}

type cachedNamed struct {
	prog *NamedResourcesProgram
	err  error
}

// NewCache returns a cache that compiles in the given environment. The zero
// Cache compiles new expressions; an allocator, which evaluates expressions
// the API server has already stored, wants StoredExpressions.
func NewCache(envType EnvType) *Cache {
	return &Cache{envType: envType}
}

// DeviceSelector is CompileDeviceSelectorIn, cached.
func (c *Cache) DeviceSelector(expression string) (*DeviceProgram, error) {
	c.mu.RLock()
	e, ok := c.device[expression]
	c.mu.RUnlock()
	if ok {
		return e.prog, e.err
	}
	prog, err := CompileDeviceSelectorIn(expression, c.envType)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.device == nil {
		c.device = map[string]cachedDevice{}
	}
	c.device[expression] = cachedDevice{prog, err}
	return prog, err
}

// NamedResourcesSelector is CompileNamedResourcesSelectorIn, cached.
func (c *Cache) NamedResourcesSelector(expression string) (*NamedResourcesProgram, error) {
	c.mu.RLock()
	e, ok := c.named[expression]
	c.mu.RUnlock()
	if ok {
		return e.prog, e.err
	}
	prog, err := CompileNamedResourcesSelectorIn(expression, c.envType)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.named == nil {
		c.named = map[string]cachedNamed{}
	}
	c.named[expression] = cachedNamed{prog, err}
	return prog, err
}

// Len is the number of expressions held.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.device) + len(c.named)
}
