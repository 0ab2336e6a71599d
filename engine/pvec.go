package engine

// pvec is a persistent vector of small values indexed by a non-negative
// integer, for state that grows with history (one entry per transaction,
// per input record) but must not make a snapshot grow with it. It is a
// 32-way trie with path copying, the structure behind Clojure's vectors:
// set returns a new version that shares every untouched node with the old
// one, so copying a pvec (what World.Clone does) copies two words, and a
// version that a snapshot holds never changes. An index never set reads as
// the zero value.
type pvec[T comparable] struct {
	root  *pnode[T]
	shift uint // bits of the index below the root's level (0: the root is a leaf)
}

// pnode is an interior node (kids) or a leaf (vals), never both.
type pnode[T comparable] struct {
	kids *[pvecWidth]*pnode[T]
	vals *[pvecWidth]T
}

const (
	pvecBits  = 5
	pvecWidth = 1 << pvecBits
	pvecMask  = pvecWidth - 1
)

// get returns the value at i (the zero value if never set).
func (v pvec[T]) get(i int64) T {
	var zero T
	if i < 0 || v.root == nil || uint64(i)>>(v.shift+pvecBits) != 0 {
		return zero
	}
	n := v.root
	for s := v.shift; s > 0; s -= pvecBits {
		n = n.kids[(uint64(i)>>s)&pvecMask]
		if n == nil {
			return zero
		}
	}
	return n.vals[uint64(i)&pvecMask]
}

// set returns a version with x at i; v itself is unchanged.
func (v pvec[T]) set(i int64, x T) pvec[T] {
	if i < 0 {
		panic("pvec: negative index")
	}
	if v.get(i) == x {
		return v
	}
	if v.root == nil {
		v.root = &pnode[T]{vals: new([pvecWidth]T)}
	}
	for uint64(i)>>(v.shift+pvecBits) != 0 {
		grown := &pnode[T]{kids: new([pvecWidth]*pnode[T])}
		grown.kids[0] = v.root
		v.root = grown
		v.shift += pvecBits
	}
	v.root = v.root.with(uint64(i), v.shift, x)
	return v
}

// with copies the path from n down to index i's leaf and sets it there.
func (n *pnode[T]) with(i uint64, shift uint, x T) *pnode[T] {
	if shift == 0 {
		vals := *n.vals
		vals[i&pvecMask] = x
		return &pnode[T]{vals: &vals}
	}
	kids := *n.kids
	k := (i >> shift) & pvecMask
	child := kids[k]
	if child == nil {
		if shift == pvecBits {
			child = &pnode[T]{vals: new([pvecWidth]T)}
		} else {
			child = &pnode[T]{kids: new([pvecWidth]*pnode[T])}
		}
	}
	kids[k] = child.with(i, shift-pvecBits, x)
	return &pnode[T]{kids: &kids}
}
