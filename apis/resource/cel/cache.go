package cel

import "sync"

// Cache remembers compiled expressions by source, including the ones that
// failed to compile, so that each distinct expression is compiled once
// with the cache's options. It is safe for concurrent use.
type Cache struct {
	opts Options

	mu       sync.RWMutex
	compiled map[string]cached
}

type cached struct {
	prog *Program
	err  error
}

// NewCache returns a cache that compiles with opts; an allocator, which
// evaluates expressions the API server has already stored, wants
// opts.Stored.
func NewCache(opts Options) *Cache {
	return &Cache{opts: opts, compiled: map[string]cached{}}
}

// Compile is Compile with the cache's options, cached.
func (c *Cache) Compile(expression string) (*Program, error) {
	c.mu.RLock()
	e, ok := c.compiled[expression]
	c.mu.RUnlock()
	if ok {
		return e.prog, e.err
	}
	prog, err := Compile(expression, c.opts)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.compiled[expression] = cached{prog, err}
	return prog, err
}

// Len is the number of expressions held.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.compiled)
}
