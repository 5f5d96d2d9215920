package allocator

import "testing"

// Masks handed out in one call are zeroed, never overlap (writing one,
// even appending to it, leaves the others alone), and their memory serves
// the next call once reset.
func TestMaskMemory(t *testing.T) {
	var m maskMemory
	var got [][]uint64
	for i := range 40 {
		w := m.words(i%5 + 1)
		for k := range w {
			if w[k] != 0 {
				t.Fatalf("mask %d word %d is %x, want 0", i, k, w[k])
			}
			w[k] = uint64(i + 1)
		}
		_ = append(w, 99)
		got = append(got, w)
	}
	for i, w := range got {
		for k := range w {
			if w[k] != uint64(i+1) {
				t.Errorf("mask %d word %d is %d, want %d: masks overlap", i, k, w[k], i+1)
			}
		}
	}
	rows := m.rows(3)
	rows[0] = got[0]
	if other := m.rows(2); other[0] != nil || len(rows) != 3 || len(other) != 2 {
		t.Errorf("rows(2) after rows(3) = %v (rows(3) = %d long), want 2 nil masks", other, len(rows))
	}
	m.reset()
	if w := m.words(5); w[0] != 0 || w[4] != 0 {
		t.Errorf("after reset words(5) = %v, want zeros", w)
	}
	if r := m.rows(3); r[0] != nil {
		t.Errorf("after reset rows(3)[0] = %v, want nil", r[0])
	}
	if cap(m.buf) > 256 {
		t.Errorf("40 masks of at most 5 words took a buffer of %d words", cap(m.buf))
	}
}
