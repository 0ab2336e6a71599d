package engine

import "strings"

// Records are the records of one data batch. A send's records are made
// once and shared, read-only, by the producer's batch, the produce request,
// the partition log and the acknowledgement, so a record costs its value's
// bytes and four more wherever it travels (issue 7 measured about 160 bytes
// a produced record when each record was a struct of its own, copied into
// the acknowledgement):
//
//   - the values lie back to back in one string, with the end of each;
//   - a record's UID is the first record's plus its index: a send numbers
//     its records in a row;
//   - only a processor's outputs carry sources, so the others carry none.
//
// The zero value holds no records (a control batch).
type Records struct{ d *recordData }

type recordData struct {
	vals string  // the values, back to back
	ends []int32 // value i is vals[ends[i-1]:ends[i]]
	uid  int64   // the first record's UID; 0 when the records have none
	// srcs is the input of each record (processor outputs), or nil: a
	// pointer, so that the records of the other sends, most of them,
	// fit 64 bytes rather than 80.
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
	d := &recordData{ends: make([]int32, len(values))}
	n := 0
	for i, v := range values {
		n += len(v)
		d.ends[i] = int32(n)
	}
	d.vals = strings.Join(values, "")
	return Records{d}
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
	return len(r.d.ends)
}

// Value is record i's value.
func (r Records) Value(i int) string {
	start := int32(0)
	if i > 0 {
		start = r.d.ends[i-1]
	}
	return r.d.vals[start:r.d.ends[i]]
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
	out := make([]string, r.Len())
	for i := range out {
		out[i] = r.Value(i)
	}
	return out
}
