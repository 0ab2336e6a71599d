package engine

import (
	"encoding/binary"
	"strings"
)

// Records are the records of one data batch. A send's records are made
// once and shared, read-only, by the producer's batch, the produce request,
// the partition log and the acknowledgement, so a record costs its value's
// bytes and one more (two past 255 bytes of values, four past 64 KB) wherever it
// travels (issue 7 measured about 160 bytes a produced record when each
// record was a struct of its own, copied into the acknowledgement):
//
//   - the values lie back to back in one string, with the end of each;
//   - a record's UID is the first record's plus its index: a send numbers
//     its records in a row;
//   - only a processor's outputs carry sources, so the others carry none.
//
// The zero value holds no records (a control batch).
type Records struct{ d *recordData }

type recordData struct {
	// data is, in one string, how many records there are (a uvarint),
	// how wide each end is (1, 2 or 4 bytes), the end of each value
	// (little-endian: value i is vals[end(i-1):end(i)]) and the values
	// back to back: one allocation, where a slice of the ends and a
	// string of the values were two.
	data string
	uid  int64 // the first record's UID; 0 when the records have none
	// srcs is the input of each record (processor outputs), or nil: a
	// pointer, so that the records of the other sends, most of them,
	// fit 32 bytes rather than 48.
	srcs *[]Source
}

// Record is one record of a batch, as Records.At reads it. UID is the
// simulation's identity of the application's send (not a Kafka field): the
// same UID appended twice is a duplicate in the exactly-once sense even
// when the producer has no id.
type Record struct {
	Value  string
	UID    int64
	Source *Source // nil unless a processor made the record
}

// NewRecords makes records with these values, without UIDs or sources.
func NewRecords(values ...string) Records {
	n := 0
	for _, v := range values {
		n += len(v)
	}
	w := 1
	switch {
	case n > 0xffff:
		w = 4
	case n > 0xff:
		w = 2
	}
	var b strings.Builder
	var head [binary.MaxVarintLen64 + 1]byte
	h := binary.AppendUvarint(head[:0], uint64(len(values)))
	h = append(h, byte(w))
	b.Grow(len(h) + w*len(values) + n)
	b.Write(h)
	end := 0
	for _, v := range values {
		end += len(v)
		for k := 0; k < w; k++ {
			b.WriteByte(byte(end >> (8 * k)))
		}
	}
	for _, v := range values {
		b.WriteString(v)
	}
	return Records{&recordData{data: b.String()}}
}

// layout is how many records d holds, where their ends start and how
// wide each is.
func (d *recordData) layout() (n, at, w int) {
	c := d.data[0]
	if c < 0x80 { // fewer than 128 records: one byte
		return int(c), 2, int(d.data[1])
	}
	u, k := 0, 0
	for shift := 0; ; shift += 7 {
		c := d.data[k]
		k++
		u |= int(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	return u, k + 1, int(d.data[k])
}

// end is where value i ends, counted from the first value.
func (d *recordData) end(at, w, i int) int {
	p := at + w*i
	switch w {
	case 1:
		return int(d.data[p])
	case 2:
		return int(d.data[p]) | int(d.data[p+1])<<8
	}
	return int(d.data[p]) | int(d.data[p+1])<<8 | int(d.data[p+2])<<16 | int(d.data[p+3])<<24
}

// withSources is the records with the input each was made from; srcs has
// one entry a record.
func (r Records) withSources(srcs []Source) Records {
	d := *r.d
	d.srcs = nil
	if srcs != nil {
		d.srcs = &srcs
	}
	return Records{&d}
}

// numbered is the records with UIDs first, first+1, ...
func (r Records) numbered(first int64) Records {
	d := *r.d
	d.uid = first
	return Records{&d}
}

// Len is the number of records.
func (r Records) Len() int {
	if r.d == nil {
		return 0
	}
	n, _, _ := r.d.layout()
	return n
}

// Value is record i's value.
func (r Records) Value(i int) string {
	n, at, w := r.d.layout()
	vals := at + w*n
	start := 0
	if i > 0 {
		start = r.d.end(at, w, i-1)
	}
	return r.d.data[vals+start : vals+r.d.end(at, w, i)]
}

// UID is record i's UID, 0 when the records have none.
func (r Records) UID(i int) int64 {
	if r.d.uid == 0 {
		return 0
	}
	return r.d.uid + int64(i)
}

// FirstUID is the first record's UID, 0 when the records have none; the
// others follow it in a row.
func (r Records) FirstUID() int64 {
	if r.d == nil {
		return 0
	}
	return r.d.uid
}

// Source is the input record i was made from, nil unless a processor made
// it. It is shared: read it, never change it.
func (r Records) Source(i int) *Source {
	if r.d.srcs == nil {
		return nil
	}
	return &(*r.d.srcs)[i]
}

// HasSources reports whether the records are a processor's outputs.
func (r Records) HasSources() bool { return r.d != nil && r.d.srcs != nil }

// At is record i.
func (r Records) At(i int) Record {
	return Record{Value: r.Value(i), UID: r.UID(i), Source: r.Source(i)}
}

// Values lists the values.
func (r Records) Values() []string {
	n := r.Len()
	out := make([]string, n)
	if n == 0 {
		return out
	}
	_, at, w := r.d.layout()
	vals, start := at+w*n, 0
	for i := range out {
		end := r.d.end(at, w, i)
		out[i] = r.d.data[vals+start : vals+end]
		start = end
	}
	return out
}
